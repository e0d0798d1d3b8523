import { call, SUBJECT, text } from "./expr.js";
import { at, checkPattern, inTools, type Keyword } from "./keyword.js";

/** `pattern`: an ECMAScript regular expression with the u flag, unanchored, as ajv compiles it; one module-level RegExp per pattern. */
export const pattern: Keyword = {
  reads: {
    pattern: inTools((value, at, read) => {
      if (typeof value !== "string") read.fail(at, "pattern must be a string");
      checkPattern(value as string, at, read);
      return { pattern: value as string };
    }),
  },
  about: "string",
  lower: (s, ctx) =>
    s.pattern === undefined
      ? []
      : [{ kind: "assert", keyword: "pattern", schemaPath: at(s, "pattern"), valid: call(`${ctx.pattern(s.pattern)}.test`, SUBJECT), message: text(`must match pattern ${JSON.stringify(s.pattern)}`), then: [] }],
};
