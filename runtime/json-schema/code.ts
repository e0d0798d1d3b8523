import { hasUniqueItems, isMultipleOf, jsonEqual, stringLength } from "../support/validation.js";
import { FORMATS } from "./formats.js";
import { dialectOfSchema, type Located, type SchemaIndex } from "./index.js";

/**
 * Code mode of the compiler (compile.ts): the boolean check of a whole schema document as
 * JavaScript source, one function per schema node, compiled once with `new Function`. Each
 * compiled schema gets functions of its own, so V8 specialises them to it, where the closures of
 * compile.ts are shared by every schema. Only the boolean check is generated; issues are still
 * collected by the closures, which also check the nodes this mode leaves to them (those using
 * annotations: `unevaluatedProperties`, `unevaluatedItems`). Documents with `$dynamicRef` or
 * without the validation vocabulary stay in closure mode (compile.ts decides).
 */

/** A closure of compile.ts, called for a boolean verdict (no path, issues, annotations or scope). */
export type ClosureCheck = (value: unknown, path: string, issues: null, ev: null, scope: null) => boolean;

export interface EmitContext {
  readonly index: SchemaIndex;
  readonly assertFormats: boolean;
  /** The closure of a node, for nodes left to closures. */
  closure(at: Located): ClosureCheck;
  /** A `pattern`, compiled as compile.ts compiles it. */
  pattern(source: string): RegExp;
}

const own = (object: object, key: string) => Object.prototype.hasOwnProperty.call(object, key);
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const HELPERS = { own, jsonEqual, isMultipleOf, stringLength, hasUniqueItems };
const TYPE_TESTS: Record<string, string> = {
  integer: '(typeof v === "number" && Number.isInteger(v))',
  number: '(typeof v === "number" && Number.isFinite(v))',
  object: '(typeof v === "object" && v !== null && !Array.isArray(v))',
  array: "Array.isArray(v)",
  null: "(v === null)",
  string: '(typeof v === "string")',
  boolean: '(typeof v === "boolean")',
};

export interface Emitted {
  readonly source: string;
  readonly externs: unknown[];
  /** The function of each node that has one of its own (not left to closures), by the node's schema; the root's is `f0`. */
  readonly nodes: ReadonlyMap<unknown, string>;
}

/** The source of the boolean check of `root` and what it refers to; `compileCheck` turns it into functions. */
export function emitCheck(root: Located, context: EmitContext): Emitted {
  return new Emitter(context).emit(root);
}

/** Compiles emitted source, to the check of each node by its function's name; throws where code generation is forbidden. */
export function compileCheck({ source, externs }: Emitted): Readonly<Record<string, (value: unknown) => boolean>> {
  return new Function("x", "h", source)(externs, HELPERS) as Record<string, (value: unknown) => boolean>;
}

class Emitter {
  private readonly names = new Map<unknown, string>();
  private readonly delegated = new Set<string>();
  private readonly functions: string[] = [];
  private readonly externs: unknown[] = [];

  constructor(private readonly context: EmitContext) {}

  emit(root: Located): Emitted {
    this.node(root);
    const declarations = this.externs.map((_, k) => `const x${k} = x[${k}];`).join("\n");
    const source = `"use strict";\nconst { own, jsonEqual, isMultipleOf, stringLength, hasUniqueItems } = h;\n${declarations}\n${this.functions.join("\n")}\nreturn { ${[...this.names.values()].join(", ")} };`;
    return { source, externs: this.externs, nodes: new Map([...this.names].filter(([, name]) => !this.delegated.has(name))) };
  }

  private extern(value: unknown): string {
    return `x${this.externs.push(value) - 1}`;
  }

  /** The name of the function checking `at`, emitted once per schema node (recursion included). */
  private node(at: Located): string {
    const key = typeof at.schema === "object" && at.schema !== null ? at.schema : at;
    const known = this.names.get(key);
    if (known) return known;
    const name = `f${this.names.size}`;
    this.names.set(key, name);
    this.functions.push(`function ${name}(v) {\n${this.body(at, name)}return true;\n}`);
    return name;
  }

  private child(parent: Located, schema: unknown, ...tokens: (string | number)[]): string {
    return this.node(this.context.index.child(parent, schema, ...tokens));
  }

  private body(at: Located, name: string): string {
    const { schema } = at;
    if (schema === true) return "";
    if (!isObject(schema)) return "return false;\n";
    const s = schema;
    const dialect = dialectOfSchema(s) ?? at.dialect;
    const ref = typeof s.$ref === "string" ? `if (!${this.node(this.context.index.resolve(s.$ref, at.base)!)}(v)) return false;\n` : "";
    // draft-07 section 8.3: every other keyword beside $ref is ignored.
    if (ref && dialect === "draft-07") return ref;
    if (own(s, "unevaluatedProperties") || own(s, "unevaluatedItems")) {
      this.delegated.add(name);
      return `if (!${this.extern(this.context.closure(at))}(v, "", null, null, null)) return false;\n`;
    }
    return ref + this.scalar(s) + this.applicators(at, s, dialect) + this.object(at, s, dialect) + this.array(at, s, dialect);
  }

