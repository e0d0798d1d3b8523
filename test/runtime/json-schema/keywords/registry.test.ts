/**
 * runtime/json-schema/keywords/registry.ts: the one list of keyword modules, from which the loader's rules,
 * the supported list and the walk over sub-schemas are derived. Each keyword is read by one
 * module, every keyword read is one JSON Schema defines, and a keyword no module reads is refused
 * with its pointer (the MCP schemas' loader) or reported as unread (a tool schema's).
 */
import { expect } from "chai";
import { normalize } from "../../../../runtime/json-schema/model/normalize.js";
import { childrenOf, KEYWORDS, RULES } from "../../../../runtime/json-schema/keywords/registry.js";
import { JSON_SCHEMA_KEYWORDS } from "../../../../runtime/json-schema/keywords/vocabulary.js";

class Refused extends Error {}
const refuse = (at: string, reason: string): never => {
  throw new Refused(`${at}: ${reason}`);
};

describe("json-schema/keywords/registry", () => {
  it("each keyword is read by exactly one module, and is a keyword of JSON Schema", () => {
    const read = KEYWORDS.flatMap((keyword) => Object.keys(keyword.reads));
    expect(read.filter((k, i) => read.indexOf(k) !== i), "read twice").to.deep.equal([]);
    expect(read.filter((k) => !JSON_SCHEMA_KEYWORDS.includes(k)), "not JSON Schema's").to.deep.equal([]);
    expect([...RULES.keys()].sort()).to.deep.equal([...read].sort());
  });

  it("the loader reads a keyword by its module's rule and nothing else: one the registry lacks is refused, or unread in a tool schema", () => {
    const ctx = { fail: refuse, dialect: "2020-12" as const, definitionsKey: "$defs", definitionNames: new Set<string>() };
    expect(normalize({ type: "string", minLength: 2 }, "#/x", { ...ctx, tool: { resolveRef: () => "", resolveDynamicRef: () => "", unread: () => undefined } })).to.deep.equal({ pointer: "#/x", type: ["string"], minLength: 2 });
    // minLength's rule is for tool schemas: the MCP schemas' loader refuses it, naming its pointer.
    expect(() => normalize({ minLength: 2 }, "#/x", ctx)).to.throw(Refused, '#/x/minLength: unsupported keyword "minLength"');
    const unread: string[] = [];
    normalize({ $recursiveRef: "#" }, "#/x", { ...ctx, tool: { resolveRef: () => "", resolveDynamicRef: () => "", unread: (k, at) => unread.push(`${at} ${k}`) } });
    expect(unread).to.deep.equal(["#/x/$recursiveRef $recursiveRef"]);
  });

  it("the walk over sub-schemas finds every child the modules declare", () => {
    const ctx = { fail: refuse, dialect: "2020-12" as const, definitionsKey: "$defs", definitionNames: new Set<string>(), tool: { resolveRef: () => "", resolveDynamicRef: () => "", unread: () => undefined } };
    const schema = normalize(
      { properties: { a: {} }, patternProperties: { b: {} }, additionalProperties: {}, propertyNames: {}, dependentSchemas: { c: {} }, prefixItems: [{}], items: {}, contains: {}, allOf: [{}], anyOf: [{}], oneOf: [{}], not: {}, if: {}, then: {}, else: {} },
      "#",
      ctx,
    );
    expect(childrenOf(schema).map((s) => s.pointer).sort()).to.deep.equal(
      ["#/properties/a", "#/patternProperties/b", "#/additionalProperties", "#/propertyNames", "#/dependentSchemas/c", "#/prefixItems/0", "#/items", "#/contains", "#/allOf/0", "#/anyOf/0", "#/oneOf/0", "#/not", "#/if", "#/then", "#/else"].sort(),
    );
  });
});
