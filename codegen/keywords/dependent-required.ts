import { escapeToken } from "../load/pointer.js";
import { has, not, or, text } from "./expr.js";
import { at, type Keyword } from "./keyword.js";

/** `dependentRequired` (and draft-07's array-form `dependencies`): a present property requires others. */
export const dependentRequired: Keyword = {
  about: "object",
  lower: (s) =>
    (s.dependentRequired ?? []).flatMap(({ name, required, keyword }) =>
      required.map((other) => ({
        kind: "assert" as const,
        keyword,
        schemaPath: at(s, `${keyword}/${escapeToken(name)}`),
        valid: or([not(has(name)), has(other)]),
        message: text(`must have property '${other}' when property '${name}' is present`),
        then: [],
      })),
    ),
};
