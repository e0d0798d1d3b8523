/**
 * The normalised schema node every emitter reads: the keywords the MCP schemas use, with
 * `$ref` reduced to a definition name and both dialects (draft-07, 2020-12) folded into one
 * shape. `pointer` locates the node in the source schema so any generated check can be traced
 * back to it.
 */

export type { Dialect } from "../dialect.js";
export type JsonType = "object" | "array" | "string" | "number" | "integer" | "boolean" | "null";
export type JsonPrimitive = string | number | boolean | null;
export type Format = "byte" | "uri" | "uri-template" | "email" | "date" | "date-time" | "time" | "uuid" | "ipv4" | "ipv6" | "hostname";

export interface Property {
  readonly name: string;
  readonly schema: Schema;
}

export interface Schema {
  readonly pointer: string;
  readonly description?: string;
  /** A definition name, resolved and checked by the loader. */
  readonly ref?: string;
  /** A `$dynamicRef` (2020-12), resolved by the tool schemas' loader in the dynamic scope that reaches it: a definition name. */
  readonly dynamicRef?: string;
  readonly type?: readonly JsonType[];
  readonly const?: JsonPrimitive;
  readonly enum?: readonly JsonPrimitive[];
  readonly properties?: readonly Property[];
  readonly required?: readonly string[];
  /** `true` and `{}` both load as an unconstrained schema; absent means not specified. */
  readonly additionalProperties?: Schema | false;
  readonly items?: Schema;
  readonly maxItems?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly format?: Format;
  readonly anyOf?: readonly Schema[];
  readonly allOf?: readonly Schema[];
  // Read only in tool schemas (codegen/tool-validators): the MCP schemas use none of these (their rules are `inTools`).
  readonly oneOf?: readonly Schema[];
  readonly not?: Schema;
  readonly if?: Schema;
  readonly then?: Schema;
  readonly else?: Schema;
  readonly pattern?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minItems?: number;
  readonly uniqueItems?: true;
  readonly minProperties?: number;
  readonly maxProperties?: number;
  readonly exclusiveMinimum?: number;
  readonly exclusiveMaximum?: number;
  readonly multipleOf?: number;
  /** Positional schemas: 2020-12 `prefixItems`, draft-07's array form of `items`. `items` then checks the elements after them. */
  readonly prefixItems?: readonly Schema[];
  /** `contains`, with 2020-12's `minContains` / `maxContains`. */
  readonly contains?: Schema;
  readonly minContains?: number;
  readonly maxContains?: number;
  /** `patternProperties`: each property whose name matches (ECMAScript, u flag) is checked by the schema. */
  readonly patternProperties?: readonly { readonly pattern: string; readonly schema: Schema }[];
  /** `propertyNames`: every property name, as a string, matches the schema. */
  readonly propertyNames?: Schema;
  /** A `const` that is an object or an array, compared by JSON equality. */
  readonly constJson?: unknown;
  /** An `enum` with an object or array among its values (all of them here), compared by JSON equality. */
  readonly enumJson?: readonly unknown[];
  /** `dependentRequired` (2020-12) and the array form of draft-07's `dependencies`: if the property is present, these must be too. */
  readonly dependentRequired?: readonly { readonly name: string; readonly required: readonly string[]; readonly keyword: string }[];
  /** `dependentSchemas` (2020-12) and the schema form of draft-07's `dependencies`: if the property is present, the object must match. */
  readonly dependentSchemas?: readonly { readonly name: string; readonly schema: Schema; readonly keyword: string }[];
  /** 2020-12's `unevaluatedProperties` / `unevaluatedItems`: what no other keyword, nor a passing sub-schema applied in place, evaluated. */
  readonly unevaluatedProperties?: Schema;
  readonly unevaluatedItems?: Schema;
  /** A format no validator here asserts (`email`, `date-time`...): an annotation, as in the runtime's ajv. */
  readonly annotatedFormat?: string;
  /**
   * `{type: object, properties: {}, additionalProperties: true}`: how upstream's converter writes
   * TypeScript's `object` (a non-primitive). Validation reads the keywords beside it as usual.
   */
  readonly anyObject?: true;
}

export const JSON_TYPES: ReadonlySet<string> = new Set<JsonType>([
  "object",
  "array",
  "string",
  "number",
  "integer",
  "boolean",
  "null",
]);

export const FORMATS: ReadonlySet<string> = new Set<Format>(["byte", "uri", "uri-template", "email", "date", "date-time", "time", "uuid", "ipv4", "ipv6", "hostname"]);

/** True when the node constrains nothing (`{}` or `true`). */
export function isUnconstrained(schema: Schema): boolean {
  return Object.keys(schema).every((key) => key === "pointer" || key === "description");
}

/** The schema `false` (admits nothing), as the loader reads it: `not` of the schema that admits everything, at the same place. */
export function isFalseSchema(schema: Schema): boolean {
  return schema.not !== undefined && schema.not.pointer === schema.pointer && Object.keys(schema).length === 2;
}
