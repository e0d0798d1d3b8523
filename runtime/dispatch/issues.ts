import type { ValidationIssue } from "../../generated/validation.js";

export type { ValidationIssue };

/** How many issues an error carries in `data.issues`: enough to fix a message, bounded for a hostile one. */
export const MAX_REPORTED_ISSUES = 20;

/** "/params/name: must be string, found number (and 2 more)". */
export function summarize(issues: readonly ValidationIssue[]): string {
  const first = issues[0];
  if (!first) return "invalid";
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : "";
  return `${first.path || "(root)"}: ${first.message}${more}`;
}

export function reported(issues: readonly ValidationIssue[]): ValidationIssue[] {
  return issues.slice(0, MAX_REPORTED_ISSUES);
}
