import { call, compare, literal, name, SUBJECT, text } from "./expr.js";
import { at, isPrimitive, primitive, type Keyword } from "./keyword.js";

/** `const`: `===` for a primitive, JSON equality (jsonEqual) for an object or an array. */
export const constKeyword: Keyword = {
  reads: { const: (value, at, read) => (read.tool && !isPrimitive(value) ? { constJson: value } : { const: primitive(value, at, read) }) },
  lower(s, ctx) {
    if (s.const !== undefined)
      return [{ kind: "assert", keyword: "const", schemaPath: at(s, "const"), valid: compare(SUBJECT, "===", literal(s.const)), message: text(`must be ${JSON.stringify(s.const)}`), then: [] }];
    if (s.constJson !== undefined)
      return [{ kind: "assert", keyword: "const", schemaPath: at(s, "const"), valid: call("jsonEqual", SUBJECT, name(ctx.constant(s.constJson))), message: text(`must be ${JSON.stringify(s.constJson)}`), then: [] }];
    return [];
  },
};
