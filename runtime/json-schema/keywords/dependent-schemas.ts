import { has } from "./expr.js";
import { readDependencies } from "./dependencies.js";
import { only, type Keyword } from "./keyword.js";

/** `dependentSchemas` (and draft-07's schema-form `dependencies`): a present property makes the object match a schema (its issues where they are). */
export const dependentSchemas: Keyword = {
  reads: { dependentSchemas: only("2020-12", (value, at, read) => readDependencies("dependentSchemas", value, at, read)) },
  children: (s) => (s.dependentSchemas ?? []).map((d) => d.schema),
  about: "object",
  lower: (s, ctx) =>
    (s.dependentSchemas ?? []).flatMap(({ name, schema }) => {
      const body = ctx.lower(schema);
      return body.length === 0 ? [] : [{ kind: "when" as const, condition: has(name), body }];
    }),
};
