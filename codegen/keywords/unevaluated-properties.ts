import { call, SUBJECT, test, text } from "./expr.js";
import { evaluatedProperties } from "./evaluated.js";
import { at, only, schemaIn, type Keyword } from "./keyword.js";

/** `unevaluatedProperties` (2020-12): the properties no keyword of the node, nor a passing sub-schema applied in place, evaluated (evaluated.ts) match the schema. */
export const unevaluatedProperties: Keyword = {
  reads: { unevaluatedProperties: only("2020-12", schemaIn("unevaluatedProperties")) },
  children: (s) => [s.unevaluatedProperties],
  about: "object",
  lower(s, ctx) {
    if (!s.unevaluatedProperties) return [];
    const body = ctx.lower(s.unevaluatedProperties);
    const evaluated = body.length === 0 ? "all" : evaluatedProperties(s, ctx);
    if (evaluated === "all") return [];
    const valid = call("everyUnevaluatedProperty", SUBJECT, test({ pointer: s.unevaluatedProperties.pointer, body }), ...evaluated);
    return [{ kind: "assert", keyword: "unevaluatedProperties", schemaPath: at(s, "unevaluatedProperties"), valid, message: text("unevaluated properties must match the schema"), then: [] }];
  },
};
