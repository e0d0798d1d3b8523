/**
 * The closures (render/closures.ts) beyond the JSON Schema Test Suite's data (code.test.ts):
 * objects whose keys are awkward or many, in orders that change from one value to the next (the
 * closures remember where each key was last time), against code mode; and values that are not
 * plain JSON objects, on which each mode's boolean check must agree with its own issues.
 */
import { Validator } from "@cfworker/json-schema";
import { expect } from "chai";
import fc from "fast-check";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { compileSchema, type CompiledValidator } from "../../../../runtime/json-schema/compile.js";
import { CHECK_GATED_POOL, CHECK_ITEMS_POOL, CHECK_POOL, ENTRY_POOL, GATED_POOL, ITEMS_POOL, POOL } from "../../../../runtime/json-schema/render/pool.js";
import { describeIssues } from "../../../../runtime/shared/json-schema.js";
import { EVERY_RUN, NO_RUN } from "../../../support/closure-templates.js";

/** Names that are special somewhere: Object.prototype's, array-index-like, empty, escaped in a pointer, longer than any in a schema. */
const NAMES = ["a", "b", "ab", "__proto__", "constructor", "toString", "hasOwnProperty", "0", "10", "", "a/b", "c~d", "x".repeat(70)];

/** Object schemas of the shapes the closures take different paths for: read by name, by a for-in, closed, with references and unions. */
const SCHEMAS: readonly Record<string, unknown>[] = [
  { type: "object", properties: { a: { type: "string" }, b: { type: "number" } }, required: ["a"] },
  { type: "object", properties: { a: { type: "string" }, b: { type: "number" }, ab: { enum: ["x", "y"] } }, required: ["a"] },
  { type: "object", properties: { a: { type: "string" }, __proto__: { type: "number" }, constructor: { type: "string" } }, required: ["__proto__"] },
  { type: "object", properties: { a: { type: "string" }, "0": { type: "number" }, "": { type: "boolean" } }, additionalProperties: false },
  { type: "object", properties: { a: { type: "string" }, b: { type: "string" }, "a/b": { type: "string" }, "c~d": { type: "integer" } }, required: ["a", "b"], additionalProperties: false },
  { properties: { a: { type: "string" }, toString: { type: "number" } }, required: ["toString"] },
  { type: "object", properties: { a: { $ref: "#" }, b: { type: "number" }, ab: { type: "string" } }, additionalProperties: false },
  { oneOf: [{ type: "object", properties: { a: { type: "string" } }, required: ["a"] }, { type: "object", properties: { b: { type: "number" } }, required: ["b"] }] },
  { type: "object", properties: { a: { type: "string" } }, unevaluatedProperties: false, anyOf: [{ properties: { b: { type: "number" } } }, { properties: { ab: { type: "number" } } }] },
  { type: "object", allOf: [{ properties: { a: { type: "string" } }, required: ["a"] }, { properties: { a: { minLength: 2 } } }] },
  { type: "object", properties: { hasOwnProperty: { type: "string" }, constructor: { type: "number" } }, required: ["constructor", "hasOwnProperty"] },
  { type: "object", patternProperties: { "^x": { type: "string" } }, properties: { a: { type: "number" } }, additionalProperties: false },
  // Whether a key is there, for names every object inherits: own properties only.
  { type: "object", dependentRequired: { constructor: ["a"], "": ["b"] }, dependentSchemas: { toString: { required: ["ab"] }, a: { properties: { hasOwnProperty: { type: "number" } } } } },
];

/** Code mode, and the closures with a template for every run and with none (whatever the tests before took of the pool). */
const modes = (schema: unknown): [string, CompiledValidator][] => [
  ["code", compileSchema(schema, { mode: "code" })],
  ["closures", compileSchema(schema, { mode: "closures", templates: EVERY_RUN })],
  ["closures, no templates", compileSchema(schema, { mode: "closures", templates: NO_RUN })],
];

