import { SUPPORT_FUNCTIONS } from "../../support/functions.js";

/**
 * The support functions generated validators may call: what runtime/support/validation.ts exports
 * (`@mcp-codegen/runtime/support`, which generated modules import), by name in code-unit order, read
 * from its table (runtime/support/functions.ts), so that a keyword whose check needs a new one adds it
 * there and nowhere else.
 */
export const SUPPORT: readonly string[] = Object.keys(SUPPORT_FUNCTIONS).sort();

/** The support functions printed code calls, in SUPPORT's order: what its import names. */
export function supportUsedBy(code: string): string[] {
  return SUPPORT.filter((name) => new RegExp(`\\b${name}\\(`).test(code));
}
