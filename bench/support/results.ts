/**
 * The machine-readable side of the benches: each figure a bench prints that belongs in the
 * performance table is also recorded here, one JSON line per figure, into the file named by
 * BENCH_RESULTS (bench/run.ts sets it and gathers the lines into bench/results/latest.json;
 * bench/report.ts turns that into docs/benchmarks.md). Without BENCH_RESULTS nothing is written.
 */
import { appendFileSync } from "node:fs";

export interface Figure {
  /** The bench file, without .ts. */
  readonly bench: string;
  /** The row: what was measured (e.g. "2025-11-25, 16 clients"). */
  readonly measure: string;
  /** The column: ours, v2 (SDK v2), v1 (SDK v1), floor, or a configuration's name. */
  readonly contender: string;
  readonly unit: string;
  /** The figure shown: the median of `runs`. */
  readonly median: number;
  /** Every run's figure, so the spread is on record. */
  readonly runs: readonly number[];
}

export function record(figure: Figure): void {
  const file = process.env.BENCH_RESULTS;
  if (file) appendFileSync(file, `${JSON.stringify(figure)}\n`);
}
