/**
 * Lockstep with upstream's schema.ts, the TypeScript source schema.json is generated from
 * (pinned beside it in spec/pinned.json): for every type name both schema.ts and
 * generated/<rev>/types.ts export, the compiler assigns each to the other, for all five
 * revisions and each pinned extension (its schema.ts beside its core revision's), under the project's strict flags. The pairs that fail must be exactly the kept
 * divergences below, each with its reason; a new one fails the test, and so does one that
 * disappears. The same program type-checks every 2026-07-28 example message as an object
 * literal of its definition, so excess-property checks run on them.
 */
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "chai";
import ts from "typescript";
import { removeDir, REVISIONS, ROOT, tempDir } from "../../support/project.js";
import { STRICT_FLAGS } from "../../support/tsc.js";
import { readPinned } from "../../../codegen/spec/pinned.js";

type Direction = "ours->upstream" | "upstream->ours";

/** revision, name, direction, reason: the pairs expected to fail, each kept once. */
const KEPT_DIVERGENCES: readonly (readonly [string, string, Direction, string])[] = [];

const EXAMPLES_REVISION = "2026-07-28";

/** Literals of the latest revision beside its examples: label -> one line of TypeScript. */
const OPENNESS_LITERALS: readonly (readonly [string, string])[] = [
  ["(extension keys in _meta and the result)",
    `export const extended: Ours.CallToolResult = { resultType: "complete", content: [], _meta: { "com.example/trace": "x" }, "com.example/extra": 1 };`],
  ["(extension keys in a request's _meta)",
    `export const extendedRequest: Ours.RequestMetaObject = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, "com.example/trace": "x" };`],
  ["(the directive below is used: a misspelt Tool field is an error)", "// @ts-expect-error `titel` is not a Tool field"],
  ["(a misspelt Tool field)", `export const typo: Ours.Tool = { name: "x", inputSchema: { type: "object" }, titel: "x" };`],
  ["(the directive below is used: a misspelt TextContent field is an error)", "// @ts-expect-error `txt` is not a TextContent field"],
  ["(a misspelt TextContent field)", `export const typoContent: Ours.TextContent = { type: "text", txt: "x" };`],
];

interface Lockstep {
  /** revision -> names both files export as types, sorted. */
  readonly shared: ReadonlyMap<string, readonly string[]>;
  /** "rev name direction" -> the compiler's first lines. */
  readonly failing: ReadonlyMap<string, string>;
  /** "rev name": names where exactly one side has a string index signature, and which side. */
  readonly openness: ReadonlyMap<string, string>;
  /** example path -> the compiler's first lines. */
  readonly badExamples: ReadonlyMap<string, string>;
  readonly examples: number;
  /** Diagnostics that belong to no pair and no example. */
  readonly unmapped: readonly string[];
}

/** The strict flags the other compile tests pass to tsc, as compiler options. */
function strictOptions(): ts.CompilerOptions {
  const parsed = ts.parseCommandLine(STRICT_FLAGS.filter((flag) => flag !== "--ignoreConfig"));
  if (parsed.errors.length > 0) throw new Error(parsed.errors.map((e) => ts.flattenDiagnosticMessageText(e.messageText, "\n")).join("\n"));
  return { ...parsed.options, skipLibCheck: true, types: [] };
}

/** The types a module exports (interfaces and aliases) by name, by the checker. */
function typeExports(checker: ts.TypeChecker, file: ts.SourceFile): Map<string, ts.Type> {
  const module = checker.getSymbolAtLocation(file);
  if (module === undefined) throw new Error(`${file.fileName} is not a module`);
  return new Map(
    checker
      .getExportsOfModule(module)
      .filter((s) => (s.flags & ts.SymbolFlags.Type) !== 0)
      .map((s) => [s.name, checker.getDeclaredTypeOfSymbol(s)]),
  );
}

/** Does a literal of this type admit keys it does not name? */
function hasStringIndex(checker: ts.TypeChecker, type: ts.Type): boolean {
  return checker.getIndexInfosOfType(type).some((info) => (info.keyType.flags & ts.TypeFlags.String) !== 0);
}

function examplesOf(revision: string): { path: string; definition: string; text: string }[] {
  const dir = join(ROOT, "spec", revision, "examples");
  return readdirSync(dir)
    .sort()
    .flatMap((definition) =>
      readdirSync(join(dir, definition))
        .filter((name) => name.endsWith(".json"))
        .sort()
        .map((name) => ({ path: `${definition}/${name}`, definition, text: readFileSync(join(dir, definition, name), "utf8") })),
    );
}

