/** The CLI's own surface: help, usage errors and their exit codes, from source and through the published bin. */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "chai";
import { describeRun, removeDir, REVISIONS, ROOT, runCli, tempDir, tempProjectRoot } from "../support/project.js";
import { skipUnlessCi } from "../support/skip.js";

describe("codegen/cli", function () {
  this.timeout(60_000);

  it("--help lists every command and exits 0", () => {
    const run = runCli(["--help"]);
    expect(run.status, describeRun(run)).to.equal(0);
    expect(run.stdout).to.match(/^Usage: mcp-codegen \[--root <dir>\] <command>/m);
    expect(run.stdout).to.match(/^\s+generate \[--out <dir>\] \[--revision R \.\.\.\]/m);
    expect(run.stdout).to.match(/^\s+spec fetch\b/m);
    for (const command of ["check", "diff <revA> <revB \\| --schema file> \\[--json\\]", "spec add <rev> --from", "scaffold <dir>"])
      expect(run.stdout).to.match(new RegExp(`^\\s+${command}`, "m"));
    expect(run.stderr).to.equal("");
  });

  it("generate --help lists its options and exits 0", () => {
    const run = runCli(["generate", "--help"]);
    expect(run.status, describeRun(run)).to.equal(0);
    for (const option of ["--revision <R>", "--force", "--root <dir>", "--help"]) expect(run.stdout).to.contain(option);
  });

  it("spec --help lists the spec commands, and every command's --help its usage and options: exit 0", () => {
    const spec = runCli(["spec", "--help"]);
    expect(spec.status, describeRun(spec)).to.equal(0);
    expect(spec.stdout).to.match(/^Usage: mcp-codegen spec <command>/m).and.match(/^\s+spec fetch\b/m).and.match(/^\s+spec add <rev>/m);
    for (const command of [["generate"], ["check"], ["diff"], ["scaffold"], ["spec", "fetch"], ["spec", "add"]]) {
      const run = runCli([...command, "--help"]);
      expect(run.status, describeRun(run)).to.equal(0);
      expect(run.stdout, command.join(" ")).to.match(new RegExp(`^Usage: mcp-codegen ${command.join(" ")}\\b`, "m")).and.contain("-h, --help");
      expect(run.stderr).to.equal("");
    }
  });

  it("generate --tools lists every unsupported keyword at once, each with its pointer and what to do; an unknown keyword is a warning with a did-you-mean", () => {
    const dir = tempDir("cli-tools");
    try {
      const tools = [
        { name: "a", inputSchema: { type: "object", propertes: { x: { type: "string" } }, $vocabulary: {} } },
        { name: "b", inputSchema: { type: "object", properties: { y: { type: "array", $vocabulary: {} } } } },
      ];
      writeFileSync(join(dir, "mcp.server.json"), JSON.stringify({ name: "t", version: "1.0.0", tools }));
      const refused = runCli(["generate", "--tools", join(dir, "mcp.server.json"), "--out", join(dir, "out")]);
      expect(refused.status, describeRun(refused)).to.equal(1);
      expect(refused.stderr).to.contain("2 keywords are not supported");
      expect(refused.stderr).to.contain('#/tools/0/inputSchema/$vocabulary: "$vocabulary" is not supported by the build-time validator compiler: rewrite the schema without it, or leave --tools out');
      expect(refused.stderr).to.contain('#/tools/1/inputSchema/properties/y/$vocabulary: "$vocabulary" is not supported');
      expect(existsSync(join(dir, "out"))).to.equal(false);
      writeFileSync(join(dir, "mcp.server.json"), JSON.stringify({ name: "t", version: "1.0.0", tools: [{ name: "a", inputSchema: { type: "object", propertes: { x: { type: "string" } } } }] }));
      const warned = runCli(["generate", "--tools", join(dir, "mcp.server.json"), "--out", join(dir, "out")]);
      expect(warned.status, describeRun(warned)).to.equal(0);
      expect(warned.stderr).to.contain('#/tools/0/inputSchema/propertes: unknown keyword "propertes" (did you mean "properties"?): JSON Schema ignores it');
      expect(warned.stderr.match(/unknown keyword/g), "said once").to.have.length(1);
    } finally {
      removeDir(dir);
    }
  });

  it("invalid JSON is named by file, line and column", () => {
    const dir = tempDir("cli-json");
    try {
      writeFileSync(join(dir, "mcp.server.json"), '{\n  "name": "t",\n  "version": "1.0.0",\n}\n');
      const run = runCli(["generate", "--tools", join(dir, "mcp.server.json"), "--out", join(dir, "out")]);
      expect(run.status, describeRun(run)).to.equal(1);
      expect(run.stderr).to.contain(`${join(dir, "mcp.server.json")}:4:1: not valid JSON`);
      expect(run.stderr.match(/not valid JSON/g), "said once").to.have.length(1);
    } finally {
      removeDir(dir);
    }
  });

  it("--version prints the version of the toolkit's package.json", () => {
    const run = runCli(["--version"]);
    expect(run.status, describeRun(run)).to.equal(0);
    expect(run.stdout).to.equal(`${(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version}\n`);
  });

  it("no command prints the usage and exits 1", () => {
    const run = runCli([]);
    expect(run.status, describeRun(run)).to.equal(1);
    expect(run.stdout).to.match(/^Usage: mcp-codegen/m);
  });

  it("an unknown command exits 2 with a message naming it, and the usage", () => {
    const run = runCli(["frobnicate", "--root", "/nonexistent"]);
    expect(run.status, describeRun(run)).to.equal(2);
    expect(run.stderr).to.contain('unknown command "frobnicate"');
    expect(run.stderr).to.match(/Usage: mcp-codegen/);
    expect(run.stdout).to.equal("");
  });

  it("an unknown option exits 2 naming it, with the command's options", () => {
    const run = runCli(["generate", "--bogus"]);
    expect(run.status, describeRun(run)).to.equal(2);
    expect(run.stderr).to.contain("--bogus");
    expect(run.stderr).to.contain("Usage: mcp-codegen generate");
  });

  it("a revision that is not pinned exits 1 and lists the pinned ones", () => {
    const root = tempProjectRoot("cli", []);
    try {
      const run = runCli(["generate", "--root", root, "--revision", "1999-01-01"]);
      expect(run.status, describeRun(run)).to.equal(1);
      expect(run.stderr).to.contain("1999-01-01").and.to.contain("not pinned");
      for (const revision of REVISIONS) expect(run.stderr).to.contain(revision);
    } finally {
      removeDir(root);
    }
  });

  it("--version (and -v) prints the version in package.json and exits 0", () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
    for (const flag of ["--version", "-v"]) {
      const run = runCli([flag]);
      expect(run.status, describeRun(run)).to.equal(0);
      expect(run.stdout).to.equal(`${version}\n`);
    }
  });

  it("a mistyped command or option gets a 'did you mean', exit 2", () => {
    const command = runCli(["genrate"]);
    expect(command.status, describeRun(command)).to.equal(2);
    expect(command.stderr).to.contain('unknown command "genrate" (did you mean "generate"?)');
    const sub = runCli(["spec", "fecth"]);
    expect(sub.stderr).to.contain('unknown command "spec fecth" (did you mean "spec fetch"?)');
    const option = runCli(["generate", "--revison", "2025-11-25"]);
    expect(option.status, describeRun(option)).to.equal(2);
    expect(option.stderr).to.contain('unknown option --revison (did you mean "--revision"?)');
    // A flag that belongs to --tools, given without it: which flag it goes with, not "nothing to generate".
    const formats = runCli(["generate", "--assert-formats", "--out", "src/generated"]);
    expect(formats.status, describeRun(formats)).to.equal(2);
    expect(formats.stderr).to.contain("--assert-formats goes with --tools");
    const far = runCli(["frobnicate"]);
    expect(far.stderr).not.to.contain("did you mean");
  });

  describe("--root, before the command or on it, reaches every command", () => {
    /** A root whose spec/pinned.json pins one revision only, so its answers differ from the checkout's. */
    let root: string;
    before(() => {
      root = tempDir("cli-root");
      mkdirSync(join(root, "spec"));
      const pinned = JSON.parse(readFileSync(join(ROOT, "spec", "pinned.json"), "utf8")) as { revisions: Record<string, unknown> };
      writeFileSync(join(root, "spec", "pinned.json"), JSON.stringify({ ...pinned, revisions: { "2025-11-25": pinned.revisions["2025-11-25"] }, extensions: {} }));
    });
    after(() => removeDir(root));

    for (const place of ["before", "after", "equals"] as const)
      it(`generate reads the given root (--root ${place === "equals" ? "=dir before" : place} the command)`, () => {
        const command = ["generate", "--revision", "2026-07-28"];
        const args = place === "before" ? ["--root", root, ...command] : place === "equals" ? [`--root=${root}`, ...command] : [...command, "--root", root];
        const run = runCli(args);
        expect(run.status, describeRun(run)).to.equal(1);
        expect(run.stderr).to.contain("2026-07-28 is not pinned").and.to.contain("(pinned: 2025-11-25)");
      });

    // One run: scaffold loads ts-morph and prettier; the generate cases above prove where --root may stand.
    it("scaffold takes --root too, and writes nothing when refused", () => {
      const project = join(root, "project");
      const run = runCli(["scaffold", project, "--name", "x", "--revisions", "2026-07-28", "--root", root]);
      expect(run.status, describeRun(run)).to.equal(1);
      expect(run.stderr).to.contain("unknown MCP revision 2026-07-28 in --revisions (pinned: 2025-11-25)");
      expect(existsSync(project)).to.equal(false);
    });

    it("a global --root without a folder exits 2", () => {
      const run = runCli(["--root"]);
      expect(run.status, describeRun(run)).to.equal(2);
      expect(run.stderr).to.contain("--root needs a folder");
    });
  });

  it("the published bin (bin/mcp-codegen.js, running dist/) answers --help", function () {
    if (!existsSync(join(ROOT, "dist", "codegen", "cli.js"))) skipUnlessCi(this, "dist/codegen/cli.js is missing", "run `make build`");
    const run = spawnSync(process.execPath, [join(ROOT, "bin", "mcp-codegen.js"), "--help"], { cwd: ROOT, encoding: "utf8" });
    expect(run.status, run.stderr).to.equal(0);
    expect(run.stdout).to.match(/^Usage: mcp-codegen \[--root <dir>\] <command>/m);
  });
});
