/**
 * runtime/json-schema/render/lower.ts: a schema whose lowering needs its own checks (an
 * unevaluated* inside it tests, through a `$ref`, a sub-schema around it) is refused at its
 * pointer, by the runtime's compiler and by generate --tools, where it overflowed the stack; the
 * rewrite the message advises compiles.
 */
import { expect } from "chai";
import { GenerationError } from "../../../../codegen/errors.js";
import { loadToolSchemas } from "../../../../codegen/tool-validators/load.js";
import { emitToolValidators } from "../../../../codegen/tool-validators/emit.js";
import { compileSchema, SchemaCompileError } from "../../../../runtime/json-schema/compile.js";

const REFUSAL = "needs its own checks to be compiled: an unevaluatedProperties or unevaluatedItems inside it tests whether it passes";

/** A tree: the root's anyOf branch holds a property (an item) whose unevaluated keyword reads the root's branches again. */
const tree = (keyword: "unevaluatedProperties" | "unevaluatedItems") => {
  const child = { anyOf: [{ $ref: "#" }], [keyword]: false };
  return { anyOf: [keyword === "unevaluatedProperties" ? { properties: { a: child } } : { items: child }] };
};

describe("json-schema/render/lower: a sub-schema whose checks would contain themselves", () => {
  for (const keyword of ["unevaluatedProperties", "unevaluatedItems"] as const)
    it(`${keyword}: refused at the sub-schema, in both modes and by generate --tools`, () => {
      for (const mode of ["code", "closures"] as const) expect(() => compileSchema(tree(keyword), { mode }), mode).to.throw(SchemaCompileError, `#/anyOf/0: ${REFUSAL}`);
      const entries = [{ name: "t", inputSchema: tree(keyword) }];
      expect(() => emitToolValidators("mcp.server.json", entries, loadToolSchemas("mcp.server.json", entries))).to.throw(GenerationError, `#/tools/0/inputSchema/anyOf/0: ${REFUSAL}`);
    });

  it("the sub-schema as a $defs entry, as the message advises, compiles and checks the tree", () => {
    const schema = { anyOf: [{ $ref: "#/$defs/B" }], $defs: { B: tree("unevaluatedProperties").anyOf[0] } };
    for (const mode of ["code", "closures"] as const) {
      const v = compileSchema(schema, { mode });
      // `a` is evaluated at every level (the root's branch names it); `x` nowhere.
      expect([v.is({ a: { a: {} } }), v.is({ a: { x: 1 } }), v.is({ a: { a: { x: 1 } } })], mode).to.deep.equal([true, false, false]);
    }
  });
});
