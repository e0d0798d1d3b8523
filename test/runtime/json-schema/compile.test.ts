/**
 * runtime/json-schema/compile.ts: mode "auto" (what the runtime asks for where code generation is
 * allowed) generates code for a schema whose checks read properties of the value (its keys, items,
 * an array's length) or test sub-schemas,
 * and runs the others, tests of the value alone, as closures; either way with the verdicts and
 * messages of both modes.
 */
import { expect } from "chai";
import { compileSchema } from "../../../runtime/json-schema/compile.js";

const VALUES: readonly unknown[] = [null, true, 0, 1.5, 7, "", "abc", "abcdef", "\u{1F600}\u{1F600}", [], ["a", 1], {}, { a: "x" }, { a: 1, b: [] }];

/** Tests of the value alone: a type, bounds, an enum, a pattern, annotations. */
const VALUE_ONLY: readonly unknown[] = [
  {},
  { type: "object" },
  { type: "object", properties: {} },
  { type: "string", minLength: 1, maxLength: 3, pattern: "^a" },
  { type: ["integer", "null"], minimum: 0, maximum: 10, multipleOf: 7 },
  { enum: [1, "abc", null] },
  { contentMediaType: "application/json", contentEncoding: "base64", description: "annotations only" },
];

/** Checks that read a property (a key, an item, an array's length), or test a sub-schema. */
const READS_PARTS: readonly unknown[] = [
  { type: "array", uniqueItems: true, maxItems: 2 },
  { type: "object", properties: { a: { type: "string" } } },
  { type: "object", required: ["a"] },
  { type: "object", additionalProperties: false },
  { type: "array", items: { type: "string" } },
  { type: "array", prefixItems: [{ type: "string" }] },
  { anyOf: [{ type: "string" }, { minimum: 1 }] },
  { not: { type: "string" } },
  { if: { type: "string" }, then: { minLength: 2 } },
  { $defs: { s: { type: "string" } }, $ref: "#/$defs/s" },
];

describe("json-schema/compile: mode auto, code where it pays", () => {
  it("tests of the value alone run as closures, with code mode's verdicts and messages", () => {
    for (const schema of VALUE_ONLY) {
      const auto = compileSchema(schema, { mode: "auto" });
      const code = compileSchema(schema, { mode: "code" });
      expect(auto.mode, JSON.stringify(schema)).to.equal("closures");
      expect(code.mode, JSON.stringify(schema)).to.equal("code");
      for (const value of VALUES) expect(auto.describe(value), `${JSON.stringify(schema)} on ${JSON.stringify(value)}`).to.equal(code.describe(value));
    }
  });

  it("a schema that reads properties (keys, items, length), or tests a sub-schema, is generated code", () => {
    for (const schema of READS_PARTS) {
      const auto = compileSchema(schema, { mode: "auto" });
      expect(auto.mode, JSON.stringify(schema)).to.equal("code");
      const closures = compileSchema(schema, { mode: "closures" });
      for (const value of VALUES) expect(auto.describe(value), `${JSON.stringify(schema)} on ${JSON.stringify(value)}`).to.equal(closures.describe(value));
    }
  });
});
