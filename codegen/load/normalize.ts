import { GenerationError } from "../errors.js";
import { repairDocLinks } from "./doc-links.js";
import { childPointer, unescapeToken } from "./pointer.js";
import {
  ANNOTATION_KEYWORDS,
  FORMATS,
  TOOL_KEYWORDS,
  JSON_TYPES,
  type Dialect,
  type Format,
  type JsonPrimitive,
  type JsonType,
  type Property,
  type Schema,
} from "./schema.js";

export interface NormalizeContext {
  readonly revision: string;
  readonly dialect: Dialect;
  /** `definitions` (draft-07) or `$defs` (2020-12): the only place a `$ref` may point into. */
  readonly definitionsKey: string;
  readonly definitionNames: ReadonlySet<string>;
  /** The document's `$schema`; a node may restate it (ext-tasks declares it on every definition), never change it. */
  readonly declared?: string;
  /**
   * A tool schema (`generate --tools`): the keywords of TOOL_KEYWORDS are read too, an unknown
   * format is an annotation, and `$ref` goes through `resolveRef`.
   */
  readonly tool?: {
    readonly resolveRef: (ref: unknown, at: string) => string;
    /** Assert the formats of FORMATS (docs/validators.md, "Formats"); else every format is an annotation. */
    readonly assertFormats?: boolean;
    /** A keyword this compiler does not read: reported (all of them, then refused or warned about), and skipped. */
    readonly unread: (keyword: string, at: string) => void;
  };
}

type Raw = Record<string, unknown>;

/**
 * Turns one raw schema node into a {@link Schema}. Every keyword is either understood or an
 * error naming its pointer: a check is never skipped silently.
 */
