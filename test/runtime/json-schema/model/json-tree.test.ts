/**
 * runtime/json-schema/model/json-tree.ts: a schema written as a JavaScript object is refused at
 * its pointer where it holds what no JSON text can (NaN, a bigint, a function, a symbol, an
 * object inside itself, nesting past MAX_DEPTH), in both modes and in a supplied remote; what JSON
 * does hold (Infinity as 1e400, an undefined property, one sub-object in two places) compiles.
 */
import { expect } from "chai";
import { compileSchema, SchemaCompileError } from "../../../../runtime/json-schema/compile.js";
import { MAX_DEPTH } from "../../../../runtime/json-schema/model/json-tree.js";

/** The compile error's message in each mode, or "compiled". */
function outcomes(schema: Record<string, unknown>, remotes?: Record<string, unknown>): string[] {
  return (["code", "closures"] as const).map((mode) => {
    try {
      compileSchema(schema, { mode, ...(remotes && { remotes }) });
      return "compiled";
    } catch (error) {
      expect(error).to.be.instanceOf(SchemaCompileError);
      return (error as Error).message;
    }
  });
}

describe("json-schema/model/json-tree: a schema no JSON text could hold is refused at its pointer", () => {
  it("NaN, a bigint, a function and a symbol, wherever they are", () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ minimum: NaN }, "#/minimum: NaN is not a JSON number: write a number, or leave the keyword out"],
      [{ type: "object", properties: { a: { enum: ["x", NaN] } } }, "#/properties/a/enum/1: NaN is not a JSON number: write a number, or leave the keyword out"],
      [{ const: { deep: [1, NaN] } }, "#/const/deep/1: NaN is not a JSON number: write a number, or leave the keyword out"],
      [{ enum: [1n] }, "#/enum/0: a bigint is not a JSON value"],
      [{ default: () => 1 }, "#/default: a function is not a JSON value"],
      [{ properties: { "a/b": { const: Symbol("s") } } }, "#/properties/a~1b/const: a symbol is not a JSON value"],
    ];
    for (const [schema, message] of cases) expect(outcomes(schema), message).to.deep.equal([message, message]);
  });

  it("an object inside itself (no stack overflow), and nesting past the bound", () => {
    const cyclic: Record<string, unknown> = { type: "object", properties: {} };
    (cyclic.properties as Record<string, unknown>).child = { items: cyclic };
    const loop = "#/properties/child/items: this object contains itself, and a JSON document cannot: refer to the place with $ref";
    expect(outcomes(cyclic)).to.deep.equal([loop, loop]);
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < MAX_DEPTH + 5; i++) deep = { not: deep };
    const [code, closures] = outcomes(deep);
    expect(code).to.equal(closures);
    expect(code).to.match(new RegExp(`^#(/not){${MAX_DEPTH}}: nested deeper than ${MAX_DEPTH} levels$`));
  });

  it("in a supplied remote, at the remote's URI", () => {
    const remotes = { "https://example.com/s.json": { $defs: { n: { maximum: NaN } } } };
    const message = "https://example.com/s.json#/$defs/n/maximum: NaN is not a JSON number: write a number, or leave the keyword out";
    expect(outcomes({ $ref: "https://example.com/s.json#/$defs/n" }, remotes)).to.deep.equal([message, message]);
  });

  it("what JSON holds compiles: Infinity (1e400), an undefined property, one sub-object in two places, nesting within the bound", () => {
    const shared = { type: "string", maxLength: 2 };
    let nested: Record<string, unknown> = { type: "number" };
    for (let i = 0; i < 300; i++) nested = { type: "object", properties: { a: nested } };
    for (const schema of [{ maximum: JSON.parse("1e400") as number }, { type: "string", description: undefined }, { type: "object", properties: { a: shared, b: shared } }, nested])
      expect(outcomes(schema), JSON.stringify(schema).slice(0, 80)).to.deep.equal(["compiled", "compiled"]);
    for (const mode of ["code", "closures"] as const) {
      const validator = compileSchema({ type: "object", properties: { a: shared, b: shared } }, { mode });
      expect(validator.describe({ a: "ok", b: "too long" })).to.equal("/b: must NOT have more than 2 characters");
    }
  });
});