  private scalar(s: Record<string, unknown>): string {
    let out = "";
    const check = typeof s.format === "string" && this.context.assertFormats ? FORMATS[s.format] : undefined;
    if (check) out += `if (typeof v === "string" && !${this.extern(check)}(v)) return false;\n`;
    if (s.type !== undefined) out += `if (!(${(Array.isArray(s.type) ? (s.type as string[]) : [s.type as string]).map((t) => TYPE_TESTS[t]).join(" || ")})) return false;\n`;
    if (own(s, "const")) out += primitive(s.const) ? `if (v !== ${this.extern(s.const)}) return false;\n` : `if (!jsonEqual(v, ${this.extern(s.const)})) return false;\n`;
    if (Array.isArray(s.enum)) {
      const values = s.enum as unknown[];
      out += values.every(primitive) ? `if (!${this.extern(new Set(values))}.has(v)) return false;\n` : `if (!${this.extern(values)}.some((x) => jsonEqual(v, x))) return false;\n`;
    }
    const numbers = [
      ["minimum", (l: string) => `v >= ${l}`],
      ["maximum", (l: string) => `v <= ${l}`],
      ["exclusiveMinimum", (l: string) => `v > ${l}`],
      ["exclusiveMaximum", (l: string) => `v < ${l}`],
      ["multipleOf", (l: string) => `isMultipleOf(v, ${l})`],
    ] as const;
    const number = numbers.filter(([k]) => typeof s[k] === "number").map(([k, test]) => `if (!(${test(String(s[k]))})) return false;\n`);
    if (number.length > 0) out += `if (typeof v === "number") {\n${number.join("")}}\n`;
    const string: string[] = [];
    // A code point is one or two UTF-16 units: the unit count alone often decides.
    if (typeof s.minLength === "number") string.push(`if (!(v.length >= ${2 * s.minLength} || (v.length >= ${s.minLength} && stringLength(v) >= ${s.minLength}))) return false;\n`);
    if (typeof s.maxLength === "number") string.push(`if (!(v.length <= ${s.maxLength} || stringLength(v) <= ${s.maxLength})) return false;\n`);
    if (typeof s.pattern === "string") string.push(`if (!${this.extern(this.context.pattern(s.pattern))}.test(v)) return false;\n`);
    if (string.length > 0) out += `if (typeof v === "string") {\n${string.join("")}}\n`;
    return out;
  }

  private applicators(at: Located, s: Record<string, unknown>, dialect: string): string {
    let out = "";
    const branches = (keyword: string) => (Array.isArray(s[keyword]) ? (s[keyword] as unknown[]).map((b, n) => `${this.child(at, b, keyword, n)}(v)`) : undefined);
    const allOf = branches("allOf");
    if (allOf) out += allOf.map((call) => `if (!${call}) return false;\n`).join("");
    const anyOf = branches("anyOf");
    if (anyOf) out += `if (!(${anyOf.join(" || ") || "false"})) return false;\n`;
    const oneOf = branches("oneOf");
    if (oneOf) out += `if ((${oneOf.map((call) => `(${call} ? 1 : 0)`).join(" + ") || "0"}) !== 1) return false;\n`;
    if (own(s, "not")) out += `if (${this.child(at, s.not, "not")}(v)) return false;\n`;
    if (own(s, "if") && (own(s, "then") || own(s, "else"))) {
      const test = this.child(at, s.if, "if");
      const then = own(s, "then") ? `if (!${this.child(at, s.then, "then")}(v)) return false;` : "";
      const otherwise = own(s, "else") ? `if (!${this.child(at, s.else, "else")}(v)) return false;` : "";
      out += `if (${test}(v)) {${then}} else {${otherwise}}\n`;
    }
    const map = dialect === "2020-12" ? s.dependentSchemas : s.dependencies;
    if (isObject(map))
      for (const [name, sub] of Object.entries(map)) {
        const key = JSON.stringify(name);
        out += Array.isArray(sub)
          ? `if (${TYPE_TESTS.object} && own(v, ${key})) {\n${(sub as string[]).map((n) => `if (!own(v, ${JSON.stringify(n)})) return false;\n`).join("")}}\n`
          : `if (${TYPE_TESTS.object} && own(v, ${key}) && !${this.child(at, sub, dialect === "2020-12" ? "dependentSchemas" : "dependencies", name)}(v)) return false;\n`;
      }
    return out;
  }

