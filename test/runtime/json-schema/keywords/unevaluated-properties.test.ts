/**
 * runtime/json-schema/keywords/evaluated.ts and render/loops.ts: unevaluatedProperties whose
 * evaluations hang on conditions runs a condition only for a key whose name it covers, and at
 * most once per value, in every mode. Counted by the reads of the property the condition reads
 * (`if: { required: ["probe"] }`): the `if` itself reads it once, each run of the condition once
 * more. Verdicts and issues are the suite's business (code.test.ts, json-schema-suite.test.ts).
 */
import { expect } from "chai";
import { compileSchema } from "../../../../runtime/json-schema/compile.js";

const SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  properties: { probe: true },
  if: { required: ["probe"] },
  then: { properties: { x: true, y: true } },
  unevaluatedProperties: false,
};

/** `value` behind a Proxy that counts the reads of `probe`. */
function counted(value: Record<string, unknown>): { value: Record<string, unknown>; reads: () => number } {
  let reads = 0;
  const proxy = new Proxy(value, {
    get(target, key, receiver) {
      if (key === "probe") reads++;
      return Reflect.get(target, key, receiver) as unknown;
    },
    getOwnPropertyDescriptor(target, key) {
      if (key === "probe") reads++;
      return Reflect.getOwnPropertyDescriptor(target, key);
    },
  });
  return { value: proxy, reads: () => reads };
}

describe("json-schema/keywords: unevaluatedProperties under conditions", () => {
  for (const mode of ["code", "closures"] as const) {
    const validator = compileSchema(structuredClone(SCHEMA), { mode });

    it(`${mode}: a condition no key's name needs does not run`, () => {
      const { value, reads } = counted({ probe: 1 });
      expect(validator.is(value)).to.equal(true);
      expect(reads()).to.equal(1);
    });

    it(`${mode}: a condition runs once for a value, however many keys it covers`, () => {
      const { value, reads } = counted({ probe: 1, x: 1, y: 2 });
      expect(validator.is(value)).to.equal(true);
      expect(reads()).to.equal(2);
      const check = counted({ probe: 1, x: 1, y: 2, z: 3 });
      expect(validator.describe(check.value)).to.equal("/z: must NOT have unevaluated properties");
      expect(check.reads()).to.equal(2);
    });

    it(`${mode}: a key the condition covers is refused when the condition fails`, () => {
      expect(validator.describe({ x: 1 })).to.equal("/x: must NOT have unevaluated properties");
      expect(validator.is({ x: 1, probe: 1 })).to.equal(true);
    });
  }
});
