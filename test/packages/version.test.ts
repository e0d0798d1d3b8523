import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "chai";
import { MANIFESTS, syncVersions } from "../../packages/version.js";
import { removeDir, ROOT, tempDir } from "../support/project.js";

describe("packages/version: one version for the checkout and both published packages", () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir("version");
    for (const path of ["package.json", ...MANIFESTS]) {
      mkdirSync(join(dir, path, ".."), { recursive: true });
      cpSync(join(ROOT, path), join(dir, path));
    }
  });
  afterEach(() => removeDir(dir));

  it("writes the version changeset gave the checkout into both manifests and the CLI's exact dependency on the runtime; a second run changes nothing", () => {
    const root = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version: string };
    const next = root.version.replace(/^(\d+)\.(\d+)\.\d+$/, (_, major: string, minor: string) => `${major}.${Number(minor) + 1}.0`);
    writeFileSync(join(dir, "package.json"), JSON.stringify({ ...root, version: next }));
    expect(syncVersions(dir)).to.deep.equal([...MANIFESTS]);
    const [runtime, cli] = MANIFESTS.map((path) => JSON.parse(readFileSync(join(dir, path), "utf8")) as { name: string; version: string; dependencies: Record<string, string> });
    expect([runtime!.version, cli!.version, cli!.dependencies[runtime!.name]]).to.deep.equal([next, next, next]);
    expect(syncVersions(dir)).to.deep.equal([]);
  });
});
