/** The CLI's own surface: help, usage errors and their exit codes, from source and through the published bin. */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "chai";
import { describeRun, removeDir, REVISIONS, ROOT, runCli, tempProjectRoot } from "../support/project.js";

describe("codegen/cli", function () {
  this.timeout(60_000);

  it("--help lists every command and exits 0", () => {
    const run = runCli(["--help"]);
    expect(run.status, describeRun(run)).to.equal(0);
    expect(run.stdout).to.match(/^Usage: mcp-codegen <command>/m);
    expect(run.stdout).to.match(/^\s+generate \[--revision R \.\.\.\]/m);
    expect(run.stdout).to.match(/^\s+spec fetch\b/m);
    for (const command of ["check", "diff <revA> <revB> \\[--json\\]", "spec add <rev> --from", "scaffold <dir>"])
      expect(run.stdout).to.match(new RegExp(`^\\s+${command}`, "m"));
    expect(run.stderr).to.equal("");
  });

  it("generate --help lists its options and exits 0", () => {
    const run = runCli(["generate", "--help"]);
    expect(run.status, describeRun(run)).to.equal(0);
    for (const option of ["--revision <R>", "--force", "--root <dir>", "--help"]) expect(run.stdout).to.contain(option);
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

  it("the published bin (bin/mcp-codegen.js, running dist/) answers --help", function () {
    if (!existsSync(join(ROOT, "dist", "codegen", "cli.js"))) this.skip(); // `make build` writes dist/
    const run = spawnSync(process.execPath, [join(ROOT, "bin", "mcp-codegen.js"), "--help"], { cwd: ROOT, encoding: "utf8" });
    expect(run.status, run.stderr).to.equal(0);
    expect(run.stdout).to.match(/^Usage: mcp-codegen <command>/m);
  });
});
