import { compare, literal, SUBJECT, text } from "./expr.js";
import { at, numberIn, type Keyword } from "./keyword.js";

/** `maximum` (inclusive). */
export const maximum: Keyword = {
  reads: { maximum: numberIn("maximum", "maximum must be a number") },
  about: "number",
  lower: (s) =>
    s.maximum === undefined
      ? []
      : [{ kind: "assert", keyword: "maximum", schemaPath: at(s, "maximum"), valid: compare(SUBJECT, "<=", literal(s.maximum)), message: text(`must be <= ${s.maximum}`), then: [] }],
};
