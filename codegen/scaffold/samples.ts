/**
 * Example values for a scaffolded project's generated test and placeholders: arguments that
 * satisfy a tool's inputSchema, and structured output that satisfies its outputSchema. Best
 * effort over the JSON Schema a manifest is likely to hold; an entry's own `example` wins.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export function sampleOf(schema: unknown, depth = 0): Json {
  if (typeof schema !== "object" || schema === null || depth > 8) return null;
  const s = schema as Record<string, unknown>;
  if (s.const !== undefined) return s.const as Json;
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0] as Json;
  if (s.default !== undefined) return s.default as Json;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0] as Json;
  for (const key of ["anyOf", "oneOf"]) if (Array.isArray(s[key]) && (s[key] as unknown[]).length) return sampleOf((s[key] as unknown[])[0], depth + 1);
  if (Array.isArray(s.allOf)) {
    // The schema's own keywords and every part must hold: merge their objects.
    const { allOf, ...rest } = s;
    const parts = [rest, ...(allOf as unknown[])].map((part) => sampleOf(part, depth + 1));
    return parts.every((part) => typeof part === "object" && part !== null && !Array.isArray(part)) ? Object.assign({}, ...parts) : parts[0]!;
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
      return Array.from({ length: min }, () => sampleOf(s.items, depth + 1));
    }
    default: {
      const properties = (s.properties ?? {}) as Record<string, unknown>;
      const required = Array.isArray(s.required) ? (s.required as string[]) : [];
      return Object.fromEntries(required.map((name) => [name, sampleOf(properties[name] ?? { type: "string" }, depth + 1)]));
    }
  }
}
