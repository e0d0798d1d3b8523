/**
 * The timing harness of the validator benchmarks (bench/validators.ts, bench/tool-validators.ts,
 * bench/support/tool-schema-timing.ts):
 * a (value, validator) pair gets a loop of its own, a calibrated iteration count of about
 * `runMs`, and timed runs in CPU time of this process (process.cpuUsage, user + system), so that
 * other work on a shared machine does not land in one column by chance. Every loop is bounded in
 * iterations and in (wall) time.
 */

export type Check = (value: unknown) => boolean;

export interface Timing {
  /** Target duration of one timed run. */
  readonly runMs: number;
  /** No pair runs longer than this in all (calibration, warm-up and runs). */
  readonly pairBudgetMs: number;
  readonly maxIterations: number;
}

/**
 * A loop of its own for one pair: `new Function` gives each its own feedback and inline caches,
 * so no validator is measured through a call site made megamorphic by the others.
 */
function makeLoop(): (check: Check, value: unknown, iterations: number) => number {
  return new Function(
    "check",
    "value",
    "iterations",
    "let accepted = 0; for (let i = 0; i < iterations; i++) if (check(value)) accepted++; return accepted;",
  ) as (check: Check, value: unknown, iterations: number) => number;
}

export interface Pair<Name extends string = string> {
  readonly name: Name;
  readonly check: Check;
  readonly loop: ReturnType<typeof makeLoop>;
  iterations: number;
  readonly opsPerSecond: number[];
  spentMs: number;
}

/**
 * A tool-schema validator (undefined when the value is accepted) as a Check, made by a function of
 * its own: one arrow shared by the engines would share its call site's feedback, so the engine
 * timed first runs monomorphic and the others not.
 */
export function acceptedBy(validator: (value: unknown) => unknown): Check {
  return new Function("validator", "return (value) => validator(value) === undefined;")(validator) as Check;
}

export function newPair<Name extends string>(name: Name, check: Check): Pair<Name> {
  return { name, check, loop: makeLoop(), iterations: 1, opsPerSecond: [], spentMs: 0 };
}

/**
 * About `runMs` worth of iterations, found by doubling, then checked warm: the first doublings run
 * cold (interpreted, compiled on the way), so their estimate can be far too low, and a run of a few
 * microseconds is all timer and no check. Bounded in count and time.
 */
export function calibrate(pair: Pair, value: unknown, timing: Timing): void {
  const timed = (iterations: number) => {
    const t0 = performance.now();
    pair.loop(pair.check, value, iterations);
    const elapsed = performance.now() - t0;
    pair.spentMs += elapsed;
    return elapsed;
  };
  const estimate = (iterations: number, elapsed: number) => Math.max(1, Math.min(timing.maxIterations, Math.round((iterations * timing.runMs) / Math.max(elapsed, 0.001))));
  for (let iterations = 1; ; iterations *= 2) {
    const elapsed = timed(iterations);
    if (elapsed >= timing.runMs / 4 || iterations >= timing.maxIterations || pair.spentMs > timing.pairBudgetMs / 3) {
      pair.iterations = estimate(iterations, elapsed);
      break;
    }
  }
  // Twice in a row at least half of runMs: one slow run (a collection) does not end it.
  for (let round = 0, long = 0; round < 6 && long < 2 && pair.iterations < timing.maxIterations && pair.spentMs <= timing.pairBudgetMs / 2; round++) {
    const elapsed = timed(pair.iterations);
    if (elapsed >= timing.runMs / 2) long++;
    else [long, pair.iterations] = [0, estimate(pair.iterations, elapsed)];
  }
}

export function timeRun(pair: Pair, value: unknown, timing: Timing): void {
  if (pair.spentMs > timing.pairBudgetMs && pair.opsPerSecond.length > 0) return;
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  pair.loop(pair.check, value, pair.iterations);
  const cpu = process.cpuUsage(cpu0);
  pair.spentMs += performance.now() - t0;
  const cpuMs = (cpu.user + cpu.system) / 1000;
  pair.opsPerSecond.push((pair.iterations * 1000) / Math.max(cpuMs, 0.001));
}

export const median = (xs: readonly number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

/** At most this many warm-up runs per pair (warmUp). */
const MAX_WARM_UP_RUNS = 80;
/** Runs in a row with no new best (3% above it) that end a warm-up. */
const FLAT_RUNS = 10;

/**
 * Runs (discarded) until the pair's rate stops rising: FLAT_RUNS runs in a row no faster than 3%
 * above the best before them, within MAX_WARM_UP_RUNS and a third of the pair's budget (one run at
 * least); then the iterations for about `runMs` at the rate reached, as calibrate found them at
 * the rate it saw. V8 optimizes
 * each function when it is hot, so code made of many small ones (the closures of
 * runtime/json-schema/render/closures.ts, hundreds for the suite's unevaluatedProperties file)
 * climbs for a while: 3k to 57k ops/s over its first 600 ms there, where ajv's one function per
 * schema is at its speed after one run. The climb has flat stretches, five or six 30 ms runs long
 * there, while V8's compiler threads (whose CPU time the rate counts) optimize the next functions:
 * two flat runs ended the warm-up inside one, and the timed runs then fell anywhere on the climb
 * (0.32x-0.51x ajv for closures on that file's invalid data, run to run; 0.54x-0.57x with ten).
 * The figures are of the steady state a server reaches.
 */
function warmUp(pair: Pair, value: unknown, timing: Timing): void {
  let best = 0;
  let rate = 0;
  for (let run = 0, flat = 0; run < MAX_WARM_UP_RUNS && flat < FLAT_RUNS && (run === 0 || pair.spentMs <= timing.pairBudgetMs / 3); run++) {
    timeRun(pair, value, timing);
    rate = pair.opsPerSecond.pop()!;
    flat = rate > best * 1.03 ? 0 : flat + 1;
    best = Math.max(best, rate);
  }
  // Calibrated cold, a pair that got ten times faster would time runs a tenth of runMs long.
  pair.iterations = Math.max(1, Math.min(timing.maxIterations, Math.round((rate * timing.runMs) / 1000)));
}

/** Calibrates each pair on `value`, warms it up (warmUp: runs discarded), then `runs` timed runs interleaved across the pairs. */
export function timePairs(pairs: readonly Pair[], value: unknown, timing: Timing, runs: number): void {
  for (const pair of pairs) calibrate(pair, value, timing);
  for (const pair of pairs) warmUp(pair, value, timing);
  for (const pair of pairs) pair.opsPerSecond.length = 0;
  for (let run = 0; run < runs; run++) for (const pair of pairs) timeRun(pair, value, timing);
}

/** Rows of cells as a table on stdout: the first column left-aligned, the others right-aligned. */
export function printTable(rows: readonly (readonly string[])[]): void {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const row of rows) console.log(row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  "));
}
