/**
 * The user's whole journey, from the packed packages (`make pack`) in a fresh project, as
 * docs/version-bumps.md tells it: every command of the page's `sh` blocks is run here, in its
 * order (read from the page, so the page cannot drift from what the tools do). Scaffold; add a
 * tool with $defs/$ref and an optional bounded array, and a template with {?tag}; type-check;
 * pin and generate a new revision from an edited schema (a new required result field, a new
 * request method); name it in the manifest; tsc fails in the stubs at their return, naming the
 * field; fix them; serve the new method with `handle`; call the tool and the method with McpClient
 * at the new revision and with the SDK v1 client at 2025-11-25; diff reports the field as breaking
 * and the method as added; check passes, then catches a hand edit and says why. One installed
 * project serves every step.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { expect } from "chai";
import { npm, packedPackages } from "../support/packed.js";
import { describeRun, removeDir, ROOT, runChild, tempDir, type CliRun } from "../support/project.js";
import { startRegistry, type LocalRegistry } from "../support/registry.js";
import { SYNTHETIC, syntheticSchema } from "../support/synthetic-revision.js";

const PAGE = readFileSync(join(ROOT, "docs", "version-bumps.md"), "utf8");

/** The page's fenced blocks of one language, in order. */
function blocks(language: string): string[] {
  return [...PAGE.matchAll(new RegExp("```" + language + "\\n([\\s\\S]*?)```", "g"))].map((m) => m[1]!);
}

/** Every command of the page's sh blocks, in order. */
const COMMANDS = blocks("sh").flatMap((block) => block.split("\n").map((line) => line.trim()).filter((line) => line && !line.startsWith("#")));

/** The file a ts block of the page shows, by its first line (`// src/main.ts`). */
function pageFile(path: string): string {
  const block = blocks("ts").find((b) => b.startsWith(`// ${path}\n`));
  if (!block) throw new Error(`docs/version-bumps.md shows no ${path}`);
  return block.slice(block.indexOf("\n") + 1);
}

/** What the user adds to mcp.server.json: the page's tool (its json block), and a template with {?tag}. */
function extendManifest(manifest: Record<string, unknown[]>): Record<string, unknown> {
  const tool = JSON.parse(blocks("json")[0]!) as Record<string, unknown>;
  return { ...manifest, tools: [...manifest.tools!, tool], resourceTemplates: [...manifest.resourceTemplates!, { name: "notes", uriTemplate: "weather://notes{?tag}" }] };
}

