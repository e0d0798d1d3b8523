/**
 * runtime/json-schema/render/functions.ts reachable, fuzzed: every function printed code calls is
 * printed, and none it never calls. fast-check generates 2020-12 documents whose `$defs` entries
 * (some unused, some recursive, tagged objects for discriminated unions, one with a
 * `$dynamicAnchor`) and a remote document are referenced from every position: under anyOf, oneOf,
 * allOf, not, if/then/else, contains, propertyNames, dependentSchemas, unevaluated*, items,
 * properties.
 *
 * Code mode (code.ts: the reached functions only, compiled with `new Function`) gives the
 * closures' verdicts, issues and messages on every value: closures print nothing, and a function
 * code mode left out throws a ReferenceError. One `generate --tools` file of them all, loaded,
 * agrees with the closures too, and tsc under the strict flags finds in it no name it lacks
 * (TS2304) and none it never reads (noUnusedLocals, noUnusedParameters), but the two planted to
 * prove it would. (Other type errors are not reachable's: the generator writes contradictory
 * schemas, a `type` in one `allOf` branch and an `enum` of another type in the next, whose
 * comparisons tsc finds impossible; keywords/type.test.ts covers those lowering removes.)
 * MCP_FC_SEED=<seed> changes the seed; a failure prints the schema and the value. */
import { expect } from "chai";
import fc from "fast-check";
import { GenerationError } from "../../../../codegen/errors.js";
import { loadToolSchemas } from "../../../../codegen/tool-validators/load.js";
import { compileSchema, SchemaCompileError, type CompiledValidator, type SchemaIssue } from "../../../../runtime/json-schema/compile.js";
import { describeIssues } from "../../../../runtime/shared/json-schema.js";
import { compileToolSchemas, typeCheckTools } from "../../../support/tool-validators.js";
import { describeRun, removeDir } from "../../../support/project.js";

const SEED = process.env.MCP_FC_SEED !== undefined ? Number(process.env.MCP_FC_SEED) : 20260728;
const SCHEMAS = 250;
const VALUES_PER_SCHEMA = 40;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type SchemaObject = { [key: string]: Json };

const REMOTE = "https://example.com/remote.json";
const KEYS = ["a", "b", "kind"];
const TAGS = ["x", "y", "z"];
const LEAVES: Json[] = [null, true, 0, 1, 2.5, -1, "", "x", "y", "ab", "abc"];
const TYPES = ["object", "array", "string", "number", "integer", "boolean", "null"];
/** Every definition of the document, `#` (the root) and the remote's: `Unused` is referenced only where the generator happens to name it. */
const REFS = ["#/$defs/A", "#/$defs/B", "#/$defs/T1", "#/$defs/T2", "#/$defs/Dyn", "#", `${REMOTE}#/$defs/R`];

/** A tagged object: `kind` required with a constant, as a discriminated union's branches are. */
const tagged = (node: fc.Arbitrary<Json>, tag: fc.Arbitrary<Json>) =>
  fc
    .record({ tag, a: node, extra: fc.boolean(), closed: fc.boolean(), requireA: fc.boolean() })
    .map(({ tag, a, extra, closed, requireA }): Json => ({
      type: "object",
      properties: { kind: extra ? { enum: [tag] } : { const: tag }, a },
      required: requireA ? ["kind", "a"] : ["kind"],
      ...(closed && { additionalProperties: false }),
    }));

