/**
 * "Did you mean": the closest known name to a mistyped one. Damerau-Levenshtein (optimal string
 * alignment), so a swapped pair of letters costs one edit, as in `genrate` -> `generate`.
 */

/** Edits to turn `a` into `b`: insert, delete, substitute, or swap two neighbours. */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 0; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  return rows[a.length]![b.length]!;
}

/**
 * The known name closest to `input`, when it is close enough to be a typo: at most a third of
 * its length in edits (and at least one), compared without regard to case. Ties go to the first.
 */
export function closest(input: string, known: Iterable<string>): string | undefined {
  const limit = Math.max(1, Math.floor(input.length / 3));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const distance = editDistance(input.toLowerCase(), candidate.toLowerCase());
    if (distance <= limit && distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best;
}

/** ` (did you mean "generate"?)`, or nothing. */
export function didYouMean(input: string, known: Iterable<string>): string {
  const match = closest(input, known);
  return match === undefined ? "" : ` (did you mean ${JSON.stringify(match)}?)`;
}
