/**
 * The annotations generated code tracks in documents using `unevaluated*` (2020-12 core 11.2):
 * what the keywords of a schema evaluated in a value. A record of code mode's own, cheaper than
 * the closures' (no Set per node): a keyword marks the names it may evaluate once, not each name.
 * - `p`: the evaluated property names: true (all), or matchers: a `properties` keyword's names (a
 *   Set: such a name is evaluated when present, and only present names are ever asked about) and
 *   `patternProperties` regexes; `additionalProperties` evaluates the rest, so makes it true.
 * - `n`: how many leading items `prefixItems`/`items` evaluated; `s`: true, or the indices
 *   `contains` matched.
 */
export interface Annotations {
  p: null | true | (ReadonlySet<string> | RegExp)[];
  n: number;
  s: null | true | number[];
}

export const fresh = (): Annotations => ({ p: null, n: 0, s: null });

export function merge(into: Annotations, from: Annotations): void {
  if (into.p !== true && from.p !== null) into.p = from.p === true ? true : into.p === null ? [...from.p] : into.p.concat(from.p);
  if (from.n > into.n) into.n = from.n;
  if (into.s !== true && from.s !== null) into.s = from.s === true ? true : into.s === null ? [...from.s] : into.s.concat(from.s);
}

export function markNames(a: Annotations, names: ReadonlySet<string> | RegExp): void {
  if (a.p === null) a.p = [names];
  else if (a.p !== true) a.p.push(names);
}

export function markItem(a: Annotations, index: number): void {
  if (a.s === null) a.s = [index];
  else if (a.s !== true) a.s.push(index);
}

export function seenName(a: Annotations, name: string): boolean {
  const { p } = a;
  if (p === null || p === true) return p === true;
  for (let k = 0; k < p.length; k++) {
    const m = p[k]!;
    if (m instanceof RegExp ? m.test(name) : m.has(name)) return true;
  }
  return false;
}

export function seenItem(a: Annotations, index: number): boolean {
  return a.s === true || (a.s !== null && a.s.includes(index));
}
