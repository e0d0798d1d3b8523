import { childPointer } from "../pointer.js";
import { only, type Keyword } from "./keyword.js";

/** `prefixItems` (and draft-07's array form of `items`): element i, when present, matches schema i (its issues at the element). */
export const prefixItems: Keyword = {
  reads: {
    prefixItems: only("2020-12", (value, at, read) => {
      if (!Array.isArray(value)) read.fail(at, "prefixItems must be an array of schemas");
      return { prefixItems: (value as unknown[]).map((item, i) => read.child(item, childPointer(at, i))) };
    }),
  },
  children: (s) => s.prefixItems ?? [],
  about: "array",
  lower: (s, ctx) =>
    (s.prefixItems ?? []).flatMap((schema, i) => {
      const body = ctx.lower(schema);
      return body.length === 0 ? [] : [{ kind: "element" as const, index: i, body }];
    }),
};
