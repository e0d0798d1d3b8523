import { hasUniqueItems, isMultipleOf, jsonEqual, stringLength } from "../support/validation.js";
import { compileCheck, emitCheck, type CodeCheck } from "./code.js";
import { FORMATS } from "./formats.js";
import { SchemaIndex, dialectOfSchema, type Dialect, type Located } from "./index.js";
import type { SchemaIssue } from "./issue.js";
import { escapePointerToken, resolveUri, withoutFragment } from "./uri.js";

/**
 * A JSON Schema compiler (draft-07 and 2020-12, every keyword of both) to closures: no code is
 * generated from strings, so it runs where `new Function` is forbidden (Workers); code.ts adds a
 * code mode, both checks as JavaScript, where it is allowed. Each schema
 * node becomes one function; keywords become closures over their compiled sub-schemas.
 *
 * Annotations (`unevaluatedProperties`, `unevaluatedItems`) are tracked only in documents that
 * use those keywords: a validator there carries an `Evaluated` record, filled by the keywords and
 * by the in-place applicators whose sub-schema passed (2020-12 core section 11.2).
 */

export type { SchemaIssue };

export interface CompileOptions {
  /** The dialect of a schema whose `$schema` names none. Default 2020-12. */
  readonly dialect?: Dialect;
  /** Other documents `$ref` may name, by URI. Nothing is ever fetched. */
  readonly remotes?: Readonly<Record<string, unknown>>;
  /** "annotation" (default): `format` checks nothing; "assert": the formats of formats.ts are checked, others stay annotations. */
  readonly formats?: "annotation" | "assert";
  /**
   * "closures" (default): no code generation. "code": `is` and `check` are emitted as
   * JavaScript and compiled with `new Function` (code.ts; closures where that throws an
   * EvalError), except in documents with `$dynamicRef` or without the validation vocabulary.
   */
  readonly mode?: "closures" | "code";
}

export interface CompiledValidator {
  /** How `is` and `check` run: generated code, or closures (asked for, or code mode unavailable for this document or platform). */
  readonly mode: "code" | "closures";
  is(value: unknown): boolean;
  check(value: unknown): SchemaIssue[];
}

/** Why a schema cannot be compiled, with the JSON Pointer (fragment) of the offending place. */
export class SchemaCompileError extends Error {
  constructor(
    readonly schemaPath: string,
    reason: string,
  ) {
    super(`${schemaPath}: ${reason}`);
    this.name = "SchemaCompileError";
  }
}

/** What a node's keywords evaluated: `true` is everything; a set is made only when a first member is added (most records stay empty). */
interface Evaluated {
  props: Set<string> | true | null;
  items: number;
  itemSet: Set<number> | true | null;
}

/** The dynamic scope: the resources evaluation has entered, innermost first. */
interface Scope {
  readonly uri: string;
  readonly outer: Scope | null;
}

type Validate = (value: unknown, path: string, issues: SchemaIssue[] | null, ev: Evaluated | null, scope: Scope | null) => boolean;

const fresh = (): Evaluated => ({ props: null, items: 0, itemSet: null });

function merge(into: Evaluated, from: Evaluated): void {
  into.props = union(into.props, from.props);
  into.items = Math.max(into.items, from.items);
  into.itemSet = union(into.itemSet, from.itemSet);
}

