import { call, literal, SUBJECT, text } from "./expr.js";
import { at, inTools, type Keyword } from "./keyword.js";

/** `multipleOf`, decided as ajv does (the quotient is an integer; runtime/support/validation.ts isMultipleOf). */
export const multipleOf: Keyword = {
  reads: { multipleOf: inTools((value, at, read) => (typeof value === "number" && value > 0 ? { multipleOf: value } : read.fail(at, "multipleOf must be a number > 0"))) },
  about: "number",
  lower: (s) =>
    s.multipleOf === undefined
      ? []
      : [{ kind: "assert", keyword: "multipleOf", schemaPath: at(s, "multipleOf"), valid: call("isMultipleOf", SUBJECT, literal(s.multipleOf)), message: text(`must be multiple of ${s.multipleOf}`), then: [] }],
};
