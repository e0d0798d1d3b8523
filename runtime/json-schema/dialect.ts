/**
 * The JSON Schema dialects MCP uses, told apart by `$schema`: draft-07 (the schemas of the first
 * revisions, and any schema that says so) and 2020-12 (MCP's default since 2025-11-25). One table
 * for the runtime's tool schemas, the generator's loaders and the manifest check.
 */
export type Dialect = "draft-07" | "2020-12";

const URIS: readonly (readonly [RegExp, Dialect])[] = [
  [/^https?:\/\/json-schema\.org\/draft-07\/schema#?$/, "draft-07"],
  [/^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/, "2020-12"],
];

/** Where a dialect keeps named sub-schemas. */
export const DEFINITIONS_KEY: Readonly<Record<Dialect, "definitions" | "$defs">> = { "draft-07": "definitions", "2020-12": "$defs" };

/** The dialect a `$schema` URI names; undefined for any other (draft-04, 2019-09, a typo). */
export function dialectNamed(uri: unknown): Dialect | undefined {
  return typeof uri === "string" ? URIS.find(([pattern]) => pattern.test(uri))?.[1] : undefined;
}

/** A schema's dialect: draft-07 when its `$schema` says so, else 2020-12 (an unknown `$schema` included). */
export function dialectOf(schema: Readonly<Record<string, unknown>>): Dialect {
  return dialectNamed(schema.$schema) === "draft-07" ? "draft-07" : "2020-12";
}