function checkLockstep(dir: string): Lockstep {
  writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
  const options = strictOptions();
  const names = new Map<string, { upstream: string; ours: string }>();
  for (const revision of REVISIONS) {
    const upstream = join(ROOT, "spec", revision, "schema.ts");
    if (!existsSync(upstream)) throw new Error(`${upstream} is missing: run \`make spec\` before the tests`);
    const files = { upstream: join(dir, `upstream-${revision}.ts`), ours: join(dir, `ours-${revision}.ts`) };
    copyFileSync(upstream, files.upstream);
    copyFileSync(join(ROOT, "generated", revision, "types.ts"), files.ours);
    names.set(revision, files);
  }
  // Each pinned extension beside its core revision: upstream's schema.ts imports the core's as
  // ./spec.types.js, ours imports generated/<core>/types.ts; both are pointed at the copies above.
  for (const { folder, core } of EXTENSIONS) {
    const files = { upstream: join(dir, `upstream-${fileTag(folder)}.ts`), ours: join(dir, `ours-${fileTag(folder)}.ts`) };
    const upstream = readFileSync(join(ROOT, "spec", folder, "schema.ts"), "utf8");
    expect(upstream, `${folder}/schema.ts imports its core revision's types`).to.contain(`from "./spec.types.js"`);
    writeFileSync(files.upstream, upstream.replaceAll(`from "./spec.types.js"`, `from "./upstream-${core}.js"`));
    const ours = readFileSync(join(ROOT, "generated", folder, "types.ts"), "utf8");
    writeFileSync(files.ours, ours.replaceAll(`from "${"../".repeat(folder.split("/").length)}${core}/types.js"`, `from "./ours-${core}.js"`));
    names.set(folder, files);
  }
  // First pass: which names each side exports.
  const probe = ts.createProgram([...names.values()].flatMap((f) => [f.upstream, f.ours]), options);
  const checker = probe.getTypeChecker();
  const shared = new Map<string, string[]>();
  const openness = new Map<string, string>();
  for (const [revision, files] of names) {
    const upstream = typeExports(checker, probe.getSourceFile(files.upstream)!);
    const ours = typeExports(checker, probe.getSourceFile(files.ours)!);
    const both = [...upstream.keys()].filter((name) => ours.has(name)).sort();
    shared.set(revision, both);
    for (const name of both) {
      const [upstreamOpen, oursOpen] = [hasStringIndex(checker, upstream.get(name)!), hasStringIndex(checker, ours.get(name)!)];
      if (upstreamOpen !== oursOpen) openness.set(`${revision} ${name}`, oursOpen ? "only ours is open" : "only upstream is open");
    }
  }

  // Second pass: one assignment per line, so a diagnostic's line names its pair or example.
  const lineOwner = new Map<string, string[]>();
  const checks: string[] = [];
  for (const [revision] of names) {
    const tag = fileTag(revision).replaceAll("-", "");
    const owners: string[] = [];
    const lines = [
      `import type * as Ours from "./ours-${fileTag(revision)}.js";`,
      `import type * as Upstream from "./upstream-${fileTag(revision)}.js";`,
    ];
    owners.push("", "");
    for (const name of shared.get(revision)!) {
      lines.push(`declare const ours_${name}: Ours.${name}; export const toUpstream_${name}: Upstream.${name} = ours_${name};`);
      owners.push(`${revision} ${name} ours->upstream`);
      lines.push(`declare const upstream_${name}: Upstream.${name}; export const toOurs_${name}: Ours.${name} = upstream_${name};`);
      owners.push(`${revision} ${name} upstream->ours`);
    }
    const check = join(dir, `check-${tag}.ts`);
    writeFileSync(check, lines.join("\n") + "\n");
    lineOwner.set(check, owners);
    checks.push(check);
  }
  const examples = examplesOf(EXAMPLES_REVISION);
  const exampleLines = [`import type * as Ours from "./ours-${EXAMPLES_REVISION}.js";`];
  const exampleOwners = [""];
  examples.forEach((example, i) => {
    // The JSON text is a TypeScript object literal as it stands; one line keeps the mapping exact.
    exampleLines.push(`export const example${i}: Ours.${example.definition} = ${JSON.stringify(JSON.parse(example.text))};`);
    exampleOwners.push(`example ${example.path}`);
  });
  // Open where the spec is open, closed where it is not: an extension key in `_meta` and an extra
  // result field type-check; a misspelt field the spec names does not.
  for (const [label, line] of OPENNESS_LITERALS) {
    exampleLines.push(line);
    exampleOwners.push(`example ${label}`);
  }
  const examplesFile = join(dir, "examples.ts");
  writeFileSync(examplesFile, exampleLines.join("\n") + "\n");
  lineOwner.set(examplesFile, exampleOwners);
  checks.push(examplesFile);

  const program = ts.createProgram(checks, options, undefined, probe);
  const failing = new Map<string, string>();
  const badExamples = new Map<string, string>();
  const unmapped: string[] = [];
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
    const file = diagnostic.file;
    const line = file && diagnostic.start !== undefined ? file.getLineAndCharacterOfPosition(diagnostic.start).line : undefined;
    const owner = file && line !== undefined ? lineOwner.get(file.fileName)?.[line] : undefined;
    if (!owner) {
      unmapped.push(`${file?.fileName ?? "?"}:${line === undefined ? "?" : line + 1} ${text}`);
      continue;
    }
    const brief = text.split("\n").slice(0, 8).join("\n");
    if (owner.startsWith("example ")) badExamples.set(owner.slice("example ".length), brief);
    else failing.set(owner, brief);
  }
  return { shared, failing, openness, badExamples, examples: examples.length, unmapped };
}

