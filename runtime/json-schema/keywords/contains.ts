import { call, compare, literal, SUBJECT, test, text } from "./expr.js";
import type { Node } from "./ir.js";
import { at, countIn, inTools, only, schemaIn, type Keyword } from "./keyword.js";

/** `contains`, with `minContains` (default 1) and `maxContains`: how many elements match the schema. */
export const contains: Keyword = {
  reads: { contains: inTools(schemaIn("contains")), minContains: only("2020-12", countIn("minContains", "minContains")), maxContains: only("2020-12", countIn("maxContains", "maxContains")) },
  children: (s) => [s.contains],
  about: "array",
  lower(s, ctx) {
    if (!s.contains) return [];
    const min = s.minContains ?? 1;
    const max = s.maxContains;
    const matching = test({ pointer: s.contains.pointer, body: ctx.lower(s.contains) });
    const nodes: Node[] = [];
    if (min > 0)
      nodes.push({ kind: "assert", keyword: s.minContains === undefined ? "contains" : "minContains", schemaPath: at(s, s.minContains === undefined ? "contains" : "minContains"), valid: compare(call("countOf", SUBJECT, matching, literal(min)), ">=", literal(min)), message: text(`must contain at least ${min} valid item(s)`), then: [] });
    if (max !== undefined)
      nodes.push({ kind: "assert", keyword: "maxContains", schemaPath: at(s, "maxContains"), valid: compare(call("countOf", SUBJECT, matching, literal(max)), "<=", literal(max)), message: text(`must contain at most ${max} valid item(s)`), then: [] });
    return nodes;
  },
};
