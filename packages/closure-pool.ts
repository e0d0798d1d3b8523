/**
 * `make` (before anything loads the runtime): writes runtime/json-schema/render/pool.ts (git-ignored),
 * the closures renderer's pool of templates (a run of properties, a loop over items, a gate and the
 * checks behind it, a validator's entry), SLOTS copies of each.
 *
 * Why copies: V8 keeps type feedback per function literal in the source, so every closure made at
 * one place shares it. A run of properties read by names held in data (`o[names[0]]`) is then a
 * megamorphic keyed load in a renderer that serves every schema, about 5 ns a read; in a literal of
 * its own, given to one run for good, the same read sees one name and one shape and costs what a
 * read the code names costs (docs/decisions.md, "Our own JSON Schema compiler at run time, not ajv"). Code generation at run
 * time (`new Function`) is what closures exist to avoid (Workers forbid it); copies written at
 * build time are ordinary source.
 *
 *   node --import tsx packages/closure-pool.ts
 */
import { realpathSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** How many runs get a template of their own: a server's tools have about one run each (the bench's four public servers: 67 for 61 tools). */
export const SLOTS = 96;
/** The most properties a template reads; a longer run is read by the shared closures. */
export const WIDTH = 8;

const OUT = fileURLToPath(new URL("../runtime/json-schema/render/pool.ts", import.meta.url));

/**
 * One copy of each check of a run. Only what must be the copy's own is in it: the reads by name,
 * the for-in over the keys, the leaves of the boolean check (a module function, runLeaf, which V8
 * inlines) and, in the issue check, a one-test property that passes (most of an invalid value's).
 * What else the issue check does with a value (\`s\`) is a closure of the run's, called from one
 * place in the copy, so that V8 may inline it there. A gate's copy (a guard's type test or a
 * `when`'s condition) calls the gate and the checks behind it, four at most (the fourth may be the
 * rest, joined), each from a place of its own, for the same reason; so does a validator's entry
 * (`validate`: the boolean check, then the issue check where it fails).
 */
function templates(slot: number): string {
  // A sub-schema's check (CALL) is called from the copy's own place, where V8 may inline it; runLeaf's would be shared by every run.
  // The leaves first, then (closed) the other keys, then the sub-schemas: whichever fails, the cheap tests before it have run, the dear ones not.
  // Each property read once, into its own local (a getter runs once, as in the printed code).
  const leaves = Array.from({ length: WIDTH }, (_, i) => `(n > ${i} && ((x${i} = o[k[${i}]!]) === undefined ? r[${i}] : p[${i}] !== CALL && !runLeaf(p[${i}]!, a[${i}], x${i})))`).join(" || ");
  // x_i stays undefined past the run's n properties: no `n > i` test here.
  const calls = Array.from({ length: WIDTH }, (_, i) => `(x${i} !== undefined && p[${i}] === CALL && !(a[${i}] as Is)(x${i}))`).join(" || ");
  const locals = Array.from({ length: WIDTH }, (_, i) => `x${i}: unknown`).join(", ");
  const checks = Array.from(
    { length: WIDTH },
    (_, i) => `    if (n > ${i} && ((x = o[k[${i}]!]) === undefined ? r[${i}] : l[${i}] ? !runLeaf(p[${i}]!, a[${i}], x) : b[${i}] !== undefined ? !(a[${i}] as Is)(x) && (b[${i}]!(x, \`\${path}/\${t[${i}]!}\`, issues), false) : true)) s(x, ${i}, v, path, issues);\n`,
  ).join("");
  const others = Array.from({ length: WIDTH }, (_, i) => `y !== k[${i}]`).join(" && ");
  return `function t${slot}(g: boolean | undefined, c: boolean, n: number, k: readonly string[], r: readonly boolean[], p: readonly number[], a: readonly unknown[]): Is {
  const h = p.includes(CALL);
  return (v) => {
    if (g !== undefined && !isObject(v)) return g;
    const o = v as Record<string, unknown>;
    let ${locals};
    if (${leaves}) return false;
    if (c) for (const y in o) if (${others}) return false;
    return !h || !(${calls});
  };
}
function c${slot}<S>(g: Refuse<S> | undefined, c: Refuse<S> | undefined, n: number, k: readonly string[], r: readonly boolean[], l: readonly boolean[], p: readonly number[], a: readonly unknown[], b: readonly (Check<S> | undefined)[], t: readonly string[], s: CheckStep<S>): Check<S> {
  return (v, path, issues) => {
    if (g && !isObject(v)) return g(v, path, issues);
    const o = v as Record<string, unknown>;
    let x: unknown;
${checks}    if (c) for (const y in o) if (${others}) c(v, \`\${path}/\${pointerToken(y)}\`, issues);
  };
}
function i${slot}(g: boolean, f: number, s: Is): Is {
  return (v) => {
    if (g && !Array.isArray(v)) return false;
    const a = v as unknown[];
    for (let i = f; i < a.length; i++) if (!s(a[i])) return false;
    return true;
  };
}
function j${slot}<S>(f: number, s: Is, c: Check<S>): Check<S> {
  return (v, path, issues) => {
    const a = v as unknown[];
    for (let i = f; i < a.length; i++) if (!s(a[i])) c(a[i], \`\${path}/\${i}\`, issues);
  };
}
function s${slot}(g: Is, a: Is, b: Is | undefined, c: Is | undefined, d: Is | undefined): Is {
  return (v) => !g(v) || (a(v) && (b === undefined || b(v)) && (c === undefined || c(v)) && (d === undefined || d(v)));
}
function q${slot}<S>(g: Is, a: Check<S>, b: Check<S> | undefined, c: Check<S> | undefined, d: Check<S> | undefined): Check<S> {
  return (v, path, issues) => {
    if (!g(v)) return;
    a(v, path, issues);
    if (b !== undefined) b(v, path, issues);
    if (c !== undefined) c(v, path, issues);
    if (d !== undefined) d(v, path, issues);
  };
}
function e${slot}<S extends { text: string }>(is: Is, check: Check<S>, sink: new () => S, done: () => void): (v: unknown) => string | undefined {
  return (v) => {
    try {
      if (is(v)) return undefined;
      const issues = new sink();
      check(v, "", issues);
      return issues.text;
    } finally {
      done();
    }
  };
}
`;
}