/** The pinned extensions, each with the core revision its schema builds on. */
const EXTENSIONS = Object.values(readPinned(ROOT).extensions ?? {});

/** A revision or an extension folder (extensions/tasks) as part of a file name. */
function fileTag(folder: string): string {
  return folder.replaceAll("/", "_");
}

/** Per revision: pairs of names assignable both ways, over names shared. */
function lockstepScores(result: Lockstep): Map<string, { passing: number; shared: number }> {
  const scores = new Map<string, { passing: number; shared: number }>();
  for (const [revision, names] of result.shared) {
    const failed = new Set([...result.failing.keys()].filter((key) => key.startsWith(`${revision} `)).map((key) => key.split(" ")[1]));
    scores.set(revision, { passing: names.length - failed.size, shared: names.length });
  }
  return scores;
}

describe("codegen/emit/types: lockstep with upstream schema.ts, all revisions", function () {
  this.timeout(180_000);
  let dir: string | undefined;
  let result: Lockstep;
  before(() => {
    dir = tempDir("schema-ts-lockstep");
    result = checkLockstep(dir);
    const rows = [...lockstepScores(result)].map(([revision, { passing, shared }]) => `    ${revision}  ${passing}/${shared}`);
    console.log(`    schema.ts lockstep (assignable both ways / shared names):\n${rows.join("\n")}`);
  });
  after(() => removeDir(dir));

  it("shares every type name upstream exports, in every revision and extension", () => {
    for (const { folder } of EXTENSIONS) {
      // An extension's schema.ts exports its own types only (the core's it imports); ours exports them all.
      const names = result.shared.get(folder)!;
      if (folder === "extensions/tasks") expect(names, folder).to.include.members(["Task", "CreateTaskResult", "GetTaskRequest", "GetTaskResult", "TaskStatusNotification"]);
      expect(names.length, folder).to.be.greaterThan(10);
    }
    for (const [revision, names] of result.shared) {
      if (EXTENSIONS.some((e) => e.folder === revision)) continue;
      expect(names.length, revision).to.be.greaterThan(70);
      for (const name of ["Result", "RequestId", "JSONRPCMessage", "CallToolResult", "ServerCapabilities"]) expect(names, revision).to.include(name);
    }
  });

  it("compiles the checks without a diagnostic outside the assignments", () => {
    expect(result.unmapped).to.deep.equal([]);
  });

  it("lists each kept divergence once, with a reason, for a name both sides export", () => {
    const keys = KEPT_DIVERGENCES.map(([revision, name, direction]) => `${revision} ${name} ${direction}`);
    expect(new Set(keys).size, "duplicates in KEPT_DIVERGENCES").to.equal(keys.length);
    for (const [revision, name, , reason] of KEPT_DIVERGENCES) {
      expect(result.shared.get(revision), `${revision} ${name} is no longer exported by both`).to.include(name);
      expect(reason).to.be.a("string").with.length.greaterThan(40);
    }
  });

  it("assigns every shared type both ways, except exactly the kept divergences", () => {
    const known = KEPT_DIVERGENCES.map(([revision, name, direction]) => `${revision} ${name} ${direction}`).sort();
    const failing = [...result.failing.keys()].sort();
    const unexpected = failing.filter((pair) => !known.includes(pair));
    const vanished = known.filter((pair) => !failing.includes(pair));
    const explain = unexpected.map((pair) => `${pair}:\n${result.failing.get(pair)}`).join("\n\n");
    expect(
      { unexpected, vanished },
      "unexpected: new divergences (fix the generator, or keep them with their reason); " +
        `vanished: kept divergences that no longer occur (remove them from KEPT_DIVERGENCES)\n\n${explain}`,
    ).to.deep.equal({ unexpected: [], vanished: [] });
  });

  it("is open (a string index signature) exactly where upstream is, so excess-property checks match upstream's", () => {
    expect(Object.fromEntries(result.openness)).to.deep.equal({});
  });

  it(`type-checks every ${EXAMPLES_REVISION} example message as an object literal of its definition`, () => {
    expect(result.examples, "the pinned examples").to.equal(129);
    // Also the literals of OPENNESS_LITERALS: extension keys accepted, misspelt fields refused.
    const explain = [...result.badExamples].map(([path, text]) => `${path}:\n${text}`).join("\n\n");
    expect([...result.badExamples.keys()], explain).to.deep.equal([]);
  });
});
