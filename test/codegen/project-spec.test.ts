/**
 * A version bump in a user's project, without touching the installed package: `spec add` pins the
 * new schema into the project (mcp/spec/<rev>/ and mcp/spec/pinned.json), `generate --out
 * --revision` takes it from there, and `diff` knows every revision the project knows: pinned with
 * mcp-codegen, pinned or generated in the project, or a schema file.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { expect } from "chai";
import { describeRun, removeDir, ROOT, runCliAsync, tempDir } from "../support/project.js";
import { SYNTHETIC, syntheticSchema } from "../support/synthetic-revision.js";

type Report = { methods: { method: string; change: string }[] };

describe("codegen: spec add and diff in a user's project", function () {
  this.timeout(180_000);
  let project: string;
  const cli = (...args: string[]) => runCliAsync(args, { cwd: project });
  const pinnedBefore = readFileSync(join(ROOT, "spec", "pinned.json"));

  before(() => {
    project = tempDir("project-spec");
    writeFileSync(join(project, "next.json"), syntheticSchema());
  });
  after(() => removeDir(project));

  it("spec add pins the schema into the project, with its sha256, and nothing into the package", async () => {
    const run = await cli("spec", "add", SYNTHETIC, "--from", "next.json");
    expect(run.status, describeRun(run)).to.equal(0);
    expect(run.stdout).to.contain(`pinned ${SYNTHETIC} in ${join("mcp", "spec", SYNTHETIC, "schema.json")}`);
    expect(run.stdout).to.contain(`Next: mcp-codegen generate --out src/mcp --revision ${SYNTHETIC}`);
    const text = readFileSync(join(project, "mcp", "spec", SYNTHETIC, "schema.json"), "utf8");
    expect(text).to.equal(syntheticSchema());
    const pins = JSON.parse(readFileSync(join(project, "mcp", "spec", "pinned.json"), "utf8")) as { revisions: Record<string, { files: Record<string, string> }> };
    expect(pins.revisions[SYNTHETIC]!.files["schema.json"]).to.equal(createHash("sha256").update(text).digest("hex"));
    expect(readFileSync(join(ROOT, "spec", "pinned.json")).equals(pinnedBefore)).to.equal(true);
    expect(existsSync(join(ROOT, "spec", SYNTHETIC))).to.equal(false);
    // Again with the same schema: nothing to do; with another one: refused without --replace.
    expect((await cli("spec", "add", SYNTHETIC, "--from", "next.json")).stdout).to.contain("already pinned");
    writeFileSync(join(project, "other.json"), syntheticSchema().replace('"summary"', '"summary2"'));
    const other = await cli("spec", "add", SYNTHETIC, "--from", "other.json");
    expect(other.status).to.equal(1);
    expect(other.stderr).to.contain("give --replace");
  });

  it("generate --out --revision takes the project's pin; diff reads it, the generated record, and a --schema file alike", async () => {
    const generated = await cli("generate", "--out", "src/mcp", "--revision", SYNTHETIC);
    expect(generated.status, describeRun(generated)).to.equal(0);
    expect(generated.stdout).to.contain(join("mcp", "spec", SYNTHETIC, "schema.json"));
    const [byName, bySchema] = await Promise.all([cli("diff", "2026-07-28", SYNTHETIC, "--json"), cli("diff", "2026-07-28", "--schema", "next.json", "--json")]);
    for (const run of [byName, bySchema]) expect(run.status, describeRun(run)).to.equal(0);
    const report = JSON.parse(byName.stdout) as Report;
    expect(report.methods.find((m) => m.method === "tools/validate")?.change).to.equal("added");
    expect((JSON.parse(bySchema.stdout) as Report).methods).to.deep.equal(report.methods);
    // An unknown revision is refused with the way round.
    const unknown = await cli("diff", "2026-07-28", "2027-01-01");
    expect(unknown.status).to.equal(1);
    expect(unknown.stderr).to.contain("unknown revision 2027-01-01").and.contain("diff <revA> --schema <schema.json>");
  });

  it("spec fetch and check in the project verify its pins, and name a pinned schema edited since", async () => {
    const fetched = await cli("spec", "fetch");
    expect(fetched.status, describeRun(fetched)).to.equal(0);
    expect(fetched.stdout).to.contain("mcp/spec/ verified");
    const path = join(project, "mcp", "spec", SYNTHETIC, "schema.json");
    const text = readFileSync(path, "utf8");
    writeFileSync(path, `${text}\n`);
    try {
      for (const run of await Promise.all([cli("spec", "fetch"), cli("check")])) {
        expect(run.status, describeRun(run)).to.equal(1);
        expect(run.stderr).to.contain(`${join("mcp", "spec", SYNTHETIC, "schema.json")}: edited since it was pinned`);
      }
    } finally {
      writeFileSync(path, text);
    }
    expect(readFileSync(join(ROOT, "spec", "pinned.json")).equals(pinnedBefore)).to.equal(true);
  });

  it("a revision only generated into the project (generate --out --schema) is known to diff by its record", async () => {
    const elsewhere = tempDir("project-generated");
    try {
      writeFileSync(join(elsewhere, "next.json"), syntheticSchema());
      const generated = await runCliAsync(["generate", "--out", "src/mcp", "--schema", "next.json", "--name", SYNTHETIC], { cwd: elsewhere });
      expect(generated.status, describeRun(generated)).to.equal(0);
      const diff = await runCliAsync(["diff", "2026-07-28", SYNTHETIC, "--json"], { cwd: elsewhere });
      expect(diff.status, describeRun(diff)).to.equal(0);
      expect((JSON.parse(diff.stdout) as Report).methods.map((m) => m.method)).to.include("tools/validate");
    } finally {
      removeDir(elsewhere);
    }
  });
});
