import type { Property, Schema } from "../../runtime/json-schema/model/schema.js";
import type { Definition } from "./protocol.js";

/**
 * Where upstream's schema.ts is open but schema.json lost it, and which definitions are open
 * because of it. schema.json is converted from schema.ts, and the converter writes an index
 * signature (`additionalProperties: {}`) only on the interface that declares it, never on the
 * interfaces that extend it. Two rules restore what `extends` carried; neither lists a name.
 *
 * 1. **Results.** When the schema's `Result` is open, so is every definition used as a result
 *    (the result of a JSON-RPC request; an input request's answer is an InputResponse, which
 *    upstream leaves closed), and every other `<X>Result` that has all of
 *    Result's properties: the bases in between (PaginatedResult, CacheableResult). The name
 *    rule is the model's own (DESIGN.md decision 3); the property test keeps it honest.
 * 2. **`_meta`.** A definition a `_meta` property references is open: `_meta` is reserved for
 *    extension keys (basic/index#meta), and upstream's MetaObject is `Record<string, unknown>`.
 *
 * The answer only widens the types: JSON Schema already admits unknown properties where the
 * object does not close itself, so validators are unchanged.
 */
export function openDefinitions(definitions: ReadonlyMap<string, Definition>, results: ReadonlySet<string>): Set<string> {
  const open = new Set<string>();
  const result = definitions.get("Result")?.schema;
  if (result !== undefined && isOpen(result)) {
    open.add("Result");
    for (const name of results) if (definitions.get(name)?.schema.properties !== undefined) open.add(name);
    for (const [name, { schema }] of definitions) if (name.endsWith("Result") && hasPropertiesOf(schema, result)) open.add(name);
  }
  for (const { schema } of definitions.values())
    walk(schema, (node) => {
      const meta = node.properties?.find((p) => p.name === "_meta")?.schema.ref;
      if (meta !== undefined && definitions.get(meta)?.schema.type?.includes("object")) open.add(meta);
    });
  return open;
}

function isOpen(schema: Schema): boolean {
  const additional = schema.additionalProperties;
  return additional !== undefined && additional !== false && Object.keys(additional).every((key) => key === "pointer" || key === "description");
}

/** Every property of `base` is in `schema`, with the same schema (prose and location aside). */
function hasPropertiesOf(schema: Schema, base: Schema): boolean {
  if (schema.properties === undefined || base.properties === undefined) return false;
  const own = new Map(schema.properties.map((p) => [p.name, p]));
  return base.properties.every((p) => own.has(p.name) && shapeOf(own.get(p.name)!) === shapeOf(p));
}

function shapeOf(property: Property): string {
  return JSON.stringify(property.schema, (key, value) => (key === "pointer" || key === "description" ? undefined : value));
}

function walk(schema: Schema, visit: (node: Schema) => void): void {
  visit(schema);
  for (const p of schema.properties ?? []) walk(p.schema, visit);
  for (const s of [...(schema.anyOf ?? []), ...(schema.allOf ?? [])]) walk(s, visit);
  if (schema.items) walk(schema.items, visit);
  if (schema.additionalProperties) walk(schema.additionalProperties, visit);
}