/** JSON objects as JSON.parse makes them: keys from NAMES (with a suffix, for objects of 70 and more keys), in any order. */
const leaf = fc.oneof(fc.string({ maxLength: 3 }), fc.integer({ min: -1, max: 3 }), fc.double({ min: 0, max: 3, noNaN: true }), fc.boolean(), fc.constant(null));
const value = fc.letrec<{ value: unknown; object: string }>((tie) => ({
  value: fc.oneof({ depthSize: "small" }, leaf, tie("object").map((text) => JSON.parse(text as string) as unknown), fc.array(tie("value"), { maxLength: 2 })),
  object: fc.oneof(
    fc.array(fc.tuple(fc.constantFrom(...NAMES), tie("value")), { maxLength: 5 }).map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(",")}}`),
    fc.integer({ min: 70, max: 80 }).map((n) => `{${Array.from({ length: n }, (_, i) => `${JSON.stringify(NAMES[i % NAMES.length]! + (i >= NAMES.length ? String(i) : ""))}:${i}`).join(",")}}`),
  ),
}));
const objects = value.object.map((text) => JSON.parse(text) as unknown);

describe("json-schema/render/closures", () => {
  it("agree with code mode on JSON objects with awkward, many or reordered keys: verdict, issues and message", () => {
    for (const schema of SCHEMAS) {
      const [[, code], ...closures] = modes(schema) as [[string, CompiledValidator], ...[string, CompiledValidator][]];
      expect(code.mode).to.equal("code");
      // One compiled schema for all values: what the closures remember of one value's keys must not mislead them on the next.
      fc.assert(
        fc.property(fc.array(objects, { minLength: 1, maxLength: 4 }), (values) => {
          for (const v of values)
            for (const [name, validator] of closures) {
              const issues = validator.check(v);
              expect(validator.is(v), `${name}: ${JSON.stringify(v)}`).to.equal(code.is(v));
              expect(issues, `${name}: ${JSON.stringify(v)}`).to.deep.equal(code.check(v));
              expect(validator.describe(v)).to.equal(describeIssues(issues));
              expect(code.describe(v)).to.equal(describeIssues(issues));
            }
        }),
        { numRuns: 150, seed: 31 },
      );
    }
  });

  it("a property's type with its bounds, an enum or a const, run as one leaf (leaf.ts), agrees with code mode at, around and between the bounds", () => {
    const schemas = [
      { type: "object", properties: { n: { type: "integer", minimum: 1, maximum: 10 } } },
      { type: "object", properties: { n: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 2.5 }, m: { type: "integer", exclusiveMaximum: 3 } } },
      { type: "object", properties: { n: { type: "number", minimum: 0 }, m: { type: "number", maximum: 0 }, s: { type: "number", exclusiveMinimum: 0 }, t: { type: "number", exclusiveMaximum: 0 } } },
      // Infinite bounds (a schema's 1e400): code mode must print them as Infinity, not as JSON's null.
      JSON.parse('{"type":"object","properties":{"n":{"type":"number","minimum":1e400},"m":{"type":"number","maximum":-1e400},"s":{"type":"number","exclusiveMaximum":1e400}}}') as Record<string, unknown>,
      { type: "object", properties: { n: { type: "number", minimum: -1, exclusiveMinimum: -1.5, maximum: 2, exclusiveMaximum: 2 } }, required: ["n"] },
      { type: "object", properties: { s: { type: "string", minLength: 2, maxLength: 3 }, t: { type: "string", maxLength: 1 } }, additionalProperties: false },
      // A string enum implies its type test: the boolean check is the enum alone, the issue check has both.
      { type: "object", properties: { s: { type: "string", enum: ["ab", "\u{1F600}\u{1F600}"] }, n: { type: "integer", enum: [1, 2, 10] } } },
      // One constant: no value of another type that `==` would take (0 and false, 1 and "1", null and undefined).
      { type: "object", properties: { n: { const: 0 }, m: { const: 1 }, s: { const: "1" }, t: { enum: [null] } } },
    ];
    // JSON's 1e400 is Infinity: only an upper bound refuses it (and a lower one -Infinity).
    const numbers = [-2, -1.5, -1, -0.5, 0, 0.5, 1, 1.5, 2, 2.5, 3, 9, 10, 10.5, 11, JSON.parse("1e400") as number, JSON.parse("-1e400") as number];
    // Strings of code points: a surrogate pair is one character (hasMaxLength), and a lone surrogate one too.
    const strings = ["", "a", "ab", "abc", "abcd", "\u{1F600}", "\u{1F600}\u{1F600}", "a\u{1F600}\u{1F600}", "\u{1F600}\u{1F600}\u{1F600}\u{1F600}", "\ud800", "\ud800\ud800"];
    const values = [...numbers, ...strings, "0", "1", null, true, false, [], {}];
    let refused = 0;
    for (const schema of schemas) {
      const [[, code], ...closures] = modes(schema) as [[string, CompiledValidator], ...[string, CompiledValidator][]];
      for (const x of values)
        for (const v of [{ n: x, m: x, s: x, t: x }, { n: x }, { s: x }, { m: x, t: x }]) {
          if (!code.is(v)) refused++;
          for (const [name, validator] of closures) {
            const at = `${name}: ${JSON.stringify(schema)} ${JSON.stringify(v)}`;
            expect(validator.is(v), at).to.equal(code.is(v));
            expect(validator.check(v), at).to.deep.equal(code.check(v));
          }
        }
    }
    // Not vacuous: each bound refuses some values and passes others.
    expect(refused).to.be.within(50, schemas.length * values.length * 4 - 50);
  });

  it("a branch that unevaluatedProperties' conditions and anyOf both test is memoised per call: verdicts follow a subject changed between calls, and no subject is held after one", async () => {
    const schema = {
      type: "object",
      anyOf: [
        { properties: { a: { type: "string" } }, required: ["a"] },
        { properties: { b: { type: "number" } }, required: ["b"] },
      ],
      unevaluatedProperties: false,
    };
    const [[, code], ...closures] = modes(schema) as [[string, CompiledValidator], ...[string, CompiledValidator][]];
    for (const [name, validator] of closures) {
      // The same object, changed between calls: a verdict kept from an earlier call would be wrong
      // (the boolean check alone, then with the issue check after each).
      const changes = (subject: Record<string, unknown>) => [() => {}, () => (subject.a = 1), () => (subject.b = 2), () => delete subject.a, () => (subject.c = 3), () => delete subject.c, () => (subject.b = "y")];
      const alone: Record<string, unknown> = { a: "x" };
      for (const change of changes(alone)) {
        change();
        expect(validator.is(alone), `${name}: ${JSON.stringify(alone)}`).to.equal(code.is(alone));
      }
      const subject: Record<string, unknown> = { a: "x" };
      for (const change of [() => {}, () => (subject.a = 1), () => (subject.b = 2), () => delete subject.a, () => (subject.c = 3), () => delete subject.c, () => (subject.b = "y")]) {
        change();
        const at = `${name}: ${JSON.stringify(subject)}`;
        expect(validator.is(subject), at).to.equal(code.is(subject));
        expect(validator.check(subject), at).to.deep.equal(code.check(subject));
        expect(validator.describe(subject), at).to.equal(code.describe(subject));
      }
      // A recursive branch: a call's arguments are its own, whatever the calls inside it.
      const nested = { $defs: { n: { type: "array", anyOf: [{ prefixItems: [{ $ref: "#/$defs/n" }] }, { prefixItems: [true, { type: "number" }] }], unevaluatedItems: false } }, $ref: "#/$defs/n" };
      const nestedClosures = compileSchema(nested, { mode: "closures", templates: name === "closures" ? EVERY_RUN : NO_RUN });
      const nestedCode = compileSchema(nested, { mode: "code" });
      for (const value of [[[[]], 3, 4], [[[]], 3], [[], 3, 4], [[[[]], 1], 2]])
        for (const method of ["is", "check", "describe"] as const) expect(nestedClosures[method](value), `${name}: ${method} ${JSON.stringify(value)}`).to.deep.equal(nestedCode[method](value));
      // Several subjects in one call: each item is its own.
      const items = compileSchema({ type: "array", items: schema }, { mode: "closures", templates: name === "closures" ? EVERY_RUN : NO_RUN });
      for (const value of [[{ a: "x" }, { a: 1 }], [{ a: 1 }, { b: 2 }], [{ b: 2 }, { b: 2, c: 3 }, { a: "x" }]]) {
        expect(items.is(value), `${name}: ${JSON.stringify(value)}`).to.equal(false);
        expect(items.describe(value), `${name}: ${JSON.stringify(value)}`).to.equal(compileSchema({ type: "array", items: schema }, { mode: "code" }).describe(value));
      }
      // Not held: a subject validated is collected once nothing else refers to it.
      setFlagsFromString("--expose-gc");
      const gc = runInNewContext("gc") as () => void;
      const held = (() => {
        const gone = { a: "x", b: 2 };
        validator.is(gone);
        validator.describe(gone);
        validator.validate(gone);
        return new WeakRef(gone);
      })();
      await new Promise((resolve) => setImmediate(resolve));
      gc();
      expect(held.deref(), `${name}: the subject is still held`).to.equal(undefined);
    }
  });

  it("a memoised branch verdict is forgotten when a check throws midway (a getter), so the next call sees the subject as it is then", () => {
    const schema = {
      type: "object",
      anyOf: [
        { properties: { a: { type: "string" } }, required: ["a"] },
        { properties: { b: { type: "number" } }, required: ["b"] },
      ],
      unevaluatedProperties: { type: "string" },
    };
    const [[, code], ...closures] = modes(schema) as [[string, CompiledValidator], ...[string, CompiledValidator][]];
    for (const [name, validator] of [["code", code] as const, ...closures])
      for (const method of ["is", "check", "describe", "validate"] as const) {
        // The branch { a: string } passes and is remembered; then the unevaluated `z` is read, and throws.
        const subject: Record<string, unknown> = { a: "x" };
        Object.defineProperty(subject, "z", { enumerable: true, configurable: true, get: () => { throw new Error("a getter that throws"); } });
        expect(() => validator[method](subject), `${name}: ${method}`).to.throw("a getter that throws");
        // Now no branch passes: a verdict kept from the call that threw would say it does.
        delete subject.z;
        subject.a = 1;
        expect(validator.is(subject), `${name}: ${method}, then is`).to.equal(false);
        expect(validator.describe(subject), `${name}: ${method}, then describe`).to.equal(code.describe({ a: 1 }));
        expect(validator.validate(subject), `${name}: ${method}, then validate`).to.equal(code.describe({ a: 1 }));
        expect(code.describe({ a: 1 })).to.not.equal("");
      }
  });

  it("unevaluatedItems after branches that cover different counts of leading items, in any order, with or without contains: agrees with @cfworker/json-schema and code mode", () => {
    // The evaluations that apply vary by value (anyOf, oneOf, if/then/else): the items left are
    // from the largest count an applying one covers, whichever comes first.
    const prefix = (n: number, item: unknown) => (n === 0 ? {} : { prefixItems: Array.from({ length: n }, () => item) });
    const schema = fc.record({
      own: fc.integer({ min: 0, max: 2 }),
      counts: fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 2, maxLength: 3 }),
      applicator: fc.constantFrom("anyOf", "oneOf", "if"),
      contains: fc.boolean(),
    }).map(({ own, counts, applicator, contains }) => {
      // Branches that pass on some arrays and not others: their leading items must be integers.
      const branches = counts.map((n) => prefix(n, { type: "integer" }));
      const applied = applicator === "if" ? { if: branches[0], then: branches[1], ...(branches[2] ? { else: branches[2] } : {}) } : { [applicator]: branches };
      return { type: "array", ...prefix(own, true), ...applied, ...(contains ? { contains: { const: "c" }, minContains: 0 } : {}), unevaluatedItems: { type: "string", maxLength: 1 } };
    });
    const item = fc.oneof(fc.integer({ min: 0, max: 2 }), fc.constantFrom("s", "c", "long"), fc.constant(null));
    let refused = 0;
    let passed = 0;
    fc.assert(
      fc.property(schema, fc.array(fc.array(item, { maxLength: 6 }), { minLength: 1, maxLength: 5 }), (s, values) => {
        const [[, code], ...closures] = modes(s) as [[string, CompiledValidator], ...[string, CompiledValidator][]];
        // The oracle: ajv keeps the annotations of a branch that failed (anyOf: [{}, {prefixItems: [...]}] passes [null]).
        const oracle = new Validator(s as never, "2020-12", false);
        for (const v of values) {
          const valid = oracle.validate(v).valid;
          valid ? passed++ : refused++;
          expect(code.is(v), `code: ${JSON.stringify(s)} ${JSON.stringify(v)}`).to.equal(valid);
          for (const [name, validator] of closures) {
            const at = `${name}: ${JSON.stringify(s)} ${JSON.stringify(v)}`;
            expect(validator.is(v), at).to.equal(valid);
            expect(validator.check(v), at).to.deep.equal(code.check(v));
            expect(validator.describe(v), at).to.equal(code.describe(v));
          }
        }
      }),
      { numRuns: 300, seed: 31 },
    );
    // Not vacuous: both verdicts come often.
    expect(Math.min(passed, refused)).to.be.above(100);
  });

  it("on values that are not plain JSON, each mode's boolean check agrees with its issues, and a refusal always says why", () => {
    const getter = new (class {
      get a() {
        return 5;
      }
    })();
    const hidden = Object.defineProperty({}, "a", { value: "x", enumerable: false });
    const inherited = Object.create({ constructor: "x", a: 1 }) as object;
    const bare = Object.assign(Object.create(null) as object, { a: "x", b: 1 });
    const schemas: Record<string, unknown>[] = [
      { type: "object", properties: { a: { type: "string" } } },
      { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
      { type: "object", properties: { a: { type: "string" }, b: { type: "number" }, c: { type: "number" } } },
      { properties: { constructor: { type: "string" } }, required: ["constructor"] },
      { type: "object", properties: { a: { type: "string" }, b: { type: "number" } }, additionalProperties: false },
      // Bounds on NaN, which no order holds for (a server's own code may return it).
      { type: "number", maximum: 5 },
      { type: "integer", minimum: 1, maximum: 10 },
      { type: "object", properties: { a: { type: "number", exclusiveMinimum: 0, maximum: 5 }, b: { type: "number", minimum: 1 } } },
      { minimum: 0, exclusiveMaximum: 3, multipleOf: 0.5 },
    ];
    const unjson: unknown[] = [NaN, Infinity, -Infinity, { a: NaN }, { a: 1, b: NaN }, { a: NaN, b: 1 }];
    let refused = 0;
    for (const schema of schemas) {
      const code = compileSchema(schema, { mode: "code" });
      for (const [mode, validator] of modes(schema))
        for (const v of [getter, hidden, inherited, bare, new Date(0), [1], ...unjson]) {
          const at = `${mode}, ${JSON.stringify(schema)}, ${Object.prototype.toString.call(v)} ${JSON.stringify(v)}`;
          const issues = validator.check(v);
          expect(validator.is(v), at).to.equal(issues.length === 0);
          // Numbers JSON has no text for, in plain objects: the same verdict in every mode (where a for-in and reads by name differ, not).
          if (unjson.includes(v)) expect(validator.is(v), `${at}: as code mode`).to.equal(code.is(v));
          expect(validator.describe(v), at).to.equal(describeIssues(issues));
          if (!validator.is(v)) {
            refused++;
            expect(validator.describe(v), at).to.not.equal("");
          }
        }
    }
    // Not vacuous: some of these values are refused (the getter's 5 is no string, an array is no object).
    expect(refused).to.be.greaterThan(10);
  });
});

describe("closures: a recursive schema's conditions", () => {
  it("unevaluatedProperties' conditions are tested once per call of their node, however many keys: a recursive schema's work grows with the value, as code mode's", () => {
    // The `if` recurses through `a`; each extra key's value is checked against the root too, between the keys' conditions.
    const schema = { properties: { a: {} }, if: { properties: { a: { $ref: "#" } }, additionalProperties: { required: ["q"] } }, unevaluatedProperties: { $ref: "#" } };
    let reads = 0;
    /** Depth `d`, with `keys` extra keys beside `a`, whose reads of `a` are counted. */
    const value = (d: number, keys: number): Record<string, unknown> => {
      const inner = d === 0 ? 0 : value(d - 1, keys);
      const o: Record<string, unknown> = {};
      Object.defineProperty(o, "a", { enumerable: true, get: () => (reads++, inner) });
      for (let i = 0; i < keys; i++) o[`k${i}`] = { z: 0 };
      return o;
    };
    const subject = value(8, 3);
    const counted = (f: () => unknown) => {
      reads = 0;
      f();
      return reads;
    };
    const code = compileSchema(schema, { mode: "code" });
    const byCode = counted(() => code.validate(subject));
    expect(byCode, "code mode's reads").to.be.within(8, 200);
    for (const [name, validator] of modes(schema).slice(1)) {
      expect(validator.validate(subject), name).to.equal(undefined);
      // Exponential, (keys + 1) ** depth: 65,536 reads and more.
      expect(counted(() => validator.validate(subject)), `${name}: reads of a, against code mode's ${byCode}`).to.be.at.most(byCode * 4);
    }
  });
});

