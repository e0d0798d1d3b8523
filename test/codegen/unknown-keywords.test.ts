/**
 * codegen/unknown-keywords.ts: an unknown keyword in a tool schema (a typo JSON Schema would silently
 * ignore) is found wherever a schema may stand, with its pointer and a did-you-mean; property
 * names and values (enum, const, default, examples) are never taken for keywords. `scaffold`
 * reports them as warnings.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "chai";
import { scaffold } from "../../codegen/scaffold/scaffold.js";
import { unknownKeywords } from "../../codegen/unknown-keywords.js";
import { JSON_SCHEMA_KEYWORDS } from "../../runtime/json-schema/keywords/vocabulary.js";
import { removeDir, ROOT, tempDir } from "../support/project.js";

describe("codegen/unknown-keywords", () => {
  it("finds each unknown keyword at its pointer, in every place a schema stands, and nothing else", () => {
    const schema = {
      type: "object",
      propertes: {},
      properties: { type: { type: "strng", minLenght: 1 }, enum: { enum: [{ notAKeyword: 1 }] }, "a/b": { const: { itmes: 1 } } },
      $defs: { Tag: { type: "string", paternn: "^a" } },
      items: [{ maxItem: 2 }],
      anyOf: [{ requird: ["x"] }],
      additionalProperties: { descripton: "x" },
      dependencies: { a: ["b"], c: { minProperty: 1 } },
      default: { whatever: true },
      examples: [{ propertes: 1 }],
    };
    expect(unknownKeywords(schema, "#/tools/0/inputSchema")).to.deep.equal([
      { pointer: "#/tools/0/inputSchema/propertes", message: 'unknown keyword "propertes" (did you mean "properties"?): JSON Schema ignores it, so it checks nothing' },
      { pointer: "#/tools/0/inputSchema/properties/type/minLenght", message: 'unknown keyword "minLenght" (did you mean "minLength"?): JSON Schema ignores it, so it checks nothing' },
      { pointer: "#/tools/0/inputSchema/$defs/Tag/paternn", message: 'unknown keyword "paternn" (did you mean "pattern"?): JSON Schema ignores it, so it checks nothing' },
      { pointer: "#/tools/0/inputSchema/items/0/maxItem", message: 'unknown keyword "maxItem" (did you mean "maxItems"?): JSON Schema ignores it, so it checks nothing' },
      { pointer: "#/tools/0/inputSchema/anyOf/0/requird", message: 'unknown keyword "requird" (did you mean "required"?): JSON Schema ignores it, so it checks nothing' },
      { pointer: "#/tools/0/inputSchema/additionalProperties/descripton", message: 'unknown keyword "descripton" (did you mean "description"?): JSON Schema ignores it, so it checks nothing' },
      { pointer: "#/tools/0/inputSchema/dependencies/c/minProperty", message: 'unknown keyword "minProperty" (did you mean "minProperties"?): JSON Schema ignores it, so it checks nothing' },
    ]);
    // Every keyword of the dialects is known.
    expect(unknownKeywords(Object.fromEntries(JSON_SCHEMA_KEYWORDS.map((k) => [k, null])), "#")).to.deep.equal([]);
  });

  it("scaffold reports them as warnings, and scaffolds anyway", async () => {
    const parent = tempDir("keywords");
    try {
      const dir = join(parent, "app");
      await scaffold({ dir, toolkit: ROOT, name: "app" });
      const path = join(dir, "mcp.server.json");
      const manifest = JSON.parse(readFileSync(path, "utf8")) as { tools: { inputSchema: Record<string, unknown> }[] };
      const input = manifest.tools[0]!.inputSchema;
      input.propertes = input.properties;
      delete input.properties;
      input.required = [];
      writeFileSync(path, JSON.stringify(manifest));
      const report = await scaffold({ dir, toolkit: ROOT });
      expect(report.warnings).to.deep.equal([
        { pointer: "#/tools/0/inputSchema/propertes", message: 'unknown keyword "propertes" (did you mean "properties"?): JSON Schema ignores it, so it checks nothing' },
      ]);
    } finally {
      removeDir(parent);
    }
  });
});
