// tools/call throughput over Streamable HTTP on node:http: our endpoint against SDK v2 and SDK v1,
// each set up the way its own docs do (bench/http/server.ts says how), beside the floor: node:http
// alone answering the same echo with JSON.parse + JSON.stringify, the best any MCP server could do
// on this transport. Same machine, same run, same client.
//
//   node --import tsx bench/http.ts [--quick] [--runs N] [--era 2025-11-25|2026-07-28] [--mode json|sse]
//
// Each server runs in a child process (bench/http/server.ts); this process is the load: 16
// clients, each with one call in flight at a time over a keep-alive connection (in 2025-11-25 each
// its own session: initialize + notifications/initialized), calling an echo tool as fast as answers
// come. The client is raw node:http (bench/http/client.ts), identical for every server, so it
// costs each the same. Both eras (SDK v1 speaks 2025-11-25 only), two answer modes: JSON (ours: the
// default "auto"; SDK v1/v2: enableJsonResponse, or responseMode "auto" in 2026-07-28) and SSE (ours: responseMode
// "sse"; the SDKs: their default or "sse"). Every run measures each server once, the order rotating
// from run to run; the figure is the median calls/s over the runs, the spread is the slowest and
// fastest run, and the ratios are of medians. Every loop is bounded in count and time. On Linux a
// second table gives each server's CPU time per call (median over the runs, from /proc schedstat), which a
// machine shared with other work disturbs less than the rates.
import { spawn, type ChildProcess } from "node:child_process";
import { Agent } from "node:http";
import { cpus } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { median, Session, type Era } from "./http/client.js";
import { processCpuMs } from "./support/process-cpu.js";
import { record } from "./support/results.js";

const { values } = parseArgs({ options: { quick: { type: "boolean", default: false }, runs: { type: "string" }, era: { type: "string" }, mode: { type: "string" } } });
const CLIENTS = 16;
const RUNS = Number(values.runs ?? (values.quick ? 3 : 5));
const RUN_MS = values.quick ? 1_000 : 2_000;
/** Calls before a server's first run (JIT); before every later run, a few per client (fresh connections). */
const WARMUP_CALLS = values.quick ? 2_000 : 5_000;
const REWARM_CALLS = 20 * CLIENTS;
/** Per run, whatever the time: a bound on the work. */
const MAX_CALLS_PER_RUN = 2_000_000;
const here = dirname(fileURLToPath(import.meta.url));

type Impl = "ours" | "v2" | "v1" | "floor";
type Mode = "json" | "sse";

interface Target {
  readonly url: URL;
  readonly child: ChildProcess;
}

async function startTarget(impl: Impl, era: Era, mode: Mode): Promise<Target> {
  const child = spawn(process.execPath, ["--import", "tsx", join(here, "http", "server.ts"), impl, era, mode], { stdio: ["pipe", "pipe", "inherit"] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`${impl} ${era} ${mode} did not start within 30 s`)), 30_000);
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      const found = /listening on (\S+)/.exec(out);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]!);
      }
    });
    child.once("exit", (code) => reject(new Error(`${impl} ${era} ${mode} exited with ${code}`)));
  });
  return { url: new URL(url), child };
}

function stopTarget(target: Target): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => (target.child.kill("SIGKILL"), resolve()), 5_000);
    target.child.once("exit", () => (clearTimeout(timer), resolve()));
    target.child.stdin!.end();
  });
}

/** Calls per second of CLIENTS sessions for RUN_MS (at most MAX_CALLS_PER_RUN calls), after `warmup` calls, and the server's CPU µs per call. */
async function measure(target: Target, era: Era, warmup: number): Promise<{ rate: number; cpu: number | undefined }> {
  const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
  try {
    const sessions = Array.from({ length: CLIENTS }, () => new Session(target.url, agent, era));
    await Promise.all(sessions.map((s) => s.open()));
    const echo = async (session: Session, text: string) => {
      if ((await session.call("echo", { text })) !== text) throw new Error(`${target.url}: the echo did not come back`);
    };
    let warm = 0;
    await Promise.all(
      sessions.map(async (s) => {
        while (warm < warmup) {
          warm++;
          await echo(s, "warm");
        }
      }),
    );
    let calls = 0;
    const cpuBefore = processCpuMs(target.child.pid);
    const started = performance.now();
    const deadline = started + RUN_MS;
    await Promise.all(
      sessions.map(async (s, i) => {
        while (performance.now() < deadline && calls < MAX_CALLS_PER_RUN) {
          await echo(s, `client ${i}`);
          calls++;
        }
      }),
    );
    const rate = calls / ((performance.now() - started) / 1000);
    const cpuUs = ((processCpuMs(target.child.pid) - cpuBefore) * 1000) / calls;
    return { rate, cpu: Number.isNaN(cpuUs) ? undefined : cpuUs };
  } finally {
    agent.destroy();
  }
}

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
const ratio = (a: number, b: number | undefined) => (b === undefined ? "-" : `${(a / b).toFixed(2)}x`);

