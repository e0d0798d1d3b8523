// `mcp-codegen generate --out` and `check --out`, and what a user's server does with the modules:
// a synthetic next revision (test/support/synthetic-revision.ts) generated into a project folder
// beside a pinned one; the compiler flags the handler its new required field reaches, naming the
// field; `server.handle` implements its new method; McpClient and the SDK client get correct
// answers at the old and the new revision.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { expect } from "chai";
import { createServer, type ExtensionModule, type RevisionModule } from "../../runtime/index.js";
import { connectSdk, quiet } from "../support/features-server.js";
import { connectClient } from "../support/mcp.js";
import { CLI_ARGV, ROOT } from "../support/project.js";
import { SYNTHETIC, syntheticSchema } from "../support/synthetic-revision.js";
import { TSC, writeProjectTsconfig } from "../support/tsc.js";

/**
 * A project folder in test/fixtures/out/, where what generate --out writes resolves its run-time
 * import of `@mcp-codegen/runtime/support` as an installed package would: from
 * node_modules/@mcp-codegen/runtime, here a folder whose `./support` links to this checkout's
 * runtime/support/, so the modules are the very ones the checkout's runtime loads.
 */
function projectFolder(label: string): string {
  const fixtures = join(ROOT, "test", "fixtures", "out");
  const runtime = join(fixtures, "node_modules", "@mcp-codegen", "runtime");
  if (!existsSync(join(runtime, "package.json"))) {
    mkdirSync(runtime, { recursive: true });
    symlinkSync(join(ROOT, "runtime", "support"), join(runtime, "support"), "dir");
    writeFileSync(join(runtime, "package.json"), JSON.stringify({ name: "@mcp-codegen/runtime", type: "module", exports: { "./support": "./support/index.ts" } }));
  }
  return mkdtempSync(join(fixtures, `${label}-`));
}

const cli = (...args: string[]) => spawnSync(process.execPath, [...CLI_ARGV, ...args], { encoding: "utf8", cwd: ROOT });

/** A user's server, written before the bump: its tool result lacks the field 2026-12-01 requires. */
const BEFORE = `import { createServer } from "@mcp-codegen/runtime";
import { mcp_2026_12_01 } from "./mcp/index.js";

export const server = createServer({ name: "bump", version: "1.0.0", revisions: ["2025-11-25", mcp_2026_12_01] });
server.tool({ name: "echo", inputSchema: { type: "object" } }, () => ({ content: [{ type: "text", text: "hi" }] }));
server.handle("tools/validate", () => ({}));
`;

/** The same server after the fix the compiler asked for. */
const AFTER = `import { createServer } from "@mcp-codegen/runtime";
import { mcp_2026_12_01 } from "./mcp/index.js";

export const server = createServer({ name: "bump", version: "1.0.0", revisions: ["2025-11-25", mcp_2026_12_01] });
server.tool({ name: "echo", inputSchema: { type: "object" } }, () => ({ content: [{ type: "text", text: "hi" }], summary: "said hi" }));
server.handle("tools/validate", (params) => ({ valid: params.name === "echo" }));
`;

