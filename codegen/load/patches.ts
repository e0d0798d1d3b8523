/**
 * Asserted fixes to upstream schema artefacts (DESIGN.md, decision 6).
 *
 * schema.json is generated from schema.ts, and that conversion turns a TypeScript `number`
 * into JSON Schema `integer` unless the source is annotated. Where a real message carries a
 * fraction (an elicited score of 95.5, a temperature in structuredContent), the artefact
 * would make a correct peer's message invalid, so we widen it here. Each patch names the value
 * it expects to find: when upstream changes that node, generation fails and the patch is
 * revisited instead of silently applying to something else.
 */
export interface SchemaPatch {
  readonly revision: string;
  /** JSON Pointer (fragment form) into the schema document. */
  readonly pointer: string;
  /** The exact value found there today. */
  readonly expect: unknown;
  readonly replace: unknown;
  readonly reason: string;
}

const ELICIT_VALUE_REASON =
  "schema.ts types elicited primitive values as string | number | boolean; `integer` rejects 95.5";

export const SCHEMA_PATCHES: readonly SchemaPatch[] = [
  {
    revision: "2025-06-18",
    pointer: "#/definitions/ElicitResult/properties/content/additionalProperties/type",
    expect: ["string", "integer", "boolean"],
    replace: ["string", "number", "boolean"],
    reason: ELICIT_VALUE_REASON,
  },
  {
    revision: "2025-11-25",
    pointer: "#/$defs/ElicitResult/properties/content/additionalProperties/anyOf/1/type",
    expect: ["string", "integer", "boolean"],
    replace: ["string", "number", "boolean"],
    reason: ELICIT_VALUE_REASON,
  },
  {
    revision: "2026-07-28",
    pointer: "#/$defs/ElicitResult/properties/content/additionalProperties/anyOf/1/type",
    expect: ["string", "integer", "boolean"],
    replace: ["string", "number", "boolean"],
    reason: ELICIT_VALUE_REASON,
  },
  {
    revision: "2026-07-28",
    pointer: "#/$defs/JSONValue/anyOf/2/type",
    expect: ["string", "integer", "boolean"],
    replace: ["string", "number", "boolean", "null"],
    reason: "schema.ts defines JSONValue as string | number | boolean | null | JSONObject | JSONArray",
  },
];
