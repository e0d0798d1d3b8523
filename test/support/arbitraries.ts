/**
 * fast-check arbitraries derived from the model: one walk over the normalised `Schema` nodes of a
 * `Protocol` (codegen/load/schema.ts) gives, for every definition, an arbitrary of VALID
 * instances, each carrying the mutations that make it invalid.
 *
 * Keywords, as the schemas use them (PROTOCOL-NOTES, trap 8):
 * - `$ref`: the referenced definition. Recursion (2026-07-28 JSONValue <-> JSONObject/JSONArray)
 *   is bounded: entering a definition that can reach itself costs one unit of a budget, and a
 *   branch, optional property, array item or extra key that cannot be finished within the budget
 *   is not generated.
 * - `type` (one or several), `const`, `enum`, `minimum`/`maximum`, `format` (byte from random
 *   bytes, realistic URIs, RFC 6570 templates), `items`/`maxItems` (sometimes exactly maxItems).
 * - `properties`/`required`: required properties always, optional ones present or absent;
 *   `additionalProperties`: extra keys (awkward names included: "a/b", "~1", "", "constructor")
 *   whose values follow the additional schema, or are any JSON when the object is open.
 * - `anyOf`: any branch; `allOf`: the branches merged into one object schema.
 *
 * Mutations: drop a required property, change a type, break a const or an enum, push a number
 * out of range, exceed maxItems, break base64, a URI or a URI template, at any depth. A mutation
 * is `certain` (the result MUST be invalid) when nothing on its path can rescue it: no `anyOf`
 * on the way, or, at each `anyOf`, every other branch provably rejects the value for a reason
 * the mutation does not touch (a different constant discriminator, a missing required property,
 * another JSON type). Uncertain mutations are still compared against the oracle; they are only
 * not required to be invalid.
 */
import fc from "fast-check";
import type { JsonPrimitive, JsonType, Schema } from "../../runtime/json-schema/model/schema.js";
import type { Protocol } from "../../codegen/model/protocol.js";
import type { Json } from "./project.js";

export type PathToken = string | number;

export type MutationKind =
  | "required"
  | "type"
  | "const"
  | "enum"
  | "minimum"
  | "maximum"
  | "maxItems"
  | "format:byte"
  | "format:uri"
  | "format:uri-template";

export interface Mutation {
  readonly kind: MutationKind;
  /** Where, in the instance: the object that loses a property, or the value that is replaced. */
  readonly path: readonly PathToken[];
  /** For `required`: the property removed. */
  readonly drop?: string;
  /** For every other kind: the value put at `path`. */
  readonly replacement?: Json;
  /** The mutated instance must be invalid (see the module comment). */
  readonly certain: boolean;
}

/** A valid instance and its mutations; printed by fast-check as the instance's JSON. */
export interface Generated {
  readonly value: Json;
  readonly mutations: readonly Mutation[];
}

export interface ArbitraryOptions {
  /** Units of recursion budget (see the module comment). */
  readonly recursion?: number;
  /** The most extra (additional) keys put on one object. */
  readonly extraKeys?: number;
  /** The usual most items of an array (maxItems itself is also generated). */
  readonly arrayLength?: number;
}

/** The instance with one mutation applied; the original is not changed (copy on the path). */
export function applyMutation(value: Json, mutation: Mutation): Json {
  const rebuild = (node: Json, depth: number): Json => {
    if (depth === mutation.path.length) {
      if (mutation.drop === undefined) return mutation.replacement as Json;
      const copy = { ...(node as Record<string, Json>) };
      delete copy[mutation.drop];
      return copy;
    }
    const token = mutation.path[depth]!;
    if (Array.isArray(node)) {
      const copy = node.slice();
      copy[token as number] = rebuild(node[token as number]!, depth + 1);
      return copy;
    }
    const object = node as Record<string, Json>;
    // Spread and defineProperty copy own data properties, "__proto__" included, without setters.
    const copy = { ...object };
    Object.defineProperty(copy, token, { value: rebuild(object[token as string]!, depth + 1), enumerable: true, writable: true, configurable: true });
    return copy;
  };
  return rebuild(value, 0);
}

