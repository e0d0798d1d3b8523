import * as validation from "../../support/validation.js";

/**
 * The support functions generated validators may call: what runtime/support/validation.ts exports
 * (`@mcp-codegen/runtime/support`, which generated modules import), read from the module itself,
 * so that a keyword whose check needs a new one adds it there and nowhere else.
 */
export const SUPPORT: readonly string[] = Object.entries(validation)
  .filter(([, value]) => typeof value === "function")
  .map(([name]) => name);

/** The support functions printed code calls, in SUPPORT's order: what its import names. */
export function supportUsedBy(code: string): string[] {
  return SUPPORT.filter((name) => new RegExp(`\\b${name}\\(`).test(code));
}
