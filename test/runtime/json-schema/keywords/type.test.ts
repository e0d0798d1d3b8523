/**
 * runtime/json-schema/keywords/type.ts: behind a `type` gate, the `const` and `enum` of
 * sub-schemas applied in place (allOf, dependentSchemas, if/then) test only the values of the
 * gate's type, as the node's own do. A schema that so contradicts itself still gets ajv's
 * verdicts and the same issues, and generate --tools' file type-checks under strict tsc, where
 * TypeScript refused to compare the narrowed value with a constant of another type (TS2367).
 */
import { expect } from "chai";
import { Ajv2020 } from "ajv/dist/2020.js";
import { compileSchema } from "../../../../runtime/json-schema/compile.js";
import { describeRun, removeDir, tempDir } from "../../../support/project.js";
import { toolsSource, typeCheckTools } from "../../../support/tool-validators.js";

/** Each a `type` gate and, in a sub-schema applied in place, a constant of another type (or of both). */
const SCHEMAS: readonly Record<string, unknown>[] = [
  { type: "object", allOf: [{ const: "" }] },
  { type: "object", allOf: [{ enum: ["a", 1, { k: 1 }] }] },
  { type: "string", allOf: [{ allOf: [{ enum: ["a", 1, null] }] }] },
  { type: "object", dependentSchemas: { kind: { enum: ["x", 2] } } },
  { type: ["object", "null"], if: { required: ["a"] }, then: { const: 3 } },
  { type: "integer", allOf: [{ enum: [1, 1.5, "1"] }] },
];

const VALUES: readonly unknown[] = [null, 0, 1, 1.5, 2, 3, "", "a", "1", "x", true, [], {}, { a: 1 }, { kind: 1 }, { k: 1 }];

describe("json-schema/keywords: type", function () {
  this.timeout(120_000);
  let dir: string | undefined;
  after(() => removeDir(dir));

  it("a constant a sub-schema applied in place tests beside the gate: ajv's verdicts, and the same issues in both modes", () => {
    const ajv = new Ajv2020({ strict: false });
    for (const schema of SCHEMAS) {
      const oracle = ajv.compile(schema);
      const [code, closures] = (["code", "closures"] as const).map((mode) => compileSchema(schema, { mode }));
      for (const value of VALUES) {
        const where = `${JSON.stringify(schema)} on ${JSON.stringify(value)}`;
        expect(code!.is(value), where).to.equal(oracle(value));
        expect(closures!.is(value), where).to.equal(oracle(value));
        expect(code!.check(value), where).to.deep.equal(closures!.check(value));
      }
    }
    // The constant's issue is still reported, at its keyword, for a value of the gate's type.
    expect(compileSchema(SCHEMAS[0], { mode: "code" }).check({}).map((issue) => issue.keyword)).to.deep.equal(["const"]);
  });

  it("generate --tools' file type-checks under strict tsc: no comparison of the narrowed value with a constant of another type", async () => {
    dir = tempDir("type-gate-constants");
    const run = await typeCheckTools(toolsSource(SCHEMAS), dir);
    expect(run.status, describeRun(run)).to.equal(0);
  });
});
