/**
 * Types inferred from a JSON Schema literal, at compile time only (this module emits no code).
 * A tool's `inputSchema` written inline, or declared `as const`, types its handler's arguments;
 * its `outputSchema` types the `structuredContent` the handler returns.
 *
 * The rule is soundness: every value the schema accepts is assignable to the inferred type, so a
 * keyword is either read exactly or read wider (down to `unknown`), never narrower. The schema is
 * read as six slots, one per JSON type (string, number, boolean, null, object, array), each the
 * TypeScript type of the values of that JSON type it accepts: `allOf` and sibling keywords meet
 * slot by slot, `anyOf`/`oneOf` join, so `{ type: "string" }` beside an object's keywords never
 * makes `string & {...}`. What TypeScript cannot express (patterns, lengths, ranges, `contains`,
 * `not` of a non-trivial schema, `unevaluated*`, `$dynamicRef`, references that leave the
 * document) is read as "anything of that type"; `unknown` only where every slot is full.
 * docs/servers.md ("Typed tools from JSON Schema") lists the rules; the JSON Schema Test Suite
 * holds them to every valid datum (test/runtime/server/schema-types-suite.test.ts).
 *
 * A schema whose `type`s were widened to `string` (declared apart without `as const`) types its
 * values `any`, so a hand-written type fits.
 */

/** Any JSON Schema (draft-07 or 2020-12) whose instances are objects: what a tool's inputSchema and outputSchema may be. */
export interface ObjectSchema {
  readonly $schema?: string;
  readonly type: "object";
  readonly [keyword: string]: unknown;
}

/** The type of the values `S` accepts. */
export type FromSchema<S> = Type<Model<S, { root: S; draft7: IsDraft7<S>; depth: [] }>>;

/** A tool's arguments: what its inputSchema accepts, or any object when that cannot be inferred. */
export type ToolArguments<S> = FromSchema<S> extends infer A ? (unknown extends A ? Record<string, unknown> : A) : never;

// -- the model: one slot per JSON type ----------------------------------------------------------

interface Slots {
  readonly s: unknown;
  readonly n: unknown;
  readonly b: unknown;
  readonly z: unknown;
  readonly o: unknown;
  readonly a: unknown;
}
type JsonObject = { [key: string]: unknown };
/** No constraint: `unknown` in a slot stands for every value of its JSON type, and vanishes from an intersection. */
type All = { s: unknown; n: unknown; b: unknown; z: unknown; o: unknown; a: unknown };
type None = { s: never; n: never; b: never; z: never; o: never; a: never };
/** `type` widened to string: nothing to infer, and `any` so that any hand-written type fits. */
type Widened = { s: any; n: any; b: any; z: any; o: any; a: any }; // eslint-disable-line @typescript-eslint/no-explicit-any
type Meet<A extends Slots, B extends Slots> = { s: A["s"] & B["s"]; n: A["n"] & B["n"]; b: A["b"] & B["b"]; z: A["z"] & B["z"]; o: A["o"] & B["o"]; a: A["a"] & B["a"] };
type Join<A extends Slots, B extends Slots> = { s: A["s"] | B["s"]; n: A["n"] | B["n"]; b: A["b"] | B["b"]; z: A["z"] | B["z"]; o: A["o"] | B["o"]; a: A["a"] | B["a"] };

type IsAny<T> = 0 extends 1 & T ? true : false;
/** Every slot full (or any) reads as `unknown`; else the union of the slots. */
type Type<M extends Slots> =
  IsAny<M["o"]> extends true
    ? any // eslint-disable-line @typescript-eslint/no-explicit-any
    : [Full<M>] extends [true]
      ? unknown
      : Simplify<Or<M["s"], string> | Or<M["n"], number> | Or<M["b"], boolean> | Or<M["z"], null> | Or<M["o"], JsonObject> | Or<M["a"], unknown[]>>;
type Or<Slot, Whole> = unknown extends Slot ? Whole : Slot;
/** Every slot holds every value of its JSON type. An object type holds them all when any JSON object fits and none of its keys is narrower than `unknown` (tsc lets `{ [k: string]: unknown }` fit `{ a?: number }`). */
type Full<M extends Slots> = [string, number, boolean, null] extends [M["s"], M["n"], M["b"], M["z"]]
  ? [unknown extends M["o"] ? true : FullObject<M["o"]>, FullArray<M["a"]>] extends [true, true]
    ? true
    : false
  : false;
/** tsc lets `unknown[]` fit `[number?, ...unknown[]]`: each tuple element must be `unknown` too. */
type FullArray<A> = unknown extends A
  ? true
  : A extends readonly unknown[]
    ? "0" extends keyof A
      ? unknown extends A[0]
        ? FullArray<A extends readonly [unknown?, ...infer R] ? R : never>
        : false
      : unknown extends A[number]
        ? true
        : false
    : false;
