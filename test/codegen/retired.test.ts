/**
 * Upgrading from a version that copied validation.ts and method-not-found.ts beside generated code
 * (0.2.0): `check` flags the copies as drift with the fix; `generate --out` and `generate --tools`
 * remove a copy exactly as the generator wrote it (its header, the sha256 its .mcp-codegen.json
 * recorded) and say so; a copy edited since, or one a file of the folder still imports, is kept
 * with a warning naming it and what to do; a file of the user's own by that name is left alone.
 * The CLI runs in a temp project; the old copies are rebuilt as 0.2.0 wrote them and recorded as
 * it recorded them (test/support/retired-copies.ts).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "chai";
import { sha256 } from "../../codegen/spec/files.js";
import { describeRun, removeDir, runCliAsync, tempDir } from "../support/project.js";
import { oldCopy, plantOldCopies } from "../support/retired-copies.js";

const MANIFEST = { name: "upgraded", version: "1.0.0", tools: [{ name: "add", inputSchema: { type: "object", properties: { a: { type: "number" } }, required: ["a"] } }] };

describe("codegen/retired: the support copies an earlier generate left in a user's folders", function () {
  this.timeout(240_000);
  let project: string;
  const run = (...args: string[]) => runCliAsync(args, { cwd: project });
  const mcp = (file: string) => join(project, "src", "mcp", file);
  const validators = (file: string) => join(project, "src", "validators", file);

  before(async () => {
    project = tempDir("retired");
    writeFileSync(join(project, "mcp.server.json"), JSON.stringify(MANIFEST, null, 2));
    for (const generated of await Promise.all([run("generate", "--out", "src/mcp", "--revision", "2025-11-25"), run("generate", "--tools", "mcp.server.json", "--out", "src/validators")]))
      expect(generated.status, describeRun(generated)).to.equal(0);
    plantOldCopies(join(project, "src", "mcp"), ["validation.ts", "method-not-found.ts"], "files");
    plantOldCopies(join(project, "src", "validators"), ["validation.ts"], "tools");
  });
  after(() => removeDir(project));

  it("check flags every old copy as drift, with the command that removes it", async () => {
    const checked = await run("check");
    expect(checked.status, describeRun(checked)).to.equal(1);
    for (const path of ["src/mcp/validation.ts", "src/mcp/method-not-found.ts", "src/validators/validation.ts"])
      expect(checked.stderr).to.contain(`${path}: left by an earlier mcp-codegen: generated code imports @mcp-codegen/runtime/support now`);
    expect(checked.stderr).to.contain("Run `mcp-codegen generate --out src/mcp` to bring it up to date");
    expect(checked.stderr).to.contain("Run `mcp-codegen generate --tools mcp.server.json --out src/validators` to bring it up to date");
    const one = await run("check", "--out", "src/mcp");
    expect(one.status, describeRun(one)).to.equal(1);
    expect(one.stderr).to.contain("src/mcp/validation.ts: left by an earlier mcp-codegen");
    // check writes nothing.
    expect(existsSync(mcp("validation.ts"))).to.equal(true);
  });

  it("generate --out removes an unedited copy and says so; keeps an edited one with a warning, and keeps warning until it is gone", async () => {
    const edited = `${oldCopy("method-not-found.ts")}// mine\n`;
    writeFileSync(mcp("method-not-found.ts"), edited);
    const generated = await run("generate", "--out", "src/mcp");
    expect(generated.status, describeRun(generated)).to.equal(0);
    expect(generated.stdout).to.contain("removed src/mcp/validation.ts: left by an earlier mcp-codegen");
    expect(existsSync(mcp("validation.ts"))).to.equal(false);
    expect(generated.stderr).to.contain("warning: src/mcp/method-not-found.ts: left by an earlier mcp-codegen and edited since");
    expect(generated.stderr).to.contain("move what you need out of it, then delete it");
    expect(readFileSync(mcp("method-not-found.ts"), "utf8")).to.equal(edited);

    const checked = await run("check", "--out", "src/mcp");
    expect(checked.status, describeRun(checked)).to.equal(1);
    expect(checked.stderr).to.contain("src/mcp/method-not-found.ts: left by an earlier mcp-codegen and edited since").and.not.contain("validation.ts");

    // The edit undone: the recorded sha256 was kept, so the copy is known again for the generator's and goes.
    writeFileSync(mcp("method-not-found.ts"), oldCopy("method-not-found.ts"));
    const again = await run("generate", "--out", "src/mcp");
    expect(again.stdout, describeRun(again)).to.contain("removed src/mcp/method-not-found.ts");
    expect(existsSync(mcp("method-not-found.ts"))).to.equal(false);
    expect((await run("check", "--out", "src/mcp")).status).to.equal(0);
  });

  it("a copy no record lists (written before .mcp-codegen.json recorded files) is kept with a warning: nothing proves it unedited", async () => {
    writeFileSync(mcp("validation.ts"), oldCopy("validation.ts"));
    const generated = await run("generate", "--out", "src/mcp");
    expect(generated.status, describeRun(generated)).to.equal(0);
    expect(generated.stderr).to.contain("warning: src/mcp/validation.ts: left by an earlier mcp-codegen and edited since (or written before .mcp-codegen.json recorded it), so it is kept");
    expect(readFileSync(mcp("validation.ts"), "utf8")).to.equal(oldCopy("validation.ts"));
  });

  it("a file of the user's own by that name is left alone, unmentioned", async () => {
    writeFileSync(mcp("validation.ts"), "export const mine = 1;\n");
    const generated = await run("generate", "--out", "src/mcp");
    expect(generated.status, describeRun(generated)).to.equal(0);
    expect(generated.stdout + generated.stderr).to.not.contain("validation.ts");
    expect(readFileSync(mcp("validation.ts"), "utf8")).to.equal("export const mine = 1;\n");
    const checked = await run("check", "--out", "src/mcp");
    expect(checked.status, describeRun(checked)).to.equal(0);
  });

  it("generate --tools keeps a copy a file of the folder still imports, naming it; removes it once none does", async () => {
    writeFileSync(validators("mine.ts"), `import type { ValidationIssue } from "./validation.js";\nexport type Issues = ValidationIssue[];\n`);
    const kept = await run("generate", "--tools", "mcp.server.json", "--out", "src/validators");
    expect(kept.status, describeRun(kept)).to.equal(0);
    expect(kept.stderr).to.contain("warning: src/validators/validation.ts: left by an earlier mcp-codegen; kept while mine.ts still imports it");
    expect(existsSync(validators("validation.ts"))).to.equal(true);

    writeFileSync(validators("mine.ts"), `import type { ValidationIssue } from "@mcp-codegen/runtime/support";\nexport type Issues = ValidationIssue[];\n`);
    const removed = await run("generate", "--tools", "mcp.server.json", "--out", "src/validators");
    expect(removed.stdout, describeRun(removed)).to.contain("removed src/validators/validation.ts: left by an earlier mcp-codegen");
    expect(existsSync(validators("validation.ts"))).to.equal(false);
    const checked = await run("check");
    expect(checked.status, describeRun(checked)).to.equal(0);
  });

  it("in a folder of both kinds, generate --out keeps the copy the old tools.ts imports, and generate --tools then removes it; check says it once", async () => {
    const shared = (file: string) => join(project, "src", "shared", file);
    for (const generated of [await run("generate", "--out", "src/shared", "--revision", "2025-11-25"), await run("generate", "--tools", "mcp.server.json", "--out", "src/shared")])
      expect(generated.status, describeRun(generated)).to.equal(0);
    plantOldCopies(join(project, "src", "shared"), ["validation.ts", "method-not-found.ts"], "files");
    // tools.ts as 0.2.0 wrote it: importing the copy beside it, recorded so.
    const oldTools = readFileSync(shared("tools.ts"), "utf8").replace(`"@mcp-codegen/runtime/support"`, `"./validation.js"`);
    writeFileSync(shared("tools.ts"), oldTools);
    const recordPath = shared(".mcp-codegen.json");
    const record = JSON.parse(readFileSync(recordPath, "utf8")) as { tools: { files: Record<string, string> } };
    record.tools.files["tools.ts"] = sha256(oldTools);
    writeFileSync(recordPath, JSON.stringify(record, null, 2));

    const checked = await run("check");
    expect(checked.status, describeRun(checked)).to.equal(1);
    expect(checked.stderr.split("src/shared/validation.ts:").length - 1, checked.stderr).to.equal(1);
    expect(checked.stderr).to.contain("src/shared/validation.ts: left by an earlier mcp-codegen; kept while tools.ts still imports it");

    const out = await run("generate", "--out", "src/shared");
    expect(out.stdout, describeRun(out)).to.contain("removed src/shared/method-not-found.ts");
    expect(out.stderr).to.contain("warning: src/shared/validation.ts: left by an earlier mcp-codegen; kept while tools.ts still imports it");
    expect(existsSync(shared("validation.ts"))).to.equal(true);

    const tools = await run("generate", "--tools", "mcp.server.json", "--out", "src/shared");
    expect(tools.stdout, describeRun(tools)).to.contain("removed src/shared/validation.ts");
    expect(existsSync(shared("validation.ts"))).to.equal(false);
    const again = await run("check");
    expect(again.status, describeRun(again)).to.equal(0);
  });
});