export function normalize(raw: unknown, pointer: string, ctx: NormalizeContext): Schema {
  const fail = (at: string, reason: string): never => {
    throw new GenerationError(ctx.revision, at, reason);
  };
  if (raw === true) return { pointer };
  // `false` admits nothing: `not` of the schema that admits everything.
  if (raw === false && ctx.tool) return { pointer, not: { pointer } };
  if (!isPlainObject(raw)) return fail(pointer, `expected a schema object, found ${JSON.stringify(raw)}`);

  // draft-07 section 8.3: beside $ref every keyword is ignored.
  if (ctx.tool && ctx.dialect === "draft-07" && typeof raw.$ref === "string") return { pointer, ref: ctx.tool.resolveRef(raw.$ref, childPointer(pointer, "$ref")) };
  const node: { -readonly [K in keyof Schema]: Schema[K] } = { pointer };
  for (const [keyword, value] of Object.entries(raw)) {
    const at = childPointer(pointer, keyword);
    switch (keyword) {
      case "$schema":
        if (value !== ctx.declared) fail(at, `a nested $schema must be the document's (${JSON.stringify(ctx.declared)}), found ${JSON.stringify(value)}`);
        break;
      // Identifiers and nested definitions: the loader's index resolves references through them.
      case "$id":
      case "$anchor":
      case "$dynamicAnchor":
      case "$defs":
      case "definitions":
        if (!ctx.tool) fail(at, `unsupported keyword "${keyword}"`);
        break;
      case "$ref":
        node.ref = ctx.tool ? ctx.tool.resolveRef(value, at) : resolveRef(value, at, ctx, fail);
        break;
      case "description":
        if (typeof value === "string") node.description = repairDocLinks(value, ctx.definitionNames);
        break;
      case "type": {
        const types = typeof value === "string" ? [value] : value;
        if (!Array.isArray(types) || types.length === 0 || !types.every((t) => JSON_TYPES.has(t)))
          fail(at, `unsupported type ${JSON.stringify(value)}`);
        node.type = types as JsonType[];
        break;
      }
      case "const":
        if (ctx.tool && !isPrimitive(value)) node.constJson = value;
        else node.const = primitive(value, at, fail);
        break;
      case "enum":
        // An empty enum admits nothing; a tool schema may say so (the MCP schemas never do).
        if (!Array.isArray(value) || (value.length === 0 && !ctx.tool)) fail(at, "enum must be a non-empty array");
        if (ctx.tool && ((value as unknown[]).length === 0 || !(value as unknown[]).every(isPrimitive))) node.enumJson = value as unknown[];
        else node.enum = (value as unknown[]).map((v, i) => primitive(v, childPointer(at, i), fail));
        break;
      case "properties":
        if (!isPlainObject(value)) fail(at, "properties must be an object");
        node.properties = Object.entries(value as Raw).map(
          ([name, schema]): Property => ({ name, schema: normalize(schema, childPointer(at, name), ctx) }),
        );
        break;
      case "required":
        if (!Array.isArray(value) || !value.every((v) => typeof v === "string"))
          fail(at, "required must be an array of strings");
        node.required = value as string[];
        break;
      case "additionalProperties":
        // `{ not: {} }` admits nothing: zod's `z.record(z.string(), z.never())` (ext-tasks) says `false` that way.
        node.additionalProperties = value === false || isNothing(value) ? false : normalize(value, at, ctx);
        break;
      case "propertyNames":
        if (ctx.tool) {
          node.propertyNames = normalize(value, at, ctx);
          break;
        }
        // Every JSON property name is a string: `{ type: "string" }` constrains nothing (zod's z.record writes it).
        if (!isPlainObject(value) || Object.keys(value).length !== 1 || value.type !== "string")
          fail(at, `only propertyNames { "type": "string" } (no constraint) is supported, found ${JSON.stringify(value)}`);
        break;
      case "items":
        if (Array.isArray(value)) {
          // draft-07's tuple form: positional schemas, then additionalItems for the rest.
          if (!ctx.tool || ctx.dialect !== "draft-07") fail(at, "the array form of items is draft-07's (2020-12 spells it prefixItems)");
          node.prefixItems = value.map((item, i) => normalize(item, childPointer(at, i), ctx));
          if (raw.additionalItems !== undefined) node.items = normalize(raw.additionalItems, childPointer(pointer, "additionalItems"), ctx);
          break;
        }
        node.items = normalize(value, at, ctx);
        break;
      case "maxItems":
        if (!Number.isInteger(value) || (value as number) < 0) fail(at, "maxItems must be a non-negative integer");
        node.maxItems = value as number;
        break;
      case "minimum":
      case "maximum":
        if (typeof value !== "number") fail(at, `${keyword} must be a number`);
        node[keyword] = value as number;
        break;
      case "format":
        // Tool schemas: an annotation (2020-12's default) unless the user asked for assertion.
        if (ctx.tool && typeof value === "string" && (!ctx.tool.assertFormats || !FORMATS.has(value))) {
          node.annotatedFormat = value;
          break;
        }
        if (typeof value !== "string" || !FORMATS.has(value))
          fail(at, `unsupported format ${JSON.stringify(value)} (supported: ${[...FORMATS].join(", ")})`);
        node.format = value as Format;
        break;
      case "anyOf":
      case "allOf":
        if (!Array.isArray(value) || value.length === 0) fail(at, `${keyword} must be a non-empty array`);
        node[keyword] = (value as unknown[]).map((s, i) => normalize(s, childPointer(at, i), ctx));
        break;
      default:
        if (ctx.tool && TOOL_KEYWORDS.has(keyword)) readToolKeyword(node, keyword, value, at, ctx, fail);
        else if (ANNOTATION_KEYWORDS.has(keyword)) break;
        else if (ctx.tool) ctx.tool.unread(keyword, at);
        else fail(at, `unsupported keyword "${keyword}"`);
    }
  }
  if (node.type?.length === 1 && node.type[0] === "object" && node.properties?.length === 0 && raw.additionalProperties === true)
    node.anyObject = true;
  if (node.ref !== undefined && ctx.dialect === "draft-07") {
    // draft-07 ignores every keyword beside $ref; a validation keyword there is ambiguous.
    const siblings = Object.keys(raw).filter((k) => k !== "$ref" && !ANNOTATION_KEYWORDS.has(k));
    if (siblings.length > 0) fail(pointer, `draft-07 ignores keywords beside $ref: ${siblings.join(", ")}`);
  }
  return node;
}

type Mutable = { -readonly [K in keyof Schema]: Schema[K] };