type FullObject<O> = [JsonObject] extends [O] ? ([NarrowKeys<O>] extends [never] ? true : false) : false;
type NarrowKeys<O> = { [K in keyof Declared<O>]: unknown extends Declared<O>[K] ? never : K }[keyof Declared<O>];
/** The keys an object type names, without its index signature (whose `string` would swallow them in `keyof`). */
type Declared<O> = { [K in keyof O as string extends K ? never : number extends K ? never : K]: O[K] };

/** Where a schema sits: its resource (what `#...` references resolve against), its dialect, and how many references led there. */
interface Context {
  readonly root: unknown;
  readonly draft7: boolean;
  readonly depth: readonly unknown[];
}
type IsDraft7<S> = S extends { readonly $schema: infer D extends string } ? (D extends `${string}draft-07${string}` ? true : false) : false;
/** A schema with an `$id` that is not a plain-name fragment (draft-07's anchors) starts a resource of its own. */
type Enter<S, C extends Context> = S extends { readonly $id: infer I extends string } ? (I extends `#${string}` ? C : { root: S; draft7: C["draft7"]; depth: C["depth"] }) : C;

type Model<S, C extends Context> = S extends true
  ? All
  : S extends false
    ? None
    : S extends object
      ? C["draft7"] extends true
        ? S extends { readonly $ref: infer R }
          ? Reference<R, C> // draft-07: "All other properties in a "$ref" object MUST be ignored."
          : Keywords<S, Enter<S, C>>
        : Keywords<S, Enter<S, C>>
      : All;

type Keywords<S, C extends Context> = Meet<
  Meet<Meet<ByType<S, C>, Values<S>>, Meet<Applicators<S, C>, S extends { readonly $ref: infer R } ? Reference<R, C> : All>>,
  Conditional<S, C>
>;

// -- type, const, enum ---------------------------------------------------------------------------

type TypeNames<T> = T extends readonly (infer U)[] ? U : T;
type ByType<S, C extends Context> = S extends { readonly type: infer T }
  ? string extends TypeNames<T>
    ? Widened
    : {
        s: "string" extends TypeNames<T> ? string : never;
        n: [Extract<TypeNames<T>, "number" | "integer">] extends [never] ? never : number;
        b: "boolean" extends TypeNames<T> ? boolean : never;
        z: "null" extends TypeNames<T> ? null : never;
        o: "object" extends TypeNames<T> ? FromObject<S, C> : never;
        a: "array" extends TypeNames<T> ? FromArray<S, C> : never;
      }
  : { s: unknown; n: unknown; b: unknown; z: unknown; o: FromObject<S, C>; a: FromArray<S, C> };

/** `const` and `enum`, deep: each value into the slot of its JSON type, readonly removed (the values arrive as parsed JSON). */
type Values<S> = Meet<S extends { readonly const: infer V } ? Split<Mutable<V>> : All, S extends { readonly enum: readonly (infer E)[] } ? Split<Mutable<E>> : All>;
type Split<V> = {
  s: Extract<V, string>;
  n: Extract<V, number>;
  b: Extract<V, boolean>;
  z: Extract<V, null>;
  o: Exclude<Extract<V, object>, readonly unknown[]>;
  a: Extract<V, readonly unknown[]>;
};
type Mutable<V> = V extends object ? { -readonly [K in keyof V]: Mutable<V[K]> } : V;

// -- applicators ---------------------------------------------------------------------------------

type Applicators<S, C extends Context> = Meet<
  Meet<S extends { readonly allOf: infer L } ? AllOf<L, C> : All, S extends { readonly anyOf: infer L } ? AnyOf<L, C> : All>,
  Meet<S extends { readonly oneOf: infer L } ? AnyOf<L, C> : All, S extends { readonly not: infer N } ? Not<N> : All>
>;
type AllOf<L, C extends Context> = L extends readonly [infer First, ...infer Rest] ? Meet<Model<First, C>, AllOf<Rest, C>> : All;
/** `oneOf` reads as `anyOf`: "exactly one" is not a type, and the union holds every value it accepts. */
type AnyOf<L, C extends Context> = L extends readonly [infer First, ...infer Rest] ? Join<Model<First, C>, AnyOf<Rest, C>> : None;
/** `not` of a schema that accepts everything accepts nothing; any other `not` narrows in ways a type cannot say. */
type Not<N> = N extends true
  ? None
  : N extends object
    ? keyof N extends never
      ? None
      : N extends { readonly type: infer T }
        ? Exclude<keyof N, "type"> extends never
          ? NotType<TypeNames<T>>
          : All
        : All
    : All;