describe("the user's journey, from the packed packages: scaffold, extend, bump the protocol, check (docs/version-bumps.md)", function () {
  this.timeout(900_000);
  let registry: LocalRegistry;
  let dir: string;
  /** Where the page's commands run: `cd` moves it. */
  let cwd: string;
  let next = 0;

  /** Runs the page's next command, which must start with `expected`. */
  async function page(expected: string): Promise<CliRun> {
    const command = COMMANDS[next++];
    expect(command, `docs/version-bumps.md's command #${next}`).to.match(new RegExp(`^${expected.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
    const [program, ...args] = command!.split(/\s+/);
    if (program === "cd") {
      cwd = join(cwd, args[0]!);
      return { status: 0, stdout: "", stderr: "" };
    }
    if (program === "npm") return npm(args, cwd, registry.url);
    return runChild(program!, args, { cwd, env: { ...process.env, npm_config_registry: registry.url, npm_config_update_notifier: "false" }, timeoutMs: 300_000 });
  }
  const manifestPath = () => join(cwd, "mcp.server.json");

  before(async function () {
    this.timeout(900_000);
    const packed = packedPackages();
    registry = await startRegistry([packed.runtime, packed.cli]);
    dir = tempDir("journey");
    // Where the user types the first command: npx finds mcp-codegen here (or, for a user, downloads it).
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "journey-workspace", private: true }));
    const install = await npm(["install", "--save-dev", "--prefer-offline", `mcp-codegen@${packed.version}`], dir, registry.url);
    expect(install.status, describeRun(install)).to.equal(0);
    cwd = dir;
  });
  after(async () => {
    await registry?.close();
    removeDir(dir);
  });

  it("1. scaffolds and installs a project", async () => {
    const scaffold = await page("npx mcp-codegen scaffold weather");
    expect(scaffold.status, describeRun(scaffold)).to.equal(0);
    await page("cd weather");
    const install = await page("npm install");
    expect(install.status, describeRun(install)).to.equal(0);
    // The project's own README tells the same bump and CI commands as the page (which this test runs).
    const readme = readFileSync(join(cwd, "README.md"), "utf8");
    const told = [...readme.matchAll(/^(npx mcp-codegen (?:spec add|diff|generate|check)\b[^#\n]*?)\s*(?:#.*)?$/gm)].map((m) => m[1]!);
    expect(told).to.have.length(4);
    for (const command of told) expect(COMMANDS, command).to.include(command);
  });

  it("2. a tool with $defs/$ref and an optional bounded array, a template with {?tag}: scaffolded without an example, and it type-checks", async () => {
    writeFileSync(manifestPath(), JSON.stringify(extendManifest(JSON.parse(readFileSync(manifestPath(), "utf8")) as Record<string, unknown[]>), null, 2));
    const scaffold = await page("npx mcp-codegen scaffold .");
    expect(scaffold.status, describeRun(scaffold)).to.equal(0);
    expect(scaffold.stdout).to.contain("src/tools/tag-notes.ts  (new stub)").and.contain("src/templates/notes.ts  (new stub)");
    // Code a user writes against the new types: a string[] for the bounded array, no tag for {?tag}.
    writeFileSync(
      join(cwd, "src", "uses.ts"),
      `import type { NotesVariables, TagNotesArgs } from "./generated/types.js";\n` +
        `const tags: string[] = ["work"];\nexport const args: TagNotesArgs = { note: "n", tags };\nexport const variables: NotesVariables = {};\n`,
    );
    const check = await page("npx tsc -p tsconfig.json --noEmit");
    expect(check.status, describeRun(check)).to.equal(0);
  });

  it("3. bumps the protocol: spec add into the project, diff names the field as breaking and the method as added, generate --out", async () => {
    mkdirSync(join(cwd, "next"));
    writeFileSync(join(cwd, "next", "schema.json"), syntheticSchema());
    const add = await page(`npx mcp-codegen spec add ${SYNTHETIC} --from next/schema.json`);
    expect(add.status, describeRun(add)).to.equal(0);
    expect(readFileSync(join(cwd, "mcp", "spec", SYNTHETIC, "schema.json"), "utf8")).to.equal(syntheticSchema());

    const diff = await page(`npx mcp-codegen diff 2026-07-28 ${SYNTHETIC}`);
    expect(diff.status, describeRun(diff)).to.equal(0);
    expect(diff.stdout).to.match(/\| `tools\/validate` \| client → server \| request added \| \*\*breaking\*\* \| additive \|/);
    expect(diff.stdout).to.match(/### CallToolResult[\s\S]*?\| `summary` added \(string, required\) \| \*\*breaking\*\* \| additive \|/);

    const generate = await page(`npx mcp-codegen generate --out src/mcp --revision ${SYNTHETIC}`);
    expect(generate.status, describeRun(generate)).to.equal(0);
    expect(generate.stdout).to.contain(`import { mcp_2026_12_01 } from "./src/mcp/index.js"`);
  });

  it("4. named in the manifest, the new revision is wired, and tsc fails in each tool stub at its return, naming the field", async () => {
    const manifest = JSON.parse(readFileSync(manifestPath(), "utf8")) as { revisions: string[] };
    writeFileSync(manifestPath(), JSON.stringify({ ...manifest, revisions: [...manifest.revisions, SYNTHETIC] }, null, 2));
    const scaffold = await page("npx mcp-codegen scaffold .");
    expect(scaffold.status, describeRun(scaffold)).to.equal(0);
    const failed = await page("npx tsc -p tsconfig.json --noEmit");
    expect(failed.status, describeRun(failed)).to.not.equal(0);
    // Not a terminal: tsc prints its plain format, one line per error and its indented elaboration.
    const run = failed;
    const errors = run.stdout.split("\n").filter((line) => /error TS\d+/.test(line));
    const returnLine = (stub: string) => readFileSync(join(cwd, stub), "utf8").split("\n").findIndex((line) => line.trim() === "return {") + 1;
    expect(errors.map((line) => line.slice(0, line.indexOf(":"))), run.stdout).to.deep.equal([
      `src/tools/echo.ts(${returnLine("src/tools/echo.ts")},3)`,
      `src/tools/tag-notes.ts(${returnLine("src/tools/tag-notes.ts")},3)`,
    ]);
    for (const line of errors) expect(line).to.contain("error TS2322: Type '{ content: { type: \"text\"; text: string; }[]; }' is not assignable to type 'ServedToolResult'.");
    expect(run.stdout.match(/Property 'summary' is missing in type .* but required in type '.*summary: string; \}'/g)).to.have.length(2);
    // The page quotes that error as the user sees it: its first line, whole.
    expect(run.stdout.split("\n")).to.include(blocks("text")[0]!.split("\n")[0]!);
  });

  it("5. fixed stubs and the new method served with handle: it compiles, and the generated test passes at every served revision", async () => {
    for (const stub of ["src/tools/echo.ts", "src/tools/tag-notes.ts"]) {
      const path = join(cwd, stub);
      writeFileSync(path, readFileSync(path, "utf8").replace(/\n {2}\};\n\}\n$/, `\n    summary: "done",\n  };\n}\n`));
    }
    writeFileSync(join(cwd, "src", "main.ts"), pageFile("src/main.ts"));
    const check = await page("npx tsc -p tsconfig.json --noEmit");
    expect(check.status, describeRun(check)).to.equal(0);
    const test = await page("npm test");
    expect(test.status, describeRun(test)).to.equal(0);
    for (const revision of ["2025-11-25", "2026-07-28", SYNTHETIC]) expect(test.stdout).to.contain(`every stub through the runtime, MCP ${revision}`);
    expect(test.stdout).to.match(/^# fail 0$/m);
  });

  it("6. McpClient at the new revision calls the tool, the template and the new method; the SDK v1 client at 2025-11-25 calls the tool", async () => {
    writeFileSync(
      join(cwd, "client.mjs"),
      `import { McpClient, spawnStdio } from "@mcp-codegen/runtime";
import { mcp_2026_12_01 } from "./dist/src/mcp/index.js";
const client = await McpClient.connect(await spawnStdio(process.execPath, ["dist/src/main.js"]), { name: "journey", version: "1.0.0", revision: mcp_2026_12_01 });
const called = await client.callTool("tag_notes", { note: "n", tags: ["work", "home"] });
const validated = await client.request("tools/validate", { name: "tag_notes", arguments: {} });
const note = await client.readResource("weather://notes?tag=work");
console.log(JSON.stringify({ revision: client.revision, called, validated, note }));
await client.close();
`,
    );
    const run = await runChild(process.execPath, ["client.mjs"], { cwd, timeoutMs: 60_000 });
    expect(run.status, describeRun(run)).to.equal(0);
    const out = JSON.parse(run.stdout) as { revision: string; called: object; validated: object; note: { contents: { uri: string }[] } };
    expect(out.revision).to.equal(SYNTHETIC);
    expect(out.called).to.include({ summary: "done", resultType: "complete" });
    expect(out.validated).to.include({ valid: true, resultType: "complete" });
    expect(out.note.contents[0]!.uri).to.equal("weather://notes?tag=work");

    const sdk = new Client({ name: "journey-sdk", version: "1.0.0" });
    await sdk.connect(new StdioClientTransport({ command: process.execPath, args: ["dist/src/main.js"], cwd, stderr: "ignore" }));
    try {
      expect(sdk.getServerVersion()?.name).to.equal("weather");
      const called = (await sdk.callTool({ name: "tag_notes", arguments: { note: "n", tags: ["work"] } })) as { isError?: boolean; content: unknown[]; summary?: string };
      expect(called.isError).to.not.equal(true);
      expect(called.content).to.have.length(1);
    } finally {
      await sdk.close();
    }
  });

  it("7. check passes in CI, then catches a hand edit, saying why and how to fix it", async () => {
    const command = COMMANDS[next]!;
    const passed = await page("npx mcp-codegen check");
    expect(passed.status, describeRun(passed)).to.equal(0);
    expect(passed.stdout).to.contain(`src/mcp is up to date (${SYNTHETIC})`);
    const file = join(cwd, "src", "mcp", SYNTHETIC, "protocol.ts");
    writeFileSync(file, `${readFileSync(file, "utf8")}// a quick fix\n`);
    const [program, ...args] = command.split(/\s+/);
    const caught = await runChild(program!, args, { cwd, timeoutMs: 120_000 });
    expect(caught.status, describeRun(caught)).to.equal(1);
    expect(caught.stderr).to.contain(`src/mcp/${SYNTHETIC}/protocol.ts: edited by hand`);
    expect(caught.stderr).to.contain("Run `mcp-codegen generate --out src/mcp` to bring it up to date");
    expect(next, "every command of docs/version-bumps.md ran").to.equal(COMMANDS.length);
  });
});
