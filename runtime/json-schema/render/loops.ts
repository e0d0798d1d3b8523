import type { Writer } from "./writer.js";
import { compare, literal, or, print, SUBJECT } from "../keywords/expr.js";
import type { EntriesNode, Expr } from "../keywords/ir.js";
import type { Scope } from "./names.js";

/** The loops both renderers print; `body` writes what each pass does. */

/**
 * Over the properties of `v` that `properties` does not name (or that `matching` matches):
 * `body(key, entry)` with the entry bound, or `refuse(key)`. A name known under a condition
 * (knownWhen, `expand` readying it to print) is tested by name first, then by its condition; each
 * condition runs at most once per subject, kept in a local (a check that several conditions call:
 * SharedChecks, inline.ts). `reads`: the body reads the entry (bound); `readsKey`: `refuse` and
 * `body` read the key themselves (an issue's path).
 */
export function writeEntries(
  w: Writer,
  node: EntriesNode,
  v: string,
  scope: Scope,
  refuse: (key: string) => void,
  body: (key: string, entry: string) => void,
  expand: (e: Expr) => Expr,
  reads: boolean,
  readsKey = true,
): void {
  const knownWhen = node.knownWhen ?? [];
  // A loop that refuses any key, or checks any entry, without reading it names the key `_key`, which noUnusedLocals
  // accepts (`additionalProperties: { anyOf: [true] }`): a condition that knows all names reads no key either.
  const unread =
    !readsKey && (node.refuse !== undefined || !reads) && node.matching === undefined && node.known.length === 0 && (node.patterns ?? []).length === 0 && knownWhen.every(({ all }) => all);
  const key = scope.fresh(unread ? "_key" : "key");
  const locals = knownWhen.map(() => scope.fresh("evaluated"));
  const conditions = knownWhen.map(({ when }, k) => `(${locals[k]} ??= ${print(expand(when), v)})`);
  if (locals.length > 0) w.writeLine(`let ${locals.join(", ")};`);
  w.write(`for (const ${key} in ${v})`).block(() => {
    if (node.matching !== undefined) w.writeLine(`if (!${node.matching}.test(${key})) continue;`);
    if (node.known.length > 0) w.writeLine(`if (${namedBy(node.known, key)}) continue;`);
    for (const pattern of node.patterns ?? []) w.writeLine(`if (${pattern}.test(${key})) continue;`);
    knownWhen.forEach(({ known, patterns, all }, k) => {
      const names = [...(known.length > 0 ? [namedBy(known, key)] : []), ...patterns.map((pattern) => `${pattern}.test(${key})`)];
      // One name or one pattern alone needs no parentheses before `&&`; names joined by `||` do.
      const named = names.length === 1 && known.length <= 1 ? names[0]! : `(${names.join(" || ")})`;
      w.writeLine(`if (${all ? conditions[k] : `${named} && ${conditions[k]}`}) continue;`);
    });
    if (node.refuse) return refuse(key);
    body(key, bound(w, scope, "entry", `${v}[${key}]`, reads));
  });
}

/**
 * A local bound to `read` for a body that reads its subject; else `read` itself, printed where
 * the body would name the local (it reads nothing of it, or says so where unsure): no unused local.
 */
export function bound(w: Writer, scope: Scope, name: string, read: string, reads: boolean): string {
  if (!reads) return read;
  const local = scope.fresh(name);
  w.writeLine(`const ${local} = ${read};`);
  return local;
}

/** `key` is one of `names`. */
const namedBy = (names: readonly string[], key: string) => print(or(names.map((name) => compare(SUBJECT, "===", literal(name)))), key);

/** Over the elements of the array `v`, from index `from`: `body(index, item)`; `reads`: the body reads the item (bound). */
export function writeItems(w: Writer, v: string, scope: Scope, reads: boolean, body: (index: string, item: string) => void, from = 0): void {
  const index = scope.fresh("i");
  w.write(`for (let ${index} = ${from}; ${index} < ${v}.length; ${index}++)`).block(() => body(index, bound(w, scope, "item", `${v}[${index}]`, reads)));
}

/** The element `index` of the array `v`, when it has one: `body(item)`; `reads` as for writeItems. */
export function writeElement(w: Writer, v: string, index: number, scope: Scope, reads: boolean, body: (item: string) => void): void {
  w.write(`if (${v}.length > ${index})`).block(() => body(bound(w, scope, "item", `${v}[${index}]`, reads)));
}
