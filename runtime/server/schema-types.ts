/**
 * Types inferred from a JSON Schema literal, at compile time only (this module emits no code).
 * A tool's `inputSchema` written inline, or declared `as const`, types its handler's arguments;
 * its `outputSchema` types the `structuredContent` the handler returns.
 *
 * Covered: type (one or a list), const, enum, properties + required, additionalProperties,
 * items, anyOf, oneOf, allOf. Anything else ($ref, if/then, patternProperties, not...) reads as
 * `unknown` at that node (a tool's whole arguments as `Record<string, unknown>`): write the type
 * by hand there (`server.tool<MyArgs>(...)`). Objects stay open unless `additionalProperties:
 * false`, as JSON Schema says. A schema whose `type`s were widened to `string` (declared apart
 * without `as const`) types its values `any`. test/runtime/server/schema-types.test.ts holds this to
 * json-schema-to-ts (the reference implementation) on a corpus of schemas.
 */

/** Any JSON Schema (draft-07 or 2020-12) whose instances are objects: what a tool's inputSchema and outputSchema may be. */
export interface ObjectSchema {
  readonly $schema?: string;
  readonly type: "object";
  readonly [keyword: string]: unknown;
}

/** The type of the values `S` accepts. */
export type FromSchema<S> = S extends true
  ? unknown
  : S extends false
    ? never
    : S extends { readonly const: infer C }
      ? C
      : S extends { readonly enum: readonly (infer E)[] }
        ? E
        : S extends { readonly allOf: readonly unknown[] }
          ? AllOf<S["allOf"]> & FromSchema<Omit<S, "allOf">>
          : S extends { readonly anyOf: readonly (infer A)[] }
            ? FromSchema<A>
            : S extends { readonly oneOf: readonly (infer A)[] }
              ? FromSchema<A>
              : S extends { readonly type: infer T }
                ? FromType<T extends readonly (infer U)[] ? U : T, S>
                : unknown;

type AllOf<Members> = Members extends readonly [infer First, ...infer Rest] ? FromSchema<First> & AllOf<Rest> : unknown;

/** A `type` widened to string (a schema not written inline nor `as const`) says nothing we can infer: any, so a hand-written type fits. */
type FromType<T, S> = string extends T
  ? any // eslint-disable-line @typescript-eslint/no-explicit-any
  : T extends "string"
  ? string
  : T extends "number" | "integer"
    ? number
    : T extends "boolean"
      ? boolean
      : T extends "null"
        ? null
        : T extends "array"
          ? S extends { readonly items: infer I }
            ? I extends readonly unknown[]
              ? unknown[]
              : FromSchema<I>[]
            : unknown[]
          : T extends "object"
            ? FromObject<S>
            : unknown;

type RequiredKeys<S> = S extends { readonly required: readonly (infer R)[] } ? R & string : never;
type Open<S> = S extends { readonly additionalProperties: false } ? unknown : { [key: string]: unknown };
type Simplify<T> = { [K in keyof T]: T[K] } & {};

type FromObject<S> = S extends { readonly properties: infer P }
  ? Simplify<
      { -readonly [K in keyof P & RequiredKeys<S>]: FromSchema<P[K]> } & {
        -readonly [K in Exclude<keyof P, RequiredKeys<S>>]?: FromSchema<P[K]>;
      } & { -readonly [K in Exclude<RequiredKeys<S>, keyof P>]: unknown } & Open<S>
    >
  : Simplify<{ -readonly [K in RequiredKeys<S>]: unknown } & Open<S>>;

/** A tool's arguments: what its inputSchema accepts, or any object when that cannot be inferred. */
export type ToolArguments<S> = FromSchema<S> extends infer A ? (unknown extends A ? Record<string, unknown> : A) : never;
