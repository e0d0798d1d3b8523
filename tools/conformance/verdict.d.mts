// Types of verdict.mjs, for the tests that import it.
export function suiteReasons(run: { code: number | null; timedOut: boolean; recorded: number; silent?: readonly string[]; explained: number }): string[];
export const REASON_PREFIX: string;
export interface RuntimeSuite {
  name: string;
  verdict: "ok  " | "FAIL";
  summary: string;
  problems: { line: string; expected: boolean }[];
  reasons: string[];
}
export function readRuntimeRun(
  run: { output: string; code: number | null; timedOut: boolean },
  suiteNames: readonly string[],
  expected: readonly { suite: string; problem: string }[],
): { suites: RuntimeSuite[]; failures: string[] };