describe("closures: the pool's templates", () => {
  /** Compiles `schema` with a template for every run, each counting its calls. */
  function counted(schema: unknown) {
    const made: { kind: string; calls: number }[] = [];
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const counting = (template: (...args: any[]) => (...a: any[]) => unknown, kind = ""): any =>
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      (...args: any[]) => {
        const run = template(...args);
        const record = { kind, calls: 0 };
        made.push(record);
        return (...a: unknown[]) => (record.calls++, run(...a));
      };
    const validator = compileSchema(schema, { mode: "closures", templates: {
        is: () => counting(POOL[0]!),
        check: () => counting(CHECK_POOL[0]!),
        items: () => counting(ITEMS_POOL[0]!),
        checkItems: () => counting(CHECK_ITEMS_POOL[0]!),
        gated: () => counting(GATED_POOL[0]!, "gated"),
        checkGated: () => counting(CHECK_GATED_POOL[0]!, "checkGated"),
        entry: () => counting(ENTRY_POOL[0]!),
      },
    });
    return { validator, made };
  }

  it("go only to closures that run: none is handed to a sub-schema's check compiled and then dropped", () => {
    const run = { type: "object", properties: { a: { type: "string" }, b: { type: "number" } }, required: ["a"] };
    // contains under a condition with unevaluatedItems: its test is an argument of a call whose other arguments are not constants.
    const cases: [unknown, unknown[]][] = [
      [{ type: "array", contains: run, if: { minItems: 2 }, then: { prefixItems: [{}] }, unevaluatedItems: false }, [[], [{ a: "x" }], [{ a: 1 }], [1, { a: "x", b: 2 }], [{ a: "x" }, { a: "y", b: "z" }, 3]]],
      // A property whose checks are not all chains of asserts (a guard under `not`, a condition): none compiled twice.
      [{ type: "object", properties: { p: { not: { minLength: 2 }, if: { minLength: 1 }, then: { maximum: 3 } } } }, [{}, { p: "" }, { p: "a" }, { p: "ab" }, { p: 2 }, { p: 5 }, { p: null }, 1]],
      [{ type: "object", properties: { p: { allOf: [{ not: { minLength: 2 } }, { items: { type: "string" } }] } } }, [{}, { p: "a" }, { p: "ab" }, { p: ["x"] }, { p: [1] }, { p: 1 }]],
    ];
    for (const [schema, values] of cases) {
      const { validator, made } = counted(schema);
      for (const value of values) {
        validator.is(value);
        validator.check(value);
        validator.validate(value);
      }
      expect(made.length, JSON.stringify(schema)).to.be.greaterThan(0);
      expect(made.filter((template) => template.calls === 0), JSON.stringify(schema)).to.have.length(0);
    }
  });

  it("a guard or a condition of more than four checks (a template takes four: the fourth is the rest) runs every one, in the schema's order", () => {
    // No `type`: the array keywords are a guard's body, one check each; under `then`, a condition's.
    const parts = { minItems: 1, maxItems: 6, uniqueItems: true, contains: { const: 1 }, items: { type: "integer" }, not: { const: [7, 1] } };
    const values = [[], [1], [1, 1], [2], [1, "a"], [1, 2, 3, 4, 5, 6, 7], [7, 1], ["a"], "x", 5, null];
    let refused = 0;
    for (const schema of [parts, { if: { type: "array" }, then: parts }, { if: { type: "array" }, then: { type: "array", ...parts } }]) {
      const code = compileSchema(schema, { mode: "code" });
      const { validator, made } = counted(schema);
      expect(made.length, JSON.stringify(schema)).to.be.greaterThan(0);
      for (const v of values) {
        const at = `${JSON.stringify(schema)}: ${JSON.stringify(v)}`;
        expect(validator.is(v), at).to.equal(code.is(v));
        expect(validator.check(v), at).to.deep.equal(code.check(v));
        expect(validator.describe(v), at).to.equal(code.describe(v));
        expect(validator.validate(v), at).to.equal(code.validate(v));
        if (!code.is(v)) refused++;
      }
    }
    // Not vacuous: each part refuses one of the values.
    expect(refused).to.be.greaterThan(15);
  });

  it("a sequence of checks with no gate (a sub-schema's keywords, an item's) runs in a gated template behind a gate every subject passes: each check, in the schema's order", () => {
    // Six checks of the root and three of each item, none behind a type: anyOf, oneOf, not, allOf, if/then and unevaluatedItems apply to any value.
    const item = { not: { const: 3 }, anyOf: [{ type: "integer" }, { type: "string" }], oneOf: [{ minimum: 2 }, { maxLength: 1 }] };
    const schema = { prefixItems: [item, item], allOf: [{ maxItems: 4 }], anyOf: [{ type: "array" }, { type: "null" }], oneOf: [{ minItems: 2 }, { type: "null" }], not: { const: [2, 2] }, if: { minItems: 3 }, then: { contains: { const: "z" } }, unevaluatedItems: false };
    const values = [null, [2, 2], [2, "a"], [3, 2], [1, 2], ["ab", 2], [2, 2, "z"], [2, 2, 2], [2], [2, 2, 2, 2, 2], "x", 4];
    const code = compileSchema(schema, { mode: "code" });
    const { validator, made } = counted(schema);
    const issues = new Set<string>();
    for (const v of values) {
      const at = JSON.stringify(v);
      expect(validator.is(v), at).to.equal(code.is(v));
      expect(validator.check(v), at).to.deep.equal(code.check(v));
      expect(validator.describe(v), at).to.equal(code.describe(v));
      for (const issue of code.check(v)) issues.add(issue.keyword);
    }
    // Not vacuous: every keyword of the root and of the items refuses some value, and the gated templates ran.
    expect([...issues]).to.include.members(["anyOf", "contains", "maxItems", "not", "oneOf", "unevaluatedItems"]);
    expect(made.filter((template) => template.kind === "gated" && template.calls > 0).length).to.be.at.least(3);
    expect(made.filter((template) => template.kind === "checkGated" && template.calls > 0).length).to.be.at.least(3);
    // Two checks with no keyword of one type (a guard) and no condition: gated templates are the sequence's alone.
    const sequence = { not: item.not, anyOf: item.anyOf };
    const alone = counted(sequence);
    for (const v of [2, 3, "a", 1.5, null]) expect(alone.validator.validate(v), JSON.stringify(v)).to.equal(compileSchema(sequence, { mode: "code" }).validate(v));
    expect(alone.made.filter((template) => template.calls > 0).map((template) => template.kind)).to.include.members(["gated", "checkGated"]);
  });
});