const arbitrary = fc.letrec<{ node: Json; leaf: Json; ref: Json; object: Json; array: Json; combo: Json; union: Json }>((tie) => ({
  node: fc.oneof({ depthSize: "small", withCrossShrink: true }, tie("leaf"), tie("ref"), tie("ref"), tie("object"), tie("array"), tie("combo"), tie("union")),
  leaf: fc.oneof(
    fc.constantFrom<Json>(true, false, {}),
    fc.record({ type: fc.oneof(fc.constantFrom(...TYPES), fc.uniqueArray(fc.constantFrom(...TYPES), { minLength: 1, maxLength: 3 })) }),
    fc.record({ const: fc.constantFrom(...LEAVES) }),
    fc.record({ enum: fc.uniqueArray(fc.constantFrom(...LEAVES), { minLength: 1, maxLength: 3 }) }),
    fc.record({ type: fc.constant("string"), minLength: fc.nat(2), maxLength: fc.nat(3), pattern: fc.constantFrom("^a", "b$") }, { requiredKeys: ["type"] }),
    fc.record({ type: fc.constantFrom("number", "integer"), minimum: fc.constantFrom(0, 1), multipleOf: fc.constantFrom(1, 0.5) }, { requiredKeys: [] }),
  ),
  ref: fc.oneof(
    fc.record({ $ref: fc.constantFrom(...REFS, "#/$defs/Unused") }),
    // A reference beside other keywords: not a pure reference (no discriminator through it, no direct call of its check).
    fc.record({ $ref: fc.constantFrom(...REFS), type: fc.constantFrom(...TYPES), description: fc.constant("d") }, { requiredKeys: ["$ref"] }),
    fc.constant<Json>({ $dynamicRef: "#node" }),
  ),
  object: fc.record(
    {
      type: fc.constant("object"),
      properties: fc.dictionary(fc.constantFrom(...KEYS), tie("node"), { maxKeys: 2, noNullPrototype: true }),
      required: fc.subarray(KEYS, { maxLength: 2 }),
      additionalProperties: tie("node"),
      patternProperties: fc.dictionary(fc.constantFrom("^a", "b$"), tie("node"), { maxKeys: 1, noNullPrototype: true }),
      propertyNames: fc.oneof(tie("node"), fc.record({ type: fc.constantFrom<Json>("string", ["string", "null"]), maxLength: fc.constant(1) }, { requiredKeys: ["type"] })),
      dependentSchemas: fc.dictionary(fc.constantFrom(...KEYS), tie("node"), { maxKeys: 1, noNullPrototype: true }),
      unevaluatedProperties: tie("node"),
    },
    { requiredKeys: [] },
  ),
  array: fc.record(
    {
      type: fc.constant("array"),
      items: tie("node"),
      prefixItems: fc.array(tie("node"), { maxLength: 2 }),
      contains: tie("node"),
      minContains: fc.nat(2),
      maxContains: fc.constant(2),
      unevaluatedItems: tie("node"),
    },
    { requiredKeys: [] },
  ),
  combo: fc.oneof(
    fc.record({ anyOf: fc.array(tie("node"), { minLength: 1, maxLength: 3 }) }),
    fc.record({ oneOf: fc.array(tie("node"), { minLength: 1, maxLength: 3 }) }),
    fc.record({ allOf: fc.array(tie("node"), { minLength: 1, maxLength: 2 }) }),
    fc.record({ not: tie("node") }),
    fc.record({ if: tie("node"), then: tie("node"), else: tie("node") }, { requiredKeys: ["if"] }),
  ),
  // Discriminated unions: branches that are, or refer to, objects tagged by `kind`.
  union: fc
    .record({
      keyword: fc.constantFrom("anyOf", "oneOf"),
      branches: fc.array(fc.oneof(fc.constantFrom<Json>({ $ref: "#/$defs/T1" }, { $ref: "#/$defs/T2" }), tagged(tie("node"), fc.constantFrom(...TAGS)), tie("node")), { minLength: 2, maxLength: 3 }),
      unevaluated: fc.boolean(),
    })
    .map(({ keyword, branches, unevaluated }): Json => ({ [keyword]: branches, ...(unevaluated && { unevaluatedProperties: false }) })),
}));

