import { matches, not, or, text } from "./expr.js";
import type { Node } from "./ir.js";
import { at, inTools, schemaIn, type Keyword } from "./keyword.js";

/** `if` / `then` / `else`: a value that passes `if` must pass `then`, one that fails it must pass `else`; each alone does nothing. */
export const conditional: Keyword = {
  reads: { if: inTools(schemaIn("if")), then: inTools(schemaIn("then")), else: inTools(schemaIn("else")) },
  children: (s) => [s.if, s.then, s.else],
  lower(s, ctx) {
    if (s.if === undefined || (s.then === undefined && s.else === undefined)) return [];
    const test = matches({ pointer: s.if.pointer, body: ctx.lower(s.if) });
    const nodes: Node[] = [];
    for (const [branch, schema] of [["then", s.then], ["else", s.else]] as const) {
      if (schema === undefined) continue;
      const valid = or([branch === "then" ? not(test) : test, matches({ pointer: schema.pointer, body: ctx.lower(schema) })]);
      nodes.push({ kind: "assert", keyword: branch, schemaPath: at(s, branch), valid, message: text(`must match "${branch}" schema (its "if" ${branch === "then" ? "passed" : "failed"})`), then: [] });
    }
    return nodes;
  },
};
