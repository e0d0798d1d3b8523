import { call, literal, SUBJECT, test, text } from "./expr.js";
import { childPointer } from "../load/pointer.js";
import { at, only, type Keyword } from "./keyword.js";

/** `prefixItems` (and draft-07's array form of `items`): element i, when present, matches schema i. */
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
      if (body.length === 0) return [];
      const keyword = s.pointer.length > 0 && schema.pointer.endsWith(`/prefixItems/${i}`) ? "prefixItems" : "items";
      return [{ kind: "assert" as const, keyword, schemaPath: at(s, `${keyword}/${i}`), valid: call("itemPasses", SUBJECT, literal(i), test({ pointer: schema.pointer, body })), message: text(`item ${i} must match its schema`), then: [] }];
    }),
};
