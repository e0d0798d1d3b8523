import { isFalse, matches, not } from "./expr.js";
import type { Node } from "./ir.js";
import { inTools, schemaIn, type Keyword } from "./keyword.js";

/** `if` / `then` / `else`: a value that passes `if` must pass `then`, one that fails it must pass `else` (their issues where they are); each alone does nothing. */
export const conditional: Keyword = {
  reads: { if: inTools(schemaIn("if")), then: inTools(schemaIn("then")), else: inTools(schemaIn("else")) },
  children: (s) => [s.if, s.then, s.else],
  lower(s, ctx) {
    if (s.if === undefined || (s.then === undefined && s.else === undefined)) return [];
    const test = ctx.lower(s.if);
    // An `if` that every value passes (`true`, `{}`) or none does (`false`): `then`, or `else`, applies alone; no test
    // whose outcome is known (TypeScript, in tools.ts, finds the branch that never runs and narrows nothing in it).
    const always = test.length === 0 ? true : test.length === 1 && test[0]!.kind === "assert" && isFalse(test[0]!.valid) ? false : undefined;
    if (always !== undefined) {
      const schema = always ? s.then : s.else;
      return schema === undefined ? [] : ctx.lower(schema);
    }
    const passes = matches({ pointer: s.if.pointer, body: test });
    const nodes: Node[] = [];
    for (const [condition, schema] of [[passes, s.then], [not(passes), s.else]] as const) {
      const body = schema === undefined ? [] : ctx.lower(schema);
      if (body.length > 0) nodes.push({ kind: "when", condition, body });
    }
    return nodes;
  },
};
