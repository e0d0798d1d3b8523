/**
 * Example values for a scaffolded project's generated test and placeholders: arguments that
 * satisfy a tool's inputSchema, and structured output that satisfies its outputSchema. Best
 * effort over the JSON Schema a manifest is likely to hold; an entry's own `example` wins. A local
 * `$ref` (`#`, `#/$defs/...`, `#/definitions/...`) is followed into the schema it points to.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export function sampleOf(schema: unknown, root: unknown = schema, depth = 0): Json {
  if (typeof schema !== "object" || schema === null || depth > 8) return null;
  const s = schema as Record<string, unknown>;
  const sample = (child: unknown) => sampleOf(child, root, depth + 1);
  if (s.const !== undefined) return s.const as Json;
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0] as Json;
  if (s.default !== undefined) return s.default as Json;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0] as Json;
  if (typeof s.$ref === "string") {
    // 2020-12 applies the keywords beside a $ref too: merge what each side makes of an object.
    const { $ref, ...rest } = s;
    const target = sample(resolveLocalRef(root, $ref));
    const own = Object.keys(rest).some((key) => key !== "$defs" && key !== "definitions") ? sample(rest) : undefined;
    return isObject(target) && isObject(own) ? { ...target, ...own } : target;
  }
  for (const key of ["anyOf", "oneOf"]) if (Array.isArray(s[key]) && (s[key] as unknown[]).length) return sample((s[key] as unknown[])[0]);
  if (Array.isArray(s.allOf)) {
    // The schema's own keywords and every part must hold: merge their objects.
    const { allOf, ...rest } = s;
    const parts = [rest, ...(allOf as unknown[])].map(sample);
    return parts.every(isObject) ? Object.assign({}, ...parts) : parts[0]!;
  }
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== "null") : s.type;
  switch (type) {
    case "string":
      return s.format === "uri" ? "https://example.com/" : s.format === "date-time" ? "2026-01-01T00:00:00Z" : "example";
    case "integer":
    case "number": {
      const low = typeof s.minimum === "number" ? s.minimum : typeof s.exclusiveMinimum === "number" ? s.exclusiveMinimum + 1 : 1;
      return typeof s.maximum === "number" && low > s.maximum ? s.maximum : low;
    }
    case "boolean":
      return true;
    case "null":
      return null;
    case "array": {
      const min = typeof s.minItems === "number" ? s.minItems : 0;
      const prefix = Array.isArray(s.prefixItems) ? (s.prefixItems as unknown[]) : [];
      return Array.from({ length: Math.max(min, prefix.length) }, (_, i) => sample(i < prefix.length ? prefix[i] : s.items));
    }
    default: {
      const properties = (s.properties ?? {}) as Record<string, unknown>;
      const required = Array.isArray(s.required) ? (s.required as string[]) : [];
      return Object.fromEntries(required.map((name) => [name, sample(properties[name] ?? { type: "string" })]));
    }
  }
}

function isObject(value: unknown): value is Record<string, Json> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A local `$ref` (a JSON Pointer fragment into the same document, RFC 6901), or undefined when it points elsewhere. */
export function resolveLocalRef(root: unknown, ref: string): unknown {
  if (!ref.startsWith("#")) return undefined;
  const tokens = ref.slice(1).split("/").slice(1).map((t) => decodeURIComponent(t).replace(/~1/g, "/").replace(/~0/g, "~"));
  let node = root;
  for (const token of tokens) {
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, token)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}