function union<T>(into: Set<T> | true | null, from: Set<T> | true | null): Set<T> | true | null {
  if (into === true || from === null) return into;
  if (from === true) return true;
  if (into === null) return new Set(from);
  from.forEach((x) => into.add(x));
  return into;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The JSON types as bits: a node's `type` is one mask test, not a closure per type. */
const NULL = 1, BOOLEAN = 2, OBJECT = 4, ARRAY = 8, STRING = 16, NUMBER = 32, INTEGER = 64;
const TYPE_BITS: Readonly<Record<string, number>> = { null: NULL, boolean: BOOLEAN, object: OBJECT, array: ARRAY, string: STRING, number: NUMBER, integer: INTEGER };

/** The types of a value (an integer is also a number, 1.0 included; a non-finite number is neither). */
function typeBits(v: unknown): number {
  switch (typeof v) {
    case "string":
      return STRING;
    case "number":
      return Number.isInteger(v) ? NUMBER | INTEGER : Number.isFinite(v) ? NUMBER : 0;
    case "boolean":
      return BOOLEAN;
    case "object":
      return v === null ? NULL : Array.isArray(v) ? ARRAY : OBJECT;
    default:
      return 0;
  }
}

/** The mask of a `type` keyword (a name or a list of names); 0 when there is none. */
function typeMask(type: unknown): number {
  if (type === undefined) return 0;
  return (Array.isArray(type) ? (type as string[]) : [type as string]).reduce((mask, t) => mask | TYPE_BITS[t]!, 0);
}

const own = (object: object, key: string) => Object.prototype.hasOwnProperty.call(object, key);

export function compileSchema(schema: unknown, options: CompileOptions = {}): CompiledValidator {
  const index = new SchemaIndex(options.remotes ?? {}, options.dialect ?? "2020-12");
  const root = index.add(schema);
  const tracking = usesUnevaluated(schema) || Object.values(options.remotes ?? {}).some(usesUnevaluated);
  const dynamic = uses(schema, '"$dynamicRef"') || Object.values(options.remotes ?? {}).some((remote) => uses(remote, '"$dynamicRef"'));
  const compiler = new Compiler(index, tracking, dynamic, options.formats ?? "annotation", validationVocabulary(schema, options.remotes ?? {}));
  const validate = compiler.node(root);
  compiler.finish();
  // The dynamic scope is kept only where a $dynamicRef reads it.
  const start: Scope | null = dynamic ? { uri: root.base, outer: null } : null;
  // Code mode keeps no dynamic scope: not for documents that reach a $dynamicRef.
  const code = options.mode === "code" && !compiler.readsDynamicScope && compiler.validation;
  // No annotations at the root: nothing reads them; each unevaluated* keyword collects its own.
  const closures = (value: unknown) => validate(value, "", null, null, start);
  const generated = code ? generate(root, index, tracking, options.formats === "assert") : undefined;
  if (generated) return { mode: "code", ...generated };
  // `check` is for values with issues: the root's boolean check would only fail first.
  const collect = FAST.get(validate)?.general ?? validate;
  return {
    mode: "closures",
    is: closures,
    check: (value) => {
      const issues: SchemaIssue[] = [];
      collect(value, "", issues, null, start);
      return issues;
    },
  };
}

/** Both checks in code mode; undefined where the platform refuses `new Function` (an EvalError, as under a CSP). */
function generate(root: Located, index: SchemaIndex, tracking: boolean, assertFormats: boolean): CodeCheck | undefined {
  const emitted = emitCheck(root, { index, assertFormats, tracking, pattern: (source) => pattern(source, "") });
  try {
    return compileCheck(emitted);
  } catch (error) {
    if (error instanceof EvalError) return undefined;
    throw error;
  }
}

const VALIDATION_VOCABULARY = "https://json-schema.org/draft/2020-12/vocab/validation";

/**
 * False when the schema's `$schema` is a supplied meta-schema whose `$vocabulary` leaves out the
 * validation vocabulary (2020-12 core section 8.1.2): then type, enum, minimum, required and the
 * rest of that vocabulary are not checked.
 */
function validationVocabulary(schema: unknown, remotes: Readonly<Record<string, unknown>>): boolean {
  const uri = isObject(schema) && typeof schema.$schema === "string" ? withoutFragment(schema.$schema) : undefined;
  const meta = uri === undefined ? undefined : remotes[uri] ?? remotes[`${uri}#`];
  const vocabulary = isObject(meta) ? meta.$vocabulary : undefined;
  return !isObject(vocabulary) || own(vocabulary, VALIDATION_VOCABULARY);
}

function usesUnevaluated(schema: unknown): boolean {
  return uses(schema, '"unevaluated');
}

function uses(schema: unknown, text: string): boolean {
  return JSON.stringify(schema ?? null).includes(text);
}

class Compiler {
  private readonly compiled = new Map<unknown, Validate>();
  /** A $dynamicRef was compiled: the document needs the dynamic scope. */
  readsDynamicScope = false;
  private readonly pending: (() => void)[] = [];

  constructor(
    private readonly index: SchemaIndex,
    private readonly tracking: boolean,
    private readonly dynamic: boolean,
    private readonly formats: "annotation" | "assert",
    readonly validation: boolean,
  ) {}

  /** Resolves every reference found while compiling: an unresolvable one is an error now, not at the first call. */
  finish(): void {
    while (this.pending.length > 0) this.pending.pop()!();
  }

  node(at: Located): Validate {
    const key = typeof at.schema === "object" && at.schema !== null ? at.schema : at;
    const known = this.compiled.get(key);
    if (known) return known;
    let body: Validate | undefined;
    const forward: Validate = (v, p, i, e, s) => body!(v, p, i, e, s);
    this.compiled.set(key, forward);
    body = this.build(at);
    this.compiled.set(key, body);
    return body;
  }

  private child(parent: Located, schema: unknown, ...tokens: (string | number)[]): Validate {
    return this.node(this.index.child(parent, schema, ...tokens));
  }

  private build(at: Located): Validate {
    const { schema, location } = at;
    if (schema === true) return () => true;
    if (schema === false)
      return (_v, path, issues) => {
        issues?.push({ path, schemaPath: location, keyword: "false schema", message: "boolean schema is false" });
        return false;
      };
    if (!isObject(schema)) throw new SchemaCompileError(location, `a schema must be an object or a boolean, found ${JSON.stringify(schema)}`);
    const dialect = dialectOfSchema(schema) ?? at.dialect;
    const s = schema;
    checkShapes(s, location);
    // draft-07 section 8.3: every other keyword beside $ref is ignored.
    if (typeof s.$ref === "string" && dialect === "draft-07") return this.sequence([this.reference(at, s.$ref)], at);
    const general = this.sequence(this.keywords(at, s, dialect), at);
    if (!this.validation) return general;
    if (isLeaf(s)) return leaf(s, general, this.formats === "assert");
    return this.dynamic ? general : this.objectNode(at, s, dialect, general) ?? this.arrayNode(at, s, dialect, general) ?? general;
  }

  /** The keywords of a node, each a closure, in the order they must run. */
  private keywords(at: Located, s: Record<string, unknown>, dialect: Dialect): Validate[] {
    const keywords: Validate[] = [];
    const fail = (keyword: string, message: string) => {
      const schemaPath = `${at.location}/${keyword}`;
      return (path: string, issues: SchemaIssue[] | null) => {
        issues?.push({ path, schemaPath, keyword, message });
        return false;
      };
    };
    if (typeof s.$ref === "string") keywords.push(this.reference(at, s.$ref));
    if (dialect === "2020-12" && typeof s.$dynamicRef === "string") keywords.push(this.dynamicReference(at, s.$dynamicRef));
    this.typeKeywords(at, s, keywords, fail);
    this.applicators(at, s, dialect, keywords);
    this.objectKeywords(at, s, dialect, keywords, fail);
    this.arrayKeywords(at, s, dialect, keywords, fail);
    // Last: they read the annotations of every other keyword of the node.
    if (dialect === "2020-12") this.unevaluated(at, s, keywords, fail);
    return keywords;
  }

  /**
   * An object node (`type`, `required`, `properties`, `additionalProperties`, the most common
   * shape of a tool schema and its nested objects) as one function for a boolean check: a loop
   * over a precomputed table of properties, no path strings, no closure per keyword; the node's
   * other keywords follow as closures.
   */
  private objectNode(at: Located, s: Record<string, unknown>, dialect: Dialect, general: Validate): Validate | undefined {
    if (!isObject(s.properties) && !Array.isArray(s.required)) return undefined;
    if (own(s, "unevaluatedProperties") || own(s, "unevaluatedItems")) return undefined;
    // patternProperties decides which properties are additional: then all three stay closures.
    const fused = own(s, "patternProperties") ? ["type", "required"] : ["type", "required", "properties", "additionalProperties"];
    const rest: Record<string, unknown> = { ...s };
    for (const keyword of fused) delete rest[keyword];
    const others = this.keywords(at, rest, dialect);
    const types = typeMask(s.type);
    const required = Array.isArray(s.required) ? (s.required as string[]).map((name) => ({ name, inherited: name in Object.prototype })) : [];
    const properties = fused.includes("properties") && isObject(s.properties) ? Object.entries(s.properties).map(([name, sub]) => ({ name, inherited: name in Object.prototype, validate: this.child(at, sub, "properties", name) })) : [];
    const additional = fused.includes("additionalProperties") && own(s, "additionalProperties") ? (s.additionalProperties === false ? false : this.child(at, s.additionalProperties, "additionalProperties")) : undefined;
    const known = new Set(properties.map((x) => x.name));
    return fastPath(general, true, (value, sc) => {
      const bits = typeBits(value);
      if (types !== 0 && (bits & types) === 0) return false;
      if (bits === OBJECT) {
        const v = value as Record<string, unknown>;
        for (let k = 0; k < required.length; k++) {
          const { name, inherited } = required[k]!;
          if (inherited ? !own(v, name) : v[name] === undefined) return false;
        }
        for (let k = 0; k < properties.length; k++) {
          const { name, inherited, validate } = properties[k]!;
          // JSON holds no undefined: a read decides presence, except for names the prototype has.
          const item = v[name];
          if (item === undefined || (inherited && !own(v, name))) continue;
          if (!validate(item, "", null, null, sc)) return false;
        }
        if (additional !== undefined)
          for (const key in v) if (!known.has(key) && (additional === false || !additional(v[key], "", null, null, sc))) return false;
      }
      for (let k = 0; k < others.length; k++) if (!others[k]!(value, "", null, null, sc)) return false;
      return true;
    });
  }

  /** All keywords of a node: in a boolean check the first failure decides, unless annotations are being collected. */
  private sequence(keywords: readonly Validate[], at: Located): Validate {
    const resource = at.base;
    if (keywords.length === 0) return () => true;
    // Without $dynamicRef nothing reads the scope: no resource is entered.
    const enter = this.dynamic ? (scope: Scope | null): Scope | null => (scope && scope.uri !== resource ? { uri: resource, outer: scope } : scope ?? { uri: resource, outer: null }) : undefined;
    if (keywords.length === 1) {
      const [only] = keywords;
      return enter ? (v, p, i, e, s) => only!(v, p, i, e, enter(s)) : only!;
    }
    return (value, path, issues, ev, scope) => {
      const inner = enter ? enter(scope) : scope;
      let valid = true;
      for (let k = 0; k < keywords.length; k++) {
        if (!keywords[k]!(value, path, issues, ev, inner)) {
          valid = false;
          if (!issues && !ev) return false;
        }
      }
      return valid;
    };
  }

  private reference(at: Located, ref: string): Validate {
    let target: Validate | undefined;
    let slot: Slot | undefined;
    const resolveTarget = () => {
      const found = this.index.resolve(ref, at.base);
      if (!found) throw new SchemaCompileError(`${at.location}/$ref`, `cannot resolve $ref ${JSON.stringify(ref)} (${resolveUri(ref, at.base)}): no such schema in the document or in the supplied remotes (nothing is fetched)`);
      target = this.node(found);
      slot = FAST.get(target);
    };
    this.pending.push(() => target ?? resolveTarget());
    return (v, p, i, e, s) => {
      if (!target) resolveTarget();
      // A boolean check goes straight to the target's fast path (read at each call: code mode replaces it).
      if (i === null && e === null && slot !== undefined) return slot.fast(v, s);
      return inPlace(target!, v, p, i, e, s);
    };
  }

  private dynamicReference(at: Located, ref: string): Validate {
    this.readsDynamicScope = true;
    const found = this.index.resolve(ref, at.base);
    if (!found) throw new SchemaCompileError(`${at.location}/$dynamicRef`, `cannot resolve $dynamicRef ${JSON.stringify(ref)}: no such schema in the document or in the supplied remotes (nothing is fetched)`);
    const initial = this.node(found);
    const hash = ref.indexOf("#");
    const name = hash === -1 ? "" : ref.slice(hash + 1);
    // Dynamic only when the fragment is an anchor name and the initial target declares it as a $dynamicAnchor (2020-12 core 8.2.3.2).
    const dynamic = /^[A-Za-z_][-A-Za-z0-9._]*$/.test(name) && isObject(found.schema) && found.schema.$dynamicAnchor === name;
    if (!dynamic) return initial;
    const byResource = new Map<string, Validate>();
    return (value, path, issues, ev, scope) => {
      const chain: string[] = [];
      for (let s = scope; s; s = s.outer) chain.push(s.uri);
      for (let i = chain.length - 1; i >= 0; i--) {
        const uri = chain[i]!;
        if (!this.index.hasDynamicAnchor(uri, name)) continue;
        let target = byResource.get(uri);
        if (!target) {
          const located = this.index.resolve(`#${name}`, uri)!;
          byResource.set(uri, (target = this.node(located)));
        }
        return target(value, path, issues, ev, scope);
      }
      return initial(value, path, issues, ev, scope);
    };
  }

  private typeKeywords(at: Located, s: Record<string, unknown>, out: Validate[], fail: (k: string, m: string) => (p: string, i: SchemaIssue[] | null) => boolean): void {
    this.format(s, out, fail);
    if (!this.validation) return;
    if (s.type !== undefined) {
      const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
      const f = fail("type", `must be ${types.join(",")}`);
      const mask = typeMask(s.type);
      out.push((v, p, i) => (typeBits(v) & mask) !== 0 || f(p, i));
    }
    if (own(s, "const")) {
      const expected = s.const;
      const f = fail("const", `must be ${JSON.stringify(expected)}`);
      out.push((v, p, i) => jsonEqual(v, expected) || f(p, i));
    }
    if (Array.isArray(s.enum)) {
      const values = s.enum as unknown[];
      const f = fail("enum", `must be one of ${values.map((x) => JSON.stringify(x)).join(", ")}`);
      out.push((v, p, i) => values.some((x) => jsonEqual(v, x)) || f(p, i));
    }
    const number = (keyword: string, test: (v: number, limit: number) => boolean, message: (limit: number) => string) => {
      const limit = s[keyword];
      if (typeof limit !== "number") return;
      const f = fail(keyword, message(limit));
      out.push((v, p, i) => typeof v !== "number" || test(v, limit) || f(p, i));
    };
    number("minimum", (v, l) => v >= l, (l) => `must be >= ${l}`);
    number("maximum", (v, l) => v <= l, (l) => `must be <= ${l}`);
    number("exclusiveMinimum", (v, l) => v > l, (l) => `must be > ${l}`);
    number("exclusiveMaximum", (v, l) => v < l, (l) => `must be < ${l}`);
    number("multipleOf", isMultipleOf, (l) => `must be multiple of ${l}`);
    const string = (keyword: string, test: (v: string, limit: number) => boolean, message: (limit: number) => string) => {
      const limit = s[keyword];
      if (typeof limit !== "number") return;
      const f = fail(keyword, message(limit));
      out.push((v, p, i) => typeof v !== "string" || test(v, limit) || f(p, i));
    };
    // A code point is one or two UTF-16 units: the unit count alone often decides.
    string("minLength", (v, l) => v.length >= 2 * l || (v.length >= l && stringLength(v) >= l), (l) => `must NOT have fewer than ${l} characters`);
    string("maxLength", (v, l) => v.length <= l || stringLength(v) <= l, (l) => `must NOT have more than ${l} characters`);
    if (typeof s.pattern === "string") {
      const regex = pattern(s.pattern, `${at.location}/pattern`);
      const f = fail("pattern", `must match pattern ${JSON.stringify(s.pattern)}`);
      out.push((v, p, i) => typeof v !== "string" || regex.test(v) || f(p, i));
    }
  }

  private format(s: Record<string, unknown>, out: Validate[], fail: (k: string, m: string) => (p: string, i: SchemaIssue[] | null) => boolean): void {
    if (typeof s.format === "string" && this.formats === "assert") {
      const check = FORMATS[s.format];
      const f = fail("format", `must match format "${s.format}"`);
      if (check) out.push((v, p, i) => typeof v !== "string" || check(v) || f(p, i));
    }
  }

  private applicators(at: Located, s: Record<string, unknown>, dialect: Dialect, out: Validate[]): void {
    const tracking = this.tracking;
    if (Array.isArray(s.allOf)) {
      const branches = s.allOf.map((b, n) => this.child(at, b, "allOf", n));
      out.push((v, p, i, e, sc) => {
        let valid = true;
        for (const b of branches) if (!inPlace(b, v, p, i, e, sc)) {
          valid = false;
          if (!i && !e) return false;
        }
        return valid;
      });
    }
    if (Array.isArray(s.anyOf)) {
      const branches = s.anyOf.map((b, n) => this.child(at, b, "anyOf", n));
      const schemaPath = `${at.location}/anyOf`;
      out.push((v, p, i, e, sc) => {
        let valid = false;
        for (const b of branches) {
          const local = e ? fresh() : null;
          if (b(v, p, null, local, sc)) {
            valid = true;
            if (!e) break;
            merge(e, local!);
          }
        }
        if (!valid && i) {
          // As ajv does: each branch's own issues, then the summary, so a message names the field.
          for (const b of branches) b(v, p, i, null, sc);
          i.push({ path: p, schemaPath, keyword: "anyOf", message: "must match a schema in anyOf" });
        }
        return valid;
      });
    }
    if (Array.isArray(s.oneOf)) {
      const branches = s.oneOf.map((b, n) => this.child(at, b, "oneOf", n));
      const schemaPath = `${at.location}/oneOf`;
      out.push((v, p, i, e, sc) => {
        let passed = 0;
        let annotations: Evaluated | null = null;
        for (const b of branches) {
          const local = e ? fresh() : null;
          if (b(v, p, null, local, sc)) {
            passed++;
            annotations = local;
            if (passed > 1) break;
          }
        }
        if (passed === 1) {
          if (e && annotations) merge(e, annotations);
          return true;
        }
        if (i) {
          if (passed === 0) for (const b of branches) b(v, p, i, null, sc);
          i.push({ path: p, schemaPath, keyword: "oneOf", message: "must match exactly one schema in oneOf" });
        }
        return false;
      });
    }
    if (own(s, "not")) {
      const branch = this.child(at, s.not, "not");
      const schemaPath = `${at.location}/not`;
      out.push((v, p, i, _e, sc) => {
        if (!branch(v, p, null, null, sc)) return true;
        i?.push({ path: p, schemaPath, keyword: "not", message: "must NOT be valid" });
        return false;
      });
    }
    if (own(s, "if") && (own(s, "then") || own(s, "else"))) {
      const test = this.child(at, s.if, "if");
      const then = own(s, "then") ? this.child(at, s.then, "then") : undefined;
      const otherwise = own(s, "else") ? this.child(at, s.else, "else") : undefined;
      out.push((v, p, i, e, sc) => {
        const local = e ? fresh() : null;
        const passed = test(v, p, null, local, sc);
        if (passed && e) merge(e, local!);
        const branch = passed ? then : otherwise;
        if (!branch) return true;
        const before = i?.length ?? 0;
        if (inPlace(branch, v, p, i, e, sc)) return true;
        const keyword = passed ? "then" : "else";
        i?.splice(before, 0, { path: p, schemaPath: `${at.location}/${keyword}`, keyword, message: `must match "${keyword}" schema` });
        return false;
      });
    } else if (own(s, "if") && tracking) {
      // `if` alone validates nothing, but its annotations still count when it passes.
      const test = this.child(at, s.if, "if");
      out.push((v, p, _i, e, sc) => {
        if (!e) return true;
        const local = fresh();
        if (test(v, p, null, local, sc)) merge(e, local);
        return true;
      });
    }
    const dependent = dialect === "2020-12" ? s.dependentSchemas : undefined;
    const dependencies = dialect === "draft-07" ? s.dependencies : undefined;
    for (const [keyword, map] of [["dependentSchemas", dependent], ["dependencies", dependencies]] as const) {
      if (!isObject(map)) continue;
      for (const [name, sub] of Object.entries(map)) {
        if (Array.isArray(sub)) {
          const names = sub as string[];
          out.push(this.requiredIf(at, keyword, name, names));
          continue;
        }
        const branch = this.child(at, sub, keyword, name);
        out.push((v, p, i, e, sc) => !isObject(v) || !own(v, name) || inPlace(branch, v, p, i, e, sc));
      }
    }
  }

  private requiredIf(at: Located, keyword: string, name: string, names: readonly string[]): Validate {
    const schemaPath = `${at.location}/${keyword}/${escapePointerToken(name)}`;
    return (v, p, i) => {
      if (!isObject(v) || !own(v, name)) return true;
      let valid = true;
      for (const n of names)
        if (!own(v, n)) {
          valid = false;
          if (!i) return false;
          i.push({ path: p, schemaPath, keyword, message: `must have property '${n}' when property '${name}' is present` });
        }
      return valid;
    };
  }

  private objectKeywords(at: Located, s: Record<string, unknown>, dialect: Dialect, out: Validate[], fail: (k: string, m: string) => (p: string, i: SchemaIssue[] | null) => boolean): void {
    if (this.validation) this.objectCounts(at, s, dialect, out, fail);
    this.objectApplicators(at, s, out);
  }

  private objectCounts(at: Located, s: Record<string, unknown>, dialect: Dialect, out: Validate[], fail: (k: string, m: string) => (p: string, i: SchemaIssue[] | null) => boolean): void {
    if (Array.isArray(s.required)) {
      const names = (s.required as string[]).map((name) => ({ name, inherited: name in Object.prototype }));
      const schemaPath = `${at.location}/required`;
      out.push((v, p, i) => {
        if (!isObject(v)) return true;
        let valid = true;
        // JSON holds no undefined: a read decides presence, except for names the prototype has.
        for (const { name: n, inherited } of names)
          if (inherited ? !own(v, n) : v[n] === undefined) {
            valid = false;
            if (!i) return false;
            i.push({ path: p, schemaPath, keyword: "required", message: `must have required property '${n}'` });
          }
        return valid;
      });
    }
    if (dialect === "2020-12" && isObject(s.dependentRequired))
      for (const [name, names] of Object.entries(s.dependentRequired)) if (Array.isArray(names)) out.push(this.requiredIf(at, "dependentRequired", name, names as string[]));
    const count = (keyword: string, test: (n: number, l: number) => boolean, message: (l: number) => string) => {
      const limit = s[keyword];
      if (typeof limit !== "number") return;
      const f = fail(keyword, message(limit));
      out.push((v, p, i) => !isObject(v) || test(Object.keys(v).length, limit) || f(p, i));
    };
    count("minProperties", (n, l) => n >= l, (l) => `must NOT have fewer than ${l} properties`);
    count("maxProperties", (n, l) => n <= l, (l) => `must NOT have more than ${l} properties`);
  }

  private objectApplicators(at: Located, s: Record<string, unknown>, out: Validate[]): void {
    if (own(s, "propertyNames")) {
      const names = this.child(at, s.propertyNames, "propertyNames");
      const schemaPath = `${at.location}/propertyNames`;
      out.push((v, p, i, _e, sc) => {
        if (!isObject(v)) return true;
        let valid = true;
        for (const key of Object.keys(v))
          if (!names(key, p, null, null, sc)) {
            valid = false;
            if (!i) return false;
            i.push({ path: p, schemaPath, keyword: "propertyNames", message: `property name '${key}' is invalid` });
          }
        return valid;
      });
    }
    const properties = isObject(s.properties)
      ? Object.entries(s.properties).map(([name, sub]) => ({ name, inherited: name in Object.prototype, token: `/${escapePointerToken(name)}`, validate: this.child(at, sub, "properties", name) }))
      : [];
    const patterns = isObject(s.patternProperties)
      ? Object.entries(s.patternProperties).map(([source, sub]) => ({ regex: pattern(source, `${at.location}/patternProperties`), validate: this.child(at, sub, "patternProperties", source) }))
      : [];
    const additional = own(s, "additionalProperties") ? this.child(at, s.additionalProperties, "additionalProperties") : undefined;
    if (properties.length === 0 && patterns.length === 0 && !additional) return;
    const known = new Set(properties.map((x) => x.name));
    const additionalPath = `${at.location}/additionalProperties`;
    const refusesAll = s.additionalProperties === false;
    out.push((v, path, issues, ev, scope) => {
      if (!isObject(v)) return true;
      let valid = true;
      const mark = ev && ev.props !== true ? (ev.props ?? (ev.props = new Set<string>())) : null;
      for (let k = 0; k < properties.length; k++) {
        const { name, inherited, token, validate } = properties[k]!;
        // JSON holds no undefined: a read decides presence, except for names the prototype has.
        const item = v[name];
        if (item === undefined || (inherited && !own(v, name))) continue;
        mark?.add(name);
        // A valid property costs a boolean check: its path is built only when it has issues.
        if (!validate(item, "", null, null, scope) && (!issues || !validate(item, path + token, issues, null, scope))) {
          valid = false;
          if (!issues && !ev) return false;
        }
      }
      if (patterns.length === 0 && !additional) return valid;
      for (const key in v) {
        let matched = known.has(key);
        for (const { regex, validate } of patterns) {
          if (!regex.test(key)) continue;
          matched = true;
          mark?.add(key);
          if (!part(validate, v[key], path, key, issues, scope)) {
            valid = false;
            if (!issues && !ev) return false;
          }
        }
        if (matched || !additional) continue;
        mark?.add(key);
        if (refusesAll) {
          valid = false;
          if (!issues) return false;
          issues.push({ path: pointer(path, key), schemaPath: additionalPath, keyword: "additionalProperties", message: "must NOT have additional properties" });
        } else if (!part(additional, v[key], path, key, issues, scope)) {
          valid = false;
          if (!issues && !ev) return false;
        }
      }
      return valid;
    });
  }

  /** The positional schemas and the one for the rest: prefixItems + items (2020-12), items[] + additionalItems (draft-07). */
  private positional(at: Located, s: Record<string, unknown>, dialect: Dialect): { prefix: Validate[]; rest: Validate | undefined; restKeyword: string; restIsFalse: boolean } {
    let prefix: Validate[] = [];
    let rest: Validate | undefined;
    let restKeyword = "items";
    if (dialect === "2020-12") {
      if (Array.isArray(s.prefixItems)) prefix = s.prefixItems.map((b, n) => this.child(at, b, "prefixItems", n));
      if (own(s, "items")) rest = this.child(at, s.items, "items");
    } else if (Array.isArray(s.items)) {
      prefix = s.items.map((b, n) => this.child(at, b, "items", n));
      if (own(s, "additionalItems")) {
        rest = this.child(at, s.additionalItems, "additionalItems");
        restKeyword = "additionalItems";
      }
    } else if (own(s, "items")) rest = this.child(at, s.items, "items");
    return { prefix, rest, restKeyword, restIsFalse: (restKeyword === "items" ? s.items : s.additionalItems) === false };
  }

  /**
   * An array node (`type`, `minItems`, `maxItems`, `uniqueItems` and the positional keywords) as
   * one function for a boolean check, as `objectNode` does for objects; the node's other keywords
   * follow as closures.
   */
  private arrayNode(at: Located, s: Record<string, unknown>, dialect: Dialect, general: Validate): Validate | undefined {
    const positional = dialect === "2020-12" ? ["type", "minItems", "maxItems", "uniqueItems", "prefixItems", "items"] : ["type", "minItems", "maxItems", "uniqueItems", "items", "additionalItems"];
    if (!own(s, "items") && !own(s, "prefixItems")) return undefined;
    if (own(s, "unevaluatedProperties") || own(s, "unevaluatedItems")) return undefined;
    const others = this.keywords(at, Object.fromEntries(Object.entries(s).filter(([keyword]) => !positional.includes(keyword))), dialect);
    const types = typeMask(s.type);
    const min = typeof s.minItems === "number" ? s.minItems : 0;
    const max = typeof s.maxItems === "number" ? s.maxItems : Infinity;
    const unique = s.uniqueItems === true;
    const { prefix, rest, restIsFalse } = this.positional(at, s, dialect);
    return fastPath(general, true, (value, sc) => {
      if (types !== 0 && (typeBits(value) & types) === 0) return false;
      if (Array.isArray(value)) {
        if (value.length < min || value.length > max || (unique && !hasUniqueItems(value))) return false;
        const n = Math.min(prefix.length, value.length);
        for (let k = 0; k < n; k++) if (!prefix[k]!(value[k], "", null, null, sc)) return false;
        if (rest !== undefined && value.length > prefix.length) {
          if (restIsFalse) return false;
          for (let k = prefix.length; k < value.length; k++) if (!rest(value[k], "", null, null, sc)) return false;
        }
      }
      for (let k = 0; k < others.length; k++) if (!others[k]!(value, "", null, null, sc)) return false;
      return true;
    });
  }

  private arrayKeywords(at: Located, s: Record<string, unknown>, dialect: Dialect, out: Validate[], fail: (k: string, m: string) => (p: string, i: SchemaIssue[] | null) => boolean): void {
    const length = (keyword: string, test: (n: number, l: number) => boolean, message: (l: number) => string) => {
      const limit = s[keyword];
      if (typeof limit !== "number") return;
      const f = fail(keyword, message(limit));
      if (this.validation) out.push((v, p, i) => !Array.isArray(v) || test(v.length, limit) || f(p, i));
    };
    length("minItems", (n, l) => n >= l, (l) => `must NOT have fewer than ${l} items`);
    length("maxItems", (n, l) => n <= l, (l) => `must NOT have more than ${l} items`);
    if (s.uniqueItems === true && this.validation) {
      const f = fail("uniqueItems", "must NOT have duplicate items");
      out.push((v, p, i) => !Array.isArray(v) || hasUniqueItems(v) || f(p, i));
    }
    const { prefix, rest, restKeyword, restIsFalse } = this.positional(at, s, dialect);
    if (prefix.length > 0 || rest) {
      const restPath = `${at.location}/${restKeyword}`;
      out.push((v, path, issues, ev, scope) => {
        if (!Array.isArray(v)) return true;
        let valid = true;
        const n = Math.min(prefix.length, v.length);
        for (let k = 0; k < n; k++)
          if (!part(prefix[k]!, v[k], path, k, issues, scope)) {
            valid = false;
            if (!issues && !ev) return false;
          }
        if (ev) ev.items = Math.max(ev.items, n);
        if (!rest || v.length <= prefix.length) return valid;
        if (ev) ev.items = v.length;
        if (restIsFalse) {
          issues?.push({ path, schemaPath: restPath, keyword: restKeyword, message: `must NOT have more than ${prefix.length} items` });
          return false;
        }
        for (let k = prefix.length; k < v.length; k++)
          if (!part(rest, v[k], path, k, issues, scope)) {
            valid = false;
            if (!issues && !ev) return false;
          }
        return valid;
      });
    }
    if (own(s, "contains")) {
      const contains = this.child(at, s.contains, "contains");
      const counted = dialect === "2020-12" && this.validation;
      const min = counted && typeof s.minContains === "number" ? s.minContains : 1;
      const max = counted && typeof s.maxContains === "number" ? s.maxContains : Infinity;
      const schemaPath = `${at.location}/contains`;
      out.push((v, path, issues, ev, scope) => {
        if (!Array.isArray(v)) return true;
        let found = 0;
        const mark = ev && ev.itemSet !== true ? (ev.itemSet ?? (ev.itemSet = new Set<number>())) : null;
        for (let k = 0; k < v.length; k++)
          if (contains(v[k], "", null, null, scope)) {
            found++;
            mark?.add(k);
            if (!mark && found > max) break;
          }
        if (found >= min && found <= max) return true;
        issues?.push({
          path,
          schemaPath: found < min ? (min === 1 ? schemaPath : `${at.location}/minContains`) : `${at.location}/maxContains`,
          keyword: found < min ? (min === 1 ? "contains" : "minContains") : "maxContains",
          message: found < min ? `must contain at least ${min} valid item(s)` : `must contain at most ${max} valid item(s)`,
        });
        return false;
      });
    }
  }

  private unevaluated(at: Located, s: Record<string, unknown>, out: Validate[], fail: (k: string, m: string) => (p: string, i: SchemaIssue[] | null) => boolean): void {
    if (own(s, "unevaluatedProperties")) {
      const rest = this.child(at, s.unevaluatedProperties, "unevaluatedProperties");
      const refuse = s.unevaluatedProperties === false;
      const before = [...out];
      out.length = 0;
      const schemaPath = `${at.location}/unevaluatedProperties`;
      out.push((v, path, issues, ev, scope) => {
        const local = fresh();
        let valid = true;
        for (const keyword of before) if (!keyword(v, path, issues, local, scope)) valid = false;
        if (!isObject(v)) return finish(valid, ev, local);
        if (!valid && !issues) return false;
        for (const key of Object.keys(v)) {
          if (local.props === true || local.props?.has(key)) continue;
          if (refuse) {
            valid = false;
            if (!issues) return false;
            issues.push({ path: pointer(path, key), schemaPath, keyword: "unevaluatedProperties", message: "must NOT have unevaluated properties" });
          } else if (!part(rest, v[key], path, key, issues, scope)) {
            valid = false;
            if (!issues) return false;
          }
        }
        local.props = true;
        return finish(valid, ev, local);
      });
    }
    if (own(s, "unevaluatedItems")) {
      const rest = this.child(at, s.unevaluatedItems, "unevaluatedItems");
      const before = [...out];
      out.length = 0;
      const f = fail("unevaluatedItems", "must NOT have unevaluated items");
      const refuse = s.unevaluatedItems === false;
      out.push((v, path, issues, ev, scope) => {
        const local = fresh();
        let valid = true;
        for (const keyword of before) if (!keyword(v, path, issues, local, scope)) valid = false;
        if (!Array.isArray(v)) return finish(valid, ev, local);
        if (!valid && !issues) return false;
        for (let k = local.items; k < v.length; k++) {
          if (local.itemSet === true || local.itemSet?.has(k)) continue;
          if (refuse) return f(`${path}/${k}`, issues) && false;
          if (!part(rest, v[k], path, k, issues, scope)) {
            valid = false;
            if (!issues) return false;
          }
        }
        local.items = v.length;
        local.itemSet = true;
        return finish(valid, ev, local);
      });
    }
  }
}

/** Keywords a leaf schema may hold: tests of one value, no sub-schema, no reference. */
const LEAF = new Set([
  "type", "enum", "const", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "pattern", "format",
  "$schema", "$comment", "title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly",
]);

function isLeaf(s: Record<string, unknown>): boolean {
  for (const key in s) if (!LEAF.has(key)) return false;
  return true;
}

/**
 * A leaf schema (`{ type: "string", maxLength: 140, pattern: "..." }`, the most common node of a
 * tool schema) as one function for a boolean check: its tests run inline rather than as one
 * closure call per keyword.
 */
function leaf(s: Record<string, unknown>, general: Validate, assertFormats: boolean): Validate {
  const types = typeMask(s.type);
  const num = (k: string) => (typeof s[k] === "number" ? (s[k] as number) : undefined);
  const [minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf, minLength, maxLength] = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength"].map(num);
  const regex = typeof s.pattern === "string" ? pattern(s.pattern, "") : undefined;
  const format = assertFormats && typeof s.format === "string" ? FORMATS[s.format] : undefined;
  const hasConst = own(s, "const");
  const constant = s.const;
  const values = Array.isArray(s.enum) ? (s.enum as unknown[]) : undefined;
  const primitives = values?.every((x) => typeof x !== "object" || x === null) ? new Set(values) : undefined;
  return fastPath(general, false, (v) => {
    if (types !== 0 && (typeBits(v) & types) === 0) return false;
    if (typeof v === "string") {
      if (minLength !== undefined && !(v.length >= 2 * minLength || (v.length >= minLength && stringLength(v) >= minLength))) return false;
      if (maxLength !== undefined && !(v.length <= maxLength || stringLength(v) <= maxLength)) return false;
      if (regex !== undefined && !regex.test(v)) return false;
      if (format !== undefined && !format(v)) return false;
    } else if (typeof v === "number") {
      if (minimum !== undefined && !(v >= minimum)) return false;
      if (maximum !== undefined && !(v <= maximum)) return false;
      if (exclusiveMinimum !== undefined && !(v > exclusiveMinimum)) return false;
      if (exclusiveMaximum !== undefined && !(v < exclusiveMaximum)) return false;
      if (multipleOf !== undefined && !isMultipleOf(v, multipleOf)) return false;
    }
    if (hasConst && !jsonEqual(v, constant)) return false;
    if (values !== undefined && !(primitives ? primitives.has(v) : values.some((x) => jsonEqual(v, x)))) return false;
    return true;
  });
}

/**
 * A node checked by `fast` (a boolean, no paths, no issues) and, where issues are being collected,
 * by `general`, the keyword closures that say what is wrong. Callers collect issues only where
 * the boolean check failed (`inPlace`, `part`): the parts of an invalid value that are valid cost
 * a boolean check, not issue bookkeeping, and a failing part is not checked twice. `annotates`:
 * the node's keywords produce annotations, so while they are collected `general` runs alone.
 */
function fastPath(general: Validate, annotates: boolean, fast: FastCheck): Validate {
  const slot = { fast, general };
  const validate: Validate = annotates
    ? (v, p, i, e, sc) => (i === null && e === null ? slot.fast(v, sc) : general(v, p, i, e, sc))
    : (v, p, i, e, sc) => (i === null ? slot.fast(v, sc) : general(v, p, i, e, sc));
  FAST.set(validate, slot);
  return validate;
}

type FastCheck = (value: unknown, scope: Scope | null) => boolean;
type Slot = { fast: FastCheck; general: Validate };

/** A sub-schema applied in place (allOf, $ref, then): while issues are collected, it collects them only where its boolean check fails. */
function inPlace(validate: Validate, v: unknown, p: string, i: SchemaIssue[] | null, e: Evaluated | null, sc: Scope | null): boolean {
  return i === null || e !== null ? validate(v, p, i, e, sc) : validate(v, p, null, null, sc) || validate(v, p, i, null, sc);
}

/** A property or item: its path is built, and its issues collected, only where its boolean check fails. */
function part(validate: Validate, v: unknown, path: string, key: string | number, i: SchemaIssue[] | null, sc: Scope | null): boolean {
  return validate(v, "", null, null, sc) || (i !== null && validate(v, pointer(path, key), i, null, sc));
}

const pointer = (path: string, key: string | number) => `${path}/${typeof key === "number" ? key : escapePointerToken(key)}`;
/** The boolean check and the issue-collecting closures of each node that has both. */
const FAST = new WeakMap<Validate, Slot>();

const TYPES = new Set(["object", "array", "string", "number", "integer", "boolean", "null"]);
const NUMBERS = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties", "minContains", "maxContains"];

/** A keyword whose value has the wrong shape is refused, as ajv refuses it, rather than silently checking nothing. */
function checkShapes(s: Record<string, unknown>, location: string): void {
  const refuse = (keyword: string, reason: string): never => {
    throw new SchemaCompileError(`${location}/${keyword}`, reason);
  };
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? s.type : [s.type];
    for (const t of types) if (typeof t !== "string" || !TYPES.has(t)) refuse("type", `unknown type ${JSON.stringify(t)} (one of ${[...TYPES].join(", ")})`);
  }
  for (const keyword of NUMBERS) if (s[keyword] !== undefined && typeof s[keyword] !== "number") refuse(keyword, `${keyword} must be a number`);
  if (typeof s.multipleOf === "number" && s.multipleOf <= 0) refuse("multipleOf", "multipleOf must be > 0");
  if (s.required !== undefined && !(Array.isArray(s.required) && s.required.every((n) => typeof n === "string"))) refuse("required", "required must be an array of strings");
  if (s.enum !== undefined && !Array.isArray(s.enum)) refuse("enum", "enum must be an array");
  if (s.pattern !== undefined && typeof s.pattern !== "string") refuse("pattern", "pattern must be a string");
}

function finish(valid: boolean, ev: Evaluated | null, local: Evaluated): boolean {
  if (valid && ev) merge(ev, local);
  return valid;
}

/** A `pattern` as ECMAScript with the u flag (what ajv compiles), else without it; an invalid one is refused with its pointer. */
function pattern(source: string, at: string): RegExp {
  try {
    return new RegExp(source, "u");
  } catch {
    try {
      return new RegExp(source);
    } catch (error) {
      throw new SchemaCompileError(at, `not a valid regular expression: ${(error as Error).message}`);
    }
  }
}

