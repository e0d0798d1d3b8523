import type { Schema } from "../../runtime/json-schema/model/schema.js";
import type { Definition } from "./protocol.js";

/**
 * The schema never links a request to its result (DESIGN.md decision 3). These requests answer
 * with the bare EmptyResult instead of an `<X>Result` of their own.
 */
const EMPTY_RESULT_METHODS = new Set(["ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe"]);

/**
 * The results a request may be answered with, primary first:
 * - `<X>Response` (2026-07-28) lists them explicitly, e.g. CallToolResult | InputRequiredResult;
 * - otherwise `XRequest -> XResult`, or EmptyResult for the methods above;
 * - a request whose params accept `task` (2025-11-25) may also answer CreateTaskResult.
 */
export function resultsOf(
  request: string,
  method: string,
  params: string | undefined,
  definitions: ReadonlyMap<string, Definition>,
  fail: (pointer: string, reason: string) => never,
): string[] {
  const pointer = definitions.get(request)!.schema.pointer;
  if (!request.endsWith("Request")) fail(pointer, `request definition ${request} does not end in "Request"`);
  const named = `${request.slice(0, -"Request".length)}Result`;

  const results: string[] = [];
  const response = definitions.get(`${named}Response`)?.schema.properties?.find((p) => p.name === "result")?.schema;
  if (response) {
    const listed = response.anyOf ? response.anyOf.map((s) => s.ref) : [response.ref];
    if (listed.some((name) => name === undefined)) fail(response.pointer, "a result response must reference named results");
    results.push(...(listed as string[]).sort((a, b) => Number(b === named) - Number(a === named)));
  } else if (definitions.has(named)) {
    results.push(named);
  } else if (EMPTY_RESULT_METHODS.has(method) && definitions.has("EmptyResult")) {
    results.push("EmptyResult");
  } else {
    fail(pointer, `no result for ${method}: neither ${named} nor an entry in the EmptyResult table`);
  }

  if (params !== undefined && definitions.has("CreateTaskResult") && hasProperty(definitions.get(params)!.schema, "task", definitions))
    results.push("CreateTaskResult");
  return results;
}

function hasProperty(schema: Schema, name: string, definitions: ReadonlyMap<string, Definition>, seen = new Set<string>()): boolean {
  if (schema.properties?.some((p) => p.name === name)) return true;
  if (schema.ref !== undefined && !seen.has(schema.ref)) {
    seen.add(schema.ref);
    return hasProperty(definitions.get(schema.ref)!.schema, name, definitions, seen);
  }
  return [...(schema.anyOf ?? []), ...(schema.allOf ?? [])].some((s) => hasProperty(s, name, definitions, seen));
}
