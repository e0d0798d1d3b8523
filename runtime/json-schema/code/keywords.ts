import { dialectOfSchema, type Located, type SchemaIndex } from "../index.js";
import { escapePointerToken } from "../uri.js";
import { FORMATS } from "../formats.js";
import { own, text, type Emit, type Node } from "./modes.js";

/**
 * The keywords of a node, one function per family, in the order compile.ts runs them (so issues
 * come in the same order), each written in the node's Mode: a test, then `mode.fail(...)`.
 * Messages and schema paths are the closures' (compile.ts), word for word.
 */

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const primitive = (value: unknown) => typeof value !== "object" || value === null;
/** Values with a JavaScript literal that `===` compares as a Set does (SameValueZero; JSON has no NaN). */
const literal = (value: unknown) => typeof value === "string" || typeof value === "boolean" || value === null || (typeof value === "number" && Number.isFinite(value));
const INLINE = 16;

/**
 * `subject` is one of `values` (JSON equality): while the list is short, a test per value (`===`
 * for a primitive, no call, as ajv writes it); past that a Set's lookup for primitives, else a loop.
 */
function among(subject: string, values: readonly unknown[], emitter: Emit): string {
  if (values.length === 0) return "false";
  if (values.length <= INLINE) return `(${values.map((x) => (literal(x) ? `${subject} === ${JSON.stringify(x)}` : primitive(x) ? `${subject} === ${emitter.extern(x)}` : `jsonEqual(${subject}, ${emitter.extern(x)})`)).join(" || ")})`;
  return values.every(primitive) ? `${emitter.extern(new Set(values))}.has(${subject})` : `${emitter.extern(values)}.some((y) => jsonEqual(${subject}, y))`;
}

export const TYPE_TESTS: Record<string, string> = {
  integer: '(typeof v === "number" && Number.isInteger(v))',
  number: '(typeof v === "number" && Number.isFinite(v))',
  object: '(typeof v === "object" && v !== null && !Array.isArray(v))',
  array: "Array.isArray(v)",
  null: "(v === null)",
  string: '(typeof v === "string")',
  boolean: '(typeof v === "boolean")',
};

export function scalar({ s, mode, emitter }: Node): string {
  const { fail } = mode;
  let out = "";
  const check = typeof s.format === "string" && emitter.context.assertFormats ? FORMATS[s.format] : undefined;
  if (check) out += `if (typeof v === "string" && !${emitter.extern(check)}(v)) ${fail("format", text(`must match format "${s.format as string}"`))}\n`;
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
    out += `if (!(${types.map((t) => TYPE_TESTS[t]).join(" || ")})) ${fail("type", text(`must be ${types.join(",")}`))}\n`;
  }
  if (own(s, "const")) {
    out += `if (!${among("v", [s.const], emitter)}) ${fail("const", text(`must be ${JSON.stringify(s.const)}`))}\n`;
  }
  if (Array.isArray(s.enum)) {
    const values = s.enum as unknown[];
    out += `if (!${among("v", values, emitter)}) ${fail("enum", text(`must be one of ${values.map((x) => JSON.stringify(x)).join(", ")}`))}\n`;
  }
  const numbers = [
    ["minimum", (l: string) => `v >= ${l}`, "must be >="],
    ["maximum", (l: string) => `v <= ${l}`, "must be <="],
    ["exclusiveMinimum", (l: string) => `v > ${l}`, "must be >"],
    ["exclusiveMaximum", (l: string) => `v < ${l}`, "must be <"],
    ["multipleOf", (l: string) => `isMultipleOf(v, ${l})`, "must be multiple of"],
  ] as const;
  const number = numbers.filter(([k]) => typeof s[k] === "number").map(([k, test, message]) => `if (!(${test(String(s[k]))})) ${fail(k, text(`${message} ${s[k] as number}`))}\n`);
  if (number.length > 0) out += `if (typeof v === "number") {\n${number.join("")}}\n`;
  const string: string[] = [];
  // A code point is one or two UTF-16 units: the unit count alone often decides.
  if (typeof s.minLength === "number") string.push(`if (!(v.length >= ${2 * s.minLength} || (v.length >= ${s.minLength} && stringLength(v) >= ${s.minLength}))) ${fail("minLength", text(`must NOT have fewer than ${s.minLength} characters`))}\n`);
  if (typeof s.maxLength === "number") string.push(`if (!(v.length <= ${s.maxLength} || stringLength(v) <= ${s.maxLength})) ${fail("maxLength", text(`must NOT have more than ${s.maxLength} characters`))}\n`);
  if (typeof s.pattern === "string") string.push(`if (!${emitter.extern(emitter.context.pattern(s.pattern))}.test(v)) ${fail("pattern", text(`must match pattern ${JSON.stringify(s.pattern)}`))}\n`);
  if (string.length > 0) out += `if (typeof v === "string") {\n${string.join("")}}\n`;
  return out;
}

