/**
 * runtime/json-schema/render/render-is.ts: an optional property whose test is one expression is
 * tested only when present, whatever the expression: a disjunction (a `not` of an `anyOf`) is
 * parenthesised after the presence test, where `a !== undefined && a === "x" || ...` refused
 * every object without `a`.
 */
import { expect } from "chai";
import { compileSchema } from "../../../../runtime/json-schema/compile.js";

describe("json-schema/render/render-is: an optional property's inline test", () => {
  it("a disjunction applies only to a present property: code mode gives the closures' verdicts", () => {
    // `a`, when present, is a string other than "x".
    const schema = { type: "object", properties: { a: { not: { anyOf: [{ const: "x" }, { not: { type: "string" } }] } } } };
    const values = [{}, { a: "y" }, { a: "x" }, { a: 1 }];
    const verdicts = (mode: "code" | "closures") => {
      const validator = compileSchema(schema, { mode });
      expect(validator.mode).to.equal(mode);
      return values.map((value) => validator.is(value));
    };
    expect(verdicts("closures")).to.deep.equal([true, true, false, false]);
    expect(verdicts("code")).to.deep.equal(verdicts("closures"));
  });
});