describe("codegen/out: generate --out into a user's project, and a version bump that reaches the handlers", function () {
  this.timeout(240_000);
  let project: string;
  let out: string;

  before(() => {
    // Inside the checkout (test/fixtures/out is outside the project's tsconfig), so that the
    // project's tsconfig can map the runtime package's name onto this checkout's runtime/.
    project = projectFolder("bump");
    out = join(project, "src", "mcp");
    writeFileSync(join(project, "schema.json"), syntheticSchema());
    const run = cli("generate", "--out", out, "--schema", join(project, "schema.json"), "--name", SYNTHETIC, "--revision", "2025-11-25");
    expect(run.status, run.stderr).to.equal(0);
    expect(run.stdout).to.contain(`${SYNTHETIC}  stateless`).and.contain("2025-11-25  session");
  });
  after(() => rmSync(project, { recursive: true, force: true }));

  it("check --out passes on what generate wrote, and names a file that no longer matches", () => {
    expect(cli("check", "--out", out).status).to.equal(0);
    const file = join(out, SYNTHETIC, "protocol.ts");
    const text = readFileSync(file, "utf8");
    writeFileSync(file, `${text}// edited\n`);
    const stale = cli("check", "--out", out);
    expect(stale.status).to.equal(1);
    expect(stale.stderr).to.contain(join(out, SYNTHETIC, "protocol.ts"));
    writeFileSync(file, text);
    expect(cli("check", "--out", out).status).to.equal(0);
  });

  it("refuses --schema without --name, and a revision name that is no folder name", () => {
    expect(cli("generate", "--out", out, "--schema", join(project, "schema.json")).stderr).to.contain("--schema and --name go together");
    expect(cli("generate", "--out", out, "--schema", join(project, "schema.json"), "--name", "../x").stderr).to.contain("not a usable revision name");
  });

  it("tsc fails in the handlers the bump reaches, naming the required fields, and passes once they are given", () => {
    writeProjectTsconfig(project);
    // The server before the fix and after it, in one program: one compile of the runtime for both.
    writeFileSync(join(project, "src", "server.ts"), BEFORE);
    writeFileSync(join(project, "src", "fixed.ts"), AFTER);
    try {
      const run = spawnSync(process.execPath, [TSC, "-p", project, "--pretty", "false"], { encoding: "utf8", cwd: project });
      expect(run.status).to.not.equal(0);
      // One block per error: its first line, then the indented elaboration that names the field.
      const blocks = run.stdout.split(/\n(?=\S)/).filter((block) => block.trim());
      const at = (line: number) => blocks.filter((block) => block.startsWith(`src/server.ts(${line},`)).join("\n");
      expect(at(5), run.stdout).to.match(/Property 'summary' is missing/);
      expect(at(6), run.stdout).to.match(/error TS2322: Type '\{\}' is not assignable to type .*valid: boolean/);
      // Every error is the unfixed server's: the fixed one and the generated modules themselves compile.
      expect(blocks.filter((block) => !block.startsWith("src/server.ts")), "errors outside the unfixed server").to.deep.equal([]);
      expect(run.stderr).to.equal("");
    } finally {
      rmSync(join(project, "src", "fixed.ts"));
    }
  });

  it("serves the new method and the new shape at 2026-12-01, and the old revision as before, to McpClient and the SDK client", async () => {
    const { mcp_2026_12_01: next } = (await import(pathToFileURL(join(out, "index.ts")).href)) as { mcp_2026_12_01: RevisionModule };
    expect(next.revision).to.equal(SYNTHETIC);
    expect(next.era).to.equal("stateless");
    const server = createServer({ name: "bump", version: "1.0.0", revisions: ["2025-11-25", next], logger: quiet });
    server.tool({ name: "echo", inputSchema: { type: "object" } }, () => ({ content: [{ type: "text", text: "hi" }], summary: "said hi" }));
    // The module's type is not known here (imported at run time): the compile-time side is the test above.
    server.handle("tools/validate" as "tools/call", ((params: { name: string }) => ({ valid: params.name === "echo" })) as never);
    try {
      const modern = await connectClient(server, SYNTHETIC);
      const called = await modern.callTool("echo", {});
      expect(called).to.include({ summary: "said hi", resultType: "complete" });
      expect(await modern.request("tools/validate", { name: "echo", arguments: {} })).to.include({ valid: true, resultType: "complete" });
      expect(await modern.request("tools/validate", { name: "other", arguments: {} })).to.include({ valid: false });
      await modern.close();

      const legacy = await connectClient(server, "2025-11-25");
      expect(await legacy.callTool("echo", {})).to.deep.include({ content: [{ type: "text", text: "hi" }] });
      await legacy.close();

      const sdk = await connectSdk(server);
      expect(sdk.client.getServerVersion()?.name).to.equal("bump");
      const viaSdk = await sdk.client.callTool({ name: "echo", arguments: {} });
      expect(viaSdk.content).to.deep.equal([{ type: "text", text: "hi" }]);
      await sdk.close();
    } finally {
      await server.close();
    }
  });

  it("a handler that breaks the new revision's result schema is refused at run time too (-32603), naming the field", async () => {
    const { mcp_2026_12_01: next } = (await import(pathToFileURL(join(out, "index.ts")).href)) as { mcp_2026_12_01: RevisionModule };
    const server = createServer({ name: "bump", version: "1.0.0", revisions: [next] as RevisionModule[], logger: quiet });
    server.tool({ name: "echo", inputSchema: { type: "object" } }, () => ({ content: [] }));
    try {
      const client = await connectClient(server, SYNTHETIC);
      const error = await client.callTool("echo", {}).then(
        () => undefined,
        (e: { code: number; message: string }) => e,
      );
      expect(error?.code).to.equal(-32603);
      expect(error?.message).to.contain("summary");
      await client.close();
    } finally {
      await server.close();
    }
  });
});

