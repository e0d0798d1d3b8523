import type { Schema } from "./schema.js";

/** A sub-schema a schema applies to its own value, not to a part of it, and what applies it. */
export interface InPlace {
  readonly schema: Schema;
  /** The pointer of what applies it: the `$ref` (`$dynamicRef`), else the sub-schema itself. */
  readonly at: string;
  readonly by: "$ref" | "$dynamicRef" | "allOf" | "anyOf" | "oneOf" | "not" | "if" | "then" | "else" | "dependentSchemas";
  /** For dependentSchemas: the property whose presence applies it. */
  readonly property?: string;
}

/**
 * The sub-schemas `s` applies in place (JSON Schema 2020-12 core section 10.2: the in-place
 * applicators, and references), `definition` resolving a reference's name. The loader walks them
 * for loops (model/document.ts), unevaluated* for what they evaluate (keywords/evaluated.ts).
 */
export function appliedInPlace(s: Schema, definition: (name: string) => Schema | undefined): InPlace[] {
  const out: InPlace[] = [];
  for (const [by, name] of [["$ref", s.ref], ["$dynamicRef", s.dynamicRef]] as const) {
    const target = name === undefined ? undefined : definition(name);
    if (target) out.push({ schema: target, at: `${s.pointer}/${by}`, by });
  }
  for (const by of ["allOf", "anyOf", "oneOf"] as const) for (const branch of s[by] ?? []) out.push({ schema: branch, at: branch.pointer, by });
  // `then` and `else` apply only beside an `if` (core section 10.2.2.2).
  for (const by of s.if ? (["not", "if", "then", "else"] as const) : (["not"] as const)) {
    const child = s[by];
    if (child) out.push({ schema: child, at: child.pointer, by });
  }
  for (const { name, schema } of s.dependentSchemas ?? []) out.push({ schema, at: schema.pointer, by: "dependentSchemas", property: name });
  return out;
}
