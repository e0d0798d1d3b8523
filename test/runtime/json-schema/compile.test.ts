/**
 * runtime/json-schema/compile.ts: mode "auto" (what the runtime asks for where code generation is
 * allowed) runs a schema whose boolean check is at most one test of the value itself as closures,
 * and generates code for anything more; either way with the verdicts, issues and messages of both modes.
 */
import { expect } from "chai";
import { compileSchema, type CompiledValidator } from "../../../runtime/json-schema/compile.js";

/** All a validator says of a value: its verdict, its issues, and their text. */
const verdicts = (validator: CompiledValidator, value: unknown) => ({ is: validator.is(value), check: validator.check(value), describe: validator.describe(value), validate: validator.validate(value) });

const VALUES: readonly unknown[] = [null, true, 0, 1.5, 7, "", "abc", "abcdef", "\u{1F600}\u{1F600}", [], ["a", 1], {}, { a: "x" }, { a: 1, b: [] }];

/** At most one test of the value itself: a type, an enum or const of primitives, annotations only. */
const ONE_TEST: readonly unknown[] = [
  {},
  { type: "object" },
  { type: "object", properties: {} },
  { type: "string" },
  { enum: [1, "abc", null] },
  { const: "abc" },
  { contentMediaType: "application/json", contentEncoding: "base64", description: "annotations only" },
];

/** More: two types, bounds, a pattern, a property, an item, a key, an array's length, a sub-schema. */
const MORE: readonly unknown[] = [
  { type: ["integer", "null"] },
  { type: "string", maxLength: 3 },
  { maximum: 3 },
  { type: "string", pattern: "^a" },
  { dependentRequired: { a: ["b"] } },
  { type: "array", uniqueItems: true, maxItems: 2 },
  { type: "object", properties: { a: { type: "string" } } },
  { type: "object", required: ["a"] },
  { type: "object", additionalProperties: false },
  { type: "array", items: { type: "string" } },
  { anyOf: [{ type: "string" }, { minimum: 1 }] },
  { not: { type: "string" } },
  { $defs: { s: { type: "string" } }, $ref: "#/$defs/s" },
];

describe("json-schema/compile: mode auto, code where it pays", () => {
  it("at most one test of the value itself runs as closures, with code mode's verdicts and messages", () => {
    for (const schema of ONE_TEST) {
      const auto = compileSchema(schema, { mode: "auto" });
      const code = compileSchema(schema, { mode: "code" });
      expect(auto.mode, JSON.stringify(schema)).to.equal("closures");
      expect(code.mode, JSON.stringify(schema)).to.equal("code");
      for (const value of VALUES) expect(verdicts(auto, value), `${JSON.stringify(schema)} on ${JSON.stringify(value)}`).to.deep.equal(verdicts(code, value));
    }
  });

  it("anything more is generated code", () => {
    for (const schema of MORE) {
      const auto = compileSchema(schema, { mode: "auto" });
      expect(auto.mode, JSON.stringify(schema)).to.equal("code");
      const closures = compileSchema(schema, { mode: "closures" });
      for (const value of VALUES) expect(verdicts(auto, value), `${JSON.stringify(schema)} on ${JSON.stringify(value)}`).to.deep.equal(verdicts(closures, value));
    }
  });
});
