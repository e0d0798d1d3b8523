// Tool schemas known only at run time: our compiler (closures, no code generation) must give
// the same verdict as ajv (the oracle) on the keywords tool authors use, draft-07 and 2020-12.
import { expect } from "chai";
import fc from "fast-check";
import { precompiled, SchemaCompiler, type CompiledSchema, type SchemaValidator } from "../../../runtime/shared/json-schema.js";
import { isEdge } from "../../../runtime/util/platform.js";
import { asWorkerd } from "../../support/platform.js";

const D2020 = "https://json-schema.org/draft/2020-12/schema";
const D07 = "http://json-schema.org/draft-07/schema#";

/** Schemas as tool authors write them, each with instances meant to hit both verdicts. */
const CASES: { name: string; schema: Record<string, unknown>; instances: unknown[] }[] = [
  {
    name: "object, required, additionalProperties false, types",
    schema: { type: "object", properties: { city: { type: "string" }, days: { type: "integer", minimum: 1, maximum: 14 } }, required: ["city"], additionalProperties: false },
    instances: [{ city: "Paris" }, { city: "Paris", days: 3 }, { city: 1 }, {}, { city: "x", days: 0 }, { city: "x", days: 2.5 }, { city: "x", extra: true }, [], null, "Paris"],
  },
  {
    name: "$defs and $ref, $anchor (2020-12)",
    schema: {
      $schema: D2020,
      type: "object",
      $defs: { address: { $anchor: "addr", type: "object", properties: { street: { type: "string" } }, required: ["street"] } },
      properties: { home: { $ref: "#/$defs/address" }, work: { $ref: "#addr" } },
    },
    instances: [{}, { home: { street: "a" } }, { home: {} }, { work: { street: 1 } }, { work: { street: "b" } }],
  },
  {
    name: "definitions, dependencies (draft-07)",
    schema: { $schema: D07, type: "object", definitions: { n: { type: "number", exclusiveMinimum: 0 } }, properties: { a: { $ref: "#/definitions/n" } }, dependencies: { a: ["b"] } },
    instances: [{}, { a: 1, b: 0 }, { a: 1 }, { a: 0, b: 1 }, { b: 2 }],
  },
  {
    name: "oneOf, anyOf, allOf, not",
    schema: {
      type: "object",
      properties: {
        id: { oneOf: [{ type: "string", minLength: 2 }, { type: "integer" }] },
        tag: { anyOf: [{ const: "a" }, { enum: ["b", 3, null] }] },
        both: { allOf: [{ type: "number" }, { multipleOf: 5 }] },
        never: { not: { type: "string" } },
      },
    },
    instances: [{ id: "ab" }, { id: "a" }, { id: 3 }, { id: 3.5 }, { tag: "a" }, { tag: null }, { tag: "c" }, { both: 10 }, { both: 7 }, { never: 1 }, { never: "s" }],
  },
  {
    name: "if / then / else",
    schema: { type: "object", properties: { kind: { enum: ["phone", "email"] } }, if: { properties: { kind: { const: "phone" } } }, then: { required: ["phone"] }, else: { required: ["email"] } },
    instances: [{ kind: "phone", phone: "1" }, { kind: "phone" }, { kind: "email", email: "e" }, { kind: "email" }, {}],
  },
  {
    name: "pattern, lengths (UTF-16 vs code points), patternProperties, propertyNames, min/maxProperties",
    schema: {
      type: "object",
      minProperties: 1,
      maxProperties: 3,
      propertyNames: { pattern: "^[a-z_]+$" },
      patternProperties: { "^n_": { type: "number" } },
      properties: { code: { type: "string", pattern: "^[A-Z]{3}$", minLength: 3, maxLength: 3 }, emoji: { type: "string", maxLength: 1 } },
    },
    instances: [{}, { code: "ABC" }, { code: "abc" }, { n_x: 1 }, { n_x: "1" }, { Bad: 1 }, { a: 1, b: 2, c: 3, d: 4 }, { emoji: "😀" }, { emoji: "ab" }],
  },
  {
    name: "arrays: items, prefixItems, contains, uniqueItems, min/maxItems (2020-12)",
    schema: { $schema: D2020, type: "array", prefixItems: [{ type: "string" }], items: { type: "number" }, contains: { const: 7 }, uniqueItems: true, minItems: 2, maxItems: 4 },
    instances: [["a", 7], ["a", 7, 7], [7, 7], ["a"], ["a", 7, 1, 2, 3], ["a", 1], ["a", 7, { x: 1 }], [], "a"],
  },
  {
    name: "arrays: items list and additionalItems (draft-07)",
    schema: { $schema: D07, type: "array", items: [{ type: "string" }, { type: "boolean" }], additionalItems: false },
    instances: [["a", true], ["a"], ["a", true, 1], [1, true], []],
  },
  {
    name: "type lists, nullable, numbers, const objects, enum of objects",
    schema: { type: "object", properties: { v: { type: ["string", "null"] }, n: { type: "number", exclusiveMaximum: 10 }, c: { const: { a: [1, 2] } }, e: { enum: [{ x: 1 }, [1]] } } },
    instances: [{ v: null }, { v: 1 }, { n: 10 }, { n: 9.99 }, { c: { a: [1, 2] } }, { c: { a: [2, 1] } }, { e: { x: 1 } }, { e: [1] }, { e: { x: 2 } }],
  },
  {
    name: "recursive $ref",
    schema: { $schema: D2020, $defs: { node: { type: "object", properties: { children: { type: "array", items: { $ref: "#/$defs/node" } } }, additionalProperties: false } }, $ref: "#/$defs/node" },
    instances: [{}, { children: [{}, { children: [] }] }, { children: [{ x: 1 }] }, { children: [1] }],
  },
];

