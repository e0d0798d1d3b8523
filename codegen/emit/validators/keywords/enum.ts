import { compare, literal, or, SUBJECT, text } from "../expr.js";
import { at, type Keyword } from "./keyword.js";

/** `enum` (of primitives: the loader refuses others). */
export const enumKeyword: Keyword = {
  lower: (s) =>
    s.enum === undefined
      ? []
      : [
          {
            kind: "assert",
            keyword: "enum",
            schemaPath: at(s, "enum"),
            valid: or(s.enum.map((value) => compare(SUBJECT, "===", literal(value)))),
            message: text(`must be one of ${s.enum.map((e) => JSON.stringify(e)).join(", ")}`),
            then: [],
          },
        ],
};