function readToolKeyword(node: Mutable, keyword: string, value: unknown, at: string, ctx: NormalizeContext, fail: (at: string, reason: string) => never): void {
  const count = () => {
    if (!Number.isInteger(value) || (value as number) < 0) fail(at, `${keyword} must be a non-negative integer`);
    return value as number;
  };
  switch (keyword) {
    case "oneOf":
      if (!Array.isArray(value) || value.length === 0) fail(at, "oneOf must be a non-empty array");
      node.oneOf = (value as unknown[]).map((s, i) => normalize(s, childPointer(at, i), ctx));
      break;
    case "not":
    case "if":
    case "then":
    case "else":
      node[keyword] = normalize(value, at, ctx);
      break;
    case "pattern":
      if (typeof value !== "string") fail(at, "pattern must be a string");
      try {
        new RegExp(value as string, "u");
      } catch (error) {
        fail(at, `pattern is not a valid regular expression with the u flag (as ajv compiles it): ${(error as Error).message}`);
      }
      node.pattern = value as string;
      break;
    case "uniqueItems":
      if (typeof value !== "boolean") fail(at, "uniqueItems must be a boolean");
      if (value === true) node.uniqueItems = true;
      break;
    case "exclusiveMinimum":
    case "exclusiveMaximum":
    case "multipleOf":
      if (typeof value !== "number" || (keyword === "multipleOf" && value <= 0))
        fail(at, keyword === "multipleOf" ? "multipleOf must be a number > 0" : `${keyword} must be a number (the boolean form is draft-04)`);
      node[keyword] = value as number;
      break;
    case "minLength":
    case "maxLength":
    case "minItems":
    case "minProperties":
    case "maxProperties":
      node[keyword] = count();
      break;
    case "prefixItems":
      if (ctx.dialect !== "2020-12") return ctx.tool?.unread(keyword, at);
      if (!Array.isArray(value)) fail(at, "prefixItems must be an array of schemas");
      node.prefixItems = (value as unknown[]).map((item, i) => normalize(item, childPointer(at, i), ctx));
      break;
    case "additionalItems":
      // Read with the array form of items (draft-07); alone it does nothing.
      break;
    case "contains":
      node.contains = normalize(value, at, ctx);
      break;
    case "minContains":
    case "maxContains":
      if (ctx.dialect !== "2020-12") return ctx.tool?.unread(keyword, at);
      node[keyword] = count();
      break;
    case "patternProperties":
      if (!isPlainObject(value)) fail(at, "patternProperties must be an object");
      node.patternProperties = Object.entries(value as Raw).map(([source, schema]) => {
        try {
          new RegExp(source, "u");
        } catch (error) {
          fail(childPointer(at, source), `not a valid regular expression with the u flag (as ajv compiles it): ${(error as Error).message}`);
        }
        return { pattern: source, schema: normalize(schema, childPointer(at, source), ctx) };
      });
      break;
    case "dependentRequired":
    case "dependentSchemas":
    case "dependencies": {
      // draft-07 has `dependencies` (both forms); 2020-12 split it in two and dropped it (an unknown keyword there).
      if ((keyword === "dependencies") !== (ctx.dialect === "draft-07")) return ctx.tool?.unread(keyword, at);
      if (!isPlainObject(value)) fail(at, `${keyword} must be an object`);
      for (const [name, dependency] of Object.entries(value as Raw)) {
        const where = childPointer(at, name);
        if (keyword !== "dependentSchemas" && Array.isArray(dependency)) {
          if (!dependency.every((n) => typeof n === "string")) fail(where, "must be an array of property names");
          node.dependentRequired = [...(node.dependentRequired ?? []), { name, required: dependency as string[], keyword }];
        } else if (keyword !== "dependentRequired") node.dependentSchemas = [...(node.dependentSchemas ?? []), { name, schema: normalize(dependency, where, ctx), keyword }];
        else fail(where, "must be an array of property names");
      }
      break;
    }
  }
}

function resolveRef(
  value: unknown,
  at: string,
  ctx: NormalizeContext,
  fail: (at: string, reason: string) => never,
): string {
  const prefix = `#/${ctx.definitionsKey}/`;
  if (typeof value !== "string" || !value.startsWith(prefix) || value.slice(prefix.length).includes("/"))
    return fail(at, `unsupported $ref ${JSON.stringify(value)} (only ${prefix}<Name> is supported)`);
  const name = unescapeToken(value.slice(prefix.length));
  if (!ctx.definitionNames.has(name)) return fail(at, `dangling $ref: no definition "${name}"`);
  return name;
}

function isPrimitive(value: unknown): boolean {
  return value === null || ["string", "number", "boolean"].includes(typeof value);
}

function primitive(value: unknown, at: string, fail: (at: string, reason: string) => never): JsonPrimitive {
  if (value === null || ["string", "number", "boolean"].includes(typeof value)) return value as JsonPrimitive;
  return fail(at, `only primitive const and enum values are supported, found ${JSON.stringify(value)}`);
}

function isNothing(value: unknown): boolean {
  return isPlainObject(value) && Object.keys(value).length === 1 && isPlainObject(value.not) && Object.keys(value.not).length === 0;
}

export function isPlainObject(value: unknown): value is Raw {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
