import { call, SUBJECT, text } from "./expr.js";
import { at, inTools, type Keyword } from "./keyword.js";

/** `uniqueItems: true`: no two elements are deep-equal (runtime/support/validation.ts hasUniqueItems). */
export const uniqueItems: Keyword = {
  reads: { uniqueItems: inTools((value, at, read) => (typeof value !== "boolean" ? read.fail(at, "uniqueItems must be a boolean") : value ? { uniqueItems: true } : {})) },
  about: "array",
  lower: (s) =>
    s.uniqueItems
      ? [{ kind: "assert", keyword: "uniqueItems", schemaPath: at(s, "uniqueItems"), valid: call("hasUniqueItems", SUBJECT), message: text("must NOT have duplicate items"), then: [] }]
      : [],
};
