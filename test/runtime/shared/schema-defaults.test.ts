// runtime/shared/schema-defaults.ts against ajv's `useDefaults` (the oracle, the rule it follows):
// on every schema and value of a corpus, the value we fill in equals the one ajv fills in, and
// the client's value is never changed in place (ajv's is a copy here).
import { Ajv2020 } from "ajv/dist/2020.js";
import { expect } from "chai";
import { withDefaults } from "../../../runtime/shared/schema-defaults.js";

const SCHEMAS: Record<string, unknown>[] = [
  { type: "object", properties: { a: { type: "string", default: "x" }, b: { type: "number" } } },
  { type: "object", properties: { a: { default: { nested: [1, 2] } } } },
  { type: "object", properties: { inner: { type: "object", properties: { c: { default: 3 }, d: { default: null } } } } },
  { type: "object", properties: { inner: { properties: { deeper: { properties: { e: { default: false } } } } } } },
  // Parsed, so that __proto__ is a property name, as it is off the wire.
  JSON.parse('{ "type": "object", "properties": { "__proto__": { "default": "data" }, "constructor": { "default": 1 } } }') as Record<string, unknown>,
  { type: "object", properties: { list: { type: "array", default: [] }, obj: { default: {} } } },
  { type: "object" },
];

const VALUES: unknown[] = [{}, { a: "given" }, { a: null }, { b: 2 }, { inner: {} }, { inner: { c: 0 } }, { inner: "no object" }, { inner: { deeper: {} } }, { inner: { deeper: { e: true } } }, { list: [1] }, { constructor: 5 }];

/** A deep copy whose objects have no prototype. */
function bare(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(bare);
  if (typeof value !== "object" || value === null) return value;
  const copy = Object.create(null) as Record<string, unknown>;
  for (const [key, item] of Object.entries(value)) copy[key] = bare(item);
  return copy;
}

describe("runtime/shared/schema-defaults", () => {
  it("fills in the same defaults as ajv's useDefaults, leaving the value it was given as it was", () => {
    const ajv = new Ajv2020({ strict: false, useDefaults: true });
    let compared = 0;
    for (const schema of SCHEMAS) {
      const validate = ajv.compile(schema);
      for (const value of VALUES) {
        const before = structuredClone(value);
        const ours = withDefaults(schema, value);
        // ajv reads `data[name] === undefined`, which an inherited `constructor` answers; objects without a prototype keep it to own properties, as JSON is.
        const theirs = bare(value);
        validate(theirs);
        expect(ours, `${JSON.stringify(schema)} on ${JSON.stringify(value)}`).to.deep.equal(theirs);
        expect(value).to.deep.equal(before);
        compared++;
      }
    }
    expect(compared).to.equal(SCHEMAS.length * VALUES.length);
  });

  it("copies each default: filling two values never shares one object between them", () => {
    const schema = { type: "object", properties: { tags: { default: ["a"] } } };
    const one = withDefaults(schema, {}) as { tags: string[] };
    const two = withDefaults(schema, {}) as { tags: string[] };
    one.tags.push("b");
    expect(two.tags).to.deep.equal(["a"]);
    expect(schema.properties.tags.default).to.deep.equal(["a"]);
  });
});
