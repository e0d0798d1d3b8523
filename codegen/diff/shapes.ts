import { isUnconstrained, type Schema } from "../../runtime/json-schema/model/schema.js";
import type { Definition } from "../model/protocol.js";

/** A definition's object view: its own properties and those of the allOf members it is built from. */
export interface ObjectShape {
  readonly properties: ReadonlyMap<string, Schema>;
  readonly required: ReadonlySet<string>;
}

/** Names references by their new name: the older side's renames are applied before comparing. */
export type Naming = (definition: string) => string;
const asIs: Naming = (name) => name;

/** The object a schema describes, allOf flattened (following references inside allOf only); undefined when it is not one. */
export function objectShape(schema: Schema, definitions: ReadonlyMap<string, Definition>, seen = new Set<string>()): ObjectShape | undefined {
  const properties = new Map<string, Schema>();
  const required = new Set<string>();
  let any = false;
  const add = (node: Schema) => {
    if (node.properties) {
      any = true;
      for (const p of node.properties) properties.set(p.name, p.schema);
    }
    for (const name of node.required ?? []) required.add(name);
    for (const member of node.allOf ?? []) {
      let target = member;
      if (member.ref !== undefined) {
        if (seen.has(member.ref)) continue;
        seen.add(member.ref);
        target = definitions.get(member.ref)?.schema ?? member;
      }
      add(target);
    }
  };
  add(schema);
  return any || isPlainObject(schema) ? { properties, required } : undefined;
}

/** `{type: object}` with no properties and open (or no) additionalProperties: an object nothing is said about. */
function isPlainObject(schema: Schema): boolean {
  return (
    schema.ref === undefined &&
    !schema.anyOf &&
    schema.type?.length === 1 &&
    schema.type[0] === "object" &&
    (schema.additionalProperties === undefined || (schema.additionalProperties !== false && isUnconstrained(schema.additionalProperties)))
  );
}

/** How a type reads in the report: close to TypeScript, references by name. */
export function describe(schema: Schema, naming: Naming = asIs): string {
  const alternatives = [...alternativesOf(schema, naming)];
  return alternatives.length === 0 ? "never" : alternatives.join(" | ");
}

/**
 * The set of things a value may be, one string each: a reference, a constant, a primitive
 * type (with its format), an array of something, an object. Comparing two sets tells a widened
 * type (more accepted) from a narrowed one.
 */
export function alternativesOf(schema: Schema, naming: Naming = asIs): Set<string> {
  const out = new Set<string>();
  if (schema.ref !== undefined) out.add(naming(schema.ref));
  if (schema.anyOf) for (const member of schema.anyOf) for (const a of alternativesOf(member, naming)) out.add(a);
  if (schema.allOf) out.add(schema.allOf.map((member) => describe(member, naming)).join(" & "));
  if (schema.const !== undefined) out.add(JSON.stringify(schema.const));
  else if (schema.enum) for (const value of schema.enum) out.add(JSON.stringify(value));
  else if (schema.type) {
    for (const type of schema.type) {
      if (type === "array") out.add(`${schema.items ? wrap(describe(schema.items, naming)) : "unknown"}[]`);
      else if (type === "object") out.add(objectSignature(schema, naming));
      else if (type === "string" && schema.format) out.add(`string (${schema.format})`);
      else out.add(type);
    }
  } else if (schema.properties) out.add(objectSignature(schema, naming));
  if (out.size === 0 && isUnconstrained(schema)) out.add("unknown");
  return out;
}

function objectSignature(schema: Schema, naming: Naming): string {
  if (schema.properties?.length) return "object";
  if (schema.additionalProperties && !isUnconstrained(schema.additionalProperties))
    return `Record<string, ${describe(schema.additionalProperties, naming)}>`;
  return "object";
}

function wrap(type: string): string {
  return type.includes(" ") ? `(${type})` : type;
}

/** Whether every value `narrow` admits is admitted by `wide`: set inclusion, with integer inside number and unknown admitting all. */
export function admitsAll(wide: ReadonlySet<string>, narrow: ReadonlySet<string>): boolean {
  if (wide.has("unknown")) return true;
  for (const alternative of narrow) {
    if (wide.has(alternative)) continue;
    if (alternative === "integer" && wide.has("number")) continue;
    if (/^-?\d+(\.\d+)?$/.test(alternative) && (wide.has("number") || (wide.has("integer") && Number.isInteger(Number(alternative))))) continue;
    if (alternative.startsWith('"') && wide.has("string")) continue;
    if ((alternative === "true" || alternative === "false") && wide.has("boolean")) continue;
    return false;
  }
  return true;
}

/** The numeric and length limits of a node, for "constraint changed". */
export function constraintsOf(schema: Schema): { maxItems?: number; minimum?: number; maximum?: number } {
  const out: { maxItems?: number; minimum?: number; maximum?: number } = {};
  if (schema.maxItems !== undefined) out.maxItems = schema.maxItems;
  if (schema.minimum !== undefined) out.minimum = schema.minimum;
  if (schema.maximum !== undefined) out.maximum = schema.maximum;
  return out;
}

/** An inline object (with properties, or a plain open object): compared property by property rather than as one type. */
export function isInlineObject(schema: Schema): boolean {
  return schema.ref === undefined && !schema.anyOf && ((schema.properties?.length ?? 0) > 0 || isPlainObject(schema));
}
