/**
 * shareCalls (runtime/json-schema/render/inline.ts): a boolean check of the subject called more
 * than once is bound once, but only where its first call runs anyway, so sharing never runs a
 * branch that `&&` or `||` would have skipped; an arrow's calls are of its own parameter. And
 * SharedChecks: a check a function keeps in a local is of its own subject only.
 *
 * And constants (constant, sequence, with the keywords whose tests fold): a test whose outcome is
 * the same for every value is printed as that outcome. An `enum` or `const` compares only values
 * its `type` lets through, an `if` every value passes (or none does) applies its branch alone, a
 * node no value passes ends the boolean check with `return false;`, and one every value passes
 * prints nothing. So `tools.ts` holds no `if (true)`/`if (false)`, no code after a return, and no
 * comparison TypeScript finds impossible; the verdicts stay ajv's.
 */
import { expect } from "chai";
import { and, call, literal, or, print, SUBJECT } from "../../../../runtime/json-schema/keywords/expr.js";
import type { Expr } from "../../../../runtime/json-schema/keywords/ir.js";
import { shareCalls } from "../../../../runtime/json-schema/render/inline.js";
import { compileSchema } from "../../../../runtime/json-schema/compile.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describeRun, removeDir } from "../../../support/project.js";
import { compileToolSchemas, typeCheckTools, type CompiledTools } from "../../../support/tool-validators.js";
import { STRICT_FLAGS } from "../../../support/tsc.js";

/** The printed expression after sharing, and the calls bound (in order). */
function shared(e: Expr): { bound: string[]; text: string } {
  const bound: string[] = [];
  const text = print(
    shareCalls(e, (test) => {
      bound.push(print(test, "value"));
      return `passes${bound.length}`;
    }),
    "value",
  );
  return { bound, text };
}

const is = (name: string) => call(name, SUBJECT);

describe("json-schema render: shareCalls binds a repeated check once, only where it runs anyway", () => {
  it("the first operand of each conjunction, repeated, is bound; a later operand, repeated, is not", () => {
    const e = call("every", SUBJECT, and([is("isA"), is("isB"), is("isC")]), literal(1), and([is("isA"), is("isB"), is("isD")]), literal(2));
    expect(shared(e)).to.deep.equal({ bound: ["isA(value)"], text: "every(value, passes1 && isB(value) && isC(value), 1, passes1 && isB(value) && isD(value), 2)" });
  });

  it("a check repeated only where a disjunction may skip it is not bound", () => {
    const e = call("every", SUBJECT, or([is("isA"), is("isB")]), or([is("isC"), is("isB")]));
    expect(shared(e).bound).to.deep.equal([]);
  });

  it("a check called once is not bound, nor one inside an arrow (its subject is the arrow's parameter)", () => {
    const arrow: Expr = { kind: "arrow", body: is("isA") };
    const e = call("every", SUBJECT, arrow, is("isA"), is("isB"));
    expect(shared(e)).to.deep.equal({ bound: [], text: "every(value, (item) => isA(item), isA(value), isB(value))" });
  });
});

describe("json-schema render: SharedChecks keeps a check of the function's own subject only", () => {
  it("isD, twice on the value (kept in a local), is not read from that local for a property's value: code mode as closures", () => {
    // Code mode keeps isD(value) in a local (render/inline.ts SharedChecks); the property a runs isD on its own value.
    const schema = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      $ref: "#/$defs/D",
      anyOf: [{ $ref: "#/$defs/D" }, { type: "string" }],
      properties: { a: { $ref: "#/$defs/D" } },
      $defs: { D: { type: "object", required: ["x"] } },
    };
    const [code, closures] = (["code", "closures"] as const).map((mode) => compileSchema(structuredClone(schema), { mode }));
    for (const value of [{ x: 1, a: {} }, { x: 1, a: { x: 2 } }]) {
      expect(code!.is(value), JSON.stringify(value)).to.equal(closures!.is(value));
      expect(code!.check(value), JSON.stringify(value)).to.deep.equal(closures!.check(value));
    }
    expect(code!.is({ x: 1, a: {} })).to.equal(false);
  });
});

const SCHEMAS: Record<string, unknown>[] = [
  // An enum and a const of another type than their `type` (no value passes them).
  { type: "object", properties: { k: { type: "string", enum: [1, "a"] }, c: { type: "integer", const: "x" }, o: { type: "object", enum: ["", -1] } } },
  // `if` that every value passes, and one that none does.
  { if: true, then: { type: "string" } },
  { if: false, then: { type: "string" }, else: { minimum: 2 } },
  // A `false` schema before other checks, and a required property no value passes.
  { type: "object", allOf: [false], properties: { a: { type: "string" } } },
  { type: "object", required: ["a"], properties: { a: false, b: { type: "string" } } },
  // A union that every value passes: its other branch, a definition, is never tested.
  { type: "object", properties: { u: { anyOf: [true, { $ref: "#/$defs/A" }] }, v: { oneOf: [true, { type: "string" }] } }, $defs: { A: { type: "object", properties: { x: { type: "string" } } } } },
];

const VALUES: unknown[] = [null, 0, 2, 1.5, "a", "", true, [], {}, { k: "a" }, { k: 1 }, { c: "x" }, { c: 1 }, { o: {} }, { a: "x" }, { a: 1, b: "y" }, { b: "y" }, { u: 1, v: "s" }, { u: {}, v: 2 }];

describe("json-schema/render/inline: tests with one outcome are printed as it", function () {
  this.timeout(120_000);
  let tools: CompiledTools | undefined;
  before(async () => {
    tools = await compileToolSchemas(SCHEMAS.map((s) => ({ $schema: "https://json-schema.org/draft/2020-12/schema", ...s })), "inline-constants");
  });
  after(() => removeDir(tools?.dir));

  it("the verdicts and issues of generate --tools, code mode and closures are ajv's verdicts", () => {
    const ajv = new Ajv2020({ strict: false });
    SCHEMAS.forEach((schema, i) => {
      const oracle = ajv.compile(schema);
      const engines = { "generate --tools": tools!.validators[i]!, code: compileSchema(schema, { mode: "code" }), closures: compileSchema(schema, { mode: "closures" }) };
      for (const value of VALUES) {
        const where = `schema ${JSON.stringify(schema)}, value ${JSON.stringify(value)}`;
        for (const [engine, v] of Object.entries(engines)) {
          expect(v.is(value), `${engine}: ${where}`).to.equal(oracle(value));
          expect(v.check(value).length === 0, `${engine} check: ${where}`).to.equal(oracle(value));
        }
      }
    });
  });

  it("prints no constant test, no impossible comparison and no function never called", () => {
    const source = tools!.source;
    expect(source).not.to.match(/if \((true|false)\)/);
    expect(source).not.to.match(/=== 1 \|\||"x"\)|k === 1/);
    expect(source, "the anyOf's definition, never tested").not.to.match(/function (is|check)T5Input_A\b/);
  });

  it("type-checks under the strict flags, with allowUnreachableCode: false", async () => {
    expect(STRICT_FLAGS.join(" ")).to.include("--allowUnreachableCode false");
    const run = await typeCheckTools(tools!.source, tools!.dir);
    expect(run.status, describeRun(run)).to.equal(0);
  });
});
