/**
 * JSON read from a user's file: a syntax error names the file, line and column (1-based, as
 * editors count), not only JSON.parse's character offset.
 */
export function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const offset = Number(/at position (\d+)/.exec(message)?.[1] ?? (/Unexpected end of JSON input/.test(message) ? text.length : NaN));
    const reason = message.replace(/\s*\(line \d+ column \d+\)/, "").replace(/ in JSON at position \d+/, "").replace(/^JSON\.parse: /, "");
    if (Number.isNaN(offset)) throw new Error(`${file} is not valid JSON: ${reason}`);
    const before = text.slice(0, offset);
    const line = before.split("\n").length;
    const column = offset - before.lastIndexOf("\n");
    throw new Error(`${file}:${line}:${column}: not valid JSON: ${reason}`);
  }
}

/**
 * `value` as a JavaScript expression that evaluates to exactly that JSON value. JSON text is
 * almost one: only a `"__proto__"` key differs, since in an object literal it sets the prototype
 * instead of adding a property (ECMA-262, __proto__ Property Names in Object Initializers); it is
 * written as the computed key `["__proto__"]`, which adds the property.
 */
export function jsonExpression(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(jsonExpression).join(", ")}]`;
  if (typeof value !== "object" || value === null) return JSON.stringify(value) ?? "null";
  const entries = Object.entries(value).map(([key, v]) => `${propertyKey(key)}: ${jsonExpression(v)}`);
  return entries.length === 0 ? "{}" : `{ ${entries.join(", ")} }`;
}

/** A property name in an object literal that always adds an own property named `key`. */
export function propertyKey(key: string): string {
  return key === "__proto__" ? `["__proto__"]` : JSON.stringify(key);
}
