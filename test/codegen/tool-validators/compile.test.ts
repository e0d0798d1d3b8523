/**
 * `generate --tools`: tool schemas compiled by our validator compiler against the oracle, the
 * runtime's own ajv engine (runtime/shared/json-schema.ts SchemaCompiler "ajv": the verdicts a
 * server gives without compiled validators). fast-check generates schemas over every keyword the
 * compiler supports, in both dialects, and values from the same small vocabulary of keys and
 * leaves (so that both verdicts are common), then mutates the valid ones.
 *
 * On every value: our `is` equals ajv's verdict, and `is(v) === (check(v).length === 0)`; so do
 * the runtime's compiler's, in code mode and in closures (runtime/json-schema/), whose two modes
 * give the same issues.
 * MCP_FC_SEED=<seed> changes the seed; a failure prints the schema and the value.
 */
import { expect } from "chai";
import fc from "fast-check";
import { GenerationError } from "../../../codegen/errors.js";
import { loadToolSchemas } from "../../../codegen/tool-validators/load.js";
import { compileSchema } from "../../../runtime/json-schema/compile.js";
import { dialectOf } from "../../../runtime/json-schema/dialect.js";
import { precompiled, SchemaCompiler } from "../../../runtime/shared/json-schema.js";
import { canonicalJson } from "../../../runtime/util/canonical-json.js";
import { silentLogger } from "../../../runtime/util/logger.js";
import { compileToolSchemas } from "../../support/tool-validators.js";
import { removeDir } from "../../support/project.js";

const SEED = process.env.MCP_FC_SEED !== undefined ? Number(process.env.MCP_FC_SEED) : 20251123;
const SCHEMAS = 400;
const VALUES_PER_SCHEMA = 60;
const MUTATIONS_PER_VALID = 6;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type SchemaObject = { [key: string]: Json };

const KEYS = ["a", "b", "c"];
const STRINGS = ["", "a", "ab", "abc", "A1", "b", "\u00e9t\u00e9", "\u{1F600}", "\u{1F600}\u{1F600}", "https://x.org/a?b#c", "not a uri", "QUJD", "QUI=", "{x}", "{x", "a/b"];
const NUMBERS = [0, 1, -1, 2, 2.5, 3, 10, 0.5, 0.3, 1e21];
const LEAVES: Json[] = [null, true, false, ...NUMBERS, ...STRINGS];
/** Objects and arrays for `const` and `enum` (JSON equality: key order ignored, 1 and 1.0 equal). */
const COMPOUNDS: Json[] = [{ a: 1 }, { b: "a", a: 1 }, [1, "a"], [], {}, { a: [null] }];
const TYPES = ["object", "array", "string", "number", "integer", "boolean", "null"];
const PATTERNS = ["^a", "b$", "^[A-Z]\\d$", "\\p{L}", "^.$", "^(ab|c)*$"];
const FORMATS = ["uri", "uri-template", "byte", "email", "date-time"];

/**
 * Every keyword the compiler supports, each in a generator of its own shape. `false` as a
 * sub-schema is left to the JSON Schema Test Suite (json-schema-suite.test.ts): ajv, the oracle
 * here, finds `{ items: false, contains: {} }` satisfied by [] (the suite says not).
 */