/** A document: the root and its definitions (`Dyn` with a `$dynamicAnchor`, which the root may carry too, `Unused` referenced by chance). */
const documentArbitrary = fc
  .record({ root: arbitrary.node, rootAnchor: fc.boolean(), A: arbitrary.node, B: arbitrary.node, T1: tagged(arbitrary.node, fc.constant("x")), T2: tagged(arbitrary.node, fc.constant("y")), Dyn: arbitrary.node, Unused: arbitrary.node })
  .map(({ root, rootAnchor, Dyn, ...defs }): SchemaObject => ({
    $schema: "https://json-schema.org/draft/2020-12/schema",
    ...(rootAnchor && { $dynamicAnchor: "node" }),
    ...asObject(root),
    $defs: { ...defs, Dyn: { ...asObject(Dyn), $dynamicAnchor: "node" } },
  }));

/** The remote document every document may name: R, recursive through a property, applies a generated node (its references turned to R, its `$dynamicRef`s dropped) to its items. */
const remotesArbitrary = arbitrary.node.map((node) => {
  const items = JSON.parse(JSON.stringify(node).replace(/"\$ref":"[^"]*"/g, '"$ref":"#/$defs/R"').replace(/\{"\$dynamicRef":"#node"\}/g, "{}")) as Json;
  return { [REMOTE]: { $defs: { R: { type: ["object", "array", "number"], properties: { a: { $ref: "#/$defs/R" } }, items } } } };
});

/** A schema as an object, to merge keywords into. */
const asObject = (node: Json): SchemaObject => (typeof node === "object" && node !== null && !Array.isArray(node) ? node : { allOf: [node] });

const valueArbitrary = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constantFrom(...LEAVES),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom(...KEYS, "z"), tie("value"), { maxKeys: 3, noNullPrototype: true }),
    // Tagged objects, as the unions' branches expect.
    fc.record({ kind: fc.constantFrom(...TAGS), a: tie("value") }, { requiredKeys: ["kind"] }),
  ),
})).value;

/** Compiled in the mode, or undefined where the compiler refuses the document (a reference back in place, too many evaluations). */
function compile(document: SchemaObject, remotes: Record<string, unknown>, mode: "code" | "closures"): CompiledValidator | undefined {
  try {
    return compileSchema(document, { mode, remotes });
  } catch (error) {
    if (error instanceof SchemaCompileError) return undefined;
    throw error;
  }
}

/** Issues whose check only a reference reaches: in a `$defs` entry, in the remote document, a oneOf's explained branches, an unevaluated keyword's. */
const REACHED: Record<string, (issue: SchemaIssue) => boolean> = {
  "a $defs entry": (issue) => issue.schemaPath.includes("/$defs/"),
  "the remote document": (issue) => issue.schemaPath.startsWith(REMOTE),
  "a union's tagged branch": (issue) => /\/\$defs\/T[12]\//.test(issue.schemaPath),
  oneOf: (issue) => issue.keyword === "oneOf",
  "unevaluated*": (issue) => issue.keyword.startsWith("unevaluated"),
};

