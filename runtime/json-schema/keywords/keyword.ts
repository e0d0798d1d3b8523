import type { Dialect, JsonPrimitive, Schema } from "../model/schema.js";
import { childPointer } from "../pointer.js";
import type { GuardType, Node } from "./ir.js";

/** What a keyword module may ask while lowering: the nodes of a sub-schema, and a definition by name. */
export interface LowerContext {
  lower(schema: Schema): Node[];
  definition(name: string): Schema;
  /** The name of the module-level RegExp constant for a `pattern`. */
  pattern(source: string): string;
  /** The name of the module-level constant holding a JSON value (a non-primitive `const` or `enum` value). */
  constant(value: unknown): string;
  /** Refuses the schema at `at` (a JSON Pointer): what it asks cannot be compiled within bounds. */
  fail(at: string, reason: string): never;
}

export type Raw = Record<string, unknown>;

/** Fields of a {@link Schema} node, as a rule writes them (never `undefined`: an absent field is left out). */
export type Fields = { -readonly [K in keyof Schema]?: Schema[K] };

/** What a keyword's rule may ask while the loader (load/normalize.ts) reads a schema node. */
export interface ReadContext {
  readonly dialect: Dialect;
  /** A tool schema (`generate --tools`), not one of the MCP schemas. */
  readonly tool: boolean;
  /** The node's pointer, and the whole raw node, for a rule that reads its keyword with another (`items` with `additionalItems`). */
  readonly pointer: string;
  readonly raw: Raw;
  /** A sub-schema, normalised. */
  child(value: unknown, at: string): Schema;
  /** A `$ref`, resolved to a definition name (or refused with its pointer). */
  ref(value: unknown, at: string): string;
  /** A `$dynamicRef`, resolved in the dynamic scope it is reached with (a tool schema's). */
  dynamicRef(value: unknown, at: string): string;
  /** A keyword this compiler does not read in this schema (a tool schema's: reported, then refused or warned about). */
  unread(keyword: string, at: string): void;
  fail(at: string, reason: string): never;
  /** The document's `$schema`; a `description` as the caller keeps it; the format policy of a tool schema. */
  readonly declared?: string;
  description(text: string): string;
  readonly assertFormats: boolean;
}

/**
 * A named normalisation rule: one raw keyword's value read into fields of the node, or a failure
 * naming the keyword's pointer (json-schema-to-typescript's normaliser rules, one per keyword).
 * `tools`: read only in tool schemas (the MCP schemas never use it, and their loader refuses it);
 * `dialect`: a keyword of that dialect only (unknown in the other, so unread there).
 */
export interface Rule {
  (value: unknown, at: string, read: ReadContext): Fields;
  readonly tools?: true;
  readonly dialect?: Dialect;
}

/**
 * One JSON Schema keyword (or a few read together): what it reads from a raw schema node and how
 * (`reads`, its entries in the supported list), the sub-schemas it holds once read (`children`),
 * and its check nodes (`lower`). A keyword `about` an instance type constrains only values of that
 * type (JSON Schema's rule); lower.ts puts its nodes behind that type's guard. `gate` (`type`)
 * wraps the nodes of every keyword registered after it. Registered by one line in registry.ts.
 */
export interface Keyword {
  readonly reads: Readonly<Record<string, Rule>>;
  children?(schema: Schema): readonly (Schema | undefined)[];
  readonly about?: GuardType;
  lower?(schema: Schema, ctx: LowerContext): Node[];
  gate?(schema: Schema, rest: Node[]): Node[];
}

/** `schema`'s pointer to `keyword`, as a ValidationIssue's schemaPath. */
export function at(schema: Schema, keyword: string): string {
  return `${schema.pointer}/${keyword}`;
}

// The named rules keyword modules share.

/** A rule for tool schemas only. */
export function inTools(rule: Rule): Rule {
  return Object.assign((value: unknown, at: string, read: ReadContext) => rule(value, at, read), { tools: true as const, ...(rule.dialect ? { dialect: rule.dialect } : {}) });
}

/** A rule for one dialect's keyword (in tool schemas). */
export function only(dialect: Dialect, rule: Rule): Rule {
  return Object.assign((value: unknown, at: string, read: ReadContext) => rule(value, at, read), { tools: true as const, dialect });
}

/** The keyword reads nothing into the node (an annotation; or read by another keyword's rule). */
export const ignored: Rule = () => ({});

/** A sub-schema under `field`. */
export function schemaIn(field: keyof Schema): Rule {
  return (value, at, read) => ({ [field]: read.child(value, at) });
}

/** A non-empty array of sub-schemas under `field`. */
export function schemasIn(field: keyof Schema, keyword: string): Rule {
  return (value, at, read) => {
    if (!Array.isArray(value) || value.length === 0) read.fail(at, `${keyword} must be a non-empty array`);
    return { [field]: (value as unknown[]).map((s, i) => read.child(s, childPointer(at, i))) };
  };
}

/** A non-negative integer under `field`. */
export function countIn(field: keyof Schema, keyword: string): Rule {
  return (value, at, read) => {
    if (!Number.isInteger(value) || (value as number) < 0) read.fail(at, `${keyword} must be a non-negative integer`);
    return { [field]: value as number };
  };
}

/** A number under `field`. */
export function numberIn(field: keyof Schema, message: string): Rule {
  return (value, at, read) => (typeof value === "number" ? { [field]: value } : read.fail(at, message));
}

/** A regular expression, as ajv compiles it (u flag), or a failure at `at`. */
export function checkPattern(source: string, at: string, read: ReadContext, what = "pattern is not"): void {
  try {
    new RegExp(source, "u");
  } catch (error) {
    read.fail(at, `${what} a valid regular expression with the u flag (as ajv compiles it): ${(error as Error).message}`);
  }
}

export function isPlainObject(value: unknown): value is Raw {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function isPrimitive(value: unknown): value is JsonPrimitive {
  return value === null || ["string", "number", "boolean"].includes(typeof value);
}

/** A primitive `const` or `enum` value (the MCP schemas have no other). */
export function primitive(value: unknown, at: string, read: ReadContext): JsonPrimitive {
  return isPrimitive(value) ? value : read.fail(at, `only primitive const and enum values are supported, found ${JSON.stringify(value)}`);
}
