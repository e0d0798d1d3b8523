import type { Schema } from "../model/schema.js";
import { compare, literal, text } from "./expr.js";
import type { Comparison, Expr, GuardType } from "./ir.js";
import { at, type Keyword, type Rule } from "./keyword.js";

/**
 * A keyword that bounds a measure of the subject (its value, length, size) by a number in the
 * schema, read by `rule`: `valid` tests the subject against the limit (`measured`: a comparison).
 */
export function bound(name: keyof Schema & string, about: GuardType, valid: (limit: Expr) => Expr, message: (limit: number) => string, rule: Rule): Keyword {
  return {
    reads: { [name]: rule },
    about,
    lower(s) {
      const limit = s[name];
      if (typeof limit !== "number") return [];
      return [{ kind: "assert", keyword: name, schemaPath: at(s, name), valid: valid(literal(limit)), message: text(message(limit)), then: [] }];
    },
  };
}

/** `measure op limit`. */
export const measured =
  (measure: Expr, op: Comparison) =>
  (limit: Expr): Expr =>
    compare(measure, op, limit);