/** `not: { type }` empties the slots of those types (`integer` alone empties none: 1.5 is not one). */
type NotType<T> = {
  s: "string" extends T ? never : unknown;
  n: "number" extends T ? never : unknown;
  b: "boolean" extends T ? never : unknown;
  z: "null" extends T ? never : unknown;
  o: "object" extends T ? never : unknown;
  a: "array" extends T ? never : unknown;
};
/** A value that passes `if` passes `then`, one that fails it passes `else`: the union of (if and then) and else holds both. */
type Conditional<S, C extends Context> = S extends { readonly if: infer I }
  ? Join<Meet<Model<I, C>, S extends { readonly then: infer T } ? Model<T, C> : All>, S extends { readonly else: infer E } ? Model<E, C> : All>
  : All;

// -- references -----------------------------------------------------------------------------------

/** How many references are followed before a recursive schema reads as anything (`unknown`). */
type MaxDepth = 6;
/** Local references (`#`, a JSON Pointer such as `#/$defs/x`, a plain-name anchor `#x`) resolve in the schema's resource; others (other documents, percent-encoding) read as anything. */
type Reference<R, C extends Context> = C["depth"]["length"] extends MaxDepth
  ? All
  : R extends `#${infer Pointer}`
    ? Pointer extends ""
      ? Model<C["root"], Deeper<C>>
      : Pointer extends `/${infer Path}`
        ? Path extends `${string}%${string}`
          ? All
          : Walk<C["root"], Tokens<Path>, Deeper<C>>
        : Anchored<FindAnchor<C["root"], Pointer, C["draft7"], true>, C>
    : All;
type Anchored<Found, C extends Context> = [Found] extends [never] ? All : Found extends [infer N] ? Model<N, Deeper<C>> : All;
/** The schemas of a resource that carry the plain-name anchor (`$anchor` or `$dynamicAnchor`; draft-07: `$id: "#name"`), not looking into other resources or into data. */
type FindAnchor<N, Name extends string, Draft7 extends boolean, Root extends boolean = false> = N extends readonly unknown[]
  ? FindAnchor<N[number], Name, Draft7>
  : N extends object
    ? Root extends true
      ? AnchorHere<N, Name, Draft7>
      : N extends { readonly $id: infer I extends string }
        ? I extends `#${string}`
          ? AnchorHere<N, Name, Draft7>
          : never
        : AnchorHere<N, Name, Draft7>
    : never;
type AnchorHere<N, Name extends string, Draft7 extends boolean> =
  | (Draft7 extends true ? (N extends { readonly $id: `#${Name}` } ? [N] : never) : N extends { readonly $anchor: Name } | { readonly $dynamicAnchor: Name } ? [N] : never)
  | { [K in Exclude<keyof N, "const" | "enum" | "default" | "examples">]: FindAnchor<N[K], Name, Draft7> }[Exclude<keyof N, "const" | "enum" | "default" | "examples">];
type Deeper<C extends Context> = { root: C["root"]; draft7: C["draft7"]; depth: [...C["depth"], unknown] };
type Tokens<Path extends string> = Path extends `${infer Head}/${infer Rest}` ? [Unescape<Head>, ...Tokens<Rest>] : [Unescape<Path>];
type Unescape<T extends string> = T extends `${infer A}~1${infer B}` ? Unescape<`${A}/${B}`> : T extends `${infer A}~0${infer B}` ? `${A}~${Unescape<B>}` : T;
/** Walks the pointer's tokens down from the resource root; a schema with an `$id` on the way becomes the resource. */
type Walk<Node, Path, C extends Context> = Path extends [infer Head, ...infer Rest]
  ? Node extends object
    ? Head extends keyof Node
      ? Walk<Node[Head], Rest, Node[Head] extends object ? Enter<Node[Head], C> : C>
      : All
    : All
  : Model<Node, C>;

// -- objects --------------------------------------------------------------------------------------

type Properties<S> = S extends { readonly properties: infer P extends object } ? P : {};
type RequiredKeys<S> = S extends { readonly required: readonly (infer R)[] } ? R & string : never;
type PatternValues<S, C extends Context> = S extends { readonly patternProperties: infer P extends object } ? { [K in keyof P]: Type<Model<P[K], C>> }[keyof P] : never;
type PropertyValues<S, C extends Context> = { [K in keyof Properties<S>]: Type<Model<Properties<S>[K], C>> }[keyof Properties<S>];
type HasPatterns<S> = S extends { readonly patternProperties: infer P extends object } ? (keyof P extends never ? false : true) : false;

