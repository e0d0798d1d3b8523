import { call, compare, literal, name, SUBJECT, text } from "./expr.js";
import { at, isPrimitive, primitive, type Keyword } from "./keyword.js";
import { hasType } from "./type.js";

/** `const`: `===` for a primitive, JSON equality (jsonEqual) for an object or an array. */
export const constKeyword: Keyword = {
  reads: { const: (value, at, read) => (read.tool && !isPrimitive(value) ? { constJson: value } : { const: primitive(value, at, read) }) },
  lower(s, ctx) {
    const value = s.const !== undefined ? s.const : s.constJson;
    if (value === undefined) return [];
    // A value the `type` gate before it lets through none of: no value passes (as enum.ts, for tools.ts' TypeScript).
    const valid = s.type && !hasType(value, s.type) ? literal(false) : s.const !== undefined ? compare(SUBJECT, "===", literal(s.const)) : call("jsonEqual", SUBJECT, name(ctx.constant(value)));
    return [{ kind: "assert", keyword: "const", schemaPath: at(s, "const"), valid, message: text(`must be ${JSON.stringify(value)}`), then: [] }];
  },
};
