import type { Protocol } from "../model/protocol.js";
import type { Rename } from "./report.js";
import { alternativesOf, describe, objectShape } from "./shapes.js";

/** A pair scores at least this to be called a rename. */
export const RENAME_THRESHOLD = 0.6;
/** ...and beats every other candidate of either side by this much: a tie is no rename. */
const MARGIN = 0.05;

/**
 * Best-effort renames: a definition removed from `a` and one added in `b` that are alike, and
 * more alike than any other pairing of either. Alike means 70% structure (the property names,
 * and each property's type; the type set for a union or alias) and 30% name (shared CamelCase
 * words). Two messages whose `method` (or any other shared constant discriminator) differs are a
 * different thing, never a rename; neither are params mcp-codegen named itself (their fate shows
 * at the method).
 */
export function findRenames(removed: readonly string[], added: readonly string[], a: Protocol, b: Protocol): Rename[] {
  const from = removed.filter((name) => !a.definitions.get(name)!.liftedFrom);
  const to = added.filter((name) => !b.definitions.get(name)!.liftedFrom);
  const scores = new Map<string, Map<string, number>>();
  for (const x of from) {
    const row = new Map<string, number>();
    for (const y of to) row.set(y, similarity(x, y, a, b));
    scores.set(x, row);
  }
  const renames: Rename[] = [];
  for (const x of from) {
    const row = [...scores.get(x)!].sort((p, q) => q[1] - p[1]);
    const [best, second] = row;
    if (!best || best[1] < RENAME_THRESHOLD || (second && best[1] - second[1] < MARGIN)) continue;
    const column = from.map((other) => scores.get(other)!.get(best[0])!).sort((p, q) => q - p);
    if (column[0] !== best[1] || (column[1] !== undefined && best[1] - column[1] < MARGIN)) continue;
    renames.push({ from: x, to: best[0], similarity: Math.round(best[1] * 100) / 100 });
  }
  return renames;
}

function similarity(x: string, y: string, a: Protocol, b: Protocol): number {
  const sx = a.definitions.get(x)!.schema;
  const sy = b.definitions.get(y)!.schema;
  const ox = objectShape(sx, a.definitions);
  const oy = objectShape(sy, b.definitions);
  let structure: number;
  if (ox && oy) {
    for (const [name, schema] of ox.properties) {
      const other = oy.properties.get(name);
      if (other && schema.const !== undefined && other.const !== undefined && schema.const !== other.const) return 0;
    }
    const names = jaccard(new Set(ox.properties.keys()), new Set(oy.properties.keys()));
    const typed = (shape: typeof ox, naming?: (n: string) => string) =>
      new Set([...shape.properties].map(([name, schema]) => `${name}: ${describe(schema, naming)}`));
    structure = (names + jaccard(typed(ox), typed(oy))) / 2;
  } else if (!ox && !oy) structure = jaccard(alternativesOf(sx), alternativesOf(sy));
  else structure = 0;
  return 0.7 * structure + 0.3 * jaccard(words(x), words(y));
}

/** CamelCase words: JSONRPCErrorResponse -> JSONRPC, Error, Response. */
function words(name: string): Set<string> {
  return new Set(name.split(/(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/));
}

function jaccard<T>(x: ReadonlySet<T>, y: ReadonlySet<T>): number {
  if (x.size === 0 && y.size === 0) return 1;
  let shared = 0;
  for (const item of x) if (y.has(item)) shared++;
  return shared / (x.size + y.size - shared);
}