describe("the runtime's own tool results at a revision that requires more of them", function () {
  this.timeout(120_000);
  let project: string;
  let next: RevisionModule;
  before(async () => {
    project = projectFolder("fallback");
    writeFileSync(join(project, "schema.json"), syntheticSchema());
    const out = join(project, "src", "mcp");
    const run = cli("generate", "--out", out, "--schema", join(project, "schema.json"), "--name", SYNTHETIC);
    expect(run.status, run.stderr).to.equal(0);
    ({ mcp_2026_12_01: next } = (await import(pathToFileURL(join(out, "index.ts")).href)) as { mcp_2026_12_01: RevisionModule });
  });
  after(() => rmSync(project, { recursive: true, force: true }));

  it("bad arguments are -32602 and a thrown error -32603, each with the runtime's text, not an invalid result blamed on the handler", async () => {
    const server = createServer({ name: "bump", version: "1.0.0", revisions: [next] as RevisionModule[], logger: quiet });
    server.tool({ name: "needs", inputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] } }, () => ({ content: [], summary: "ok" }));
    server.tool({ name: "throws", inputSchema: { type: "object" } }, () => {
      throw new Error("the disk is full");
    });
    try {
      const client = await connectClient(server, SYNTHETIC);
      const refusal = (promise: Promise<unknown>) => promise.then(() => undefined, (e: { code: number; message: string }) => ({ code: e.code, message: e.message }));
      const bad = await refusal(client.callTool("needs", {}));
      expect(bad?.code).to.equal(-32602);
      expect(bad?.message).to.match(/^Invalid arguments for tool needs: /);
      const thrown = await refusal(client.callTool("throws", {}));
      expect(thrown).to.deep.equal({ code: -32603, message: "the disk is full" });
      expect((await client.callTool("needs", { n: 1 })).summary).to.equal("ok");
      await client.close();
    } finally {
      await server.close();
    }
  });
});

/** A user's server on the tasks extension generated into src/mcp: typed by the module, one typing mistake expected. */
const EXTENSION_SERVER = `import { createServer } from "@mcp-codegen/runtime";
import { ext_io_modelcontextprotocol_tasks as tasks } from "./mcp/index.js";

export const server = createServer({ name: "tasks", version: "1.0.0", revisions: ["2026-07-28"], extensions: [tasks] });
server.handle("tasks/cancel", (params) => ({ resultType: "complete" as const, _meta: { cancelled: params.taskId } }));
// @ts-expect-error tasks/get answers a GetTaskResult: a task's status and times
server.handle("tasks/get", (params) => ({ resultType: "complete" as const, taskId: params.taskId }));
`;

