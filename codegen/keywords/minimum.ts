import { compare, literal, SUBJECT, text } from "./expr.js";
import { at, numberIn, type Keyword } from "./keyword.js";

/** `minimum` (inclusive). */
export const minimum: Keyword = {
  reads: { minimum: numberIn("minimum", "minimum must be a number") },
  about: "number",
  lower: (s) =>
    s.minimum === undefined
      ? []
      : [{ kind: "assert", keyword: "minimum", schemaPath: at(s, "minimum"), valid: compare(SUBJECT, ">=", literal(s.minimum)), message: text(`must be >= ${s.minimum}`), then: [] }],
};