export function applicators(node: Node): string {
  const { at, s, dialect, mode, emitter } = node;
  const { fail, failed, inPlace, ev } = mode;
  const f = (n: number) => `f${n}`;
  let out = "";
  const branches = (keyword: string) => (Array.isArray(s[keyword]) ? (s[keyword] as unknown[]).map((b, n) => emitter.id(emitter.child(at, b, keyword, n))) : undefined);
  // The check of a branch known to fail, for its issues; and of a branch whose annotations count only if it passes.
  const rerun = (n: number) => (emitter.context.tracking ? `g${n}(v, p, i, null)` : `g${n}(v, p, i)`);
  const local = (n: number) => `g${n}(v, p, null, l)`;
  const allOf = Array.isArray(s.allOf) ? (s.allOf as unknown[]).map((b, n) => emitter.child(at, b, "allOf", n)) : [];
  for (const branch of allOf) out += `if (!${inPlace(branch)}) ${failed}\n`;
  const anyOf = branches("anyOf");
  if (anyOf) {
    const any = anyOf.map((n) => `${f(n)}(v)`).join(" || ") || "false";
    if (!mode.issues) out += `if (!(${any})) return false;\n`;
    else {
      // 2020-12 core 10.2.1.2: the annotations of every passing branch count, so all run.
      const annotated = ev && `{ ${anyOf.map((n) => `let l = fresh(); if (${local(n)}) { a = true; merge(${ev}, l); }`).join(" } { ")} }`;
      const passed = ev ? (ev === "u" ? annotated : `if (e !== null) ${annotated} else a = ${any};`) : `a = ${any};`;
      out += `{ let a = false; ${passed}\nif (!a) { ${fail("anyOf", text("must match a schema in anyOf"), { before: anyOf.map((n) => `${rerun(n)}; `).join("") })} }\n}\n`;
    }
  }
  const oneOf = branches("oneOf");
  if (oneOf) {
    const count = `${oneOf.map((n) => `(${f(n)}(v) ? 1 : 0)`).join(" + ") || "0"}`;
    if (!mode.issues) out += `if ((${count}) !== 1) return false;\n`;
    else {
      const annotated = ev && `{ ${oneOf.map((n) => `if (c < 2) { let l = fresh(); if (${local(n)}) { c++; a = l; } }`).join(" ")} }`;
      const passed = ev ? (ev === "u" ? annotated : `if (e !== null) ${annotated} else c = ${count};`) : `c = ${count};`;
      const merged = ev ? `if (c === 1) { if (a !== null) merge(${ev}, a); } else ` : "if (c !== 1) ";
      const summary = fail("oneOf", text("must match exactly one schema in oneOf"), { before: `if (c === 0) { ${oneOf.map((n) => `${rerun(n)}; `).join("")}} ` });
      out += `{ let c = 0; let a = null; ${passed}\n${merged}${summary}\n}\n`;
    }
  }
  if (own(s, "not")) out += `if (f${emitter.id(emitter.child(at, s.not, "not"))}(v)) ${fail("not", text("must NOT be valid"))}\n`;
  if (own(s, "if")) out += conditional(node);
  const map = dialect === "2020-12" ? s.dependentSchemas : s.dependencies;
  const keyword = dialect === "2020-12" ? "dependentSchemas" : "dependencies";
  if (isObject(map))
    for (const [name, sub] of Object.entries(map))
      out += Array.isArray(sub)
        ? requiredIf(node, keyword, name, sub as string[])
        : `if (${TYPE_TESTS.object} && own(v, ${text(name)}) && !${inPlace(emitter.child(at, sub, keyword, name))}) ${failed}\n`;
  return out;
}

