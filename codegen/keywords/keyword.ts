import type { Schema } from "../load/schema.js";
import type { GuardType, Node } from "./ir.js";

/** What a keyword module may ask while lowering: the nodes of a sub-schema, and a definition by name. */
export interface LowerContext {
  lower(schema: Schema): Node[];
  definition(name: string): Schema;
  /** The name of the module-level RegExp constant for a `pattern`. */
  pattern(source: string): string;
  /** The name of the module-level constant holding a JSON value (a non-primitive `const` or `enum` value). */
  constant(value: unknown): string;
}

/**
 * One JSON Schema keyword, lowered to check nodes. A keyword `about` an instance type constrains
 * only values of that type (JSON Schema's rule); lower.ts puts its nodes behind that type's guard.
 */
export interface Keyword {
  readonly about?: GuardType;
  lower(schema: Schema, ctx: LowerContext): Node[];
}

/** `schema`'s pointer to `keyword`, as a ValidationIssue's schemaPath. */
export function at(schema: Schema, keyword: string): string {
  return `${schema.pointer}/${keyword}`;
}
