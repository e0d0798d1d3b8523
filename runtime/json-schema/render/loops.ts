import type { Writer } from "./writer.js";
import { compare, literal, or, print, SUBJECT } from "../keywords/expr.js";
import type { EntriesNode } from "../keywords/ir.js";
import type { Scope } from "./names.js";

/** The loops both renderers print; `body` writes what each pass does. */

/** Over the properties of `v` that `properties` does not name (or that `matching` matches): `body(key, entry)` with the entry bound, or `refuse(key)`. */
export function writeEntries(w: Writer, node: EntriesNode, v: string, scope: Scope, refuse: (key: string) => void, body: (key: string, entry: string) => void, refuseReadsKey = true): void {
  // A loop that refuses any key without reading it names the key `_key`, which noUnusedLocals accepts.
  const unread = node.refuse !== undefined && !refuseReadsKey && node.matching === undefined && node.known.length === 0 && (node.patterns ?? []).length === 0;
  const key = scope.fresh(unread ? "_key" : "key");
  w.write(`for (const ${key} in ${v})`).block(() => {
    if (node.matching !== undefined) w.writeLine(`if (!${node.matching}.test(${key})) continue;`);
    if (node.known.length > 0) w.writeLine(`if (${print(or(node.known.map((name) => compare(SUBJECT, "===", literal(name)))), key)}) continue;`);
    for (const pattern of node.patterns ?? []) w.writeLine(`if (${pattern}.test(${key})) continue;`);
    if (node.refuse) return refuse(key);
    const entry = scope.fresh("entry");
    w.writeLine(`const ${entry} = ${v}[${key}];`);
    body(key, entry);
  });
}

/** Over the elements of the array `v`, from index `from`: `body(index, item)`. */
export function writeItems(w: Writer, v: string, scope: Scope, body: (index: string, item: string) => void, from = 0): void {
  const index = scope.fresh("i");
  w.write(`for (let ${index} = ${from}; ${index} < ${v}.length; ${index}++)`).block(() => {
    const item = scope.fresh("item");
    w.writeLine(`const ${item} = ${v}[${index}];`);
    body(index, item);
  });
}

/** The element `index` of the array `v`, when it has one: `body(item)`. */
export function writeElement(w: Writer, v: string, index: number, scope: Scope, body: (item: string) => void): void {
  w.write(`if (${v}.length > ${index})`).block(() => {
    const item = scope.fresh("item");
    w.writeLine(`const ${item} = ${v}[${index}];`);
    body(item);
  });
}