/** The JSON type of a value, `integer` for whole numbers. */
export function jsonTypeOf(value: unknown): JsonType {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value as JsonType;
}

function typeAllows(types: readonly JsonType[], value: unknown): boolean {
  const type = jsonTypeOf(value);
  return types.includes(type) || (type === "integer" && types.includes("number"));
}

const ABSENT = Symbol("absent");

/** One value per JSON type, whole and fractional numbers apart: the replacements of a type change. */
const TYPE_SAMPLES: readonly Json[] = [null, true, 7, 2.5, "text", [], {}];

/** Extra keys, awkward ones included: pointer escapes, the empty name, Object.prototype's names (as own data properties, as JSON.parse makes them). */
const EXTRA_KEY_NAMES = ["extra", "x-vendor", "io.example/flag", "a/b", "~1", "", "constructor", "toString", "__proto__", "hasOwnProperty", "ünïcode"];

/** Replacements that no rule of ours or ajv-formats' accepts as the format. */
const BAD_URIS = ["relative/path", "no scheme here", "", "http://exa mple.com/", "//host/only", "1http://x.y/", "https://example.com/\u00e9", "http://x/%zz"];
const BAD_URI_TEMPLATES = ["{unclosed", "a b", "{}", "x{a b}", "%zz", "{a}}", "a<b>"];

const URI_SCHEMES = ["https", "http", "file", "mcp", "git+ssh", "urn", "data", "custom.scheme"];

/** `make` called once, on first use: fc.stringMatching tokenizes its regex at construction, which costs far more than a draw. */
function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

const uriArbitrary = once((): fc.Arbitrary<string> => {
  const segment = fc.stringMatching(/^(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-F]{2}){0,8}$/);
  const host = fc.oneof(
    fc.domain(),
    fc.constantFrom("localhost", "127.0.0.1", "[::1]", "example.com", "api.example.com:8443"),
  );
  const path = fc.array(segment, { maxLength: 4 }).map((segments) => segments.map((s) => `/${s}`).join(""));
  const query = fc.option(fc.stringMatching(/^(?:[a-z0-9=&._~/?-]|%[0-9A-F]{2}){0,12}$/).map((q) => `?${q}`), { nil: "" });
  const fragment = fc.option(fc.stringMatching(/^[a-z0-9._~/-]{0,8}$/).map((f) => `#${f}`), { nil: "" });
  return fc.oneof(
    fc.webUrl({ withQueryParameters: true, withFragments: true }),
    fc
      .tuple(fc.constantFrom(...URI_SCHEMES), host, path, query, fragment)
      .map(([scheme, h, p, q, f]) => `${scheme}://${h}${p}${q}${f}`),
    fc.tuple(path, query).map(([p, q]) => `file://${p || "/"}${q}`),
    fc.constantFrom("file:///home/user/notes.md", "urn:isbn:0451450523", "mailto:someone@example.com", "data:text/plain;base64,SGk=", "mcp:tools/echo", "ui://widget/view.html"),
  );
});

