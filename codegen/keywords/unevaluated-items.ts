import { call, SUBJECT, test, text } from "./expr.js";
import { evaluatedItems } from "./evaluated.js";
import { at, only, schemaIn, type Keyword } from "./keyword.js";

/** `unevaluatedItems` (2020-12): the items no keyword of the node, nor a passing sub-schema applied in place, evaluated (evaluated.ts) match the schema. */
export const unevaluatedItems: Keyword = {
  reads: { unevaluatedItems: only("2020-12", schemaIn("unevaluatedItems")) },
  children: (s) => [s.unevaluatedItems],
  about: "array",
  lower(s, ctx) {
    if (!s.unevaluatedItems) return [];
    const body = ctx.lower(s.unevaluatedItems);
    const evaluated = body.length === 0 ? "all" : evaluatedItems(s, ctx);
    if (evaluated === "all") return [];
    const valid = call("everyUnevaluatedItem", SUBJECT, test({ pointer: s.unevaluatedItems.pointer, body }), ...evaluated);
    return [{ kind: "assert", keyword: "unevaluatedItems", schemaPath: at(s, "unevaluatedItems"), valid, message: text("unevaluated items must match the schema"), then: [] }];
  },
};
