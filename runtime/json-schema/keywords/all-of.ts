import { schemasIn, type Keyword } from "./keyword.js";

/** `allOf`: every branch's checks, in sequence. */
export const allOf: Keyword = {
  reads: { allOf: schemasIn("allOf", "allOf") },
  children: (s) => s.allOf ?? [],
  lower: (s, ctx) => (s.allOf ?? []).flatMap((branch) => ctx.lower(branch)),
};
