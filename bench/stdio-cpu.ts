// CPU time per call over stdio, both processes counted, our client and server (the packed server,
// bench/servers/ours.mjs) beside the floor of bench/runtime.ts (node alone echoing lines,
// bench/servers/echo.mjs, fed by a raw client), 16 calls in flight, both eras, in one run.
//
//   node --import tsx bench/stdio-cpu.ts [--quick] [--runs N]
//
// The calls/s of bench/runtime.ts's stdio rows swing with how the kernel schedules the two
// processes' ping-pong (both sides sit idle half the time; on a machine shared with other work
// the same code measured 53k and 132k calls/s): CPU time per call does not. "floor / ours" is what
// fraction of the floor's rate ours would reach with the CPU as the only bound. Runs alternate
// ours and the floor; figures are medians. Every loop is bounded in count and time.
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { median } from "./http/client.js";
import { runtime } from "./support/ours.js";
import { processCpuMs } from "./support/process-cpu.js";
import { record } from "./support/results.js";

const { values } = parseArgs({ options: { quick: { type: "boolean", default: false }, runs: { type: "string" } } });
const RUNS = Number(values.runs ?? (values.quick ? 3 : 5));
const RUN_MS = values.quick ? 1_500 : 3_000;
const WARMUP_CALLS = 3_000;
const MAX_CALLS = 2_000_000;
const IN_FLIGHT = 16;
const TEXT = "hello, echo";
const servers = join(dirname(fileURLToPath(import.meta.url)), "servers");

type Era = "2025-11-25" | "2026-07-28";
interface Side {
  call(): Promise<void>;
  readonly pid: number;
  close(): Promise<void>;
}

async function ours(era: Era): Promise<Side> {
  const transport = await runtime.spawnStdio(process.execPath, [join(servers, "ours.mjs")]);
  const client = await runtime.McpClient.connect(transport, { name: "bench", version: "1.0.0", revision: era as never, logger: () => {} });
  return {
    pid: transport.pid!,
    call: async () => {
      if (((await client.callTool("echo", { text: TEXT })).content as { text?: string }[])[0]?.text !== TEXT) throw new Error("the echo did not come back");
    },
    close: () => client.close(),
  };
}

/** bench/runtime.ts's floor: the era's request line to node alone echoing it. */
async function floor(era: Era): Promise<Side> {
  const meta = { "io.modelcontextprotocol/protocolVersion": era, "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1.0.0" } };
  const params = era === "2026-07-28" ? { name: "echo", arguments: { text: TEXT }, _meta: meta } : { name: "echo", arguments: { text: TEXT } };
  const child = spawn(process.execPath, [join(servers, "echo.mjs")], { stdio: ["pipe", "pipe", "inherit"] });
  const answers = new Map<number, () => void>();
  let pending = "";
  child.stdout.setEncoding("utf8").on("data", (data: string) => {
    pending += data;
    for (let end; (end = pending.indexOf("\n")) >= 0; pending = pending.slice(end + 1)) {
      const response = JSON.parse(pending.slice(0, end)) as { id: number; result: { content: { text: string }[] } };
      if (response.result.content[0]?.text !== TEXT) throw new Error("the echo did not come back");
      answers.get(response.id)?.();
      answers.delete(response.id);
    }
  });
  let id = 0;
  return {
    pid: child.pid!,
    call: () =>
      new Promise<void>((resolve) => {
        answers.set(++id, resolve);
        child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params })}\n`);
      }),
    close: async () => void child.kill(),
  };
}

/** One run: a warm-up, then IN_FLIGHT calls outstanding for RUN_MS; calls/s and CPU µs per call of this process and of the server. */
async function measure(side: Side): Promise<{ rate: number; cpu: number }> {
  for (let i = 0; i < WARMUP_CALLS; i++) await side.call();
  let calls = 0;
  const client0 = process.cpuUsage();
  const server0 = processCpuMs(side.pid);
  const started = performance.now();
  const deadline = started + RUN_MS;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (performance.now() < deadline && calls < MAX_CALLS) {
        await side.call();
        calls++;
      }
    }),
  );
  const elapsed = performance.now() - started;
  const client = process.cpuUsage(client0);
  return { rate: calls / (elapsed / 1000), cpu: (client.user + client.system + (processCpuMs(side.pid) - server0) * 1000) / calls };
}

console.log(`stdio, ${IN_FLIGHT} calls in flight: CPU µs per call of both processes (medians of ${RUNS} runs of ${RUN_MS} ms), ours and the echo floor\n`);
console.log("| era | ours µs/call | floor µs/call | floor / ours | ours calls/s | floor calls/s |");
console.log("|---|---:|---:|---:|---:|---:|");
for (const era of ["2025-11-25", "2026-07-28"] as const) {
  const results = { ours: { rate: [] as number[], cpu: [] as number[] }, floor: { rate: [] as number[], cpu: [] as number[] } };
  for (let run = 0; run < RUNS; run++)
    for (const name of run % 2 ? (["floor", "ours"] as const) : (["ours", "floor"] as const)) {
      const side = await (name === "ours" ? ours(era) : floor(era));
      try {
        const { rate, cpu } = await measure(side);
        results[name].rate.push(rate);
        results[name].cpu.push(cpu);
      } finally {
        await side.close();
      }
    }
  const cpu = (name: "ours" | "floor") => median(results[name].cpu);
  const rate = (name: "ours" | "floor") => Math.round(median(results[name].rate)).toLocaleString("en-US");
  console.log(`| ${era} | ${cpu("ours").toFixed(1)} | ${cpu("floor").toFixed(1)} | ${(cpu("floor") / cpu("ours")).toFixed(2)}x | ${rate("ours")} | ${rate("floor")} |`);
  for (const name of ["ours", "floor"] as const)
    record({ bench: "stdio-cpu", measure: `${era}, 16 in flight, CPU per call (both processes)`, contender: name, unit: "µs", median: cpu(name), runs: results[name].cpu });
}
