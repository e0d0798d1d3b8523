// The suite's own rules: a skip for a missing prerequisite fails in CI (test/support/skip.ts), and
// a test left with `.only` fails the run (.mocharc.json forbid-only), both shown on a real mocha.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "chai";
import { removeDir, ROOT, tempDir } from "./project.js";

/** Runs mocha with the checkout's .mocharc.json on `source` (one spec file) in `env`, serially. */
function mocha(source: string, env: Record<string, string | undefined>): { status: number | null; output: string } {
  const dir = tempDir("mocha-rules-");
  try {
    const spec = join(dir, "probe.test.mjs");
    writeFileSync(spec, source);
    const config = { ...(JSON.parse(readFileSync(join(ROOT, ".mocharc.json"), "utf8")) as object), spec: [spec], parallel: false, reporter: "dot" };
    writeFileSync(join(dir, "mocharc.json"), JSON.stringify(config));
    const run = spawnSync(process.execPath, [join(ROOT, "node_modules", "mocha", "bin", "mocha.js"), "--config", join(dir, "mocharc.json")], {
      cwd: ROOT,
      encoding: "utf8",
      env: { ...process.env, ...env },
      timeout: 120_000,
    });
    return { status: run.status, output: run.stdout + run.stderr };
  } finally {
    removeDir(dir);
  }
}

const SKIPPING = `import { skipUnlessCi } from ${JSON.stringify(join(ROOT, "test", "support", "skip.ts"))};
it("needs a tool", function () { skipUnlessCi(this, "the tool is missing", "install it"); });`;

describe("the test suite's rules", function () {
  this.timeout(240_000);

  it("a skip for something missing skips outside CI and fails in CI, naming the remedy", () => {
    const local = mocha(SKIPPING, { CI: undefined });
    expect(local.status, local.output).to.equal(0);
    expect(local.output).to.match(/1 pending/);
    const ci = mocha(SKIPPING, { CI: "true" });
    expect(ci.status, ci.output).to.equal(1);
    expect(ci.output).to.include("the tool is missing: install it");
  });

  it("a test left with .only fails the run", () => {
    const run = mocha(`it.only("focused", () => {}); it("other", () => {});`, {});
    expect(run.status, run.output).to.not.equal(0);
    expect(run.output).to.match(/forbid.?only|\.only forbidden/i);
  });
});
