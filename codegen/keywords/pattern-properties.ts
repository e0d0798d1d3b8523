import { childPointer, escapeToken } from "../load/pointer.js";
import { call, SUBJECT, test, text } from "./expr.js";
import { at, checkPattern, inTools, isPlainObject, type Keyword } from "./keyword.js";

/** `patternProperties`: a property whose name matches a pattern (u flag, unanchored) matches its schema. */
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
      return [{ kind: "assert" as const, keyword: "patternProperties", schemaPath: at(s, `patternProperties/${escapeToken(pattern)}`), valid: call("everyMatching", SUBJECT, { kind: "name", name: ctx.pattern(pattern) }, test({ pointer: schema.pointer, body })), message: text(`properties matching ${JSON.stringify(pattern)} must match its schema`), then: [] }];
    }),
};
