import type { Keyword } from "./keyword.js";

/** `allOf`: every branch's checks, in sequence. */
export const allOf: Keyword = {
  lower: (s, ctx) => (s.allOf ?? []).flatMap((branch) => ctx.lower(branch)),
};
