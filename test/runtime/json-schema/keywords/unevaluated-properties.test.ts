/**
 * runtime/json-schema/keywords/evaluated.ts and render/loops.ts: unevaluatedProperties whose
 * evaluations hang on conditions runs a condition only for a key whose name it covers, and at
 * most once per value, in every mode; and a check a condition shares with the applicator beside
 * it runs once (code mode). Counted by the reads of `probe` through a Proxy: the loop over the
 * keys asks for its descriptor once, and each run of a check that reads it (the condition
 * `if: { required: ["probe"] }`, whose `then` checks nothing, runs only as a condition) reads it
 * once more. Verdicts and issues are the suite's business (code.test.ts, json-schema-suite.test.ts).
 */
import { expect } from "chai";
import fc from "fast-check";
import { compileSchema, SchemaCompileError } from "../../../../runtime/json-schema/compile.js";

const SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  properties: { probe: true },
  if: { required: ["probe"] },
  then: { properties: { x: true, y: true } },
  unevaluatedProperties: false,
};

/** `value` behind a Proxy that counts the reads of `probe`. */
function counted(value: Record<string, unknown>): { value: Record<string, unknown>; reads: () => number } {
  let reads = 0;
  const proxy = new Proxy(value, {
    get(target, key, receiver) {
      if (key === "probe") reads++;
      return Reflect.get(target, key, receiver) as unknown;
    },
    getOwnPropertyDescriptor(target, key) {
      if (key === "probe") reads++;
      return Reflect.getOwnPropertyDescriptor(target, key);
    },
  });
  return { value: proxy, reads: () => reads };
}

describe("json-schema/keywords: unevaluatedProperties under conditions", () => {
  for (const mode of ["code", "closures"] as const) {
    const validator = compileSchema(structuredClone(SCHEMA), { mode });

    it(`${mode}: a condition no key's name needs does not run`, () => {
      const { value, reads } = counted({ probe: 1 });
      expect(validator.is(value)).to.equal(true);
      expect(reads()).to.equal(1);
    });

    it(`${mode}: a condition runs once for a value, however many keys it covers`, () => {
      const { value, reads } = counted({ probe: 1, x: 1, y: 2 });
      expect(validator.is(value)).to.equal(true);
      expect(reads()).to.equal(2);
      const check = counted({ probe: 1, x: 1, y: 2, z: 3 });
      expect(validator.describe(check.value)).to.equal("/z: must NOT have unevaluated properties");
      expect(check.reads()).to.equal(2);
    });

    it(`${mode}: a key the condition covers is refused when the condition fails`, () => {
      expect(validator.describe({ x: 1 })).to.equal("/x: must NOT have unevaluated properties");
      expect(validator.is({ x: 1, probe: 1 })).to.equal(true);
    });
  }
});

describe("json-schema/keywords: unevaluatedProperties beside the applicator it reads (code mode)", () => {
  // The condition of `x` is anyOf's first branch passing: the same check the anyOf runs.
  const schema = {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    properties: { probe: true },
    anyOf: [{ required: ["probe"], properties: { probe: { type: "number" }, x: { type: "string" } } }, { required: ["other"] }],
    unevaluatedProperties: false,
  };
  const validator = compileSchema(structuredClone(schema), { mode: "code" });

  it("a branch's check that the anyOf and a condition both need runs once per value", () => {
    const { value, reads } = counted({ probe: 1, x: "a" });
    expect(validator.is(value)).to.equal(true);
    expect(reads()).to.equal(2); // the loop over the keys, then the branch once: for the condition and for the anyOf
    const check = counted({ probe: 1, x: "a", z: 1 });
    expect(validator.describe(check.value)).to.equal("/z: must NOT have unevaluated properties");
    expect(check.reads()).to.equal(2);
  });
});

/**
 * Schemas rich in unevaluatedProperties beside anyOf, oneOf, if, dependentSchemas, allOf and
 * $ref, whose branches name several properties and patterns, nested objects with their own
 * unevaluatedProperties, and values whose keys hit the names they cover: the loops code mode
 * prints (render/loops.ts) and the closures' key filter must give the same verdicts and issues.
 */
