/**
 * `mcp-codegen check` through the CLI, in throwaway roots: fresh is exit 0 and writes nothing;
 * every way generated/ can go stale (a hand edit, a deletion, a stray revision, a new schema, a
 * changed generator) is exit 1 naming the file and the cause, even when the stamp says fresh.
 */
import { spawnSync } from "node:child_process";
import { appendFileSync, cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "chai";
import { sha256 } from "../../spec/files.js";
import { describeRun, removeDir, ROOT, runCli, schemaPath, snapshot, tempDir, tempProjectRoot, type CliRun } from "../support/project.js";

/** Two revisions, one per era and dialect, keep each regeneration short. */
const REVS = ["2025-06-18", "2026-07-28"] as const;

function pinOnly(root: string, revisions: readonly string[]): void {
  const path = join(root, "spec", "pinned.json");
  const pinned = JSON.parse(readFileSync(path, "utf8")) as { revisions: Record<string, { files: Record<string, string> }> };
  pinned.revisions = Object.fromEntries(
    revisions.map((r) => [r, { ...pinned.revisions[r]!, files: { "schema.json": pinned.revisions[r]!.files["schema.json"]! } }]),
  );
  writeFileSync(path, `${JSON.stringify(pinned, null, 2)}\n`);
}

function freshRoot(label: string): string {
  const root = tempProjectRoot(label, REVS);
  pinOnly(root, REVS);
  const run = runCli(["generate", "--root", root]);
  expect(run.status, describeRun(run)).to.equal(0);
  return root;
}

function expectStale(run: CliRun, lines: readonly RegExp[]): void {
  expect(run.status, describeRun(run)).to.equal(1);
  expect(run.stderr).to.match(/^generated\/ is stale: \d+ files? differs? from a fresh generation/m);
  for (const line of lines) expect(run.stderr, describeRun(run)).to.match(line);
  expect(run.stderr).to.contain("Run `mcp-codegen generate`");
}

describe("codegen/check, through the CLI", function () {
  this.timeout(120_000);
  let root: string;
  let generated: string;
  let pristine: string;
  before(() => {
    root = freshRoot("check");
    generated = join(root, "generated");
    pristine = join(root, "pristine");
    cpSync(generated, pristine, { recursive: true });
  });
  after(() => removeDir(root));

  /** Each case spoils generated/ (or spec/, restored by the case): put the generated tree back as it was. */
  afterEach(() => {
    rmSync(generated, { recursive: true });
    cpSync(pristine, generated, { recursive: true });
  });

  it("a fresh tree: exit 0, every file counted, nothing written", () => {
    const before = snapshot(generated);
    const run = runCli(["check", "--root", root]);
    expect(run.status, describeRun(run)).to.equal(0);
    const files = [...before.keys()].filter((p) => p !== ".stamp.json").length;
    expect(run.stdout).to.match(new RegExp(`^generated/ is up to date: ${files} files of 2 revisions and 1 extension match a fresh generation`, "m"));
    expect(before.has("extensions/tasks/module.ts"), "the tasks extension, built on 2026-07-28, is generated and checked").to.equal(true);
    expect(snapshot(generated)).to.deep.equal(before);
  });

  it("a hand-edited file: exit 1 naming it, even when the stamp has been made to agree with it", () => {
    const path = join(generated, "2025-06-18", "types.ts");
    appendFileSync(path, "\nexport type HandEdited = true;\n");
    // Forge the stamp so that a plain `generate` would call the revision fresh: check must not trust it.
    const stampPath = join(generated, ".stamp.json");
    const stamp = JSON.parse(readFileSync(stampPath, "utf8")) as { revisions: Record<string, { files: Record<string, string> }> };
    stamp.revisions["2025-06-18"]!.files["2025-06-18/types.ts"] = sha256(readFileSync(path));
    writeFileSync(stampPath, JSON.stringify(stamp));
    expect(runCli(["generate", "--root", root]).stdout).to.match(/2025-06-18 .* up to date/);

    const run = runCli(["check", "--root", root]);
    expectStale(run, [/^ {2}2025-06-18: generated files were edited, deleted or added by hand$/m, /^ {4}differs {2}generated\/2025-06-18\/types\.ts$/m]);
    expect(run.stderr).not.to.contain("2026-07-28");
  });

  it("a deleted file and a deleted support file: exit 1, each named missing", () => {
    rmSync(join(generated, "2026-07-28", "handlers.ts"));
    rmSync(join(generated, "method-not-found.ts"));
    const run = runCli(["check", "--root", root]);
    expectStale(run, [/^ {4}missing {2}generated\/2026-07-28\/handlers\.ts$/m, /^ {4}missing {2}generated\/method-not-found\.ts$/m]);
    expect(run.stderr).not.to.contain("2025-06-18");
  });

  it("a revision folder that is not pinned, and a stray file: exit 1, each named extra", () => {
    mkdirSync(join(generated, "2099-01-01"));
    writeFileSync(join(generated, "2099-01-01", "index.ts"), "export {};\n");
    writeFileSync(join(generated, "2025-06-18", "notes.ts"), "export {};\n");
    const run = runCli(["check", "--root", root]);
    expectStale(run, [
      /^ {2}2099-01-01: 2099-01-01 is not pinned in spec\/pinned\.json/m,
      /^ {4}extra {4}generated\/2099-01-01\/index\.ts$/m,
      /^ {4}extra {4}generated\/2025-06-18\/notes\.ts$/m,
    ]);
  });

  it("a newly pinned schema that was not regenerated: exit 1 naming spec/<rev>/schema.json as the cause", () => {
    const path = schemaPath("2025-06-18", root);
    const original = readFileSync(path, "utf8");
    const document = JSON.parse(original) as { definitions: Record<string, { description?: string }> };
    document.definitions.Tool!.description = "A tool, described differently upstream.";
    const changed = JSON.stringify(document, null, 2);
    writeFileSync(path, changed);
    const pinnedPath = join(root, "spec", "pinned.json");
    const pinned = readFileSync(pinnedPath, "utf8");
    writeFileSync(pinnedPath, pinned.replace(sha256(original), sha256(changed)));
    try {
      const run = runCli(["check", "--root", root]);
      expectStale(run, [/^ {2}2025-06-18: spec\/2025-06-18\/schema\.json changed since the last generate$/m, /^ {4}differs {2}generated\/2025-06-18\/types\.ts$/m]);
    } finally {
      writeFileSync(path, original);
      writeFileSync(pinnedPath, pinned);
    }
  });

  it("a schema missing from spec/: exit 1 saying so", () => {
    const path = schemaPath("2026-07-28", root);
    const text = readFileSync(path);
    rmSync(path);
    try {
      const run = runCli(["check", "--root", root]);
      expect(run.status, describeRun(run)).to.equal(1);
      expect(run.stderr).to.contain(path).and.to.contain("is missing");
    } finally {
      writeFileSync(path, text);
    }
  });

  it("a changed generator (a copy of codegen/ with one emitter edited): exit 1 naming every revision and the generator", () => {
    const toolkit = tempDir("toolkit");
    try {
      cpSync(join(ROOT, "codegen"), join(toolkit, "codegen"), { recursive: true });
      mkdirSync(join(toolkit, "spec"));
      for (const file of ["files.ts", "pinned.ts", "fetch.ts"]) cpSync(join(ROOT, "spec", file), join(toolkit, "spec", file));
      writeFileSync(join(toolkit, "package.json"), '{ "type": "module" }\n');
      symlinkSync(join(ROOT, "node_modules"), join(toolkit, "node_modules"), "dir");
      const registry = join(toolkit, "codegen", "emit", "registry.ts");
      const source = readFileSync(registry, "utf8");
      expect(source).to.contain("whole surface under one import");
      writeFileSync(registry, source.replace("export * from \"./handlers.js\";\n", "export * from \"./handlers.js\";\nexport const EDITED = true;\n"));

      const run = spawnSync(process.execPath, ["--import", "tsx", join(toolkit, "codegen", "cli.ts"), "check", "--root", root], {
        cwd: ROOT,
        encoding: "utf8",
        timeout: 110_000,
      });
      const result = { status: run.status, stdout: run.stdout, stderr: run.stderr };
      expectStale(result, [
        /^ {2}2025-06-18: the generator \(codegen\/, json-schema-to-typescript or prettier\) changed since the last generate$/m,
        /^ {2}2026-07-28: the generator/m,
        /^ {4}differs {2}generated\/2025-06-18\/index\.ts$/m,
        /^ {4}differs {2}generated\/2026-07-28\/index\.ts$/m,
      ]);
    } finally {
      removeDir(toolkit);
    }
  });
});