const schemaArbitrary = fc.letrec<{ node: SchemaObject; leaf: SchemaObject; object: SchemaObject; array: SchemaObject; combo: SchemaObject }>((tie) => ({
  node: fc.oneof({ depthSize: "small", withCrossShrink: true }, tie("leaf"), tie("object"), tie("array"), tie("combo")),
  leaf: fc.oneof(
    fc.record({ type: fc.oneof(fc.constantFrom(...TYPES), fc.uniqueArray(fc.constantFrom(...TYPES), { minLength: 1, maxLength: 3 })) }),
    fc.record({ const: fc.constantFrom(...LEAVES, ...COMPOUNDS) }),
    fc.record({ enum: fc.uniqueArray(fc.constantFrom(...LEAVES, ...COMPOUNDS), { minLength: 1, maxLength: 4 }) }),
    fc.record(
      { type: fc.constant("string"), minLength: fc.nat(3), maxLength: fc.nat(3), pattern: fc.constantFrom(...PATTERNS), format: fc.constantFrom(...FORMATS) },
      { requiredKeys: [] },
    ),
    fc.record(
      {
        type: fc.constantFrom("number", "integer"),
        minimum: fc.constantFrom(...NUMBERS),
        maximum: fc.constantFrom(...NUMBERS),
        exclusiveMinimum: fc.constantFrom(...NUMBERS),
        exclusiveMaximum: fc.constantFrom(...NUMBERS),
        multipleOf: fc.constantFrom(1, 2, 0.5, 0.1),
      },
      { requiredKeys: [] },
    ),
    fc.constant({ $ref: "#/$defs/D" }),
    fc.constant({}),
  ),
  object: fc.record(
    {
      type: fc.constant("object"),
      properties: fc.dictionary(fc.constantFrom(...KEYS), tie("node"), { maxKeys: 3, noNullPrototype: true }),
      required: fc.subarray(KEYS),
      additionalProperties: fc.oneof(fc.constant(false), tie("node")),
      minProperties: fc.nat(3),
      maxProperties: fc.nat(3),
      dependentRequired: fc.dictionary(fc.constantFrom(...KEYS), fc.subarray(KEYS), { maxKeys: 2, noNullPrototype: true }),
      dependentSchemas: fc.dictionary(fc.constantFrom(...KEYS), tie("node"), { maxKeys: 2, noNullPrototype: true }),
      patternProperties: fc.dictionary(fc.constantFrom("^a", "b$", "^[a-c]$"), tie("node"), { maxKeys: 2, noNullPrototype: true }),
      propertyNames: tie("node"),
    },
    { requiredKeys: [] },
  ) as fc.Arbitrary<SchemaObject>,
  array: fc.record(
    {
      type: fc.constant("array"),
      items: tie("node"),
      prefixItems: fc.array(tie("node"), { maxLength: 2 }),
      contains: tie("node"),
      minContains: fc.nat(2),
      maxContains: fc.nat(2),
      minItems: fc.nat(2),
      maxItems: fc.nat(3),
      uniqueItems: fc.boolean(),
    },
    { requiredKeys: [] },
  ).map(({ prefixItems, contains, minContains, maxContains, ...rest }) => ({
    ...rest,
    // Not both: ajv, the oracle, finds { not: { prefixItems: [{ type: "array" }], contains: {} } } false on [] (it is true).
    ...(prefixItems !== undefined && prefixItems.length > 0 && contains !== undefined ? { prefixItems } : { prefixItems, contains }),
    // minContains above maxContains can never hold: generated in order.
    ...(minContains !== undefined && maxContains !== undefined && minContains > maxContains ? { minContains: maxContains, maxContains: minContains } : { minContains, maxContains }),
  })) as fc.Arbitrary<SchemaObject>,
  combo: fc.oneof(
    fc.record({ anyOf: fc.array(tie("node"), { minLength: 1, maxLength: 3 }) }),
    fc.record({ oneOf: fc.array(tie("node"), { minLength: 1, maxLength: 3 }) }),
    fc.record({ allOf: fc.array(tie("node"), { minLength: 1, maxLength: 3 }) }),
    fc.record({ not: tie("node") }),
    fc.record({ if: tie("node"), then: tie("node"), else: tie("node") }, { requiredKeys: ["if"] }),
  ) as fc.Arbitrary<SchemaObject>,
}));

