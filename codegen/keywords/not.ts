import { matches, not as negation, text } from "./expr.js";
import { at, type Keyword } from "./keyword.js";

/** `not`: the sub-schema must fail. */
export const not: Keyword = {
  lower: (s, ctx) =>
    s.not === undefined
      ? []
      : [{ kind: "assert", keyword: "not", schemaPath: at(s, "not"), valid: negation(matches({ pointer: s.not.pointer, body: ctx.lower(s.not) })), message: text("must NOT be valid"), then: [] }],
};
