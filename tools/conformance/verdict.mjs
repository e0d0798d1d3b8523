// How the runners judge a run: the conformance runners (run.mjs, auth/run.mjs) a suite's exit code
// and recorded checks, the runtimes runner (../runtimes/run.mjs) what run.mjs printed. Pure
// functions, so that test/tools/verdict.test.ts can show each rule failing a run.

/**
 * Why a suite's run fails besides its unexcused problems (the caller lists those); empty when
 * nothing else is wrong. `recorded`: checks read back; `silent`: scenarios that ran and recorded
 * no check; `explained`: scored checks that failed, excused or not. A non-zero exit stands unless
 * such a failure explains it: failures of unscored scenarios do not.
 */
export function suiteReasons({ code, timedOut, recorded, silent = [], explained }) {
  const reasons = [];
  if (timedOut) reasons.push("the suite timed out");
  if (recorded === 0) reasons.push("the suite recorded no checks");
  for (const scenario of silent) reasons.push(`${scenario} recorded no checks`);
  if (code !== 0 && explained === 0) reasons.push(`the suite exited ${code} and no scored check failed to explain it`);
  return reasons;
}

/** How run.mjs marks a reason line under a suite's verdict, for readRuntimeRun. */
export const REASON_PREFIX = "because: ";

/**
 * What tools/conformance/run.mjs printed for one runtime, judged against that runtime's expected
 * problems (`{ suite, problem: "scenario / check" }`). Returns each suite with its problems (each
 * marked expected or not), and `failures`: every reason the runtime fails: an unexpected problem,
 * a FAIL without a listed problem, a reason line, a suite missing from the output, an expected
 * entry that now passes (stale: delete it), a run that timed out, or a non-zero exit nothing explains.
 */
export function readRuntimeRun({ output, code, timedOut }, suiteNames, expected) {
  const suites = [];
  const failures = [];
  for (const line of output.split("\n")) {
    const verdict = /^conformance: (ok  |FAIL) (.*?): (.*)$/.exec(line);
    if (verdict) {
      suites.push({ name: verdict[2], verdict: verdict[1], summary: verdict[3].trimEnd(), problems: [], reasons: [] });
      continue;
    }
    const suite = suites.at(-1);
    if (!suite) continue;
    const reason = line.trim().startsWith(REASON_PREFIX) ? line.trim().slice(REASON_PREFIX.length) : undefined;
    if (reason !== undefined) {
      suite.reasons.push(reason);
      failures.push(`${suite.name}: ${reason}`);
      continue;
    }
    const problem = /^\s+(FAILURE|WARNING) (.+? \/ \S+):/.exec(line);
    if (!problem) continue;
    const isExpected = expected.some((e) => e.suite === suite.name && e.problem === problem[2]);
    if (!isExpected) failures.push(`${suite.name}: unexpected ${problem[1]} ${problem[2]}`);
    suite.problems.push({ line: line.trimEnd(), expected: isExpected });
  }
  for (const suite of suites)
    if (suite.verdict === "FAIL" && suite.problems.length === 0 && suite.reasons.length === 0) failures.push(`${suite.name}: FAIL without a listed problem`);
  for (const name of suiteNames) if (!suites.some((s) => s.name === name)) failures.push(`${name}: no verdict (the suite did not run or its run stopped)`);
  for (const entry of expected) {
    const suite = suites.find((s) => s.name === entry.suite);
    if (suite && !suite.problems.some((p) => p.expected && p.line.includes(` ${entry.problem}:`)))
      failures.push(`${entry.suite}: expected problem ${entry.problem} did not occur: the entry is stale, delete it`);
  }
  if (timedOut) failures.push("the run timed out");
  if (code !== 0 && !suites.some((s) => s.verdict === "FAIL")) failures.push(`the run exited ${code} without a failing suite to explain it`);
  return { suites, failures };
}
