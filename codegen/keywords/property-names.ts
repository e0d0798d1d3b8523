import { call, SUBJECT, test, text } from "./expr.js";
import { at, type Keyword } from "./keyword.js";

/** `propertyNames`: every property name, a string, matches the schema. */
export const propertyNames: Keyword = {
  about: "object",
  lower(s, ctx) {
    if (!s.propertyNames) return [];
    const body = ctx.lower(s.propertyNames);
    if (body.length === 0) return [];
    return [{ kind: "assert", keyword: "propertyNames", schemaPath: at(s, "propertyNames"), valid: call("everyKey", SUBJECT, test({ pointer: s.propertyNames.pointer, body })), message: text("every property name must match propertyNames"), then: [] }];
  },
};
