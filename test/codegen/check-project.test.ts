/**
 * `mcp-codegen check` run in a user's project (not this checkout): it checks what the project
 * generated (every folder `generate --out` and `generate --tools` wrote, found by its
 * .mcp-codegen.json, no flag needed), says for each stale file why, and exits 1 with the command
 * that fixes it.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "chai";
import { describeRun, removeDir, ROOT, runCliAsync, tempDir } from "../support/project.js";
import { SYNTHETIC, syntheticSchema } from "../support/synthetic-revision.js";

const MANIFEST = {
  name: "checked",
  version: "1.0.0",
  tools: [{ name: "add", inputSchema: { type: "object", properties: { a: { type: "number" } }, required: ["a"] } }],
};

describe("codegen: check in a user's project", function () {
  this.timeout(180_000);
  let project: string;
  const check = () => runCliAsync(["check"], { cwd: project });

  before(async () => {
    project = tempDir("check-project");
    writeFileSync(join(project, "next.json"), syntheticSchema());
    writeFileSync(join(project, "mcp.server.json"), JSON.stringify(MANIFEST, null, 2));
    const [out, tools] = await Promise.all([
      runCliAsync(["generate", "--out", "src/mcp", "--schema", "next.json", "--name", SYNTHETIC], { cwd: project }),
      runCliAsync(["generate", "--tools", "mcp.server.json", "--out", "src/validators"], { cwd: project }),
    ]);
    expect(out.status, describeRun(out)).to.equal(0);
    expect(tools.status, describeRun(tools)).to.equal(0);
    // The imports they print work from the project's root folder.
    expect(out.stdout).to.contain(`import { mcp_2026_12_01 } from "./src/mcp/index.js"`);
    expect(tools.stdout).to.contain(`import { toolValidators } from "./src/validators/tools.js"`);
  });
  after(() => removeDir(project));

  it("with nothing generated, says so and fails", async () => {
    const empty = tempDir("check-empty");
    try {
      const run = await runCliAsync(["check"], { cwd: empty });
      expect(run.status).to.equal(1);
      expect(run.stderr).to.contain("nothing generated below").and.contain(".mcp-codegen.json");
      const out = await runCliAsync(["check", "--out", "src/mcp"], { cwd: empty });
      expect(out.status).to.equal(1);
      expect(out.stderr).to.contain("has no .mcp-codegen.json: it was not written by `mcp-codegen generate --out`");
    } finally {
      removeDir(empty);
    }
  });

  it("check --out on the folder generate --tools wrote checks its tool validators", async () => {
    const run = await runCliAsync(["check", "--out", "src/validators"], { cwd: project });
    expect(run.status, describeRun(run)).to.equal(0);
    expect(run.stdout).to.contain("src/validators is up to date (the tool validators of mcp.server.json)");
  });

  it("--root that is not an mcp-codegen checkout is refused with what --root means, not a file error", async () => {
    const run = await runCliAsync(["check", "--root", project], { cwd: project });
    expect(run.status, describeRun(run)).to.equal(2);
    expect(run.stderr).to.contain(`--root ${project} is not an mcp-codegen checkout (it has no spec/pinned.json)`).and.not.contain("ENOENT");
  });

  it("an unknown flag: a short message with the flag it likely meant, not Node's advice on positionals", async () => {
    const run = await runCliAsync(["check", "--outt", "src/mcp"], { cwd: project });
    expect(run.status).to.equal(2);
    expect(run.stderr).to.contain(`mcp-codegen check: unknown option --outt (did you mean "--out"?)`).and.not.contain("positional");
  });

  it("generate --out with a revision pinned nowhere: which are pinned, the likely one, and how to pin it; nothing written", async () => {
    const run = await runCliAsync(["generate", "--out", "src/typo", "--revision", "2025-11-2"], { cwd: project });
    expect(run.status, describeRun(run)).to.equal(1);
    expect(run.stderr).to.contain('revision 2025-11-2 is pinned neither with mcp-codegen').and.contain('(did you mean "2025-11-25"?)').and.contain("mcp-codegen spec add 2025-11-2 --from");
    expect(existsSync(join(project, "src", "typo"))).to.equal(false);
  });

  it("generate --out beside mcp.server.json hints to list the revisions it generated, only those the manifest does not list", async () => {
    const dir = tempDir("out-hint");
    try {
      writeFileSync(join(dir, "mcp.server.json"), JSON.stringify({ ...MANIFEST, revisions: ["2025-11-25"] }));
      const listed = await runCliAsync(["generate", "--out", "src/mcp", "--revision", "2025-11-25"], { cwd: dir });
      expect(listed.status, describeRun(listed)).to.equal(0);
      expect(listed.stdout).not.to.contain("A scaffolded project");
      const added = await runCliAsync(["generate", "--out", "src/mcp", "--revision", "2025-06-18"], { cwd: dir });
      expect(added.status, describeRun(added)).to.equal(0);
      expect(added.stdout).to.contain(`A scaffolded project: add 2025-06-18 to mcp.server.json's "revisions"`);
    } finally {
      removeDir(dir);
    }
  });

  it("passes on what generate wrote: both folders, found without a flag", async () => {
    const run = await check();
    expect(run.status, describeRun(run)).to.equal(0);
    expect(run.stdout).to.contain(`src/mcp is up to date (${SYNTHETIC})`).and.contain("src/validators is up to date (the tool validators of mcp.server.json)");
  });

  it("says why each stale file is stale: edited by hand, missing, its source changed; exits 1 with the fixing commands", async () => {
    const protocol = join(project, "src", "mcp", SYNTHETIC, "protocol.ts");
    writeFileSync(protocol, `${readFileSync(protocol, "utf8")}// my edit\n`);
    rmSync(join(project, "src", "validators", "tools.ts"));
    const edited = await check();
    expect(edited.status, describeRun(edited)).to.equal(1);
    expect(edited.stderr).to.contain(`src/mcp/${SYNTHETIC}/protocol.ts: edited by hand`);
    expect(edited.stderr).to.contain("src/validators/tools.ts: missing");
    expect(edited.stderr).to.contain("Run `mcp-codegen generate --out src/mcp` to bring it up to date");
    expect(edited.stderr).to.contain("Run `mcp-codegen generate --tools mcp.server.json --out src/validators` to bring it up to date.");

    // Regenerated: the source changes next, then the generator's version.
    const again = await Promise.all([
      runCliAsync(["generate", "--out", "src/mcp"], { cwd: project }),
      runCliAsync(["generate", "--tools", "mcp.server.json", "--out", "src/validators"], { cwd: project }),
    ]);
    for (const run of again) expect(run.status, describeRun(run)).to.equal(0);
    expect((await check()).status).to.equal(0);
    const schema = JSON.parse(readFileSync(join(project, "next.json"), "utf8")) as { $defs: Record<string, { properties: Record<string, unknown> }> };
    schema.$defs.CallToolResult!.properties.note = { type: "string" };
    writeFileSync(join(project, "next.json"), JSON.stringify(schema));
    writeFileSync(join(project, "mcp.server.json"), JSON.stringify({ ...MANIFEST, tools: [{ ...MANIFEST.tools[0], inputSchema: { type: "object", properties: { a: { type: "string" } } } }] }));
    const changed = await check();
    expect(changed.status, describeRun(changed)).to.equal(1);
    expect(changed.stderr).to.match(new RegExp(`src/mcp/${SYNTHETIC}/types\\.ts: its source changed: next\\.json`));
    expect(changed.stderr).to.match(/src\/validators\/tools\.ts: its source changed: mcp\.server\.json/);

    const record = join(project, "src", "mcp", ".mcp-codegen.json");
    const recorded = JSON.parse(readFileSync(record, "utf8")) as Record<string, unknown>;
    writeFileSync(join(project, "next.json"), syntheticSchema());
    writeFileSync(record, JSON.stringify({ ...recorded, generator: "0.0.1", revisions: { [SYNTHETIC]: { schema: "../../next.json", sha256: "0".repeat(64) } } }));
    // The recorded sha256 is stale but the schema is back as it was generated: the files match, nothing to say.
    const back = await runCliAsync(["check", "--out", "src/mcp"], { cwd: project });
    expect(back.status, describeRun(back)).to.equal(0);
  });

  it("in a scaffolded project, also the files scaffold writes: a manifest changed since the last scaffold is caught, with the fix", async () => {
    const parent = tempDir("check-scaffolded");
    try {
      const scaffolded = await runCliAsync(["scaffold", "app", "--name", "app"], { cwd: parent });
      expect(scaffolded.status, describeRun(scaffolded)).to.equal(0);
      const app = join(parent, "app");
      const fresh = await runCliAsync(["check"], { cwd: app });
      expect(fresh.status, describeRun(fresh)).to.equal(0);
      expect(fresh.stdout).to.contain("src/generated/ is up to date (with test/stubs.test.ts, as scaffold writes them from mcp.server.json)");
      const manifest = JSON.parse(readFileSync(join(app, "mcp.server.json"), "utf8")) as { tools: { description: string }[] };
      manifest.tools[0]!.description = "Says it again.";
      writeFileSync(join(app, "mcp.server.json"), JSON.stringify(manifest));
      rmSync(join(app, "test", "stubs.test.ts"));
      const stale = await runCliAsync(["check"], { cwd: app });
      expect(stale.status, describeRun(stale)).to.equal(1);
      expect(stale.stderr).to.contain("src/generated/manifest.ts: differs from what mcp.server.json makes of it now (the manifest changed since the last scaffold, or the file was edited by hand)");
      expect(stale.stderr).to.contain("test/stubs.test.ts: missing");
      expect(stale.stderr).to.contain("Run `mcp-codegen scaffold .` to bring it up to date.");
    } finally {
      removeDir(parent);
    }
  });

  it("a file written by another generator version, untouched since, is stale because of the generator", async () => {
    const regenerated = await runCliAsync(["generate", "--out", "src/mcp"], { cwd: project });
    expect(regenerated.status, describeRun(regenerated)).to.equal(0);
    const dir = join(project, "src", "mcp");
    const record = JSON.parse(readFileSync(join(dir, ".mcp-codegen.json"), "utf8")) as { files: Record<string, string> };
    // What an older generator wrote: other content, and the record of it.
    const path = join(dir, "index.ts");
    const older = `${readFileSync(path, "utf8")}// written by an older mcp-codegen\n`;
    writeFileSync(path, older);
    const { createHash } = await import("node:crypto");
    record.files["index.ts"] = createHash("sha256").update(older).digest("hex");
    writeFileSync(join(dir, ".mcp-codegen.json"), JSON.stringify({ ...record, generator: "0.0.1" }));
    const run = await check();
    expect(run.status, describeRun(run)).to.equal(1);
    const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
    expect(run.stderr).to.contain(`src/mcp/index.ts: generated by mcp-codegen 0.0.1, this is ${version}`);
  });

  it("from a folder above a scaffolded project (a monorepo's root): finds it, flags the drift of its manifest, names the command that fixes it", async () => {
    const parent = tempDir("check-parent");
    try {
      const scaffolded = await runCliAsync(["scaffold", "weather", "--name", "weather"], { cwd: parent });
      expect(scaffolded.status, describeRun(scaffolded)).to.equal(0);
      const fresh = await runCliAsync(["check"], { cwd: parent });
      expect(fresh.status, describeRun(fresh)).to.equal(0);
      expect(fresh.stdout).to.contain("weather/src/generated/ is up to date");
      const manifestPath = join(parent, "weather", "mcp.server.json");
      const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { tools: { description: string }[] };
      manifest.tools[0]!.description = "Drifted.";
      writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
      const drifted = await runCliAsync(["check"], { cwd: parent });
      expect(drifted.status, describeRun(drifted)).to.equal(1);
      expect(drifted.stderr).to.contain("weather/src/generated/ is stale").and.contain("Run `mcp-codegen scaffold weather`");
      const fixed = await runCliAsync(["scaffold", "weather"], { cwd: parent });
      expect(fixed.status, describeRun(fixed)).to.equal(0);
      expect((await runCliAsync(["check"], { cwd: parent })).status).to.equal(0);
    } finally {
      removeDir(parent);
    }
  });
});
