/**
 * runtime/json-schema/keywords/property-names.ts: a `type` that allows strings constrains no
 * property name (every JSON property name is a string), so `{ "type": "string" }` alone (zod's
 * z.record) costs no pass over the keys, and the rest of the schema still applies to each name; a
 * type that guards string keywords stays, so that generate --tools' TypeScript type-checks.
 */
import { expect } from "chai";
import { compileSchema } from "../../../../runtime/json-schema/compile.js";
import { describeRun, removeDir, tempDir } from "../../../support/project.js";
import { toolsSource, typeCheckTools } from "../../../support/tool-validators.js";

const tools = (...inputSchemas: Record<string, unknown>[]) => toolsSource(inputSchemas);

describe("json-schema/keywords: propertyNames", function () {
  this.timeout(120_000);
  let dir: string | undefined;
  after(() => removeDir(dir));

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

  it("a type that guards string keywords stays: generate --tools' file type-checks (the names narrowed to string), inline or hoisted", async () => {
    const schemas = [
      { type: "object", propertyNames: { type: "string", maxLength: 2, pattern: "^a" } },
      // Not one expression: hoisted into a helper of its own, whose parameter is unknown.
      { type: "object", propertyNames: { type: "string", minLength: 1, anyOf: [{ maxLength: 2, pattern: "^a" }, { const: "xyz" }] } },
    ];
    const source = tools(...schemas);
    expect(source).to.include("everyKey(value, isT1Input_propertyNames)");
    dir = tempDir("property-names-tsc");
    const run = await typeCheckTools(source, dir);
    expect(run.status, describeRun(run)).to.equal(0);
    for (const mode of ["code", "closures"] as const) {
      const [first, second] = schemas.map((schema) => compileSchema(schema, { mode }));
      expect([first!.is({ ab: 1 }), first!.is({ b: 1 }), first!.is({ abc: 1 })], mode).to.deep.equal([true, false, false]);
      expect([second!.is({ a: 1, xyz: 2 }), second!.is({ "": 1 }), second!.is({ xy: 1 })], mode).to.deep.equal([true, false, false]);
    }
  });
});