export function poolSource(): string {
  const copies = Array.from({ length: SLOTS }, (_, slot) => templates(slot)).join("");
  return `// Written by packages/closure-pool.ts (\`make\`): ${SLOTS} copies of one template, each a function literal of its own.
import { isObject, pointerToken } from "../../support/validation.js";
import { CALL, runLeaf } from "./leaf.js";

type Is = (v: unknown) => boolean;
/** An issue check, writing to \`issues\` (closures.ts's Sink). */
export type Check<S> = (v: unknown, path: string, issues: S) => void;
/** The issues of the run's \`i\`th property, of value \`x\` (undefined: absent), in the subject \`v\` at \`path\`. */
export type CheckStep<S> = (x: unknown, i: number, v: unknown, path: string, issues: S) => void;
/** Reports an issue of \`v\` at \`path\`. */
export type Refuse<S> = (v: unknown, path: string, issues: S) => void;

/**
 * The boolean check of a run of at most WIDTH distinct names \`k\` (\`n\` of them): \`g\` the verdict
 * on a subject that is no object (false: a type test before the run; true: a guard around it;
 * undefined: not tested), \`c\` no other key is allowed; each property's leaf (op \`p\`, argument \`a\`,
 * leaf.ts) runs in the copy, with no call of a closure shared by every run; \`r\`: it is required.
 */
export type Template = (g: boolean | undefined, c: boolean, n: number, k: readonly string[], r: readonly boolean[], p: readonly number[], a: readonly unknown[]) => Is;
/**
 * The issue check of the same run: \`g\` checks a subject that is not an object (its type test's
 * issue, or none under a guard), \`c\` reports another key; done here: an absent property that is
 * not required (\`r\`), one whose check is one test (\`l\`: op \`p\`, argument \`a\`, leaf.ts) that
 * passes, and a sub-schema's value (\`b\`, its issue check at the token \`t\`, called where the
 * boolean check \`a\` fails), each call from the copy's own place; anything else (absent and
 * required, failed, chains) goes to \`s\`.
 */
export type CheckTemplate = <S>(
  g: Refuse<S> | undefined,
  c: Refuse<S> | undefined,
  n: number,
  k: readonly string[],
  r: readonly boolean[],
  l: readonly boolean[],
  p: readonly number[],
  a: readonly unknown[],
  b: readonly (Check<S> | undefined)[],
  t: readonly string[],
  s: CheckStep<S>,
) => Check<S>;

export const WIDTH = ${WIDTH};

${copies}
/** The boolean check of the items from index \`f\` (\`g\`: the subject must be an array), each by \`s\`. */
export type ItemsTemplate = (g: boolean, f: number, s: Is) => Is;
/** The issue check of the same items: \`c\` at each item \`s\` refuses. */
export type CheckItemsTemplate = <S>(f: number, s: Is, c: Check<S>) => Check<S>;

export const POOL: readonly Template[] = [${Array.from({ length: SLOTS }, (_, slot) => `t${slot}`).join(", ")}];
export const CHECK_POOL: readonly CheckTemplate[] = [${Array.from({ length: SLOTS }, (_, slot) => `c${slot}`).join(", ")}];
export const ITEMS_POOL: readonly ItemsTemplate[] = [${Array.from({ length: SLOTS }, (_, slot) => `i${slot}`).join(", ")}];
export const CHECK_ITEMS_POOL: readonly CheckItemsTemplate[] = [${Array.from({ length: SLOTS }, (_, slot) => `j${slot}`).join(", ")}];

/** The boolean check of up to four parts in order behind the gate \`g\` (a guard's type test, a \`when\`'s condition), which passes a subject it refuses. */
export type GatedTemplate = (g: Is, a: Is, b: Is | undefined, c: Is | undefined, d: Is | undefined) => Is;
/** The issue check of the same parts. */
export type CheckGatedTemplate = <S>(g: Is, a: Check<S>, b: Check<S> | undefined, c: Check<S> | undefined, d: Check<S> | undefined) => Check<S>;

/** A validator's entry (\`validate\`): \`is\`, then where it fails the issue check into a new \`sink\`, whose text it returns; \`done\` when it returns or throws. */
export type EntryTemplate = <S extends { text: string }>(is: Is, check: Check<S>, sink: new () => S, done: () => void) => (v: unknown) => string | undefined;

export const ENTRY_POOL: readonly EntryTemplate[] = [${Array.from({ length: SLOTS }, (_, slot) => `e${slot}`).join(", ")}];
export const GATED_POOL: readonly GatedTemplate[] = [${Array.from({ length: SLOTS }, (_, slot) => `s${slot}`).join(", ")}];
export const CHECK_GATED_POOL: readonly CheckGatedTemplate[] = [${Array.from({ length: SLOTS }, (_, slot) => `q${slot}`).join(", ")}];
`;
}

// Run as a script (not imported): argv[1] as the real path, as import.meta.url is (a symlinked checkout).
if (process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) writeFileSync(OUT, poolSource());