const KEYS = ["a", "b", "c", "ab"];
/** unevaluatedProperties twice: kept more often. */
const KEYWORDS = ["unevaluatedProperties", "unevaluatedProperties", "properties", "patternProperties", "dependentSchemas", "anyOf", "oneOf", "allOf", "if", "then", "else", "$ref"];
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
const leafSchema = fc.constantFrom<Json>({ type: "number" }, { type: "string" }, {}, { minimum: 2 }, { $ref: "#/$defs/D" }, { required: ["a"] }, { properties: { c: { type: "number" } } });
const schemaArbitrary = fc.letrec<{ node: Json; object: Json }>((tie) => ({
  node: fc.oneof({ depthSize: "xsmall", maxDepth: 2 }, leafSchema, tie("object"), tie("object")),
  object: fc
    .record(
      {
        properties: fc.dictionary(fc.constantFrom(...KEYS), fc.oneof(leafSchema, tie("node"), fc.constant({ $ref: "#" })), { maxKeys: 3, noNullPrototype: true }),
        patternProperties: fc.dictionary(fc.constantFrom("^a", "^[bc]$", "b$"), leafSchema, { maxKeys: 2, noNullPrototype: true }),
        unevaluatedProperties: fc.constantFrom<Json>(false, { type: "number" }, { type: "object", unevaluatedProperties: false }),
        dependentSchemas: fc.dictionary(fc.constantFrom(...KEYS), tie("node"), { maxKeys: 2, noNullPrototype: true }),
        anyOf: fc.array(tie("node"), { minLength: 1, maxLength: 3 }),
        oneOf: fc.array(tie("node"), { minLength: 1, maxLength: 3 }),
        allOf: fc.array(tie("node"), { minLength: 1, maxLength: 2 }),
        if: tie("node"),
        then: tie("node"),
        else: tie("node"),
        $ref: fc.constant("#/$defs/D"),
      },
      { requiredKeys: [] },
    )
    // A few keywords each: the compiler's work grows with the conditions a schema nests.
    .chain((o) => fc.subarray(KEYWORDS, { minLength: 2, maxLength: 5 }).map((keep) => Object.fromEntries(Object.entries(o).filter(([k]) => keep.includes(k))) as Json)),
}));
/** A root and a definition D that refers to nothing (so that nothing recurses in place). */
const documentArbitrary = fc.tuple(schemaArbitrary.object, schemaArbitrary.object).map(([root, d]) => ({
  $schema: "https://json-schema.org/draft/2020-12/schema",
  ...(root as object),
  // D requires "a": a check of D on the value and on a property of it often differ.
  $defs: { D: { required: ["a"], allOf: [JSON.parse(JSON.stringify(d), (key, v: unknown) => (key === "$ref" ? undefined : v)) as Json] } },
}));
const valueArbitrary = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof({ depthSize: "small" }, fc.constantFrom<Json>(1, 3, "x", null), fc.dictionary(fc.constantFrom(...KEYS, "z", "bc", "cb"), tie("value"), { maxKeys: 5, noNullPrototype: true })),
})).value;

describe("json-schema/keywords: unevaluatedProperties under conditions, code mode against closures", () => {
  it("generated schemas and values: the same verdicts, issues (in order) and message, and a verdict that agrees with the issues", () => {
    let valid = 0;
    let refused = 0;
    for (const [n, document] of fc.sample(documentArbitrary, { seed: 12, numRuns: 150 }).entries()) {
      const code = compileSchema(document, { mode: "code" });
      const closures = compileSchema(document, { mode: "closures" });
      for (const value of fc.sample(valueArbitrary, { seed: n, numRuns: 40 })) {
        const where = `schema ${JSON.stringify(document)}, value ${JSON.stringify(value)}`;
        const issues = code.check(value);
        expect(closures.check(value), where).to.deep.equal(issues);
        expect(closures.is(value), where).to.equal(code.is(value));
        expect(code.is(value), where).to.equal(issues.length === 0);
        expect(closures.describe(value), where).to.equal(code.describe(value));
        if (issues.length === 0) valid++;
        else if (issues.some((issue) => issue.keyword === "unevaluatedProperties")) refused++;
      }
    }
    // Not vacuous: both verdicts, and unevaluatedProperties the reason of many refusals.
    expect(valid).to.be.at.least(500);
    expect(refused).to.be.at.least(500);
  });
});

describe("json-schema/keywords: the evaluations unevaluatedProperties reads are bounded", () => {
  /** `$defs` D0..Dn, each applying the next twice in place through `applicator`. */
  const lattice = (applicator: "allOf" | "anyOf", n: number) => {
    const $defs: Record<string, unknown> = { [`D${n}`]: { properties: { a: { type: "string" } } } };
    for (let i = 0; i < n; i++) $defs[`D${i}`] = { [applicator]: [{ $ref: `#/$defs/D${i + 1}` }, { $ref: `#/$defs/D${i + 1}` }] };
    return { $schema: "https://json-schema.org/draft/2020-12/schema", $defs, $ref: "#/$defs/D0", unevaluatedProperties: false };
  };

  it("a sub-schema reached by many paths under the same conditions is read once (2^30 paths)", () => {
    for (const mode of ["code", "closures"] as const) expect(compileSchema(lattice("allOf", 30), { mode }).mode).to.equal(mode);
  });

  it("more than 1000 evaluations under distinct conditions are refused, at the keyword", () => {
    for (const mode of ["code", "closures"] as const)
      expect(() => compileSchema(lattice("anyOf", 12), { mode })).to.throw(SchemaCompileError, "#/unevaluatedProperties: reads more than 1000 evaluations of sub-schemas applied in place");
  });
});
