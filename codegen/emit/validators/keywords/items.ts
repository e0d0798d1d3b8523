import type { Keyword } from "./keyword.js";

/** `items` (one schema for every element; the loader refuses the tuple form). */
export const items: Keyword = {
  about: "array",
  lower(s, ctx) {
    const body = s.items ? ctx.lower(s.items) : [];
    return body.length === 0 ? [] : [{ kind: "items", body }];
  },
};