console.log(`tools/call over Streamable HTTP on node:http, ${CLIENTS} concurrent clients (one call in flight each), ${RUNS} runs of ${RUN_MS} ms, median calls/s (slowest-fastest run)`);
console.log(`node ${process.version}, ${cpus().length} cores; servers in child processes, bound to 127.0.0.1\n`);
console.log("| era, answers | ours | SDK v2 | SDK v1 | floor | ours / floor | ours / v2 | ours / v1 |");
console.log("|---|---:|---:|---:|---:|---:|---:|---:|");
const cpuRows: string[] = [];
for (const era of (["2025-11-25", "2026-07-28"] as const).filter((e) => (values.era ?? e) === e))
  for (const mode of (["json", "sse"] as const).filter((m) => (values.mode ?? m) === m)) {
    const impls: Impl[] = era === "2025-11-25" ? ["ours", "v2", "v1", "floor"] : ["ours", "v2", "floor"];
    const targets = new Map<Impl, Target>();
    try {
      for (const impl of impls) targets.set(impl, await startTarget(impl, era, mode));
      const runs = new Map<Impl, number[]>(impls.map((impl) => [impl, []]));
      const cpu = new Map<Impl, number[]>(impls.map((impl) => [impl, []]));
      for (let run = 0; run < RUNS; run++)
        for (let i = 0; i < impls.length; i++) {
          const impl = impls[(i + run) % impls.length]!;
          const measured = await measure(targets.get(impl)!, era, run === 0 ? WARMUP_CALLS : REWARM_CALLS);
          runs.get(impl)!.push(measured.rate);
          if (measured.cpu !== undefined) cpu.get(impl)!.push(measured.cpu);
        }
      const cpuOf = (impl: Impl) => (cpu.get(impl)?.length ? median(cpu.get(impl)!) : undefined);
      const cpuCell = (impl: Impl) => (cpuOf(impl) === undefined ? "-" : cpuOf(impl)!.toFixed(0));
      const oursCpu = cpuOf("ours");
      if (oursCpu !== undefined)
        cpuRows.push(`| ${era}, ${mode === "json" ? "JSON" : "SSE"} | ${cpuCell("ours")} | ${cpuCell("v2")} | ${cpuCell("v1")} | ${cpuCell("floor")} | ${ratio(oursCpu, cpuOf("floor"))} | ${ratio(oursCpu, cpuOf("v2"))} |`);
      const med = new Map([...runs].map(([impl, rates]) => [impl, median(rates)]));
      const cell = (impl: Impl) => (runs.has(impl) ? `${fmt(med.get(impl)!)} (${fmt(Math.min(...runs.get(impl)!))}-${fmt(Math.max(...runs.get(impl)!))})` : "-");
      const ours = med.get("ours")!;
      for (const [impl, rates] of runs) {
        record({ bench: "http", measure: `${era}, ${mode === "json" ? "JSON" : "SSE"} answers, calls/s`, contender: impl, unit: "calls/s", median: med.get(impl)!, runs: rates });
        if (cpu.get(impl)!.length > 0) record({ bench: "http", measure: `${era}, ${mode === "json" ? "JSON" : "SSE"} answers, server CPU per call`, contender: impl, unit: "µs", median: cpuOf(impl)!, runs: cpu.get(impl)! });
      }
      console.log(`| ${era}, ${mode === "json" ? "JSON" : "SSE"} | ${cell("ours")} | ${cell("v2")} | ${cell("v1")} | ${cell("floor")} | ${ratio(ours, med.get("floor"))} | ${ratio(ours, med.get("v2"))} | ${ratio(ours, med.get("v1"))} |`);
    } finally {
      await Promise.all([...targets.values()].map(stopTarget));
    }
  }
if (cpuRows.length > 0) {
  console.log("\nServer CPU time per call, µs (median over the runs; lower is better):\n");
  console.log("| era, answers | ours | SDK v2 | SDK v1 | floor | ours / floor | ours / v2 |");
  console.log("|---|---:|---:|---:|---:|---:|---:|");
  for (const row of cpuRows) console.log(row);
}
