/**
 * SEP-1034 (2025-11-25): a form's primitive fields may carry a `default`. When the user accepts
 * a form and leaves a field out, the client fills it from that default, so the server gets the
 * value the user saw pre-filled.
 */
export function withElicitationDefaults(params: Readonly<Record<string, unknown>>, result: Record<string, unknown>): Record<string, unknown> {
  if (result.action !== "accept" || (params.mode !== undefined && params.mode !== "form")) return result;
  const properties = (params.requestedSchema as { properties?: Record<string, { default?: unknown }> } | undefined)?.properties;
  if (typeof properties !== "object" || properties === null) return result;
  const given = typeof result.content === "object" && result.content !== null ? (result.content as Record<string, unknown>) : {};
  const content: Record<string, unknown> = { ...given };
  let filled = false;
  for (const [name, schema] of Object.entries(properties))
    if (schema?.default !== undefined && (!Object.prototype.hasOwnProperty.call(content, name) || content[name] === undefined)) {
      // defineProperty: a field named __proto__ is a field, not the object's prototype.
      Object.defineProperty(content, name, { value: schema.default, enumerable: true, writable: true, configurable: true });
      filled = true;
    }
  return filled ? { ...result, content } : result;
}
