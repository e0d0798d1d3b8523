import { call, literal, SUBJECT, test, text } from "./expr.js";
import { at, type Keyword } from "./keyword.js";

/**
 * `items`: one schema for every element, or for the elements after `prefixItems` (draft-07:
 * `additionalItems` after the array form of `items`, which the loader reads as prefixItems).
 */
export const items: Keyword = {
  about: "array",
  lower(s, ctx) {
    const body = s.items ? ctx.lower(s.items) : [];
    if (body.length === 0) return [];
    const start = s.prefixItems?.length ?? 0;
    if (start === 0) return [{ kind: "items", body }];
    const keyword = s.items!.pointer.endsWith("/additionalItems") ? "additionalItems" : "items";
    return [{ kind: "assert", keyword, schemaPath: at(s, keyword), valid: call("everyFrom", SUBJECT, literal(start), test({ pointer: s.items!.pointer, body })), message: text(`items after the first ${start} must match the schema`), then: [] }];
  },
};
