/**
 * codegen/scaffold with a revision generated into the project (`generate --out`): the manifest
 * may name it, the scaffold wires its module, and the typing survives: the stubs' result types
 * come from the served revisions, so a field the new revision requires fails the compile in the
 * stub, at its return, naming the field; `handle` takes the new method on the scaffolded server.
 * Compiled against this checkout's runtime (the packed journey is test/packages/journey.test.ts).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "chai";
import { CLI_ARGV, ROOT } from "../../support/project.js";
import { SYNTHETIC, syntheticSchema } from "../../support/synthetic-revision.js";
import { TSC } from "../../support/tsc.js";

describe("codegen/scaffold: a revision generated into the project is first-class", function () {
  this.timeout(180_000);
  let project: string;
  const cli = (...args: string[]) => spawnSync(process.execPath, [...CLI_ARGV, ...args], { encoding: "utf8", cwd: project });
  const tsc = () => spawnSync(process.execPath, [TSC, "-p", "tsconfig.check.json", "--pretty", "false"], { encoding: "utf8", cwd: project });
  const errors = (output: string) => output.split("\n").filter((line) => /error TS\d+/.test(line));
  const checkConfig = {
    extends: "./tsconfig.json",
    compilerOptions: {
      noEmit: true,
      rootDir: ROOT,
      typeRoots: [join(ROOT, "node_modules", "@types")],
      paths: { "@mcp-codegen/runtime": [join(ROOT, "runtime", "index.ts")], "@mcp-codegen/runtime/contract": [join(ROOT, "runtime", "contract.ts")] },
    },
  };

  before(() => {
    // Inside the checkout, so that the tsconfig can map the runtime package's name onto runtime/.
    mkdirSync(join(ROOT, "test", "fixtures", "out"), { recursive: true });
    project = join(mkdtempSync(join(ROOT, "test", "fixtures", "out", "revisions-")), "app");
    const run = spawnSync(process.execPath, [...CLI_ARGV, "scaffold", project, "--name", "app", "--revisions", "2025-11-25"], { encoding: "utf8", cwd: ROOT });
    expect(run.status, run.stderr).to.equal(0);
    writeFileSync(join(project, "next.json"), syntheticSchema());
    writeFileSync(join(project, "tsconfig.check.json"), JSON.stringify(checkConfig));
  });
  after(() => rmSync(join(project, ".."), { recursive: true, force: true }));

  it("a manifest that names no revisions compiles too: the server and its stubs are typed by the runtime's defaults", () => {
    const other = join(project, "..", "defaults");
    const run = spawnSync(process.execPath, [...CLI_ARGV, "scaffold", other, "--name", "defaults"], { encoding: "utf8", cwd: ROOT });
    expect(run.status, run.stderr).to.equal(0);
    expect(readFileSync(join(other, "src", "generated", "manifest.ts"), "utf8")).to.contain("export const revisions = undefined;");
    writeFileSync(join(other, "tsconfig.check.json"), JSON.stringify(checkConfig));
    const compiled = spawnSync(process.execPath, [TSC, "-p", "tsconfig.check.json", "--pretty", "false"], { encoding: "utf8", cwd: other });
    expect(errors(compiled.stdout), compiled.stdout).to.deep.equal([]);
    expect(compiled.status).to.equal(0);
  });

  it("a revision neither pinned nor generated is refused with the command that generates it", () => {
    const manifest = JSON.parse(readFileSync(join(project, "mcp.server.json"), "utf8")) as { revisions: string[] };
    writeFileSync(join(project, "mcp.server.json"), JSON.stringify({ ...manifest, revisions: ["2025-11-25", SYNTHETIC] }));
    const run = cli("scaffold", ".");
    expect(run.status).to.equal(1);
    expect(run.stderr).to.contain(`unknown MCP revision ${SYNTHETIC}`).and.contain(`mcp-codegen generate --out src/mcp --schema <schema.json> --name ${SYNTHETIC}`);
  });

  it("once generated, the manifest names it: the scaffold imports its module, and tsc fails in the stub at its return, naming the field", () => {
    const generated = cli("generate", "--out", "src/mcp", "--schema", "next.json", "--name", SYNTHETIC);
    expect(generated.status, generated.stderr).to.equal(0);
    const run = cli("scaffold", ".");
    expect(run.status, run.stderr + run.stdout).to.equal(0);
    const manifest = readFileSync(join(project, "src", "generated", "manifest.ts"), "utf8");
    expect(manifest).to.contain(`import { mcp_2026_12_01 } from "../mcp/index.js";`);
    expect(manifest).to.contain(`export const revisions = ["2025-11-25", mcp_2026_12_01] as const;`);
    const before = tsc();
    const found = errors(before.stdout);
    expect(found, before.stdout).to.have.length(1);
    const stub = readFileSync(join(project, "src", "tools", "echo.ts"), "utf8").split("\n");
    const line = stub.findIndex((text) => text.trim() === "return {") + 1;
    expect(found[0]).to.match(new RegExp(`^src/tools/echo\\.ts\\(${line},\\d+\\): error TS2322: `));
    expect(before.stdout).to.match(/Property 'summary' is missing in type/);
  });

  it("fixed, it compiles; the scaffolded server's handle takes the new method, typed by its result", () => {
    const path = join(project, "src", "tools", "echo.ts");
    writeFileSync(path, readFileSync(path, "utf8").replace(/\n {4}\],\n {2}\};/, `\n    ],\n    summary: "echoed",\n  };`));
    writeFileSync(
      join(project, "src", "validate.ts"),
      `import { createAppServer } from "./generated/server.js";\nimport type { MethodParams, MethodResult } from "./generated/types.js";\n\n` +
        `export const server = createAppServer().handle("tools/validate", (params) => ({ valid: params.name === "echo" }));\n` +
        `// @ts-expect-error: the new method's result requires \`valid\`\nexport const wrong = createAppServer().handle("tools/validate", () => ({}));\n` +
        // A handler written apart, typed by the generated names.
        `export function validate(params: MethodParams<"tools/validate">): MethodResult<"tools/validate"> {\n  return { valid: params.name.length > 0 };\n}\n` +
        `createAppServer().handle("tools/validate", validate);\n` +
        `// @ts-expect-error: not a method of the served revisions\nexport type Nope = MethodResult<"tools/frobnicate">;\n`,
    );
    const after = tsc();
    expect(errors(after.stdout), after.stdout).to.deep.equal([]);
    expect(after.status).to.equal(0);
  });
});
