/**
 * Example values for a scaffolded project's generated test and placeholders: arguments that
 * satisfy a tool's inputSchema, structured output that satisfies its outputSchema, template
 * variables and the URI they expand to. Best effort over the JSON Schema a manifest is likely
 * to hold; an entry's own `example` wins.
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

/** RFC 6570 expansion for the operators a resource template uses ({x} {+x} {#x} {.x} {/x} {;x} {?x} {&x}). */
export function expandTemplate(uriTemplate: string, values: Readonly<Record<string, string>>): string {
  return uriTemplate.replace(/\{([+#./;?&]?)([^}]*)\}/g, (_, operator: string, list: string) => {
    const names = list.split(",").map((part) => part.replace(/(\*|:\d+)$/, "").trim());
    const encode = (value: string) => (operator === "+" || operator === "#" ? encodeURI(value) : encodeURIComponent(value));
    const present = names.filter((name) => values[name] !== undefined);
    if (present.length === 0) return "";
    switch (operator) {
      case "?":
      case "&":
        return operator + present.map((name) => `${name}=${encode(values[name]!)}`).join("&");
      case ";":
        return present.map((name) => `;${name}=${encode(values[name]!)}`).join("");
      case ".":
      case "/":
        return present.map((name) => operator + encode(values[name]!)).join("");
      case "#":
        return `#${present.map((name) => encode(values[name]!)).join(",")}`;
      default:
        return present.map((name) => encode(values[name]!)).join(",");
    }
  });
}
