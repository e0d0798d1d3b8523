/**
 * `mcp-codegen generate` end to end, through the CLI, in throwaway project roots: what a first
 * run writes, that a second writes nothing, that a hand edit is undone, and that a schema the
 * generator must refuse fails the run without touching generated/.
 */
import { createHash } from "node:crypto";
import { appendFileSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { expect } from "chai";
import { loadSchema } from "../../codegen/load/load.js";
import { writeFiles } from "../../codegen/write.js";
import { RUNTIME_SHAPING } from "../../codegen/generate.js";
import { importsOf, resolveLocal, root } from "../support/imports.js";
import {
  describeRun,
  listFiles,
  rawSchema,
  removeDir,
  REVISIONS,
  runCli,
  schemaPath,
  schemaText,
  snapshot,
  tempDir,
  tempProjectRoot,
  type JsonObject,
} from "../support/project.js";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** PROTOCOL-NOTES: each revision's era and its methods in all (both request lists, both notification lists, input requests). */
const SUMMARY_FACTS = {
  "2024-11-05": { era: "session", methods: 13 + 3 + 4 + 7 },
  "2025-03-26": { era: "session", methods: 13 + 3 + 4 + 7 },
  "2025-06-18": { era: "session", methods: 13 + 4 + 4 + 7 },
  "2025-11-25": { era: "session", methods: 17 + 8 + 5 + 9 },
  "2026-07-28": { era: "stateless", methods: 10 + 0 + 1 + 8 + 3 },
} as const;

interface SummaryRow {
  readonly era: string;
  readonly definitions: number;
  readonly methods: number;
  readonly files: string;
  /** The asserted patches the revision carried, as printed after `patched:`. */
  readonly patched: readonly string[];
}

/** The CLI's summary, one row per revision. */
function summary(stdout: string): Map<string, SummaryRow> {
  const rows = new Map<string, SummaryRow>();
  for (const match of stdout.matchAll(/^\s+(\d{4}-\d{2}-\d{2})\s+(session|stateless)\s+(\d+) definitions\s+(\d+) methods\s+(.+?)(?:  patched: (.+))?$/gm))
    rows.set(match[1]!, {
      era: match[2]!,
      definitions: Number(match[3]),
      methods: Number(match[4]),
      files: match[5]!.trim(),
      patched: match[6] ? match[6].split(", ") : [],
    });
  return rows;
}

const tmpLeftovers = (dir: string) => listFiles(dir).filter((path) => path.endsWith(".tmp"));

describe("codegen/generate, end to end through the CLI", function () {
  this.timeout(120_000);

  describe("all five revisions in a fresh root", () => {
    let root: string;
    let generated: string;
    let first: ReturnType<typeof snapshot>;
    before(() => {
      root = tempProjectRoot("generate");
      generated = join(root, "generated");
    });
    after(() => removeDir(root));

    it("a first run writes every revision's modules and the registry, and summarises each revision", () => {
      const run = runCli(["generate", "--root", root]);
      expect(run.status, describeRun(run)).to.equal(0);
      const rows = summary(run.stdout);
      expect([...rows.keys()], describeRun(run)).to.deep.equal([...REVISIONS]);
      for (const revision of REVISIONS) {
        const row = rows.get(revision)!;
        const files = listFiles(join(generated, revision));
        expect(files, revision).to.include.members(["index.ts", "protocol.ts", "types.ts"]);
        expect(row.files, revision).to.equal(`${files.length} written, 0 unchanged`);
        // A revision PROTOCOL-NOTES does not describe yet (one just added with `spec add`) has no facts to hold it to.
        const facts = (SUMMARY_FACTS as Partial<Record<string, { era: string; methods: number }>>)[revision];
        if (facts) expect([row.era, row.methods], revision).to.deep.equal([facts.era, facts.methods]);
        expect(row.definitions, revision).to.be.at.least(Object.keys(rawSchema(revision).definitions).length);
        // Patches follow content: the summary names exactly those whose node this schema holds.
        expect(row.patched, revision).to.deep.equal(loadSchema(revision, schemaText(revision)).patches);
      }
      // Files shared by all revisions (the registry, support modules) are listed on one line.
      const shared = /^\s+(\S.*) written$/m.exec(run.stdout)?.[1]?.split(", ") ?? [];
      expect(shared, describeRun(run)).to.include("index.ts");
      for (const file of shared) expect(existsSync(join(generated, file)), file).to.equal(true);
      expect(run.stdout).to.match(/^done in \d+ ms$/m);
      expect(listFiles(generated)).to.include.members(["index.ts", ".stamp.json"]);
      expect(tmpLeftovers(root)).to.deep.equal([]);
      first = snapshot(generated);
    });

    it("a second run writes nothing and reports every revision up to date", () => {
      const run = runCli(["generate", "--root", root]);
      expect(run.status, describeRun(run)).to.equal(0);
      const rows = summary(run.stdout);
      for (const revision of REVISIONS) expect(rows.get(revision)?.files, revision).to.equal("up to date");
      expect(run.stdout).not.to.match(/written/);
      expect(snapshot(generated)).to.deep.equal(first);
    });

    it("--force regenerates in memory but rewrites no file whose content is unchanged", () => {
      const run = runCli(["generate", "--root", root, "--force"]);
      expect(run.status, describeRun(run)).to.equal(0);
      for (const [revision, row] of summary(run.stdout))
        expect(row.files, revision).to.equal(`0 written, ${listFiles(join(generated, revision)).length} unchanged`);
      const after = snapshot(generated);
      expect([...after.keys()]).to.deep.equal([...first.keys()]);
      for (const [path, file] of after) {
        expect(file.bytes.equals(first.get(path)!.bytes), path).to.equal(true);
        if (path !== ".stamp.json") expect(file.mtimeNs, `${path} untouched`).to.equal(first.get(path)!.mtimeNs);
      }
    });

    it("restores a hand-edited or deleted generated file on the next run, and only that revision's", () => {
      appendFileSync(join(generated, "2025-06-18", "types.ts"), "\nexport type HandEdited = true;\n");
      rmSync(join(generated, "2024-11-05", "protocol.ts"));
      const before = snapshot(generated);
      const run = runCli(["generate", "--root", root]);
      expect(run.status, describeRun(run)).to.equal(0);
      const rows = summary(run.stdout);
      const others = (revision: string) => listFiles(join(generated, revision)).length - 1;
      expect(rows.get("2025-06-18")?.files).to.equal(`1 written, ${others("2025-06-18")} unchanged`);
      expect(rows.get("2024-11-05")?.files).to.equal(`1 written, ${others("2024-11-05")} unchanged`);
      for (const revision of ["2025-03-26", "2025-11-25", "2026-07-28"]) expect(rows.get(revision)?.files, revision).to.equal("up to date");

      const after = snapshot(generated);
      for (const [path, file] of first) expect(after.get(path)?.bytes.equals(file.bytes), `${path} restored`).to.equal(true);
      for (const path of ["2025-03-26/types.ts", "2026-07-28/types.ts", "index.ts"])
        expect(after.get(path)!.mtimeNs, `${path} untouched`).to.equal(before.get(path)!.mtimeNs);
    });
  });

  describe("a schema the generator must refuse", () => {
    // 2025-06-18 is draft-07 and carries an asserted patch (codegen/load/patches.ts).
    const revision = "2025-06-18";
    const CASES: { name: string; pointer: string; reason: RegExp; corrupt: (document: JsonObject, definitions: Record<string, JsonObject>) => void }[] = [
      {
        name: "an unknown keyword",
        pointer: "#/definitions/Tool/properties/name/patternProperties",
        reason: /unsupported keyword "patternProperties"/,
        corrupt: (_, defs) => {
          ((defs.Tool!.properties as JsonObject).name as JsonObject).patternProperties = {};
        },
      },
      {
        name: "a dangling $ref",
        pointer: "#/definitions/CallToolResult/properties/content/items/$ref",
        reason: /dangling \$ref: no definition "NoSuchContent"/,
        corrupt: (_, defs) => {
          ((defs.CallToolResult!.properties as JsonObject).content as JsonObject).items = { $ref: "#/definitions/NoSuchContent" };
        },
      },
      {
        name: "an unknown dialect",
        pointer: "#/$schema",
        reason: /unknown dialect/,
        corrupt: (document) => {
          document.$schema = "https://json-schema.org/draft/2019-09/schema";
        },
      },
    ];

    /** Writes the schema into the root and pins exactly it, so only the corruption can fail the run. */
    function install(root: string, text: string): void {
      writeFileSync(schemaPath(revision, root), text);
      const pinnedPath = join(root, "spec", "pinned.json");
      const pinned = JSON.parse(readFileSync(pinnedPath, "utf8")) as { revisions: Record<string, { files: Record<string, string> }> };
      pinned.revisions = { [revision]: { ...pinned.revisions[revision]!, files: { "schema.json": sha256(text) } } };
      writeFileSync(pinnedPath, `${JSON.stringify(pinned, null, 2)}\n`);
    }

    function corrupted(corrupt: (typeof CASES)[number]["corrupt"]): string {
      const { document, definitions } = rawSchema(revision);
      corrupt(document, definitions);
      return JSON.stringify(document, null, 2);
    }

    function expectRefused(run: ReturnType<typeof runCli>, pointer: string, reason: RegExp): void {
      expect(run.status, describeRun(run)).to.equal(1);
      expect(run.stderr).to.contain("generation failed");
      expect(run.stderr).to.contain(`${revision} ${pointer}: `);
      expect(run.stderr).to.match(reason);
    }

    let good: string;
    let goodSnapshot: ReturnType<typeof snapshot>;
    before(() => {
      good = tempProjectRoot("good", [revision]);
      install(good, schemaText(revision));
      const run = runCli(["generate", "--root", good]);
      expect(run.status, describeRun(run)).to.equal(0);
      goodSnapshot = snapshot(join(good, "generated"));
      expect(goodSnapshot.size).to.be.greaterThan(3);
    });
    after(() => removeDir(good));

    for (const { name, pointer, reason, corrupt } of CASES) {
      it(`${name}: exit 1 naming ${revision} and ${pointer}, and no file in an empty generated/`, () => {
        const root = tempProjectRoot("refuse", [revision]);
        try {
          install(root, corrupted(corrupt));
          expectRefused(runCli(["generate", "--root", root]), pointer, reason);
          expect(listFiles(join(root, "generated"))).to.deep.equal([]);
          expect(tmpLeftovers(root)).to.deep.equal([]);
        } finally {
          removeDir(root);
        }
      });

      it(`${name}: a previously generated tree is left byte-identical, mtimes included`, () => {
        try {
          install(good, corrupted(corrupt));
          expectRefused(runCli(["generate", "--root", good]), pointer, reason);
          expect(snapshot(join(good, "generated"))).to.deep.equal(goodSnapshot);
          expect(tmpLeftovers(good)).to.deep.equal([]);
        } finally {
          install(good, schemaText(revision));
        }
      });
    }

    it("a schema that does not match its pinned hash is refused before anything is generated", () => {
      const root = tempProjectRoot("unpinned", [revision]);
      try {
        install(root, schemaText(revision));
        appendFileSync(schemaPath(revision, root), " ");
        const run = runCli(["generate", "--root", root]);
        expect(run.status, describeRun(run)).to.equal(1);
        expect(run.stderr).to.contain(schemaPath(revision, root)).and.to.contain("does not match spec/pinned.json");
        expect(existsSync(join(root, "generated"))).to.equal(false);
      } finally {
        removeDir(root);
      }
    });
  });
});

describe("codegen/write", () => {
  let dir: string | undefined;
  afterEach(() => removeDir(dir));

  it("writes only files whose content changed, atomically, and a dry run writes nothing", () => {
    dir = tempDir("write");
    const files = [
      { path: "a/one.ts", content: "export const one = 1;\n" },
      { path: "two.ts", content: "export const two = 2;\n" },
    ];
    const dry = writeFiles(dir, files, true);
    expect(dry.written).to.deep.equal(["a/one.ts", "two.ts"]);
    expect(listFiles(dir)).to.deep.equal([]);

    const first = writeFiles(dir, files);
    expect(first.written).to.deep.equal(["a/one.ts", "two.ts"]);
    expect(listFiles(dir)).to.deep.equal(["a/one.ts", "two.ts"]);
    expect(readFileSync(join(dir, "a/one.ts"), "utf8")).to.equal(files[0]!.content);
    const before = snapshot(dir);

    const second = writeFiles(dir, [files[0]!, { path: "two.ts", content: "export const two = 22;\n" }]);
    expect(second.written).to.deep.equal(["two.ts"]);
    expect(second.unchanged).to.deep.equal(["a/one.ts"]);
    const after = snapshot(dir);
    expect(after.get("a/one.ts")!.mtimeNs).to.equal(before.get("a/one.ts")!.mtimeNs);
    expect(after.get("two.ts")!.bytes.toString()).to.equal("export const two = 22;\n");
    expect(listFiles(dir)).to.deep.equal(["a/one.ts", "two.ts"]);
  });
});

describe("codegen/generate: the stamp's generator hash", () => {
  // The validators are printed by the runtime's JSON Schema compiler: a change there must make `generate` rewrite and `check` report stale.
  it("covers every runtime module the emitters run, so that a change to the compiler regenerates", () => {
    const seen = new Set<string>();
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const found of importsOf(file)) if (found.specifier.startsWith(".") && !found.typeOnly) visit(resolveLocal(file, found.specifier));
    };
    for (const emitter of ["codegen/emit/validators.ts", "codegen/emit/module.ts", "codegen/tool-validators/emit.ts"]) visit(`${root}/${emitter}`);
    const runtime = [...seen].map((file) => relative(root, file)).filter((file) => file.startsWith("runtime/"));
    expect(runtime.length, "runtime modules the emitters run").to.be.greaterThan(20);
    expect(runtime.filter((file) => !RUNTIME_SHAPING.some((folder) => file.startsWith(`runtime/${folder}/`)))).to.deep.equal([]);
  });
});
