import { matches, not } from "./expr.js";
import type { Node } from "./ir.js";
import { inTools, schemaIn, type Keyword } from "./keyword.js";

/** `if` / `then` / `else`: a value that passes `if` must pass `then`, one that fails it must pass `else` (their issues where they are); each alone does nothing. */
export const conditional: Keyword = {
  reads: { if: inTools(schemaIn("if")), then: inTools(schemaIn("then")), else: inTools(schemaIn("else")) },
  children: (s) => [s.if, s.then, s.else],
  lower(s, ctx) {
    if (s.if === undefined || (s.then === undefined && s.else === undefined)) return [];
    const passes = matches({ pointer: s.if.pointer, body: ctx.lower(s.if) });
    const nodes: Node[] = [];
    for (const [condition, schema] of [[passes, s.then], [not(passes), s.else]] as const) {
      const body = schema === undefined ? [] : ctx.lower(schema);
      if (body.length > 0) nodes.push({ kind: "when", condition, body });
    }
    return nodes;
  },
};
