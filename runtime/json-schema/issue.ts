/** What is wrong with a value, as the compiler's both renderers say it: the validators' issue, one shape for every validator. */
export type { ValidationIssue as SchemaIssue } from "../support/validation.js";

/**
 * `out` with one more issue, as a tool's caller reads them: "/location: must be string; (root):
 * must have required property 'city'". The closures' describe calls it; code mode's `describeX`
 * prints it inline (render/render-check.ts), and the main entry's describeIssues writes it again.
 */
export function joinIssue(out: string, path: string, message: string): string {
  return out + (out === "" ? "" : "; ") + (path === "" ? "(root)" : path) + ": " + message;
}