describe("shared/json-schema: the interpreter agrees with ajv on tool schemas", () => {
  let ajv: SchemaCompiler;
  let interpreter: SchemaCompiler;
  let code: SchemaCompiler;
  before(async () => {
    ajv = new SchemaCompiler(() => {}, "ajv");
    interpreter = new SchemaCompiler(() => {}, "interpreter");
    code = new SchemaCompiler(() => {}, "auto");
    await ajv.load();
    await interpreter.load();
    await code.load();
  });

  /** ajv's verdict, then ours in closures and in code mode. */
  const verdicts = (validators: readonly SchemaValidator[], value: unknown): boolean[] => validators.map((validate) => validate(value) === undefined);

  for (const { name, schema, instances } of CASES)
    it(`${name}: the same verdict on chosen and generated instances (closures and code mode)`, () => {
      const validators = [ajv, interpreter, code].map((compiler) => compiler.compile(schema));
      const seen = new Set<boolean>();
      for (const instance of instances) {
        const [a, ...ours] = verdicts(validators, instance);
        expect(ours, `${JSON.stringify(instance)}: ajv says ${a}`).to.deep.equal([a, a]);
        seen.add(a!);
      }
      expect([...seen].sort(), "the chosen instances reach both verdicts").to.deep.equal([false, true]);
      fc.assert(
        fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
          const [a, ...ours] = verdicts(validators, value);
          return ours.every((b) => b === a);
        }),
        { numRuns: 200, seed: 15 },
      );
    });

  it("a compiler made once its engine's module is imported loads at once, as a second server in the process does", async () => {
    for (const kind of ["interpreter", "ajv"] as const) {
      await new SchemaCompiler(() => {}, kind).load();
      const later = new SchemaCompiler(() => {}, kind);
      expect(later.load(), kind).to.not.be.instanceOf(Promise);
      expect(later.compile({ type: "string" })(1), kind).to.be.a("string");
    }
  });

  it("multipleOf: ajv's verdict wherever the quotient is finite, integers up to 1e21 and the ones ajv misreads past it (\"1e+21\" parses as 1) included", () => {
    const divisors = [2, 1.5, 0.1, 0.0001, 1e-8, 0.123456789, 3, 1e20];
    const values = [0, -0, 1, 4.5, -7.5, 0.3, 0.30000000000000004, 2 ** 53, 2 ** 53 + 2, 9.999999999999999e20, 1e21, -1e21, 2e21, 1e300];
    const seen = new Set<string>();
    for (const multipleOf of divisors) {
      const validators = [ajv, interpreter, code].map((compiler) => compiler.compile({ type: "number", multipleOf }));
      const agree = (value: number) => {
        if (!Number.isFinite(value / multipleOf)) return true; // decided exactly by ours, as ajv does not
        const [a, ...ours] = verdicts(validators, value);
        seen.add(`${Math.abs(value / multipleOf) >= 1e21} ${a}`);
        return ours.every((b) => b === a);
      };
      for (const value of values) expect(agree(value), `${value} / ${multipleOf}`).to.equal(true);
      fc.assert(fc.property(fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer().map((n) => n * multipleOf)), agree), { numRuns: 300, seed: 7 });
    }
    expect([...seen].sort(), "both verdicts below 1e21, and quotients past it").to.deep.equal(["false false", "false true", "true false"]);
  });

  it("says where an argument is wrong, as ajv does", () => {
    const schema = CASES[0]!.schema;
    expect(interpreter.compile(schema)({ city: 1 })).to.match(/\/city/);
    expect(ajv.compile(schema)({ city: 1 })).to.match(/\/city/);
  });

  it("one message for every issue, in both of our modes: each at its JSON Pointer, (root) for the value itself, joined by \"; \"", () => {
    const schema = CASES[0]!.schema;
    for (const compiler of [interpreter, code])
      expect(compiler.compile(schema)({ "a/b": 1, days: 0 })).to.equal(
        "(root): must have required property 'city'; /days: must be >= 1; /a~1b: is not an allowed property",
      );
  });

  it("formats: annotations by default in both engines; with formats: \"assert\", both check them by the same rules", async () => {
    const schema = { type: "object", properties: { link: { type: "string", format: "uri" }, mail: { type: "string", format: "email" }, day: { type: "string", format: "date" } } };
    for (const value of [{ link: "not a uri" }, { mail: "nobody" }, { day: "2024-02-30" }]) {
      expect(ajv.compile(schema)(value), JSON.stringify(value)).to.equal(undefined);
      expect(interpreter.compile(schema)(value), JSON.stringify(value)).to.equal(undefined);
    }
    const asserting = [new SchemaCompiler(() => {}, "ajv", { formats: "assert" }), new SchemaCompiler(() => {}, "interpreter", { formats: "assert" })];
    for (const compiler of asserting) {
      await compiler.load();
      const validate = compiler.compile(schema);
      expect(validate({ link: "not a uri" }), compiler.kind).to.match(/\/link: must match format "uri"/);
      expect(validate({ mail: "nobody" }), compiler.kind).to.match(/\/mail: must match format "email"/);
      expect(validate({ day: "2024-02-30" }), compiler.kind).to.match(/\/day: must match format "date"/);
      expect(validate({ link: "https://example.com/a", mail: "a@example.com", day: "2024-02-29" }), compiler.kind).to.equal(undefined);
    }
  });

  it("auto: no code is generated where the platform forbids it, and a refusal of new Function (EvalError, as under a CSP) falls back to closures", async () => {
    const schema = CASES[0]!.schema;
    const { Function: original } = globalThis as { Function: FunctionConstructor };
    let calls = 0;
    // `new Function(...)` reads the global binding: this one counts the calls and refuses, as a CSP does.
    const refusing = function () {
      calls++;
      throw new EvalError("Code generation from strings disallowed for this context");
    } as unknown as FunctionConstructor;
    const compile = async () => {
      (globalThis as { Function: FunctionConstructor }).Function = refusing;
      try {
        const compiler = new SchemaCompiler(() => {});
        await compiler.load();
        const validate = compiler.compile(schema);
        return { generatesCode: compiler.generatesCode, verdicts: CASES[0]!.instances.map((instance) => validate(instance) === undefined) };
      } finally {
        (globalThis as { Function: FunctionConstructor }).Function = original;
      }
    };
    const run = (workers: boolean) => (workers ? asWorkerd(compile) : compile());
    const expected = CASES[0]!.instances.map((instance) => ajv.compile(schema)(instance) === undefined);
    expect(await run(true), "Workers").to.deep.equal({ generatesCode: false, verdicts: expected });
    expect(calls, "Workers: new Function never called").to.equal(0);
    expect(await run(false), "a refusing platform").to.deep.equal({ generatesCode: true, verdicts: expected });
    expect(calls, "code mode tried new Function once and fell back").to.equal(1);
  });

  it("auto: our compiler everywhere, with or without code generation (as workerd's navigator says)", async () => {
    expect(isEdge()).to.equal(false);
    expect(new SchemaCompiler(() => {}).kind).to.equal("interpreter");
    expect(new SchemaCompiler(() => {}).generatesCode, "code mode where new Function is allowed").to.equal(true);
    expect(new SchemaCompiler(() => {}, "interpreter").generatesCode).to.equal(false);
    await asWorkerd(() => {
      expect(isEdge()).to.equal(true);
      expect(new SchemaCompiler(() => {}).kind).to.equal("interpreter");
      expect(new SchemaCompiler(() => {}).generatesCode, "closures on Workers").to.equal(false);
      expect(new SchemaCompiler(() => {}, "ajv").kind, "an explicit choice wins").to.equal("ajv");
    });
  });

  it("compiled validators (generate --tools): their describe gives the message, and a file without one (an earlier version's) gets check's issues joined", () => {
    const schema = { type: "object" };
    const issues = [{ path: "", message: "must be object" }, { path: "/a", message: "no" }];
    const older: CompiledSchema = { schema, is: (v) => typeof v === "object", check: () => issues };
    expect(precompiled(older, schema)!(1)).to.equal("(root): must be object; /a: no");
    expect(precompiled(older, schema)!({})).to.equal(undefined);
    const current: CompiledSchema = { ...older, check: () => expect.fail("check is not needed where describe is"), describe: () => "described" };
    expect(precompiled(current, schema)!(1)).to.equal("described");
    expect(precompiled(current, { type: "string" }), "a validator compiled from another schema is not used").to.equal(undefined);
  });
});
