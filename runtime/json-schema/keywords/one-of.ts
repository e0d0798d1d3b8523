import { compare, literal, matches, text } from "./expr.js";
import { at, inTools, schemasIn, type Keyword } from "./keyword.js";

/** `oneOf`: exactly one branch passes (every branch is tried, as the keyword requires). */
export const oneOf: Keyword = {
  reads: { oneOf: inTools(schemasIn("oneOf", "oneOf")) },
  children: (s) => s.oneOf ?? [],
  lower(s, ctx) {
    if (!s.oneOf) return [];
    const branches = s.oneOf.map((branch) => matches({ pointer: branch.pointer, body: ctx.lower(branch) }));
    return [{ kind: "assert", keyword: "oneOf", schemaPath: at(s, "oneOf"), valid: compare({ kind: "count", operands: branches }, "===", literal(1)), message: text("must match exactly one schema in oneOf"), then: [] }];
  },
};
