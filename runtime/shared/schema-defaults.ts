/**
 * JSON Schema `default`s filled into a value, for servers that ask for it (ServerOptions
 * `applyDefaults`): JSON Schema makes `default` an annotation (2020-12 Validation §9.2), so by
 * default arguments reach the handler as the client sent them. The rule is ajv's `useDefaults`:
 * a property absent from an object gets its `properties` schema's default (a copy), descending
 * into the properties present; defaults inside anyOf/oneOf/if or behind $ref are not applied,
 * since which branch holds is not known before validation.
 */
export function withDefaults(schema: unknown, value: unknown): unknown {
  if (!isObject(schema) || !isObject(value) || !isObject(schema.properties)) return value;
  let filled: Record<string, unknown> | undefined;
  for (const [key, property] of Object.entries(schema.properties)) {
    if (!isObject(property)) continue;
    const present = Object.prototype.hasOwnProperty.call(value, key);
    const next = present ? withDefaults(property, value[key]) : "default" in property ? structuredClone(property.default) : undefined;
    if (present ? next === value[key] : !("default" in property)) continue;
    // Copied on the first change: the client's arguments are left as they came.
    // defineProperty: a property named __proto__ is data, not the object's prototype.
    Object.defineProperty((filled ??= { ...value }), key, { value: next, enumerable: true, writable: true, configurable: true });
  }
  return filled ?? value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
