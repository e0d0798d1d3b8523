import { compare, literal, matches, text } from "./expr.js";
import type { Branch } from "./ir.js";
import { at, inTools, schemasIn, type Keyword } from "./keyword.js";

/** `oneOf`: exactly one branch passes (every branch is tried, as the keyword requires); on failure, each failing branch's issues first, as ajv reports them. */
export const oneOf: Keyword = {
  reads: { oneOf: inTools(schemasIn("oneOf", "oneOf")) },
  children: (s) => s.oneOf ?? [],
  lower(s, ctx) {
    if (!s.oneOf) return [];
    const branches: Branch[] = s.oneOf.map((branch) => ({ pointer: branch.pointer, body: ctx.lower(branch) }));
    const valid = compare({ kind: "count", operands: branches.map(matches) }, "===", literal(1));
    return [{ kind: "assert", keyword: "oneOf", schemaPath: at(s, "oneOf"), valid, message: text("must match exactly one schema in oneOf"), then: [], explain: branches }];
  },
};
