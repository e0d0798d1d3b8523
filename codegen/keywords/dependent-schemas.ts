import { escapeToken } from "../load/pointer.js";
import { has, matches, not, or, text } from "./expr.js";
import { readDependencies } from "./dependencies.js";
import { at, only, type Keyword } from "./keyword.js";

/** `dependentSchemas` (and draft-07's schema-form `dependencies`): a present property makes the object match a schema. */
export const dependentSchemas: Keyword = {
  reads: { dependentSchemas: only("2020-12", (value, at, read) => readDependencies("dependentSchemas", value, at, read)) },
  children: (s) => (s.dependentSchemas ?? []).map((d) => d.schema),
  about: "object",
  lower: (s, ctx) =>
    (s.dependentSchemas ?? []).map(({ name, schema, keyword }) => ({
      kind: "assert" as const,
      keyword,
      schemaPath: at(s, `${keyword}/${escapeToken(name)}`),
      valid: or([not(has(name)), matches({ pointer: schema.pointer, body: ctx.lower(schema) })]),
      message: text(`must match the schema of "${name}" (the property is present)`),
      then: [],
    })),
};