const uriTemplateArbitrary = once((): fc.Arbitrary<string> => {
  const name = fc.stringMatching(/^[a-z_][a-z0-9_]{0,6}$/);
  const expression = fc
    .tuple(fc.constantFrom("", "+", "#", ".", "/", ";", "?", "&"), fc.array(fc.tuple(name, fc.constantFrom("", "*", ":3", ":30")), { minLength: 1, maxLength: 3 }))
    .map(([op, vars]) => `{${op}${vars.map(([n, m]) => n + m).join(",")}}`);
  const literal = fc.stringMatching(/^[a-zA-Z0-9\-._~/:?#@!$&()*+,;=]{0,8}$/);
  return fc.oneof(
    fc.array(fc.oneof(literal, expression), { maxLength: 5 }).map((parts) => parts.join("")),
    fc.constantFrom("file:///{path}", "https://api.example.com/users/{id}{?fields,limit}", "repo://{owner}/{repo}/blob/{+path}", "db://{table}/rows{/id*}"),
  );
});

const stringArbitrary = once((): fc.Arbitrary<string> =>
  fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.string({ unit: "grapheme", maxLength: 6 }),
    fc.constantFrom("", "hello", "2025-01-01T00:00:00Z", "line\nbreak", "\u0000"),
  ),
);

/** Small numbers most of the time, the bounds and the edges of doubles and safe integers some of the time. */
function numberArbitrary(integer: boolean, minimum: number | undefined, maximum: number | undefined): fc.Arbitrary<number> {
  if (integer) {
    const lo = Math.max(Math.ceil(minimum ?? -Infinity), Number.MIN_SAFE_INTEGER);
    const hi = Math.min(Math.floor(maximum ?? Infinity), Number.MAX_SAFE_INTEGER);
    return fc.oneof(fc.integer({ min: Math.max(lo, Math.min(hi, -1000)), max: Math.min(hi, Math.max(lo, 1000)) }), fc.constantFrom(lo, hi), fc.integer({ min: lo, max: hi }));
  }
  const bounds = { ...(minimum !== undefined ? { min: minimum } : {}), ...(maximum !== undefined ? { max: maximum } : {}) };
  const special = [minimum, maximum, 0, 0.5, 95.5, -1].filter((n): n is number => n !== undefined && n >= (minimum ?? -Infinity) && n <= (maximum ?? Infinity));
  return fc.oneof(fc.double({ ...bounds, noNaN: true, noDefaultInfinity: true }), fc.constantFrom(...special));
}

/** The types both lists allow; integer is the part of number both allow. */
function intersectTypes(a: readonly JsonType[], b: readonly JsonType[]): JsonType[] {
  const both = a.flatMap((t): JsonType[] => {
    if (b.includes(t)) return [t];
    if ((t === "number" && b.includes("integer")) || (t === "integer" && b.includes("number"))) return ["integer"];
    return [];
  });
  return [...new Set(both)];
}

/** True when a schema constrains nothing (`{}`, `true`, a description). */
function isOpen(s: Schema): boolean {
  return Object.keys(s).every((k) => k === "pointer" || k === "description");
}

/** The values of a schema whose set of values is finite (const, enum), else undefined. */
function finiteValues(s: Schema): readonly JsonPrimitive[] | undefined {
  if (s.const !== undefined) return [s.const];
  return s.enum;
}

export class SchemaArbitraries {
  private readonly recursion: number;
  private readonly extraKeys: number;
  private readonly arrayLength: number;
  /** Definitions that can reach themselves through `$ref`. */
  private readonly recursive = new Set<string>();
  /** The least recursion budget a valid instance of a definition needs. */
  private readonly definitionDepth = new Map<string, number>();
  private readonly nodeDepth = new WeakMap<Schema, number>();
  private readonly memo = new WeakMap<Schema, Map<number, fc.Arbitrary<Generated>>>();
  private readonly merged = new WeakMap<Schema, Schema>();
  private readonly distributed = new WeakMap<Schema, Schema | null>();

  constructor(
    readonly protocol: Protocol,
    options: ArbitraryOptions = {},
  ) {
    this.recursion = options.recursion ?? 3;
    this.extraKeys = options.extraKeys ?? 2;
    this.arrayLength = options.arrayLength ?? 3;
    this.findRecursion();
    this.findDepths();
  }

  /** Valid instances of a definition (lifted params included), each with its mutations. */
  definition(name: string): fc.Arbitrary<Generated> {
    const definition = this.protocol.definitions.get(name);
    if (!definition) throw new Error(`${this.protocol.revision}: no definition ${name}`);
    // fast-check prints a counterexample with this method: the instance, not the mutation list.
    return this.node(definition.schema, this.recursion).map((g): Generated => Object.assign({ ...g }, { [fc.toStringMethod]: () => JSON.stringify(g.value) }));
  }

  /** The mutation kinds the revision's schemas make possible: the ones a run must have tried. */
  possibleKinds(): Set<MutationKind> {
    const kinds = new Set<MutationKind>(["type"]);
    const visit = (s: Schema) => {
      if (s.required?.length) kinds.add("required");
      if (s.const !== undefined) kinds.add("const");
      if (s.enum) kinds.add("enum");
      if (s.minimum !== undefined) kinds.add("minimum");
      if (s.maximum !== undefined) kinds.add("maximum");
      if (s.maxItems !== undefined) kinds.add("maxItems");
      if (s.format) kinds.add(`format:${s.format}` as MutationKind);
      for (const p of s.properties ?? []) visit(p.schema);
      if (s.additionalProperties) visit(s.additionalProperties);
      if (s.items) visit(s.items);
      for (const b of [...(s.anyOf ?? []), ...(s.allOf ?? [])]) visit(b);
    };
    for (const { schema } of this.protocol.definitions.values()) visit(schema);
    return kinds;
  }

  private schemaOf(name: string): Schema {
    return this.protocol.definitions.get(name)!.schema;
  }

  // -- recursion ---------------------------------------------------------------------------------

  private findRecursion(): void {
    const refsOf = (s: Schema, into: Set<string>): Set<string> => {
      if (s.ref !== undefined) into.add(s.ref);
      for (const p of s.properties ?? []) refsOf(p.schema, into);
      if (s.additionalProperties) refsOf(s.additionalProperties, into);
      if (s.items) refsOf(s.items, into);
      for (const b of [...(s.anyOf ?? []), ...(s.allOf ?? [])]) refsOf(b, into);
      return into;
    };
    const edges = new Map<string, Set<string>>();
    for (const [name, { schema }] of this.protocol.definitions) edges.set(name, refsOf(schema, new Set()));
    for (const start of edges.keys()) {
      const seen = new Set<string>();
      const stack = [...edges.get(start)!];
      while (stack.length > 0) {
        const next = stack.pop()!;
        if (next === start) {
          this.recursive.add(start);
          break;
        }
        if (seen.has(next)) continue;
        seen.add(next);
        stack.push(...edges.get(next)!);
      }
    }
  }

  /** Least fixpoint of the budget each definition needs. */
  private findDepths(): void {
    for (const name of this.protocol.definitions.keys()) this.definitionDepth.set(name, Infinity);
    for (let changed = true; changed; ) {
      changed = false;
      for (const [name, { schema }] of this.protocol.definitions) {
        const depth = this.depthOf(schema, false);
        if (depth < this.definitionDepth.get(name)!) {
          this.definitionDepth.set(name, depth);
          changed = true;
        }
      }
    }
  }

  /** The least budget an instance of `s` needs; memoised once the definitions' depths are known. */
  private depthOf(s: Schema, memoise = true): number {
    const known = memoise ? this.nodeDepth.get(s) : undefined;
    if (known !== undefined) return known;
    let depth = 0;
    if (s.ref !== undefined) depth = this.definitionDepth.get(s.ref)! + (this.recursive.has(s.ref) ? 1 : 0);
    if (s.anyOf) depth = Math.max(depth, Math.min(...s.anyOf.map((b) => this.depthOf(b, memoise))));
    for (const b of s.allOf ?? []) depth = Math.max(depth, this.depthOf(b, memoise));
    const objectDepth = () =>
      Math.max(0, ...(s.properties ?? []).filter((p) => s.required?.includes(p.name)).map((p) => this.depthOf(p.schema, memoise)));
    if (s.type ? s.type.every((t) => t === "object") : s.properties !== undefined && s.const === undefined && s.enum === undefined)
      depth = Math.max(depth, objectDepth());
    if (memoise) this.nodeDepth.set(s, depth);
    return depth;
  }

  // -- generation --------------------------------------------------------------------------------

  private node(s: Schema, budget: number): fc.Arbitrary<Generated> {
    let byBudget = this.memo.get(s);
    if (!byBudget) this.memo.set(s, (byBudget = new Map()));
    let arbitrary = byBudget.get(budget);
    if (!arbitrary) {
      arbitrary = this.build(s, budget);
      byBudget.set(budget, arbitrary);
    }
    return arbitrary;
  }

  private build(s: Schema, budget: number): fc.Arbitrary<Generated> {
    const keywords = Object.keys(s).filter((k) => k !== "pointer" && k !== "description");
    if (s.ref !== undefined) {
      if (keywords.length > 1) {
        const { ref, ...rest } = s;
        return this.node({ pointer: s.pointer, allOf: [{ pointer: s.pointer, ref }, rest] }, budget);
      }
      // Only references into a cycle spend budget; a branch that cannot finish was filtered out.
      return this.node(this.schemaOf(s.ref), budget - (this.recursive.has(s.ref) ? 1 : 0));
    }
    if (s.allOf) return this.node(this.distributeAnyOf(s) ?? this.mergeAllOf(s), budget);
    if (s.anyOf) {
      if (keywords.length > 1) throw new Error(`arbitraries: anyOf beside other keywords is not supported (${s.pointer})`);
      return this.anyOf(s, budget);
    }
    return this.typed(s, budget).map((g) => ({ value: g.value, mutations: [...this.ownMutations(s, g.value), ...g.mutations] }));
  }

  /** Type change, const, enum, range and format mutations of the node itself. */
  private ownMutations(s: Schema, value: Json): Mutation[] {
    const mutations: Mutation[] = [];
    const replace = (kind: MutationKind, replacement: Json) => mutations.push({ kind, path: [], replacement, certain: true });
    if (s.type || s.const !== undefined || s.enum)
      for (const sample of TYPE_SAMPLES) if (this.rejectsOutright(s, sample)) replace("type", sample);
    const values = finiteValues(s);
    if (values) {
      // Same JSON type as the value, outside the set: only the const or enum keyword can fail.
      const candidates: Json[] =
        typeof value === "string" ? [`${value}_`, value.toUpperCase() + "X", ""]
        : typeof value === "number" ? [value + 1, value - 1, value + 0.5]
        : typeof value === "boolean" ? [!value]
        : [];
      const fits = (c: Json) => !values.includes(c as JsonPrimitive) && (!s.type || typeAllows(s.type, c));
      const chosen = candidates.find(fits);
      if (chosen !== undefined) replace(s.const !== undefined ? "const" : "enum", chosen);
    }
    if (typeof value === "number") {
      const integer = s.type?.includes("integer") && !s.type.includes("number");
      if (s.minimum !== undefined) replace("minimum", integer ? Math.ceil(s.minimum) - 1 : s.minimum - 0.5);
      if (s.maximum !== undefined) replace("maximum", integer ? Math.floor(s.maximum) + 1 : s.maximum + 0.25);
    }
    if (typeof value === "string" && s.format === "byte")
      for (const bad of [`${value}A`, `!!!!${value}`, "====", "A===", `AAAA\n${value}`, `${value} `]) replace("format:byte", bad);
    if (typeof value === "string" && s.format === "uri") for (const bad of BAD_URIS) replace("format:uri", bad);
    if (typeof value === "string" && s.format === "uri-template") for (const bad of BAD_URI_TEMPLATES) replace("format:uri-template", bad);
    if (Array.isArray(value) && s.maxItems !== undefined && value.length > 0)
      replace("maxItems", Array.from({ length: s.maxItems + 1 }, (_, i) => value[i % value.length]!));
    return mutations;
  }

  /** A node with `type`, `const`, `enum` and the keywords about one type. */
  private typed(s: Schema, budget: number): fc.Arbitrary<Generated> {
    const leaf = (arbitrary: fc.Arbitrary<Json>) => arbitrary.map((value): Generated => ({ value, mutations: [] }));
    const values = finiteValues(s);
    if (values) {
      const allowed = s.type ? values.filter((v) => typeAllows(s.type!, v)) : values;
      if (allowed.length === 0) throw new Error(`arbitraries: no value of ${s.pointer} satisfies its type`);
      return leaf(fc.constantFrom(...allowed));
    }
    const types: JsonType[] = s.type ? s.type.filter((t) => !(t === "integer" && s.type!.includes("number"))) : ["object", "array", "string", "number", "boolean", "null"];
    const constrained = Object.keys(s).some((k) => k !== "pointer" && k !== "description");
    if (!constrained) return leaf(fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>);
    const byType = types.map((type): fc.Arbitrary<Generated> => {
      switch (type) {
        case "object":
          return this.object(s, budget);
        case "array":
          return this.array(s, budget);
        case "string":
          return leaf(s.format === "byte" ? fc.uint8Array({ maxLength: 24 }).map((b) => Buffer.from(b).toString("base64")) : s.format === "uri" ? uriArbitrary() : s.format === "uri-template" ? uriTemplateArbitrary() : stringArbitrary());
        case "number":
        case "integer":
          return leaf(numberArbitrary(type === "integer", s.minimum, s.maximum));
        case "boolean":
          return leaf(fc.boolean());
        case "null":
          return leaf(fc.constant(null));
      }
    });
    return byType.length === 1 ? byType[0]! : fc.oneof(...byType);
  }

  private object(s: Schema, budget: number): fc.Arbitrary<Generated> {
    const required = new Set(s.required ?? []);
    const declared = new Set((s.properties ?? []).map((p) => p.name));
    const parts: fc.Arbitrary<readonly [string, Generated | typeof ABSENT]>[] = [];
    for (const { name, schema } of s.properties ?? []) {
      const fits = this.depthOf(schema) <= budget;
      if (required.has(name)) parts.push(this.node(schema, budget).map((g) => [name, g] as const));
      else if (fits) parts.push(fc.oneof(fc.constant(ABSENT), this.node(schema, budget)).map((g) => [name, g] as const));
    }
    for (const name of required)
      if (!declared.has(name)) parts.push(fc.jsonValue({ maxDepth: 1 }).map((value) => [name, { value: value as Json, mutations: [] }] as const));

    const additional = s.additionalProperties;
    const extraValue: fc.Arbitrary<Generated> | undefined =
      additional === false ? undefined
      : additional === undefined || isOpen(additional)
        ? fc.jsonValue({ maxDepth: 2 }).map((value) => ({ value: value as Json, mutations: [] }))
        : this.depthOf(additional) <= budget ? this.node(additional, budget)
        : undefined;
    const keyName = fc.oneof(fc.constantFrom(...EXTRA_KEY_NAMES), fc.string({ maxLength: 8 }))
      .filter((k) => !declared.has(k));
    const extras = extraValue && this.extraKeys > 0
      ? fc.uniqueArray(fc.tuple(keyName, extraValue), { maxLength: this.extraKeys, selector: ([k]) => k })
      : fc.constant([] as [string, Generated][]);

    return fc.tuple(fc.tuple(...parts), extras).map(([present, extra]) => {
      const value: Record<string, Json> = {};
      const mutations: Mutation[] = [];
      const put = (key: string, g: Generated) => {
        Object.defineProperty(value, key, { value: g.value, enumerable: true, writable: true, configurable: true });
        for (const m of g.mutations) mutations.push({ ...m, path: [key, ...m.path] });
      };
      for (const [key, g] of present) if (g !== ABSENT) put(key, g);
      for (const [key, g] of extra) put(key, g);
      for (const key of required) mutations.push({ kind: "required", path: [], drop: key, certain: true });
      return { value, mutations };
    });
  }

  private array(s: Schema, budget: number): fc.Arbitrary<Generated> {
    const items = s.items;
    const item: fc.Arbitrary<Generated> =
      items === undefined ? fc.jsonValue({ maxDepth: 1 }).map((value) => ({ value: value as Json, mutations: [] }))
      : this.depthOf(items) <= budget ? this.node(items, budget)
      : fc.constant(undefined as never);
    const fits = items === undefined || this.depthOf(items) <= budget;
    const max = Math.min(s.maxItems ?? Infinity, this.arrayLength);
    const lengths = [fc.array(item, { maxLength: fits ? max : 0 })];
    if (fits && s.maxItems !== undefined && s.maxItems > 0) lengths.push(fc.array(item, { minLength: s.maxItems, maxLength: s.maxItems }));
    return fc.oneof(...lengths).map((elements) => {
      const mutations: Mutation[] = [];
      elements.forEach((g, i) => {
        for (const m of g.mutations) mutations.push({ ...m, path: [i, ...m.path] });
      });
      return { value: elements.map((g) => g.value), mutations };
    });
  }

  private anyOf(s: Schema, budget: number): fc.Arbitrary<Generated> {
    const branches = s.anyOf!;
    const usable = branches.map((b, i) => [b, i] as const).filter(([b]) => this.depthOf(b) <= budget);
    return fc.oneof(
      ...usable.map(([branch, index]) =>
        this.node(branch, budget).map((g): Generated => {
          // What would make each other branch accept the value: undefined when we cannot tell.
          const others = branches.filter((_, i) => i !== index).map((other) => this.rejection(other, g.value, 2));
          const unknown = others.some((r) => r === undefined);
          const touchy = new Set(others.flatMap((r) => (r ? [...r] : [])));
          const mutations = g.mutations.map((m): Mutation => {
            if (!m.certain) return m;
            if (m.path.length === 0 && m.drop === undefined)
              // The branch's own replacement: certain only when every branch rejects it.
              return { ...m, certain: branches.every((b) => this.rejection(b, m.replacement!, 2) !== undefined) };
            const key = m.path.length > 0 ? m.path[0] : m.drop;
            return { ...m, certain: !unknown && !touchy.has(key as string) };
          });
          for (const sample of TYPE_SAMPLES)
            if (branches.every((b) => this.rejectsOutright(b, sample)))
              mutations.push({ kind: "type", path: [], replacement: sample, certain: true });
          return { value: g.value, mutations };
        }),
      ),
    );
  }

  // -- proofs of rejection -----------------------------------------------------------------------

  /** True when `s` rejects `value` by its type, const or enum alone (following refs and unions). */
  private rejectsOutright(s: Schema, value: Json): boolean {
    if (s.ref !== undefined && this.rejectsOutright(this.schemaOf(s.ref), value)) return true;
    if (s.type && !typeAllows(s.type, value)) return true;
    const values = finiteValues(s);
    if (values && !values.includes(value as JsonPrimitive)) return true;
    if (s.anyOf && s.anyOf.every((b) => this.rejectsOutright(b, value))) return true;
    return (s.allOf ?? []).some((b) => this.rejectsOutright(b, value));
  }

  /**
   * Proves that `s` rejects `value`, returning the top-level keys of `value` the proof reads (a
   * mutation that leaves them alone keeps `s` rejecting), or undefined when no proof is found.
   * Reasons: the type/const/enum of the value, a missing required property, a property whose
   * own type/const/enum (followed `depth` levels down) rejects it.
   */
  private rejection(s: Schema, value: Json, depth: number): ReadonlySet<string> | undefined {
    if (this.rejectsOutright(s, value)) return new Set();
    if (s.ref !== undefined) return this.rejection(this.schemaOf(s.ref), value, depth);
    if (s.anyOf) {
      const all = s.anyOf.map((b) => this.rejection(b, value, depth));
      return all.every((r) => r !== undefined) ? new Set(all.flatMap((r) => [...r!])) : undefined;
    }
    for (const b of s.allOf ?? []) {
      const r = this.rejection(b, value, depth);
      if (r) return r;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
    for (const name of s.required ?? []) if (!Object.prototype.hasOwnProperty.call(value, name)) return new Set();
    if (depth === 0) return undefined;
    for (const { name, schema } of s.properties ?? []) {
      if (!Object.prototype.hasOwnProperty.call(value, name)) continue;
      if (this.rejection(schema, value[name]!, depth - 1)) return new Set([name]);
    }
    return undefined;
  }

  // -- allOf ---------------------------------------------------------------------------------------

  /**
   * allOf [A, anyOf [B1, B2], C] as anyOf [allOf [A, B1, C], allOf [A, B2, C]] (ext-tasks writes
   * `Result & DetailedTask` so), or null when no branch (directly or by reference) is a union.
   * One schema object per allOf, so that memoisation keeps working.
   */
  private distributeAnyOf(s: Schema): Schema | null {
    const cached = this.distributed.get(s);
    if (cached !== undefined) return cached;
    // The allOf's leaves: nested allOfs and references followed, as mergeAllOf reads them.
    const leaves: Schema[] = [];
    const flatten = (b: Schema) => {
      if (b.allOf) b.allOf.forEach(flatten);
      if (b.ref !== undefined) flatten(this.schemaOf(b.ref));
      const { allOf: _a, ref: _r, ...rest } = b;
      leaves.push(rest);
    };
    s.allOf!.forEach(flatten);
    const at = leaves.findIndex((leaf) => leaf.anyOf !== undefined);
    let result: Schema | null = null;
    if (at >= 0) {
      const { anyOf, ...beside } = leaves[at]!;
      const { allOf: _a, ...rest } = s;
      result = {
        ...rest,
        anyOf: anyOf!.map((branch, i) => ({
          pointer: `${s.pointer}(branch ${i})`,
          allOf: leaves.map((leaf, j) => (j === at ? { ...beside, allOf: [branch] } : leaf)),
        })),
      };
    }
    this.distributed.set(s, result);
    return result;
  }

  /**
   * The branches of an allOf as one schema, for generation: references followed, types
   * intersected, const/enum/range/format combined, properties and required names united. A
   * property several branches declare (or one declares and another constrains through
   * additionalProperties) gets the allOf of those schemas, merged in turn. Extra keys are
   * generated only when every branch leaves them unconstrained.
   */
  private mergeAllOf(s: Schema): Schema {
    const cached = this.merged.get(s);
    if (cached) return cached;
    const flat: Schema[] = [];
    const flatten = (b: Schema) => {
      if (b.allOf) b.allOf.forEach(flatten);
      if (b.ref !== undefined) flatten(this.schemaOf(b.ref));
      if (b.anyOf) throw new Error(`arbitraries: anyOf inside allOf is not supported (${b.pointer})`);
      const { allOf: _a, ref: _r, ...rest } = b;
      flat.push(rest);
    };
    s.allOf!.forEach(flatten);
    const merged: { -readonly [K in keyof Schema]: Schema[K] } = { pointer: s.pointer };
    for (const b of flat) {
      if (b.type) merged.type = merged.type ? intersectTypes(merged.type, b.type) : [...b.type];
      if (b.const !== undefined) {
        if (merged.const !== undefined && merged.const !== b.const) throw new Error(`arbitraries: contradictory allOf at ${s.pointer}`);
        merged.const = b.const;
      }
      if (b.enum) merged.enum = merged.enum ? merged.enum.filter((v) => b.enum!.includes(v)) : b.enum;
      if (b.minimum !== undefined) merged.minimum = Math.max(merged.minimum ?? -Infinity, b.minimum);
      if (b.maximum !== undefined) merged.maximum = Math.min(merged.maximum ?? Infinity, b.maximum);
      if (b.maxItems !== undefined) merged.maxItems = Math.min(merged.maxItems ?? Infinity, b.maxItems);
      if (b.format) {
        if (merged.format && merged.format !== b.format) throw new Error(`arbitraries: two formats at ${s.pointer}`);
        merged.format = b.format;
      }
    }
    const items = flat.flatMap((b) => (b.items ? [b.items] : []));
    if (items.length > 0) merged.items = items.length === 1 ? items[0] : { pointer: `${s.pointer}(merged items)`, allOf: items };
    const constrainedAdditional = (b: Schema) => b.additionalProperties === false || (b.additionalProperties !== undefined && !isOpen(b.additionalProperties));
    const names = [...new Set(flat.flatMap((b) => (b.properties ?? []).map((p) => p.name)))];
    if (names.length > 0)
      merged.properties = names.map((name) => {
        const schemas = flat.flatMap((b): Schema[] => {
          const own = b.properties?.find((p) => p.name === name)?.schema;
          if (own) return [own];
          if (b.additionalProperties === false) throw new Error(`arbitraries: closed object in allOf at ${b.pointer}`);
          return constrainedAdditional(b) ? [b.additionalProperties as Schema] : [];
        });
        return { name, schema: schemas.length === 1 ? schemas[0]! : { pointer: `${s.pointer}(merged ${name})`, allOf: schemas } };
      });
    const required = [...new Set(flat.flatMap((b) => b.required ?? []))];
    if (required.length > 0) merged.required = required;
    if (flat.some(constrainedAdditional)) merged.additionalProperties = false;
    this.merged.set(s, merged);
    return merged;
  }
}
