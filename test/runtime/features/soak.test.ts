// The soak (issue 5): 100k tool calls over the in-memory transport, with random cancellations
// (the client's AbortSignal) and progress notifications. Every request gets exactly one outcome,
// both at the client (its promise settles once: a result, or the abort) and on the wire (a
// response, or a cancellation received while it was open: never both, never neither), no progress
// follows a response or a cancellation, and the heap after a forced GC stays within 10% between
// the end of the first quarter and the end of the last. It runs in a child process
// (test/support/features-soak.ts) started with --expose-gc, bounded by a kill timer.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect } from "chai";
import type { Report } from "../../support/features-soak.js";

const SOAK = fileURLToPath(new URL("../../support/features-soak.ts", import.meta.url));
/** The kill timer of one soak process: a hung soak fails instead of hanging the suite. */
const KILL_AFTER_MS = 50_000;

function soak(...args: string[]): Promise<Report> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ["--expose-gc", "--import", "tsx", SOAK, ...args],
      { timeout: KILL_AFTER_MS, killSignal: "SIGKILL", maxBuffer: 1 << 20 },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`soak ${args.join(" ")} failed: ${error.message}\n${stderr}`));
        const line = stdout.trim().split("\n").at(-1) ?? "";
        try {
          resolve(JSON.parse(line) as Report);
        } catch {
          reject(new Error(`soak printed no report: ${JSON.stringify(stdout.slice(-500))}\n${stderr}`));
        }
      },
    );
  });
}

/** |last - first| / first of the heap after GC at the end of the first and the last quarter. */
function drift(report: Report): number {
  const first = report.heap[0]!;
  const last = report.heap[report.heap.length - 1]!;
  return Math.abs(last - first) / first;
}

function describeRun(report: Report): string {
  const mb = (bytes: number) => (bytes / 1048576).toFixed(1);
  return `${report.calls} calls at ${report.revision} in ${report.elapsedMs} ms: ${report.results} results, ${report.aborted} aborted, heap ${report.heap.map(mb).join(" / ")} MB`;
}

function expectOneOutcomeEach(report: Report, calls: number): void {
  expect(report.calls).to.equal(calls);
  expect(report.otherErrors, "no call failed other than by its own abort").to.deep.equal([]);
  expect(report.notExactlyOnce, "calls whose promise did not settle exactly once").to.equal(0);
  expect(report.results + report.aborted).to.equal(calls);
  expect(report.badOutcomes, "request ids without exactly one outcome on the wire").to.deep.equal([]);
  expect(report.violations, "progress after a response or cancellation, or a response after a cancellation").to.deep.equal([]);
  // The run did what it claims: many cancellations reached the server mid-call, and progress flowed.
  expect(report.cancelledOnWire).to.equal(report.aborted);
  expect(report.aborted).to.be.greaterThan(calls / 20);
  expect(report.results).to.be.greaterThan(calls / 2);
  expect(report.progressSeen).to.be.greaterThan(calls);
  // Every call that got a result got one response (+1: initialize or server/discover).
  expect(report.responses).to.equal(report.results + 1);
}

describe("features: soak", () => {
  it("100k tool calls at 2025-11-25 with random cancellations and progress: one outcome each, a flat heap", async () => {
    const report = await soak("--calls=100000", "--revision=2025-11-25", "--seed=1");
    console.log(`      ${describeRun(report)}`);
    expectOneOutcomeEach(report, 100_000);
    expect(drift(report), `heap after GC, first vs last quarter: ${report.heap.join(", ")}`).to.be.at.most(0.1);
  });

  it("50k tool calls at 2026-07-28 (stateless) with random cancellations and progress: one outcome each, a flat heap", async () => {
    const report = await soak("--calls=50000", "--revision=2026-07-28", "--seed=7");
    console.log(`      ${describeRun(report)}`);
    expectOneOutcomeEach(report, 50_000);
    expect(drift(report), `heap after GC, first vs last quarter: ${report.heap.join(", ")}`).to.be.at.most(0.1);
  });

  it("the heap check catches a leak: a tool that keeps every context grows the heap past 10%", async () => {
    const report = await soak("--calls=20000", "--revision=2025-11-25", "--leak");
    expectOneOutcomeEach(report, 20_000);
    expect(drift(report), `heap after GC: ${report.heap.join(", ")}`).to.be.greaterThan(0.1);
  });
});
