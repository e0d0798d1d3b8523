/**
 * `mcp-codegen check` through the CLI, in throwaway roots: fresh is exit 0 and writes nothing;
 * every way generated/ can go stale (a hand edit, a deletion, a stray revision, a new schema, a
 * changed generator) is exit 1 naming the file and the cause, even when the stamp says fresh.
 */
import { appendFileSync, cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "chai";
import { sha256 } from "../../codegen/spec/files.js";
import { describeRun, listFiles, removeDir, ROOT, runCli, runCliAsync, schemaPath, snapshot, tempDir, tempProjectRoot, type CliRun } from "../support/project.js";

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

/**
 * Each case spoils its own copy of one freshly generated root, then runs `check` on it. The
 * copies are independent, so their checks (each a full regeneration in memory) run two at a
 * time, one per core, started in `before`; each `it` asserts on its own run.
 */
interface Case {
  readonly name: string;
  /** Spoils `root` (generated/ or spec/), and runs check on it. */
  readonly run: (root: string) => Promise<CliRun>;
  /** `copied`: the case's generated/ as it was before the case ran. */
  readonly expect: (run: CliRun, root: string, copied: Snapshot) => void;
}

type Snapshot = ReturnType<typeof snapshot>;

/** Folders the cases make beside their roots, removed after. */
const scratch: string[] = [];

const check = (root: string) => runCliAsync(["check", "--root", root]);

const CASES: Case[] = [
  {
    name: "a fresh tree: exit 0, every file counted, nothing written",
    run: check,
    expect: (run, root, copied) => {
      expect(run.status, describeRun(run)).to.equal(0);
      const files = listFiles(join(root, "generated")).filter((p) => p !== ".stamp.json").length;
      expect(run.stdout).to.match(new RegExp(`^generated/ is up to date: ${files} files of 2 revisions and 1 extension match a fresh generation`, "m"));
      expect(copied.has("extensions/tasks/module.ts"), "the tasks extension, built on 2026-07-28, is generated and checked").to.equal(true);
      expect(snapshot(join(root, "generated")), "nothing written").to.deep.equal(copied);
    },
  },
  {
    name: "a hand-edited file: exit 1 naming it, even when the stamp has been made to agree with it",
    run: async (root) => {
      const generated = join(root, "generated");
      const path = join(generated, "2025-06-18", "types.ts");
      appendFileSync(path, "\nexport type HandEdited = true;\n");
      // Forge the stamp so that a plain `generate` would call the revision fresh: check must not trust it.
      const stampPath = join(generated, ".stamp.json");
      const stamp = JSON.parse(readFileSync(stampPath, "utf8")) as { revisions: Record<string, { files: Record<string, string> }> };
      stamp.revisions["2025-06-18"]!.files["2025-06-18/types.ts"] = sha256(readFileSync(path));
      writeFileSync(stampPath, JSON.stringify(stamp));
      expect((await runCliAsync(["generate", "--root", root])).stdout).to.match(/2025-06-18 .* up to date/);
      return check(root);
    },
    expect: (run) => {
      expectStale(run, [/^ {2}2025-06-18: generated files were edited, deleted or added by hand$/m, /^ {4}differs {2}generated\/2025-06-18\/types\.ts$/m]);
      expect(run.stderr).not.to.contain("2026-07-28");
    },
  },
  {
    name: "a deleted file and a deleted shared file: exit 1, each named missing",
    run: (root) => {
      rmSync(join(root, "generated", "2026-07-28", "handlers.ts"));
      rmSync(join(root, "generated", "registry.ts"));
      return check(root);
    },
    expect: (run) => {
      expectStale(run, [/^ {4}missing {2}generated\/2026-07-28\/handlers\.ts$/m, /^ {4}missing {2}generated\/registry\.ts$/m]);
      expect(run.stderr).not.to.contain("2025-06-18");
    },
  },
  {
    name: "a revision folder that is not pinned, and a stray file: exit 1, each named extra",
    run: (root) => {
      mkdirSync(join(root, "generated", "2099-01-01"));
      writeFileSync(join(root, "generated", "2099-01-01", "index.ts"), "export {};\n");
      writeFileSync(join(root, "generated", "2025-06-18", "notes.ts"), "export {};\n");
      return check(root);
    },
    expect: (run) =>
      expectStale(run, [
        /^ {2}2099-01-01: 2099-01-01 is not pinned in spec\/pinned\.json/m,
        /^ {4}extra {4}generated\/2099-01-01\/index\.ts$/m,
        /^ {4}extra {4}generated\/2025-06-18\/notes\.ts$/m,
      ]),
  },
  {
    name: "a newly pinned schema that was not regenerated: exit 1 naming spec/<rev>/schema.json as the cause",
    run: (root) => {
      const path = schemaPath("2025-06-18", root);
      const original = readFileSync(path, "utf8");
      const document = JSON.parse(original) as { definitions: Record<string, { description?: string }> };
      document.definitions.Tool!.description = "A tool, described differently upstream.";
      const changed = JSON.stringify(document, null, 2);
      writeFileSync(path, changed);
      const pinnedPath = join(root, "spec", "pinned.json");
      writeFileSync(pinnedPath, readFileSync(pinnedPath, "utf8").replace(sha256(original), sha256(changed)));
      return check(root);
    },
    expect: (run) =>
      expectStale(run, [/^ {2}2025-06-18: spec\/2025-06-18\/schema\.json changed since the last generate$/m, /^ {4}differs {2}generated\/2025-06-18\/types\.ts$/m]),
  },
  {
    name: "a schema missing from spec/: exit 1 saying so",
    run: (root) => {
      rmSync(schemaPath("2026-07-28", root));
      return check(root);
    },
    expect: (run, root) => {
      expect(run.status, describeRun(run)).to.equal(1);
      expect(run.stderr).to.contain(schemaPath("2026-07-28", root)).and.to.contain("is missing");
    },
  },
  {
    name: "a changed generator (a copy of codegen/ with one emitter edited): exit 1 naming every revision and the generator",
    run: async (root) => {
      const toolkit = tempDir("toolkit");
      scratch.push(toolkit);
      // The generator, and the runtime modules it shares (the JSON Schema dialects, the manifest's ajv).
      for (const folder of ["codegen", "runtime"]) cpSync(join(ROOT, folder), join(toolkit, folder), { recursive: true });
      writeFileSync(join(toolkit, "package.json"), '{ "type": "module" }\n');
      symlinkSync(join(ROOT, "node_modules"), join(toolkit, "node_modules"), "dir");
      const registry = join(toolkit, "codegen", "emit", "registry.ts");
      const source = readFileSync(registry, "utf8");
      expect(source).to.contain("whole surface under one import");
      writeFileSync(registry, source.replace("export * from \"./handlers.js\";\n", "export * from \"./handlers.js\";\nexport const EDITED = true;\n"));
      return runCliAsync(["check", "--root", root], { cli: join(toolkit, "codegen", "cli.ts") });
    },
    expect: (run) =>
      expectStale(run, [
        /^ {2}2025-06-18: the generator \(codegen\/, json-schema-to-typescript or prettier\) changed since the last generate$/m,
        /^ {2}2026-07-28: the generator/m,
        /^ {4}differs {2}generated\/2025-06-18\/index\.ts$/m,
        /^ {4}differs {2}generated\/2026-07-28\/index\.ts$/m,
      ]),
  },
];

describe("codegen/check, through the CLI", function () {
  this.timeout(300_000);
  let fresh: string;
  const roots: string[] = [];
  const copies: Snapshot[] = [];
  const runs = new Map<Case, Promise<CliRun>>();
  before(() => {
    fresh = freshRoot("check");
    for (const _ of CASES) {
      const root = tempDir("check-case");
      cpSync(fresh, root, { recursive: true });
      roots.push(root);
      copies.push(snapshot(join(root, "generated")));
    }
    // Two at a time: each case starts when one of the two lanes is free.
    const lanes = [Promise.resolve(), Promise.resolve()];
    CASES.forEach((c, i) => {
      const lane = i % lanes.length;
      const run = lanes[lane]!.then(() => c.run(roots[i]!));
      lanes[lane] = run.then(
        () => undefined,
        () => undefined,
      );
      run.catch(() => {}); // awaited by its `it`
      runs.set(c, run);
    });
  });
  after(async () => {
    await Promise.allSettled(runs.values());
    for (const dir of [fresh, ...roots, ...scratch]) removeDir(dir);
  });

  CASES.forEach((c, i) => it(c.name, async () => c.expect(await runs.get(c)!, roots[i]!, copies[i]!)));
});