/** if/then/else: `if`'s annotations count when it passes; a failing branch's summary comes before its issues, as the closures splice it. */
function conditional({ at, s, mode, emitter }: Node): string {
  const { fail, inPlace, ev } = mode;
  const test = emitter.id(emitter.child(at, s.if, "if"));
  const branch = (keyword: "then" | "else") => {
    if (!own(s, keyword)) return "";
    const check = inPlace(emitter.child(at, s[keyword], keyword));
    if (!mode.issues) return `if (!${check}) return false;`;
    const message = text(`must match "${keyword}" schema`);
    return `const b = i === null ? 0 : i.length; if (!${check}) ${fail(keyword, message, { index: "b" })}`;
  };
  if (!own(s, "then") && !own(s, "else")) return ev ? `if (${ev} !== null) { const l = fresh(); if (g${test}(v, p, null, l)) merge(${ev}, l); }\n` : "";
  const passed = ev ? `let t; if (${ev} !== null) { const l = fresh(); t = g${test}(v, p, null, l); if (t) merge(${ev}, l); } else t = f${test}(v);\n` : `const t = f${test}(v);\n`;
  return `{ ${passed}if (t) { ${branch("then")} } else { ${branch("else")} }\n}\n`;
}

/** dependentRequired, and dependencies/dependentSchemas given an array of names: one issue per missing name. */
function requiredIf({ at, mode }: Node, keyword: string, name: string, names: readonly string[]): string {
  const schemaPath = `${at.location}/${keyword}/${escapePointerToken(name)}`;
  const missing = names.map((n) => `if (!own(v, ${text(n)})) ${mode.fail(keyword, text(`must have property '${n}' when property '${name}' is present`), { schemaPath })}\n`);
  return `if (${TYPE_TESTS.object} && own(v, ${text(name)})) {\n${missing.join("")}}\n`;
}

