import { compare, literal, SUBJECT, text } from "./expr.js";
import { at, type Keyword } from "./keyword.js";

/** `minimum` (inclusive). */
export const minimum: Keyword = {
  about: "number",
  lower: (s) =>
    s.minimum === undefined
      ? []
      : [{ kind: "assert", keyword: "minimum", schemaPath: at(s, "minimum"), valid: compare(SUBJECT, ">=", literal(s.minimum)), message: text(`must be >= ${s.minimum}`), then: [] }],
};