/** A tool schema document: a root, one definition D (without references, so nothing recurses forever) and a dialect. */
const documentArbitrary = fc
  .tuple(schemaArbitrary.node, schemaArbitrary.node, fc.constantFrom("2020-12", "draft-07", "none"))
  .map(([root, definition, dialect]) => {
    const key = dialect === "draft-07" ? "definitions" : "$defs";
    // draft-07 spells dependentRequired and dependentSchemas as one keyword, dependencies.
    const draft07 = (t: string) => (dialect === "draft-07" ? t.replaceAll('"dependentRequired":', '"dependencies":').replaceAll('"dependentSchemas":', '"dependencies":') : t);
    const text = draft07(JSON.stringify(root).replaceAll('"#/$defs/D"', JSON.stringify(`#/${key}/D`)));
    // draft-07 has no prefixItems, minContains, maxContains: dropped there.
    const parse = (t: string) =>
      JSON.parse(t, (_key, v: unknown) => {
        if (dialect !== "draft-07" || typeof v !== "object" || v === null || Array.isArray(v)) return v;
        const { prefixItems: _p, minContains: _min, maxContains: _max, ...rest } = v as Record<string, unknown>;
        return rest;
      }) as SchemaObject;
    const withoutRefs = parse(draft07(JSON.stringify(definition).replace(/\{"\$ref":"#\/\$defs\/D"\}/g, "{}")));
    return {
      ...(dialect === "2020-12" ? { $schema: "https://json-schema.org/draft/2020-12/schema" } : dialect === "draft-07" ? { $schema: "http://json-schema.org/draft-07/schema#" } : {}),
      ...parse(text),
      [key]: { D: withoutRefs },
    } as SchemaObject;
  });

const UNEVALUATED_SCHEMAS = 150;
/** Keywords whose value is a schema, a list of them, or a map of them: where unevaluated* may be added. */
const SUBSCHEMA_KEYS = new Set(["additionalProperties", "propertyNames", "items", "contains", "not", "if", "then", "else"]);
const SUBSCHEMA_LISTS = new Set(["prefixItems", "anyOf", "oneOf", "allOf"]);
const SUBSCHEMA_MAPS = new Set(["properties", "patternProperties", "dependentSchemas", "$defs"]);

/** 2020-12 documents of the generator above with unevaluatedProperties / unevaluatedItems added to some of their nodes (picks: 0 none, 1 and 2 one of them false, 3 both as schemas). */
const unevaluatedArbitrary = fc
  .tuple(schemaArbitrary.node, schemaArbitrary.node, fc.array(fc.constantFrom(0, 0, 1, 2, 3), { minLength: 64, maxLength: 64 }))
  .map(([root, definition, picks]) => {
    let n = 0;
    const add = (node: Json): Json => {
      if (typeof node !== "object" || node === null || Array.isArray(node)) return node;
      const out: SchemaObject = {};
      for (const [key, value] of Object.entries(node)) {
        if (value === undefined) continue;
        if (SUBSCHEMA_KEYS.has(key)) out[key] = add(value);
        else if (SUBSCHEMA_LISTS.has(key) && Array.isArray(value)) out[key] = value.map(add);
        else if (SUBSCHEMA_MAPS.has(key) && typeof value === "object" && value !== null && !Array.isArray(value)) out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, add(v)]));
        else out[key] = value;
      }
      const pick = picks[n++ % picks.length];
      if (pick === 1) out.unevaluatedProperties = false;
      if (pick === 2) out.unevaluatedItems = false;
      if (pick === 3) Object.assign(out, { unevaluatedProperties: { type: "number" }, unevaluatedItems: { type: "string" } });
      return out;
    };
    const document = add({ ...root, $defs: { D: JSON.parse(JSON.stringify(definition).replace(/\{"\$ref":"#\/\$defs\/D"\}/g, "{}")) as Json } }) as SchemaObject;
    return { $schema: "https://json-schema.org/draft/2020-12/schema", ...document } as SchemaObject;
  });