export function object(node: Node): string {
  const { at, s, dialect, mode, emitter } = node;
  const { fail, failed, sub, ev } = mode;
  let out = "";
  if (Array.isArray(s.required))
    for (const name of s.required as string[]) {
      const key = text(name);
      // JSON holds no undefined: a read decides presence, except for names the prototype has.
      out += `if (${name in Object.prototype ? `!own(v, ${key})` : `v[${key}] === undefined`}) ${fail("required", text(`must have required property '${name}'`))}\n`;
    }
  if (dialect === "2020-12" && isObject(s.dependentRequired))
    for (const [name, names] of Object.entries(s.dependentRequired)) if (Array.isArray(names)) out += requiredIf(node, "dependentRequired", name, names as string[]);
  if (typeof s.minProperties === "number") out += `if (Object.keys(v).length < ${s.minProperties}) ${fail("minProperties", text(`must NOT have fewer than ${s.minProperties} properties`))}\n`;
  if (typeof s.maxProperties === "number") out += `if (Object.keys(v).length > ${s.maxProperties}) ${fail("maxProperties", text(`must NOT have more than ${s.maxProperties} properties`))}\n`;
  if (own(s, "propertyNames"))
    out += `for (const k of Object.keys(v)) if (!f${emitter.id(emitter.child(at, s.propertyNames, "propertyNames"))}(k)) ${fail("propertyNames", `"property name '" + k + "' is invalid"`)}\n`;
  const properties = isObject(s.properties) ? Object.entries(s.properties) : [];
  const patterns = isObject(s.patternProperties) ? Object.entries(s.patternProperties).map(([source, schema]) => ({ regex: emitter.extern(emitter.context.pattern(source)), at: emitter.child(at, schema, "patternProperties", source) })) : [];
  const additional = own(s, "additionalProperties") ? emitter.child(at, s.additionalProperties, "additionalProperties") : undefined;
  // Annotations (2020-12 core 10.3.2): the names these keywords evaluate, valid or not (as the closures mark them); code/annotations.ts.
  if (ev !== null && additional !== undefined) out += `if (${ev} !== null) ${ev}.p = true;\n`;
  else if (ev !== null && (properties.length > 0 || patterns.length > 0)) {
    const matchers = [...(properties.length > 0 ? [emitter.extern(new Set(properties.map(([name]) => name)))] : []), ...patterns.map((x) => x.regex)];
    out += `if (${ev} !== null) { ${matchers.map((m) => `markNames(${ev}, ${m});`).join(" ")} }\n`;
  }
  for (const [name, schema] of properties) {
    const key = text(name);
    const present = name in Object.prototype ? ` && own(v, ${key})` : "";
    out += `{ const x = v[${key}]; if (x !== undefined${present}) { if (!${sub(emitter.child(at, schema, "properties", name), "x", `p + ${text(`/${escapePointerToken(name)}`)}`)}) ${failed} } }\n`;
  }
  if (patterns.length > 0 || additional) {
    const known = among("k", properties.map(([name]) => name), emitter);
    const path = mode.issues ? `p + "/" + escapePointerToken(k)` : "";
    const matches = patterns.map(({ regex, at: pattern }) => `if (${regex}.test(k)) { n = true; if (!${sub(pattern, "v[k]", path)}) ${failed} }\n`).join("");
    // What the names neither `properties` nor a pattern matched meet.
    const rest = !additional ? "" : s.additionalProperties === false ? fail("additionalProperties", text("must NOT have additional properties"), { path }) : `if (!${sub(additional, "v[k]", path)}) ${failed}`;
    if (patterns.length === 0) out += `for (const k in v) if (!${known}) ${rest}\n`;
    else out += `for (const k in v) {\nlet n = ${known};\n${matches}${rest && `if (!n) { ${rest} }\n`}}\n`;
  }
  return out ? `if (${TYPE_TESTS.object}) {\n${out}}\n` : "";
}

