import { childPointer } from "../pointer.js";

/** Deeper than this, a document is refused: the stages after read it recursively. */
export const MAX_DEPTH = 1000;

/**
 * Refuses what no JSON text holds, before any stage reads the document: a schema built in
 * JavaScript may carry NaN, a bigint, a function or a symbol, or contain itself, which the stages
 * after would compare as another value (NaN: code mode and closures disagreed), throw on (a
 * bigint), or recurse into until the stack overflows (a cycle). Infinity stays: it is JSON's
 * 1e400, as JSON.parse reads it; so does `undefined`, a property JSON leaves out. A sub-object
 * shared by two places is no cycle, and is walked once.
 */
export function refuseNonJson(document: unknown, at: string, fail: (at: string, reason: string) => never): void {
  const path = new Set<object>();
  const done = new Set<object>();
  const visit = (value: unknown, here: string, depth: number): void => {
    switch (typeof value) {
      case "number":
        if (Number.isNaN(value)) fail(here, "NaN is not a JSON number: write a number, or leave the keyword out");
        return;
      case "bigint":
      case "function":
      case "symbol":
        return fail(here, `a ${typeof value} is not a JSON value`);
      case "object":
        break;
      default:
        return;
    }
    if (value === null || done.has(value)) return;
    if (path.has(value)) fail(here, "this object contains itself, and a JSON document cannot: refer to the place with $ref");
    if (depth >= MAX_DEPTH) fail(here, `nested deeper than ${MAX_DEPTH} levels`);
    path.add(value);
    if (Array.isArray(value)) for (let i = 0; i < value.length; i++) visit(value[i], childPointer(here, i), depth + 1);
    else for (const [key, child] of Object.entries(value)) visit(child, childPointer(here, key), depth + 1);
    path.delete(value);
    done.add(value);
  };
  visit(document, at, 0);
}
