import { escapeToken } from "../pointer.js";
import { has, not, or, text } from "./expr.js";
import { readDependencies } from "./dependencies.js";
import { at, only, type Keyword } from "./keyword.js";

/** `dependentRequired` (and draft-07's array-form `dependencies`): a present property requires others. */
export const dependentRequired: Keyword = {
  reads: { dependentRequired: only("2020-12", (value, at, read) => readDependencies("dependentRequired", value, at, read)) },
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
