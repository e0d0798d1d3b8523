// The runners' verdicts (tools/conformance/verdict.mjs): each rule that makes a run fail, shown failing one.
import { expect } from "chai";
import { readRuntimeRun, REASON_PREFIX, suiteReasons } from "../../tools/conformance/verdict.mjs";

describe("tools/conformance/verdict: suiteReasons", () => {
  const passing = { code: 0, timedOut: false, recorded: 10, silent: [], explained: 0 };

  it("passes a run that exited 0 and recorded checks", () => {
    expect(suiteReasons(passing)).to.deep.equal([]);
  });

  it("fails a run that timed out, recorded nothing, or has a scenario that recorded nothing", () => {
    expect(suiteReasons({ ...passing, timedOut: true })).to.have.length(1);
    expect(suiteReasons({ ...passing, recorded: 0 })).to.have.length(1);
    expect(suiteReasons({ ...passing, silent: ["tools-call"] })).to.deep.equal(["tools-call recorded no checks"]);
  });

  it("excuses a non-zero exit only by a scored failure", () => {
    expect(suiteReasons({ ...passing, code: 1 })).to.deep.equal(["the suite exited 1 and no scored check failed to explain it"]);
    expect(suiteReasons({ ...passing, code: null })).to.have.length(1);
    expect(suiteReasons({ ...passing, code: 1, explained: 2 })).to.deep.equal([]);
  });
});

describe("tools/conformance/verdict: readRuntimeRun", () => {
  const SUITES = ["a", "b"];
  const EXPECTED = [{ suite: "b", problem: "tasks / resumes" }];
  const ok = (name: string) => `conformance: ok   ${name}: 10 passed, 0 failed, 0 warnings (10 checks)`;
  const fail = (name: string, failed = 1) => `conformance: FAIL ${name}: 9 passed, ${failed} failed, 0 warnings (10 checks)`;
  const problem = (scenario: string) => `  FAILURE ${scenario}: why`;
  const run = (lines: string[], code: number | null = 0, timedOut = false) => readRuntimeRun({ output: [...lines, "conformance: totals"].join("\n"), code, timedOut }, SUITES, EXPECTED);

  it("passes a run whose only problem is expected", () => {
    const read = run([ok("a"), fail("b"), problem("tasks / resumes")], 1);
    expect(read.failures).to.deep.equal([]);
    expect(read.suites[1]!.problems).to.deep.equal([{ line: "  FAILURE tasks / resumes: why", expected: true }]);
  });

  it("fails an unexpected problem", () => {
    expect(run([fail("a"), problem("tools / call"), fail("b"), problem("tasks / resumes")], 1).failures).to.deep.equal(["a: unexpected FAILURE tools / call"]);
  });

  it("fails a FAIL verdict that lists no problem (a suite that timed out, recorded nothing or exited non-zero)", () => {
    expect(run([fail("a", 0), fail("b"), problem("tasks / resumes")], 1).failures).to.deep.equal(["a: FAIL without a listed problem"]);
    const withReason = run([fail("a", 0), `  ${REASON_PREFIX}the suite timed out`, fail("b"), problem("tasks / resumes")], 1);
    expect(withReason.failures).to.deep.equal(["a: the suite timed out"]);
  });

  it("fails a suite whose expected problems come with a reason", () => {
    expect(run([ok("a"), fail("b"), problem("tasks / resumes"), `  ${REASON_PREFIX}the suite recorded no checks`], 1).failures).to.deep.equal(["b: the suite recorded no checks"]);
  });

  it("reports a stale expected entry (it passes now) and fails the run", () => {
    expect(run([ok("a"), ok("b")]).failures).to.deep.equal(["b: expected problem tasks / resumes did not occur: the entry is stale, delete it"]);
  });

  it("fails a suite with no verdict, a timed-out run, and a non-zero exit with no failing suite", () => {
    expect(run([ok("a")]).failures).to.deep.equal(["b: no verdict (the suite did not run or its run stopped)"]);
    expect(run([ok("a"), fail("b"), problem("tasks / resumes")], null, true).failures).to.deep.equal(["the run timed out"]);
    expect(run([ok("a"), ok("b")], 1).failures).to.include("the run exited 1 without a failing suite to explain it");
  });
});
