import { childPointer } from "../pointer.js";
import type { Property, Schema } from "../model/schema.js";
import { text } from "./expr.js";
import type { Failure, Node } from "./ir.js";
import { at, isPlainObject, type Keyword } from "./keyword.js";

/** `properties`, with the `required` ones among them (a missing one is reported at the object). */
export const properties: Keyword = {
  reads: {
    properties(value, at, read) {
      if (!isPlainObject(value)) read.fail(at, "properties must be an object");
      return { properties: Object.entries(value as Record<string, unknown>).map(([name, schema]): Property => ({ name, schema: read.child(schema, childPointer(at, name)) })) };
    },
  },
  children: (s) => (s.properties ?? []).map((p) => p.schema),
  about: "object",
  lower(s, ctx) {
    const nodes: Node[] = [];
    for (const property of ordered(s)) {
      const required = s.required?.includes(property.name) ?? false;
      const body = ctx.lower(property.schema);
      if (!required && body.length === 0) continue;
      nodes.push({ kind: "property", name: property.name, ...(required ? { required: missing(s, property.name) } : {}), body });
    }
    return nodes;
  },
};

/** The failure of a required property that is absent. */
export function missing(s: Schema, name: string): Failure {
  return { keyword: "required", schemaPath: at(s, "required"), message: text(`must have required property '${name}'`) };
}

/** Required constants first: a union member then fails on its first property read. */
function ordered(s: Schema) {
  const list = s.properties ?? [];
  const isConstant = (p: (typeof list)[number]) => p.schema.const !== undefined && s.required?.includes(p.name);
  return [...list.filter(isConstant), ...list.filter((p) => !isConstant(p))];
}
