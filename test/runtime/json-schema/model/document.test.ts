/**
 * runtime/json-schema/model/document.ts: a schema that applies itself to its own value, through
 * references and in-place applicators with no property or item between, is refused when it is
 * compiled, naming the reference that closes the loop; its check would otherwise overflow the
 * stack on the first value that reaches it. Recursion through a property or an item is accepted.
 */
import { expect } from "chai";
import { compileSchema, SchemaCompileError } from "../../../../runtime/json-schema/compile.js";

const DIALECT = "https://json-schema.org/draft/2020-12/schema";

/** The compile error's message, for each mode (they share the loader). */
function refusals(schema: Record<string, unknown>): string[] {
  return (["code", "closures"] as const).map((mode) => {
    try {
      compileSchema(structuredClone(schema), { mode });
      return "compiled";
    } catch (error) {
      expect(error).to.be.instanceOf(SchemaCompileError);
      return (error as Error).message;
    }
  });
}

describe("json-schema/model/document: a schema that applies itself in place is refused", () => {
  const loop = "in place, with no property or item between: checking a value against it would never end";

  it("$ref to the root, alone or in a branch", () => {
    expect(refusals({ $schema: DIALECT, $ref: "#" })).to.deep.equal(Array(2).fill(`#/$ref: refers back to # ${loop}`));
    expect(refusals({ $schema: DIALECT, anyOf: [{ type: "string" }, { $ref: "#" }] })).to.deep.equal(Array(2).fill(`#/anyOf/1/$ref: refers back to # ${loop}`));
  });

  it("a loop through definitions, if/then and not", () => {
    const schema = { $schema: DIALECT, $defs: { A: { if: { type: "object" }, then: { $ref: "#/$defs/B" } }, B: { not: { $ref: "#/$defs/A" } } }, $ref: "#/$defs/A" };
    expect(refusals(schema)).to.deep.equal(Array(2).fill(`#/$defs/B/not/$ref: refers back to #/$defs/A ${loop}`));
  });

  it("recursion through a property or an item compiles, and checks nested values", () => {
    const tree = { $schema: DIALECT, type: "object", properties: { value: { type: "number" }, children: { type: "array", items: { $ref: "#" } } }, anyOf: [{ required: ["value"] }, { $ref: "#/$defs/Leaf" }], $defs: { Leaf: { properties: { children: { maxItems: 0 } } } } };
    expect(refusals(tree)).to.deep.equal(["compiled", "compiled"]);
    for (const mode of ["code", "closures"] as const) {
      const validator = compileSchema(structuredClone(tree), { mode });
      expect(validator.is({ value: 1, children: [{ value: 2, children: [] }] })).to.equal(true);
      expect(validator.describe({ value: 1, children: [{ value: "two" }] })).to.equal("/children/0/value: must be number, found string");
    }
  });
});
