/**
 * shareCalls (runtime/json-schema/render/inline.ts): a boolean check of the subject called more
 * than once is bound once, but only where its first call runs anyway, so sharing never runs a
 * branch that `&&` or `||` would have skipped; an arrow's calls are of its own parameter. And
 * SharedChecks: a check a function keeps in a local is of its own subject only.
 */
import { expect } from "chai";
import { and, call, literal, or, print, SUBJECT } from "../../../../runtime/json-schema/keywords/expr.js";
import type { Expr } from "../../../../runtime/json-schema/keywords/ir.js";
import { shareCalls } from "../../../../runtime/json-schema/render/inline.js";
import { compileSchema } from "../../../../runtime/json-schema/compile.js";

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