export function array({ at, s, dialect, mode, emitter }: Node): string {
  const { fail, failed, sub, ev } = mode;
  let out = "";
  if (typeof s.minItems === "number") out += `if (v.length < ${s.minItems}) ${fail("minItems", text(`must NOT have fewer than ${s.minItems} items`))}\n`;
  if (typeof s.maxItems === "number") out += `if (v.length > ${s.maxItems}) ${fail("maxItems", text(`must NOT have more than ${s.maxItems} items`))}\n`;
  if (s.uniqueItems === true) out += `if (!hasUniqueItems(v)) ${fail("uniqueItems", text("must NOT have duplicate items"))}\n`;
  // The positional schemas and the one for the rest: prefixItems + items (2020-12), items[] + additionalItems (draft-07).
  let prefix: unknown[] = [];
  let prefixKeyword = "items";
  let rest: { schema: unknown; keyword: string } | undefined;
  if (dialect === "2020-12") {
    if (Array.isArray(s.prefixItems)) [prefix, prefixKeyword] = [s.prefixItems, "prefixItems"];
    if (own(s, "items")) rest = { schema: s.items, keyword: "items" };
  } else if (Array.isArray(s.items)) {
    prefix = s.items;
    if (own(s, "additionalItems")) rest = { schema: s.additionalItems, keyword: "additionalItems" };
  } else if (own(s, "items")) rest = { schema: s.items, keyword: "items" };
  const item = (k: number | string) => (mode.issues ? (typeof k === "number" ? `p + ${text(`/${k}`)}` : `p + "/" + ${k}`) : "");
  out += prefix.map((schema, k) => `if (v.length > ${k} && !${sub(emitter.child(at, schema, prefixKeyword, k), `v[${k}]`, item(k))}) ${failed}\n`).join("");
  // Annotations (2020-12 core 10.3.1): how many items the positional schemas and the rest evaluated.
  if (ev !== null && (prefix.length > 0 || rest)) out += `if (${ev} !== null) ${ev}.n = Math.max(${ev}.n, Math.min(${prefix.length}, v.length));\n`;
  if (rest) {
    const evaluated = ev !== null ? `if (${ev} !== null) ${ev}.n = v.length; ` : "";
    const check =
      rest.schema === false
        ? fail(rest.keyword, text(`must NOT have more than ${prefix.length} items`))
        : `for (let j = ${prefix.length}; j < v.length; j++) if (!${sub(emitter.child(at, rest.schema, rest.keyword), "v[j]", item("j"))}) ${failed}`;
    out += `if (v.length > ${prefix.length}) { ${evaluated}${check} }\n`;
  }
  if (own(s, "contains")) {
    const counted = dialect === "2020-12";
    const min = counted && typeof s.minContains === "number" ? s.minContains : 1;
    const max = counted && typeof s.maxContains === "number" ? s.maxContains : Infinity;
    const check = emitter.id(emitter.child(at, s.contains, "contains"));
    const mark = ev !== null ? `const m = ${ev} !== null && ${ev}.s !== true; ` : "";
    // Past maxContains the count is decided, unless every match is an annotation (as the closures count, so the issue is theirs).
    const stop = max === Infinity ? "" : ` if (c > ${max}) break;`;
    const found = ev !== null ? `{ c++; if (m) markItem(${ev}, j);${stop && ` else${stop}`} }` : `{ c++;${stop} }`;
    const few = min === 1 ? fail("contains", text("must contain at least 1 valid item(s)")) : fail("minContains", text(`must contain at least ${min} valid item(s)`));
    const many = max === Infinity ? "" : ` else if (c > ${max}) ${fail("maxContains", text(`must contain at most ${max} valid item(s)`))}`;
    out += `{ ${mark}let c = 0; for (let j = 0; j < v.length; j++) if (f${check}(v[j])) ${found} if (c < ${min}) ${few}${many} }\n`;
  }
  return out ? `if (Array.isArray(v)) {\n${out}}\n` : "";
}

/** What the keywords of a node evaluate, when known before any value is (`evaluation`). */
export interface Evaluation {
  readonly names: ReadonlySet<string>;
  readonly patterns: readonly string[];
  readonly allNames: boolean;
  readonly items: number;
  readonly allItems: boolean;
}

/**
 * unevaluatedProperties, unevaluatedItems (2020-12 core 11.2, 11.3): after every other keyword
 * of the node, the rest of the object's properties or of the array's items. Evaluated: by
 * `fixed`, known at compile time; else as the keywords filled `u` at run time. As in the
 * closures: the annotations of the properties check count for the items check only when it
 * passed, and `e` gets this node's annotations only when the node passed.
 */
