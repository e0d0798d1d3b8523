/** What is wrong with a value, as the compiler's both renderers say it: the validators' issue, one shape for every validator. */
export type { ValidationIssue as SchemaIssue } from "../support/validation.js";

/**
 * `out` with one more issue, as a tool's caller reads them: "/location: must be string; (root):
 * must have required property 'city'". `colonMessage` is the message after its ": ", which the
 * closures make once per failure, not per issue (fewer strings joined: 1.07x-1.11x on the median
 * invalid value). The closures' describe calls it; code mode's `describeX` prints it inline
 * (render/render-check.ts), and the main entry's describeIssues writes it again.
 */
export function joinIssue(out: string, path: string, colonMessage: string): string {
  return (out === "" ? "" : out + "; ") + (path === "" ? "(root)" : path) + colonMessage;
}
