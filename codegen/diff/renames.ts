import type { Protocol } from "../model/protocol.js";
import type { Rename, RenameEvidence } from "./report.js";
import { alternativesOf, describe, objectShape } from "./shapes.js";

/**
 * A pair scores at least this to be called a rename. Calibrated on the pinned revisions: the real
 * renames score 0.73 (JSONRPCError -> JSONRPCErrorResponse: same id and jsonrpc, error named)
 * and 0.90 (ResourceReference -> ResourceTemplateReference); a definition renamed with all its
 * references, 0.85. Two JSON-RPC response wrappers of different results (a removed method's
 * `XResultResponse`, an added one's) share every property but the result's type and score about
 * 0.65: not a rename (test/codegen/diff: the synthetic next revision).
 */
export const RENAME_THRESHOLD = 0.7;
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
  const evidence = new Map<string, RenameEvidence>();
  for (const x of from) {
    const row = new Map<string, number>();
    for (const y of to) {
      const found = compare(x, y, a, b);
      row.set(y, found ? 0.7 * found.structure + 0.3 * found.name : 0);
      if (found) evidence.set(`${x}\n${y}`, found);
    }
    scores.set(x, row);
  }
  const renames: Rename[] = [];
  for (const x of from) {
    const row = [...scores.get(x)!].sort((p, q) => q[1] - p[1]);
    const [best, second] = row;
    if (!best || best[1] < RENAME_THRESHOLD || (second && best[1] - second[1] < MARGIN)) continue;
    const column = from.map((other) => scores.get(other)!.get(best[0])!).sort((p, q) => q - p);
    if (column[0] !== best[1] || (column[1] !== undefined && best[1] - column[1] < MARGIN)) continue;
    renames.push({ from: x, to: best[0], similarity: Math.round(best[1] * 100) / 100, evidence: evidence.get(`${x}\n${best[0]}`)! });
  }
  return renames;
}

/** How alike two definitions are, and why; undefined when a shared constant (a method) differs. */
function compare(x: string, y: string, a: Protocol, b: Protocol): RenameEvidence | undefined {
  const sx = a.definitions.get(x)!.schema;
  const sy = b.definitions.get(y)!.schema;
  const ox = objectShape(sx, a.definitions);
  const oy = objectShape(sy, b.definitions);
  const round = (n: number) => Math.round(n * 100) / 100;
  const wx = words(x);
  const wy = words(y);
  const name = jaccard(wx, wy);
  const sharedWords = [...wx].filter((w) => wy.has(w));
  if (ox && oy) {
    for (const [property, schema] of ox.properties) {
      const other = oy.properties.get(property);
      if (other && schema.const !== undefined && other.const !== undefined && schema.const !== other.const) return undefined;
    }
    const names = jaccard(new Set(ox.properties.keys()), new Set(oy.properties.keys()));
    const typed = (shape: typeof ox) => new Set([...shape.properties].map(([property, schema]) => `${property}: ${describe(schema)}`));
    const same: string[] = [];
    const retyped: string[] = [];
    for (const [property, schema] of ox.properties) {
      const other = oy.properties.get(property);
      if (other) (describe(schema) === describe(other) ? same : retyped).push(property);
    }
    return {
      structure: round((names + jaccard(typed(ox), typed(oy))) / 2),
      name: round(name),
      same,
      retyped,
      onlyBefore: [...ox.properties.keys()].filter((p) => !oy.properties.has(p)),
      onlyAfter: [...oy.properties.keys()].filter((p) => !ox.properties.has(p)),
      sharedWords,
    };
  }
  const structure = !ox && !oy ? jaccard(alternativesOf(sx), alternativesOf(sy)) : 0;
  return { structure: round(structure), name: round(name), same: [], retyped: [], onlyBefore: [], onlyAfter: [], sharedWords };
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