function withoutUnevaluated(document: SchemaObject): SchemaObject {
  return JSON.parse(JSON.stringify(document), (key, value: unknown) => (key === "unevaluatedProperties" || key === "unevaluatedItems" ? undefined : value)) as SchemaObject;
}

const valueArbitrary = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constantFrom(...LEAVES),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom(...KEYS, "z"), tie("value"), { maxKeys: 4, noNullPrototype: true }),
  ),
})).value;

/** Small changes of a value: each leaf or element replaced, a key dropped or added, an element duplicated. */
function mutations(value: Json): Json[] {
  const out: Json[] = [];
  const visit = (node: Json, rebuild: (replacement: Json) => Json) => {
    for (const leaf of [null, 0, 2.5, "a", "", true]) out.push(rebuild(leaf));
    if (Array.isArray(node)) {
      if (node.length > 0) out.push(rebuild([...node, node[0]!]));
      node.forEach((item, i) => visit(item, (r) => rebuild(node.map((x, j) => (j === i ? r : x)))));
    } else if (typeof node === "object" && node !== null) {
      out.push(rebuild({ ...node, z: 1 }));
      for (const key of Object.keys(node)) {
        const { [key]: _dropped, ...rest } = node;
        out.push(rebuild(rest));
        visit(node[key]!, (r) => rebuild({ ...node, [key]: r }));
      }
    }
  };
  visit(value, (r) => r);
  return out;
}

