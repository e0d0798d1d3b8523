import { compare, literal, member, SUBJECT, text } from "./expr.js";
import { at, countIn, type Keyword } from "./keyword.js";

/** `maxItems`. */
export const maxItems: Keyword = {
  reads: { maxItems: countIn("maxItems", "maxItems") },
  about: "array",
  lower: (s) =>
    s.maxItems === undefined
      ? []
      : [{ kind: "assert", keyword: "maxItems", schemaPath: at(s, "maxItems"), valid: compare(member(SUBJECT, "length"), "<=", literal(s.maxItems)), message: text(`must have at most ${s.maxItems} items`), then: [] }],
};
