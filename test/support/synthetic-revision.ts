/**
 * A synthetic next revision, 2026-12-01, made from the pinned 2026-07-28 schema read as plain
 * JSON: it adds a request `tools/validate` (ValidateToolRequest -> ValidateToolResult, whose
 * `valid` is required) and makes `CallToolResult.summary` required. What a version bump does to
 * a server: a new method to implement, and a result shape that its existing handler no longer meets.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./project.js";

export const SYNTHETIC = "2026-12-01";

type Schema = { $defs: Record<string, Record<string, unknown>> } & Record<string, unknown>;

export function syntheticSchema(): string {
  const schema = JSON.parse(readFileSync(join(ROOT, "spec", "2026-07-28", "schema.json"), "utf8")) as Schema;
  const defs = schema.$defs;
  for (const name of Object.keys(defs).filter((n) => n.startsWith("CallTool"))) {
    const copy = JSON.stringify(defs[name]).replaceAll("CallTool", "ValidateTool").replaceAll("tools/call", "tools/validate");
    defs[name.replace("CallTool", "ValidateTool")] = JSON.parse(copy) as Record<string, unknown>;
  }
  const requireProperty = (definition: string, property: string, type: string) => {
    const def = defs[definition] as { properties: Record<string, unknown>; required?: string[] };
    def.properties[property] = { type };
    def.required = [...(def.required ?? []), property];
  };
  // ValidateToolResult: a result of its own (resultType and _meta as every 2026-07-28 result), not CallToolResult's copy.
  const validate = defs.ValidateToolResult as { properties: Record<string, unknown>; required?: string[] };
  validate.properties = { _meta: validate.properties._meta, resultType: validate.properties.resultType };
  validate.required = (validate.required ?? []).filter((name) => name in validate.properties);
  requireProperty("ValidateToolResult", "valid", "boolean");
  requireProperty("CallToolResult", "summary", "string");
  (defs.ClientRequest as { anyOf: unknown[] }).anyOf.push({ $ref: "#/$defs/ValidateToolRequest" });
  return JSON.stringify(schema, null, 2);
}
