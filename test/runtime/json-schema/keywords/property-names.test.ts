/**
 * runtime/json-schema/keywords/property-names.ts: a `type` that allows strings constrains no
 * property name (every JSON property name is a string), so `{ "type": "string" }` alone (zod's
 * z.record) costs no pass over the keys, and the rest of the schema still applies to each name.
 */
import { expect } from "chai";
import { compileSchema } from "../../../../runtime/json-schema/compile.js";
import { emitToolValidators } from "../../../../codegen/tool-validators/emit.js";
import { loadToolSchemas } from "../../../../codegen/tool-validators/load.js";

const tools = (inputSchema: Record<string, unknown>) => {
  const entries = [{ name: "t0", inputSchema }];
  return emitToolValidators("mcp.server.json", entries, loadToolSchemas("mcp.server.json", entries), "./validation.js");
};

describe("json-schema/keywords: propertyNames", () => {
  it('{ "type": "string" } alone reads no key: no everyKey in the printed checks', () => {
    expect(tools({ type: "object", propertyNames: { type: "string" }, additionalProperties: { type: "number" } })).not.to.include("everyKey");
    expect(tools({ type: "object", propertyNames: { type: ["string", "null"] } })).not.to.include("everyKey");
    // Without a type that allows strings, the names are tested: a number type refuses every name.
    expect(tools({ type: "object", propertyNames: { type: "number" } })).to.include("everyKey");
  });

  it("beside the type, the name's other keywords still apply, in code mode and in closures", () => {
    const schema = { type: "object", propertyNames: { type: "string", maxLength: 2 } };
    expect(tools(schema)).to.include("everyKey");
    for (const mode of ["code", "closures"] as const) {
      const v = compileSchema(schema, { mode });
      expect([v.is({ ab: 1 }), v.is({ abc: 1 }), v.is({})], mode).to.deep.equal([true, false, true]);
      expect(v.check({ abc: 1 }).map((issue) => issue.keyword), mode).to.deep.equal(["propertyNames"]);
    }
    const numbers = compileSchema({ type: "object", propertyNames: { type: "number" } }, { mode: "closures" });
    expect([numbers.is({ a: 1 }), numbers.is({})]).to.deep.equal([false, true]);
  });
});
