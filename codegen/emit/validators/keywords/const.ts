import { compare, literal, SUBJECT, text } from "../expr.js";
import { at, type Keyword } from "./keyword.js";

/** `const` (a primitive: the loader refuses others). */
export const constKeyword: Keyword = {
  lower: (s) =>
    s.const === undefined
      ? []
      : [{ kind: "assert", keyword: "const", schemaPath: at(s, "const"), valid: compare(SUBJECT, "===", literal(s.const)), message: text(`must be ${JSON.stringify(s.const)}`), then: [] }],
};