/**
 * Keys not declared: what `additionalProperties` says of them, joined with every
 * `patternProperties` value (a key may match a pattern) and every declared property's (an index
 * signature must hold those too). Closed, with no patterns: no index signature at all.
 */
type Rest<S, C extends Context> = S extends { readonly additionalProperties: infer A }
  ? [Model<A, C>] extends [None]
    ? HasPatterns<S> extends true
      ? { [key: string]: PatternValues<S, C> | PropertyValues<S, C> }
      : keyof Properties<S> extends never
        ? { [key: string]: never }
        : {}
    : Type<Model<A, C>> extends infer V
      ? unknown extends V
        ? JsonObject
        : HasPatterns<S> extends true
          ? JsonObject
          : { [key: string]: V | PropertyValues<S, C> }
      : never
  : JsonObject;

/** The object keywords, or `unknown` (every object) where there are none. */
type FromObject<S, C extends Context> = S extends object ? (Extract<keyof S, ObjectKeyword> extends never ? unknown : ObjectOf<S, C>) : never;
type ObjectKeyword = "properties" | "required" | "additionalProperties" | "patternProperties" | "dependentRequired" | "dependencies";
// Each part through `infer`: an intersection of them written out as the alias's body makes tsc report a circular alias.
type ObjectOf<S, C extends Context> = [RequiredPart<S, C>, OptionalPart<S, C>, Rest<S, C>, DependentRequired<S, C>] extends [infer A, infer B, infer R, infer D]
  ? Simplify<A & B & { -readonly [K in Exclude<RequiredKeys<S>, keyof Properties<S>>]: unknown } & R> & D
  : never;
type RequiredPart<S, C extends Context> = { -readonly [K in keyof Properties<S> & RequiredKeys<S>]: Type<Model<Properties<S>[K], C>> };
/** An optional key that every object inherits (`constructor`, `toString`...) reads as `unknown`: tsc sees `{}` carry Object's `constructor`. */
type Inherited = "constructor" | "toString" | "toLocaleString" | "valueOf" | "hasOwnProperty" | "isPrototypeOf" | "propertyIsEnumerable" | "__proto__";
type OptionalPart<S, C extends Context> = { -readonly [K in Exclude<keyof Properties<S>, RequiredKeys<S>>]?: K extends Inherited ? unknown : Type<Model<Properties<S>[K], C>> };

/** `dependentRequired` (draft-07: `dependencies` with a list): each key absent, or present with the keys it needs. */
type DependentRequired<S, C extends Context> = Dependencies<
  C["draft7"] extends true ? (S extends { readonly dependencies: infer D } ? D : {}) : S extends { readonly dependentRequired: infer D } ? D : {}
>;
// Each key's union in a box, so that joining the keys does not intersect the branches of one.
type Dependencies<D> = UnionToIntersection<
  { [K in keyof D & string]: { box: D[K] extends readonly (infer R extends string)[] ? { [P in K]?: never } | ({ [P in K]: unknown } & { [P in R]: unknown }) : unknown } }[keyof D & string]
> extends { box: infer B }
  ? B
  : unknown;
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

// -- arrays ---------------------------------------------------------------------------------------

/** 2020-12: `prefixItems`, then `items` for the rest; draft-07: `items` as a list, then `additionalItems`. Elements past those present are optional: an array may be shorter. */
type FromArray<S, C extends Context> = C["draft7"] extends true
  ? S extends { readonly items: infer L extends readonly unknown[] }
    ? Tuple<L, S extends { readonly additionalItems: infer A } ? A : true, C>
    : S extends { readonly items: infer I }
      ? Type<Model<I, C>>[]
      : unknown
  : S extends { readonly prefixItems: infer L extends readonly unknown[] }
    ? Tuple<L, S extends { readonly items: infer I } ? I : true, C>
    : S extends { readonly items: infer I }
      ? I extends readonly unknown[]
        ? unknown
        : Type<Model<I, C>>[]
      : unknown;
/** Closed (`items: false`): the tuple or any prefix of it; else its elements optional, then the rest. */
type Tuple<L extends readonly unknown[], Rest, C extends Context> = [Model<Rest, C>] extends [None]
  ? Prefixes<{ -readonly [K in keyof L]: Type<Model<L[K], C>> }>
  : [...{ -readonly [K in keyof L]?: Type<Model<L[K], C>> }, ...Type<Model<Rest, C>>[]];
type Prefixes<T extends unknown[]> = T extends [...infer Init, unknown] ? T | Prefixes<Init> : [];

type Simplify<T> = T extends object ? ({ [K in keyof T]: T[K] } & {}) : T;
