// `mcp-codegen generate --out` and `check --out`, and what a user's server does with the modules:
// a synthetic next revision (test/support/synthetic-revision.ts) generated into a project folder
// beside a pinned one; the compiler flags the handler its new required field reaches, naming the
// field; `server.handle` implements its new method; McpClient and the SDK client get correct
// answers at the old and the new revision.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { expect } from "chai";
import { createServer, type RevisionModule } from "../../runtime/index.js";
import { connectSdk, quiet } from "../support/features-server.js";
import { connectClient } from "../support/mcp.js";
import { ROOT } from "../support/project.js";
import { SYNTHETIC, syntheticSchema } from "../support/synthetic-revision.js";
import { TSC } from "../support/tsc.js";

const cli = (...args: string[]) => spawnSync(process.execPath, ["--import", "tsx", join(ROOT, "codegen", "cli.ts"), ...args], { encoding: "utf8", cwd: ROOT });

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
    mkdirSync(join(ROOT, "test", "fixtures", "out"), { recursive: true });
    project = mkdtempSync(join(ROOT, "test", "fixtures", "out", "bump-"));
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
    const tsconfig = {
      compilerOptions: {
        strict: true,
        target: "ES2022",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        noEmit: true,
        skipLibCheck: true,
        types: ["node"],
        typeRoots: [join(ROOT, "node_modules", "@types")],
        paths: {
          "@mcp-codegen/runtime": [join(ROOT, "runtime", "index.ts")],
          "@mcp-codegen/runtime/contract": [join(ROOT, "runtime", "contract.ts")],
        },
      },
      include: ["src"],
    };
    writeFileSync(join(project, "tsconfig.json"), JSON.stringify(tsconfig, null, 2));
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
