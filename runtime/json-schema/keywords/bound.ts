import type { Schema } from "../model/schema.js";
import { compare, literal, text } from "./expr.js";
import type { Comparison, Expr, GuardType } from "./ir.js";
import { at, type Keyword, type Rule } from "./keyword.js";

/** A keyword that bounds a measure of the subject (its value, length, size) by a number in the schema, read by `rule`. */
export function bound(
  name: keyof Schema & string,
  about: GuardType,
  measure: Expr,
  op: Comparison,
  message: (limit: number) => string,
  rule: Rule,
): Keyword {
  return {
    reads: { [name]: rule },
    about,
    lower(s) {
      const limit = s[name];
      if (typeof limit !== "number") return [];
      return [{ kind: "assert", keyword: name, schemaPath: at(s, name), valid: compare(measure, op, literal(limit)), message: text(message(limit)), then: [] }];
    },
  };
}
