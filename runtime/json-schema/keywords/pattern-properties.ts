import { childPointer } from "../pointer.js";
import { checkPattern, inTools, isPlainObject, type Keyword } from "./keyword.js";

/** `patternProperties`: a property whose name matches a pattern (u flag, unanchored) matches its schema (its issues at the property). */
export const patternProperties: Keyword = {
  reads: {
    patternProperties: inTools((value, at, read) => {
      if (!isPlainObject(value)) read.fail(at, "patternProperties must be an object");
      return {
        patternProperties: Object.entries(value as Record<string, unknown>).map(([source, schema]) => {
          checkPattern(source, childPointer(at, source), read, "not");
          return { pattern: source, schema: read.child(schema, childPointer(at, source)) };
        }),
      };
    }),
  },
  children: (s) => (s.patternProperties ?? []).map((p) => p.schema),
  about: "object",
  lower: (s, ctx) =>
    (s.patternProperties ?? []).flatMap(({ pattern, schema }) => {
      const body = ctx.lower(schema);
      if (body.length === 0) return [];
      return [{ kind: "entries" as const, known: [], matching: ctx.pattern(pattern), body }];
    }),
};
