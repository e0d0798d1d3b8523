import { isFalseSchema } from "../model/schema.js";
import { literal, matches, not as negation, text } from "./expr.js";
import { at, inTools, schemaIn, type Keyword } from "./keyword.js";

/** `not`: the sub-schema must fail. The schema `false` is read as `not: {}`, and reported as itself, at its own place (as ajv does). */
export const not: Keyword = {
  reads: { not: inTools(schemaIn("not")) },
  children: (s) => [s.not],
  lower: (s, ctx) =>
    s.not === undefined
      ? []
      : isFalseSchema(s)
        ? [{ kind: "assert", keyword: "false schema", schemaPath: s.pointer, valid: literal(false), message: text("boolean schema is false"), then: [] }]
        : [{ kind: "assert", keyword: "not", schemaPath: at(s, "not"), valid: negation(matches({ pointer: s.not.pointer, body: ctx.lower(s.not) })), message: text("must NOT be valid"), then: [] }],
};