describe("codegen/tools: tool validators compiled by generate --tools agree with the runtime's ajv", function () {
  this.timeout(300_000);
  let dir: string | undefined;
  after(() => removeDir(dir));

  it(`${SCHEMAS} generated schemas (both dialects, every supported keyword), ${VALUES_PER_SCHEMA} values each plus mutations of the valid ones (fast-check seed ${SEED})`, async () => {
    const documents = fc.sample(documentArbitrary, { seed: SEED, numRuns: SCHEMAS });
    const compiled = await compileToolSchemas(documents, "tools-differential");
    dir = compiled.dir;
    const ajv = new SchemaCompiler(silentLogger, "ajv");
    await ajv.load();

    const keywords = new Map<string, number>();
    let values = 0;
    let valid = 0;
    let schemasWithBoth = 0;
    documents.forEach((document, i) => {
      JSON.stringify(document, (key, v: unknown) => (keywords.set(key, (keywords.get(key) ?? 0) + 1), v));
      const oracle = ajv.compile(document);
      // The runtime's compiler in both modes: code (the default on Node) and closures (Workers).
      const modes = (["code", "closures"] as const).map((mode) => ({ mode, validator: compileSchema(document, { dialect: dialectOf(document), mode }) }));
      const ours = compiled.validators[i]!;
      const verdicts = new Set<boolean>();
      const judge = (value: Json) => {
        const expected = oracle(value) === undefined;
        const is = ours.is(value);
        const issues = ours.check(value);
        const where = `\n  schema: ${JSON.stringify(document)}\n  value: ${JSON.stringify(value)}\n  ajv: ${oracle(value) ?? "valid"}\n  ours: ${JSON.stringify(issues)}`;
        if (is !== expected) throw new Error(`schema t${i}: is says ${is}, ajv says ${expected}${where}`);
        if (is !== (issues.length === 0)) throw new Error(`schema t${i}: is says ${is} but check found ${issues.length} issue(s)${where}`);
        for (const { mode, validator } of modes) {
          if (validator.is(value) !== expected) throw new Error(`schema t${i}: the runtime's compiler (${mode}) says ${!expected}, ajv says ${expected}${where}`);
          if ((validator.check(value).length === 0) !== expected) throw new Error(`schema t${i}: the runtime's compiler (${mode}): check disagrees with ajv${where}`);
        }
        const [byCode, byClosures] = modes.map(({ validator }) => JSON.stringify(validator.check(value)));
        if (byCode !== byClosures) throw new Error(`schema t${i}: the runtime's compiler gives other issues in code mode than in closures${where}\n  code: ${byCode}\n  closures: ${byClosures}`);
        values++;
        if (expected) valid++;
        verdicts.add(expected);
        return expected;
      };
      const sample = fc.sample(valueArbitrary, { seed: SEED + i, numRuns: VALUES_PER_SCHEMA });
      for (const value of sample) {
        if (!judge(value)) continue;
        const all = mutations(value);
        const picks = fc.sample(fc.nat(Math.max(0, all.length - 1)), { seed: SEED + i + values, numRuns: MUTATIONS_PER_VALID });
        for (const pick of picks) if (all.length > 0) judge(all[pick]!);
      }
      if (verdicts.size === 2) schemasWithBoth++;
    });

    // Not vacuous: every keyword was generated many times, and many schemas saw both verdicts.
    for (const keyword of ["type", "const", "enum", "minLength", "maxLength", "pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
      "properties", "required", "additionalProperties", "minProperties", "maxProperties", "items", "minItems", "maxItems", "uniqueItems", "dependentRequired", "dependentSchemas", "dependencies",
      "prefixItems", "contains", "minContains", "maxContains", "patternProperties", "propertyNames",
      "anyOf", "oneOf", "allOf", "not", "if", "then", "else", "$ref", "$defs", "definitions"])
      expect(keywords.get(keyword) ?? 0, `schemas using ${keyword}`).to.be.at.least(10);
    expect(valid / values, "share of valid values").to.be.within(0.1, 0.9);
    expect(schemasWithBoth / SCHEMAS, "schemas that saw both verdicts").to.be.greaterThan(0.4);
    console.log(`      ${SCHEMAS} schemas, ${values} values (${valid} valid), ${schemasWithBoth} schemas saw both verdicts`);
  });

  // ajv gets unevaluatedProperties and unevaluatedItems wrong in 10 groups of the JSON Schema Test
  // Suite; the runtime's compiler passes all of them (json-schema-suite.test.ts): here it is the oracle.
  it(`unevaluatedProperties and unevaluatedItems: ${UNEVALUATED_SCHEMAS} generated 2020-12 schemas agree with the runtime's compiler (fast-check seed ${SEED})`, async () => {
    const documents = fc.sample(unevaluatedArbitrary, { seed: SEED, numRuns: UNEVALUATED_SCHEMAS });
    const compiled = await compileToolSchemas(documents, "tools-unevaluated");
    try {
      let values = 0;
      let valid = 0;
      let decided = 0;
      documents.forEach((document, i) => {
        const oracle = compileSchema(document, { dialect: "2020-12", mode: "closures" });
        // The same schema without its unevaluated keywords: a value it accepts and the schema refuses was decided by them.
        const without = compileSchema(withoutUnevaluated(document), { dialect: "2020-12", mode: "closures" });
        const ours = compiled.validators[i]!;
        const judge = (value: Json) => {
          const expected = oracle.is(value);
          const where = `\n  schema: ${JSON.stringify(document)}\n  value: ${JSON.stringify(value)}`;
          if (ours.is(value) !== expected) throw new Error(`schema t${i}: is says ${!expected}, the runtime's compiler says ${expected}${where}`);
          if ((ours.check(value).length === 0) !== expected) throw new Error(`schema t${i}: check disagrees with is${where}`);
          values++;
          if (expected) valid++;
          else if (without.is(value)) decided++;
          return expected;
        };
        for (const value of fc.sample(valueArbitrary, { seed: SEED + i, numRuns: VALUES_PER_SCHEMA })) {
          if (!judge(value)) continue;
          const all = mutations(value);
          const picks = fc.sample(fc.nat(Math.max(0, all.length - 1)), { seed: SEED + i + values, numRuns: MUTATIONS_PER_VALID });
          for (const pick of picks) if (all.length > 0) judge(all[pick]!);
        }
      });
      const using = documents.filter((d) => JSON.stringify(d).includes('"unevaluated')).length;
      expect(using / UNEVALUATED_SCHEMAS, "schemas using unevaluated*").to.be.greaterThan(0.8);
      expect(valid / values, "share of valid values").to.be.within(0.1, 0.9);
      expect(decided, "values refused only by an unevaluated keyword").to.be.greaterThan(100);
      console.log(`      ${UNEVALUATED_SCHEMAS} schemas, ${values} values (${valid} valid), ${decided} refused by an unevaluated keyword alone`);
    } finally {
      removeDir(compiled.dir);
    }
  });

  it("a keyword it does not support fails generation, naming the file and the JSON Pointer", () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ type: "object", properties: { tags: { type: "array", $vocabulary: {} } } }, `mcp.server.json #/tools/0/inputSchema/properties/tags/$vocabulary: "$vocabulary" is not supported by the build-time validator compiler`],
      // 2020-12's keyword, not draft-07's.
      [{ $schema: "http://json-schema.org/draft-07/schema#", type: "object", unevaluatedProperties: false }, `mcp.server.json #/tools/0/inputSchema/unevaluatedProperties: "unevaluatedProperties" is not supported by the build-time validator compiler`],
      [{ type: "object", properties: { a: { $ref: "#/$defs/Missing" } } }, `mcp.server.json #/tools/0/inputSchema/properties/a/$ref: $ref "#/$defs/Missing" names no place in this schema`],
      [{ type: "object", properties: { a: { pattern: "(" } } }, "mcp.server.json #/tools/0/inputSchema/properties/a/pattern: pattern is not a valid regular expression"],
      [{ type: "object", anyOf: [{ required: ["a"] }, { $ref: "#" }] }, "mcp.server.json #/tools/0/inputSchema/anyOf/1/$ref: refers back to #/tools/0/inputSchema in place, with no property or item between"],
      [{ $schema: "http://json-schema.org/draft-04/schema#", type: "object" }, `mcp.server.json #/tools/0/inputSchema/$schema: unsupported dialect`],
    ];
    for (const [inputSchema, message] of cases) {
      let caught: unknown;
      try {
        loadToolSchemas("mcp.server.json", [{ name: "t", inputSchema }]);
      } catch (error) {
        caught = error;
      }
      expect(caught, message).to.be.instanceOf(GenerationError);
      expect((caught as Error).message).to.contain(message);
    }
  });

  it("keys named __proto__, constructor, toString survive: the embedded schema equals the source and the checks read own properties", async () => {
    const inputSchema = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"number"},"constructor":{"type":"number"},"toString":{"type":"string"}},"required":["__proto__"],"additionalProperties":false,"$defs":{"__proto__":{"type":"string"}}}',
    ) as Record<string, unknown>;
    const compiled = await compileToolSchemas([inputSchema], "tools-proto");
    removeDir(compiled.dir); // the module is loaded: its folder is no longer needed
    const [validator] = compiled.validators;
    expect(Object.keys(validator!.schema.properties as object)).to.deep.equal(["__proto__", "constructor", "toString"]);
    expect(canonicalJson(validator!.schema)).to.equal(canonicalJson(inputSchema));
    expect(precompiled(validator, inputSchema), "the runtime uses the compiled validator for that very schema").to.be.a("function");
    const cases: [string, boolean][] = [
      ['{"__proto__":1}', true],
      ['{"__proto__":"1"}', false],
      ["{}", false],
      ['{"__proto__":1,"constructor":2,"toString":"x"}', true],
      ['{"__proto__":1,"toString":1}', false],
      ['{"__proto__":1,"other":1}', false],
    ];
    for (const [text, valid] of cases) {
      const value = JSON.parse(text) as unknown;
      expect(validator!.is(value), text).to.equal(valid);
      expect(validator!.check(value).length === 0, text).to.equal(valid);
    }
  });
});