describe("json-schema/render/functions: reachable, fuzzed: every function printed code calls is printed", function () {
  this.timeout(300_000);
  const remotes: Record<string, unknown> = fc.sample(remotesArbitrary, { seed: SEED, numRuns: 1 })[0]!;
  const compiled = fc.sample(documentArbitrary, { seed: SEED, numRuns: SCHEMAS }).flatMap((document) => {
    const closures = compile(document, remotes, "closures");
    return closures ? [{ document, closures }] : [];
  });
  const values = (i: number) => fc.sample(valueArbitrary, { seed: SEED + i, numRuns: VALUES_PER_SCHEMA });

  it(`code mode gives the closures' verdicts, issues and messages (${SCHEMAS} schemas, ${VALUES_PER_SCHEMA} values each, fast-check seed ${SEED})`, () => {
    let judged = 0;
    let valid = 0;
    const reached = new Map(Object.keys(REACHED).map((what) => [what, 0]));
    compiled.forEach(({ document, closures }) => {
      const code = compile(document, remotes, "code")!;
      expect(code.mode).to.equal("code");
      for (const value of values(judged)) {
        const where = `\n  schema: ${JSON.stringify(document)}\n  value: ${JSON.stringify(value)}`;
        const issues = closures.check(value);
        try {
          // A function code mode left out throws a ReferenceError here.
          expect(code.is(value), "is").to.equal(closures.is(value));
          expect(code.check(value), "check").to.deep.equal(issues);
          expect(code.describe(value), "describe").to.equal(describeIssues(issues));
        } catch (error) {
          if (error instanceof Error) error.message += where;
          throw error;
        }
        judged++;
        if (issues.length === 0) valid++;
        for (const [what, test] of Object.entries(REACHED)) if (issues.some(test)) reached.set(what, reached.get(what)! + 1);
      }
    });
    // Not vacuous: most documents compile, both verdicts are common, the checks only references reach report.
    expect(compiled.length / SCHEMAS, "documents compiled").to.be.greaterThan(0.6);
    expect(valid / judged, "share of valid values").to.be.within(0.1, 0.9);
    for (const [what, count] of reached) expect(count, `values with an issue from ${what}`).to.be.greaterThan(50);
  });

  it("generate --tools prints them in one file that agrees with the closures, and names no function it lacks and none it never calls (tsc, noUnusedLocals and noUnusedParameters)", async () => {
    // The documents `generate --tools` takes too (it refuses a few more).
    const accepted = compiled.filter(({ document }) => {
      try {
        loadToolSchemas("mcp.server.json", [{ name: "t", inputSchema: document }], { remotes });
        return true;
      } catch (error) {
        if (error instanceof GenerationError) return false;
        throw error;
      }
    });
    expect(accepted.length / compiled.length, "documents generate --tools accepts").to.be.greaterThan(0.9);
    const tools = await compileToolSchemas(
      accepted.map(({ document }) => document),
      "functions-fuzz",
      { remotes },
    );
    try {
      accepted.forEach(({ document, closures }, i) => {
        const ours = tools.validators[i]!;
        // The tool's schema sits at #/tools/<i>/inputSchema of the manifest, its definitions named after the tool (an anyOf's
        // message names them): its pointers and names as the runtime's compiler gives them for the document alone.
        const inDocument = (issues: readonly unknown[]) =>
          JSON.parse(JSON.stringify(issues).replaceAll(`#/tools/${i}/inputSchema`, "#").replace(new RegExp(`\\bT${i}Input(?![0-9A-Za-z])`, "g"), "Root")) as unknown;
        for (const value of values(i)) {
          const where = `\n  schema t${i}: ${JSON.stringify(document)}\n  value: ${JSON.stringify(value)}`;
          expect(ours.is(value), where).to.equal(closures.is(value));
          expect(inDocument(ours.check(value)), where).to.deep.equal(closures.check(value));
          expect(ours.describe?.(value), where).to.equal(describeIssues(ours.check(value)));
        }
      });
      // Two wrongs planted, one of each kind tsc must report: a call of a function not printed, a function never called.
      const planted = "\nexport const planted = (value: unknown) => isNotPrinted(value);\nfunction isNeverCalled(_value: unknown): boolean {\n  return true;\n}\n";
      const run = await typeCheckTools(tools.source + planted, tools.dir);
      // What reachable and readsSubject decide: a name not printed (TS2304), or printed and never read (TS6133). Other type
      // errors of contradictory schemas (a type and an enum of another type: TS2367...) are not theirs.
      const lines = tools.source.split("\n").length;
      const decided = run.stdout.split("\n").filter((line) => /error TS(2304|2552|6133|6138|6192|6196|6198|6199|6205):/.test(line));
      expect(decided, describeRun(run)).to.deep.equal([
        `tools.ts(${lines + 1},44): error TS2304: Cannot find name 'isNotPrinted'.`,
        `tools.ts(${lines + 2},10): error TS6133: 'isNeverCalled' is declared but its value is never read.`,
      ]);
    } finally {
      removeDir(tools.dir);
    }
  });
});
