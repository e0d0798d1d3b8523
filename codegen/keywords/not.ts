import { matches, not as negation, text } from "./expr.js";
import { at, inTools, schemaIn, type Keyword } from "./keyword.js";

/** `not`: the sub-schema must fail. */
export const not: Keyword = {
  reads: { not: inTools(schemaIn("not")) },
  children: (s) => [s.not],
  lower: (s, ctx) =>
    s.not === undefined
      ? []
      : [{ kind: "assert", keyword: "not", schemaPath: at(s, "not"), valid: negation(matches({ pointer: s.not.pointer, body: ctx.lower(s.not) })), message: text("must NOT be valid"), then: [] }],
};