  private object(at: Located, s: Record<string, unknown>, dialect: string): string {
    let out = "";
    if (Array.isArray(s.required))
      for (const name of s.required as string[]) {
        const key = JSON.stringify(name);
        // JSON holds no undefined: a read decides presence, except for names the prototype has.
        out += name in Object.prototype ? `if (!own(v, ${key})) return false;\n` : `if (v[${key}] === undefined) return false;\n`;
      }
    if (dialect === "2020-12" && isObject(s.dependentRequired))
      for (const [name, names] of Object.entries(s.dependentRequired))
        if (Array.isArray(names)) out += `if (own(v, ${JSON.stringify(name)})) {\n${(names as string[]).map((n) => `if (!own(v, ${JSON.stringify(n)})) return false;\n`).join("")}}\n`;
    if (typeof s.minProperties === "number") out += `if (Object.keys(v).length < ${s.minProperties}) return false;\n`;
    if (typeof s.maxProperties === "number") out += `if (Object.keys(v).length > ${s.maxProperties}) return false;\n`;
    if (own(s, "propertyNames")) out += `for (const k of Object.keys(v)) if (!${this.child(at, s.propertyNames, "propertyNames")}(k)) return false;\n`;
    const properties = isObject(s.properties) ? Object.entries(s.properties) : [];
    for (const [name, sub] of properties) {
      const key = JSON.stringify(name);
      const present = name in Object.prototype ? ` && own(v, ${key})` : "";
      out += `{ const p = v[${key}]; if (p !== undefined${present} && !${this.child(at, sub, "properties", name)}(p)) return false; }\n`;
    }
    const patterns = isObject(s.patternProperties) ? Object.entries(s.patternProperties).map(([source, sub]) => ({ regex: this.extern(this.context.pattern(source)), check: this.child(at, sub, "patternProperties", source) })) : [];
    const additional = own(s, "additionalProperties") ? (s.additionalProperties === false ? "return false;" : `if (!${this.child(at, s.additionalProperties, "additionalProperties")}(v[k])) return false;`) : undefined;
    if (patterns.length > 0 || additional) {
      const known = this.extern(new Set(properties.map(([name]) => name)));
      const matches = patterns.map(({ regex, check }) => `if (${regex}.test(k)) { m = true; if (!${check}(v[k])) return false; }\n`).join("");
      out += `for (const k in v) {\nlet m = ${known}.has(k);\n${matches}${additional ? `if (!m) { ${additional} }\n` : ""}}\n`;
    }
    return out ? `if (${TYPE_TESTS.object}) {\n${out}}\n` : "";
  }

  private array(at: Located, s: Record<string, unknown>, dialect: string): string {
    let out = "";
    if (typeof s.minItems === "number") out += `if (v.length < ${s.minItems}) return false;\n`;
    if (typeof s.maxItems === "number") out += `if (v.length > ${s.maxItems}) return false;\n`;
    if (s.uniqueItems === true) out += "if (!hasUniqueItems(v)) return false;\n";
    // The positional schemas and the one for the rest: prefixItems + items (2020-12), items[] + additionalItems (draft-07).
    let prefix: string[] = [];
    let rest: { schema: unknown; keyword: string } | undefined;
    if (dialect === "2020-12") {
      if (Array.isArray(s.prefixItems)) prefix = s.prefixItems.map((b, n) => this.child(at, b, "prefixItems", n));
      if (own(s, "items")) rest = { schema: s.items, keyword: "items" };
    } else if (Array.isArray(s.items)) {
      prefix = s.items.map((b, n) => this.child(at, b, "items", n));
      if (own(s, "additionalItems")) rest = { schema: s.additionalItems, keyword: "additionalItems" };
    } else if (own(s, "items")) rest = { schema: s.items, keyword: "items" };
    out += prefix.map((check, k) => `if (v.length > ${k} && !${check}(v[${k}])) return false;\n`).join("");
    if (rest?.schema === false) out += `if (v.length > ${prefix.length}) return false;\n`;
    else if (rest) out += `for (let i = ${prefix.length}; i < v.length; i++) if (!${this.child(at, rest.schema, rest.keyword)}(v[i])) return false;\n`;
    if (own(s, "contains")) {
      const counted = dialect === "2020-12";
      const min = counted && typeof s.minContains === "number" ? s.minContains : 1;
      const max = counted && typeof s.maxContains === "number" ? s.maxContains : Infinity;
      const check = this.child(at, s.contains, "contains");
      out += `{ let c = 0; for (let i = 0; i < v.length; i++) if (${check}(v[i])) c++; if (c < ${min} || c > ${max}) return false; }\n`;
    }
    return out ? `if (Array.isArray(v)) {\n${out}}\n` : "";
  }
}

function primitive(value: unknown): boolean {
  return typeof value !== "object" || value === null;
}
