/**
 * JSON with every object's keys sorted, so that equal values give one text (cache keys, request
 * binding, a tool schema compared with the one its validators were compiled from). Recursive: the
 * peer refused any message nested deeper than MAX_NESTING_DEPTH (jsonrpc/depth.ts) before it got here.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null)
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "null";
}
