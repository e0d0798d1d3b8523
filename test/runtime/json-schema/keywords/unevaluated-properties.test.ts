/**
 * runtime/json-schema/keywords/evaluated.ts and render/loops.ts: unevaluatedProperties whose
 * evaluations hang on conditions runs a condition only for a key whose name it covers, and at
 * most once per value, in every mode; and a check a condition shares with the applicator beside
 * it runs once (code mode). Counted by the reads of `probe` through a Proxy: the loop over the
 * keys asks for its descriptor once, and each run of a check that reads it (the condition
 * `if: { required: ["probe"] }`, whose `then` checks nothing, runs only as a condition) reads it
 * once more. Verdicts and issues are the suite's business (code.test.ts, json-schema-suite.test.ts).
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

describe("json-schema/keywords: unevaluatedProperties beside the applicator it reads (code mode)", () => {
  // The condition of `x` is anyOf's first branch passing: the same check the anyOf runs.
  const schema = {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    properties: { probe: true },
    anyOf: [{ required: ["probe"], properties: { probe: { type: "number" }, x: { type: "string" } } }, { required: ["other"] }],
    unevaluatedProperties: false,
  };
  const validator = compileSchema(structuredClone(schema), { mode: "code" });

  it("a branch's check that the anyOf and a condition both need runs once per value", () => {
    const { value, reads } = counted({ probe: 1, x: "a" });
    expect(validator.is(value)).to.equal(true);
    expect(reads()).to.equal(2); // the loop over the keys, then the branch once: for the condition and for the anyOf
    const check = counted({ probe: 1, x: "a", z: 1 });
    expect(validator.describe(check.value)).to.equal("/z: must NOT have unevaluated properties");
    expect(check.reads()).to.equal(2);
  });
});
