import { childPointer } from "../pointer.js";
import { ignored, inTools, type Keyword } from "./keyword.js";

/**
 * `items`: one schema for every element, or for the elements after `prefixItems` (draft-07:
 * `additionalItems` after the array form of `items`, which the loader reads as prefixItems).
 */
export const items: Keyword = {
  reads: {
    items(value, at, read) {
      if (!Array.isArray(value)) return { items: read.child(value, at) };
      // draft-07's tuple form: positional schemas, then additionalItems for the rest.
      if (!read.tool || read.dialect !== "draft-07") read.fail(at, "the array form of items is draft-07's (2020-12 spells it prefixItems)");
      const prefixItems = value.map((item, i) => read.child(item, childPointer(at, i)));
      const additional = read.raw.additionalItems;
      return additional === undefined ? { prefixItems } : { prefixItems, items: read.child(additional, childPointer(read.pointer, "additionalItems")) };
    },
    // Read with the array form of items (draft-07); alone it does nothing.
    additionalItems: inTools(ignored),
  },
  children: (s) => [s.items],
  about: "array",
  lower(s, ctx) {
    const body = s.items ? ctx.lower(s.items) : [];
    if (body.length === 0) return [];
    const from = s.prefixItems?.length ?? 0;
    return [{ kind: "items", ...(from > 0 ? { from } : {}), body }];
  },
};