export function unevaluated({ at, s, mode, emitter }: Node, fixed?: Evaluation): string {
  const { fail, failed, sub } = mode;
  const both = own(s, "unevaluatedProperties") && own(s, "unevaluatedItems");
  let out = "";
  // `true` refuses nothing: only its annotation counts.
  if (own(s, "unevaluatedProperties") && s.unevaluatedProperties !== true && !fixed?.allNames) {
    const path = `p + "/" + escapePointerToken(k)`;
    const check =
      s.unevaluatedProperties === false
        ? fail("unevaluatedProperties", text("must NOT have unevaluated properties"), { path })
        : `if (!${sub(emitter.child(at, s.unevaluatedProperties, "unevaluatedProperties"), "v[k]", path)}) ${failed}`;
    const known = fixed ? [...(fixed.names.size > 0 ? [among("k", [...fixed.names], emitter)] : []), ...fixed.patterns.map((source) => `${emitter.extern(emitter.context.pattern(source))}.test(k)`)] : [];
    const unknown = !fixed ? "!seenName(u, k)" : known.length > 0 ? `!(${known.join(" || ")})` : "true";
    // for-in: the order of Object.keys on JSON objects, without the array.
    out += `if (${TYPE_TESTS.object}) for (const k in v) if (${unknown}) ${check}\n`;
  }
  if (own(s, "unevaluatedProperties") && !fixed) out += `if (${TYPE_TESTS.object}) u.p = true;\n`;
  if (both && !fixed) out += "if (!ok) u = fresh();\n";
  if (own(s, "unevaluatedItems") && s.unevaluatedItems !== true && !(fixed?.allItems && !both)) {
    const path = `p + "/" + j`;
    // The first unevaluated item refused ends the check (one issue), as in the closures.
    const refuse = mode.issues ? `{ if (i !== null) i.push({ path: ${path}, schemaPath: ${text(`${at.location}/unevaluatedItems`)}, keyword: "unevaluatedItems", message: "must NOT have unevaluated items" }); return false; }` : "return false;";
    const check = s.unevaluatedItems === false ? refuse : `if (!${sub(emitter.child(at, s.unevaluatedItems, "unevaluatedItems"), "v[j]", path)}) ${failed}`;
    const count = fixed?.allItems ? "v.length" : String(fixed?.items);
    const first = !fixed ? "u.n" : both ? `(ok ? ${count} : 0)` : count;
    out += `if (Array.isArray(v)) for (let j = ${first}; j < v.length; j++) ${fixed ? "" : "if (!seenItem(u, j)) "}${check}\n`;
  }
  if (own(s, "unevaluatedItems") && !fixed) out += "if (Array.isArray(v)) { u.n = v.length; u.s = true; }\n";
  return fixed ? out : `${out}if (ok && e !== null) merge(e, u);\n`;
}

/**
 * What a node's keywords evaluate (2020-12 core 11.2), where no value changes it: its own and its
 * `allOf` and `$ref` sub-schemas' `properties`, `patternProperties`, `additionalProperties`,
 * `prefixItems`, `items`. Undefined where a keyword evaluates by the value (anyOf, oneOf, if,
 * dependentSchemas, contains, a nested unevaluated*) or a reference cycles.
 */
export function evaluation(index: SchemaIndex, root: Located): Evaluation | undefined {
  const names = new Set<string>();
  const patterns: string[] = [];
  let allNames = false;
  let items = 0;
  let allItems = false;
  const seen = new Set<unknown>();
  const visit = (at: Located, top: boolean): boolean => {
    const s = at.schema;
    if (!isObject(s)) return true;
    if (seen.has(s)) return false;
    seen.add(s);
    const dialect = dialectOfSchema(s) ?? at.dialect;
    if (typeof s.$ref === "string" && !visit(index.resolve(s.$ref, at.base)!, false)) return false;
    if (typeof s.$ref === "string" && dialect === "draft-07") return true;
    if (["anyOf", "oneOf", "if", "contains"].some((k) => own(s, k))) return false;
    if (dialect === "2020-12" && (own(s, "dependentSchemas") || (!top && (own(s, "unevaluatedProperties") || own(s, "unevaluatedItems"))))) return false;
    if (dialect === "draft-07" && isObject(s.dependencies) && Object.values(s.dependencies).some((d) => !Array.isArray(d))) return false;
    if (isObject(s.properties)) for (const name of Object.keys(s.properties)) names.add(name);
    if (isObject(s.patternProperties)) patterns.push(...Object.keys(s.patternProperties));
    if (own(s, "additionalProperties")) allNames = true;
    const prefix = dialect === "2020-12" ? s.prefixItems : s.items;
    if (Array.isArray(prefix)) items = Math.max(items, prefix.length);
    if (dialect === "2020-12" ? own(s, "items") : Array.isArray(s.items) ? own(s, "additionalItems") : own(s, "items")) allItems = true;
    return !Array.isArray(s.allOf) || s.allOf.every((branch, n) => visit(index.child(at, branch, "allOf", n), false));
  };
  return visit(root, true) ? { names, patterns, allNames, items, allItems } : undefined;
}
