/**
 * Asserted fixes to upstream schema artefacts (DESIGN.md, decision 6).
 *
 * schema.json is generated from schema.ts, and that conversion turns a TypeScript `number`
 * into JSON Schema `integer` unless the source is annotated. Where a real message carries a
 * fraction (an elicited score of 95.5, a temperature in structuredContent), the artefact
 * would make a correct peer's message invalid, so we widen it here.
 *
 * A patch follows content, not revision names: it applies to every revision whose schema holds
 * exactly `expect` at `pointer`, so a new revision that copies the node is patched too, and one
 * where upstream changed or fixed the node is left alone. `generate` and `spec add` report which
 * patches each revision carried, and any patch that fits no pinned revision.
 */
export interface SchemaPatch {
  /** A short name, as reports print it. */
  readonly name: string;
  /** JSON Pointer (fragment form) into the schema document. */
  readonly pointer: string;
  /** The exact value upstream holds there; anything else and the patch does not apply. */
  readonly expect: unknown;
  readonly replace: unknown;
  readonly reason: string;
}

const ELICIT_VALUE_REASON =
  "schema.ts types elicited primitive values as string | number | boolean; `integer` rejects 95.5";

export const SCHEMA_PATCHES: readonly SchemaPatch[] = [
  {
    name: "ElicitResult numbers (draft-07)",
    pointer: "#/definitions/ElicitResult/properties/content/additionalProperties/type",
    expect: ["string", "integer", "boolean"],
    replace: ["string", "number", "boolean"],
    reason: ELICIT_VALUE_REASON,
  },
  {
    name: "ElicitResult numbers",
    pointer: "#/$defs/ElicitResult/properties/content/additionalProperties/anyOf/1/type",
    expect: ["string", "integer", "boolean"],
    replace: ["string", "number", "boolean"],
    reason: ELICIT_VALUE_REASON,
  },
  {
    name: "JSONValue numbers and null",
    pointer: "#/$defs/JSONValue/anyOf/2/type",
    expect: ["string", "integer", "boolean"],
    replace: ["string", "number", "boolean", "null"],
    reason: "schema.ts defines JSONValue as string | number | boolean | null | JSONObject | JSONArray",
  },
];

/** Patches that applied to no revision: upstream changed the node everywhere, or the pointer is wrong. */
export function unusedPatches(carried: Iterable<readonly string[]>, patches: readonly SchemaPatch[] = SCHEMA_PATCHES): SchemaPatch[] {
  const used = new Set([...carried].flat());
  return patches.filter((patch) => !used.has(patch.name));
}