describe("codegen/out: generate --extension into a user's project", function () {
  this.timeout(240_000);
  const ID = "io.modelcontextprotocol/tasks";
  let project: string;
  let out: string;
  let schema: string;

  before(() => {
    project = projectFolder("ext");
    out = join(project, "src", "mcp");
    schema = join(project, "tasks.schema.json");
    writeFileSync(schema, readFileSync(join(ROOT, "spec", "extensions", "tasks", "schema.json")));
    const run = cli("generate", "--out", out, "--extension", schema, "--name", ID);
    expect(run.status, run.stderr).to.equal(0);
    // Its core revision (the latest pinned, 2026-07-28) is generated beside it, and the definitions it restates are counted, not emitted.
    expect(run.stdout).to.match(/extensions\/tasks {2}io\.modelcontextprotocol\/tasks on 2026-07-28: \d+ definitions of its own \(\d+ restated from 2026-07-28, equal\), 4 methods/);
    expect(run.stdout).to.contain("2026-07-28  stateless").and.to.contain("ext_io_modelcontextprotocol_tasks");
  });
  after(() => rmSync(project, { recursive: true, force: true }));

  it("writes the extension's module beside its core revision, and check --out regenerates both", () => {
    const index = readFileSync(join(out, "index.ts"), "utf8");
    expect(index).to.contain(`export { extensionModule as ext_io_modelcontextprotocol_tasks } from "./extensions/tasks/module.js";`);
    const types = readFileSync(join(out, "extensions", "tasks", "types.ts"), "utf8");
    expect(types).to.contain(`from "../../2026-07-28/types.js"`).and.to.match(/export interface Task \{/);
    expect(types, "Result is the core revision's, imported, not emitted again").not.to.match(/export interface Result \{/);
    expect(cli("check", "--out", out).status).to.equal(0);
    const file = join(out, "extensions", "tasks", "validators.ts");
    const text = readFileSync(file, "utf8");
    writeFileSync(file, `${text}// edited\n`);
    const stale = cli("check", "--out", out);
    expect(stale.status).to.equal(1);
    expect(stale.stderr).to.contain(file);
    writeFileSync(file, text);
  });

  it("types the user's handlers by the module: tsc passes but for the mistake it was told to expect", () => {
    writeProjectTsconfig(project);
    writeFileSync(join(project, "src", "server.ts"), EXTENSION_SERVER);
    const run = spawnSync(process.execPath, [TSC, "-p", project, "--pretty", "false"], { encoding: "utf8", cwd: project });
    expect(run.stdout + run.stderr).to.equal("");
    expect(run.status).to.equal(0);
  });

  it("serves the generated module: a round trip, and -32602 naming the field of bad params", async () => {
    const { ext_io_modelcontextprotocol_tasks: tasks } = (await import(pathToFileURL(join(out, "index.ts")).href)) as { ext_io_modelcontextprotocol_tasks: ExtensionModule };
    expect(tasks).to.include({ extension: ID, revision: "2026-07-28", era: "stateless" });
    const server = createServer({ name: "tasks", version: "1.0.0", logger: quiet, extensions: [tasks] });
    server.handle("tasks/cancel" as never, (() => ({ resultType: "complete" })) as never);
    try {
      const client = await connectClient(server, "2026-07-28", { capabilities: { extensions: { [ID]: {} } } });
      expect(client.serverExtension(ID)).to.deep.equal({});
      expect(await client.request("tasks/cancel", { taskId: "t1" })).to.include({ resultType: "complete" });
      const error = (await client.request("tasks/cancel", {}).catch((e: unknown) => e)) as { code: number; data: { issues: { path: string; message: string }[] } };
      expect(error.code).to.equal(-32602);
      expect(error.data.issues.map((i) => `${i.path} ${i.message}`).join("\n")).to.contain("taskId");
      await client.close();
    } finally {
      await server.close();
    }
  });

  it("names the file and the JSON Pointer of a definition that differs from the core revision's, and writes nothing", () => {
    const document = JSON.parse(readFileSync(schema, "utf8")) as { $defs: Record<string, { required?: string[] }> };
    document.$defs.Result!.required = [];
    const bad = join(project, "bad.schema.json");
    writeFileSync(bad, JSON.stringify(document));
    const into = join(project, "bad-out");
    const run = cli("generate", "--out", into, "--extension", bad, "--name", ID);
    expect(run.status).to.equal(1);
    expect(run.stderr).to.contain(`${bad} #/$defs/Result: Result is also defined by MCP 2026-07-28 (#/$defs/Result), differently`);
    expect(existsSync(into)).to.equal(false);
  });

  it("refuses a missing file, a bad identifier, --extension without --out or --name", () => {
    const missing = cli("generate", "--out", join(project, "x"), "--extension", join(project, "nope.json"), "--name", ID);
    expect(missing.status).to.equal(1);
    expect(missing.stderr).to.contain(`${join(project, "nope.json")}: no such schema file`);
    expect(cli("generate", "--out", out, "--extension", schema, "--name", "tasks").stderr).to.contain("not an extension identifier");
    expect(cli("generate", "--extension", schema, "--name", ID).stderr).to.contain("--extension goes with --out");
    expect(cli("generate", "--out", out, "--extension", schema).stderr).to.contain("--extension and --name go together");
    expect(cli("generate", "--help").stdout).to.match(/--extension <file> +with --out: an extension's schema\.json/).and.to.match(/--core <R> +with --extension/);
  });
});
