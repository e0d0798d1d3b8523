// What observability costs per call: tools/call of an echo tool in memory, one at a time, our
// client and server (the compiled dist/, `make build`), in both eras, with
//   - none:      no hook (the default: the path without hooks);
//   - noop:      one hook that only calls next(), on each side;
//   - otel:      otel() on each side, @opentelemetry/api with nothing registered;
//   - otel-sdk:  otel() on each side with the SDK registered (BasicTracerProvider with a span
//                processor that drops the spans, a MeterProvider without reader, the async-hooks
//                context manager, the W3C propagator): spans made, trace context sent and read.
//
//   node --import tsx bench/hooks.ts [--quick]
//
// Each measure runs in a worker process of its own (this file with --worker), the modes taking
// turns ROUNDS times; the median calls/s is reported with the spread, and the time each mode adds
// to a call. Reported, never asserted.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { record } from "./support/results.js";

const MODES = ["none", "noop", "otel", "otel-sdk"] as const;
type Mode = (typeof MODES)[number];
const REVISIONS = ["2025-11-25", "2026-07-28"] as const;

const { values } = parseArgs({ options: { quick: { type: "boolean", default: false }, worker: { type: "string" }, revision: { type: "string" } }, allowPositionals: false });
const QUICK = values.quick;
const ROUNDS = QUICK ? 3 : 7;
const WARMUP = QUICK ? 20_000 : 50_000;
const CALLS = QUICK ? 40_000 : 100_000;

async function worker(mode: Mode, revision: string): Promise<number> {
  const { runtime } = await import("./support/ours.js");
  const quiet = () => {};
  let hooks: unknown[] | undefined;
  if (mode === "otel-sdk") {
    const api = await import("@opentelemetry/api");
    const { BasicTracerProvider, SimpleSpanProcessor } = await import("@opentelemetry/sdk-trace-base");
    const { MeterProvider } = await import("@opentelemetry/sdk-metrics");
    const { AsyncLocalStorageContextManager } = await import("@opentelemetry/context-async-hooks");
    const { W3CTraceContextPropagator } = await import("@opentelemetry/core");
    const drop = { export: (_spans: unknown, done: (result: { code: number }) => void) => done({ code: 0 }), shutdown: async () => {} };
    api.trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(drop)] }));
    api.metrics.setGlobalMeterProvider(new MeterProvider());
    api.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    api.propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  }
  if (mode === "otel" || mode === "otel-sdk") {
    const { otel } = (await import(new URL("../dist/runtime/otel.js", import.meta.url).href)) as typeof import("../runtime/otel.js");
    hooks = [otel()];
  }
  if (mode === "noop") hooks = [(_exchange: unknown, next: () => Promise<unknown>) => next()];
  const server = runtime.createServer({ name: "bench", version: "1.0.0", logger: quiet, ...(hooks && { hooks: hooks as never }) });
  server.tool({ name: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } }, ({ text }: { text: string }) => ({
    content: [{ type: "text", text }],
  }));
  const [clientEnd, serverEnd] = runtime.createMemoryPair();
  await server.listen(serverEnd);
  const client = await runtime.McpClient.connect(clientEnd, { name: "bench", version: "1.0.0", logger: quiet, revision: revision as never, ...(hooks && { hooks: hooks as never }) });
  const run = async (count: number) => {
    for (let i = 0; i < count; i++) await client.callTool("echo", { text: "hello" });
  };
  await run(WARMUP);
  const started = performance.now();
  await run(CALLS);
  const rate = CALLS / ((performance.now() - started) / 1000);
  await client.close();
  await server.close();
  return rate;
}

if (values.worker) {
  console.log(String(await worker(values.worker as Mode, values.revision!)));
} else {
  const self = fileURLToPath(import.meta.url);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const rows: string[] = [];
  console.log(`hooks and OpenTelemetry, in memory, tools/call one at a time; median of ${ROUNDS} workers per mode, modes in turn${QUICK ? ", --quick" : ""}\n`);
  for (const revision of REVISIONS) {
    const rates = new Map<Mode, number[]>(MODES.map((mode) => [mode, []]));
    for (let round = 0; round < ROUNDS; round++)
      for (const mode of MODES) {
        const out = execFileSync(process.execPath, ["--import", "tsx", self, "--worker", mode, "--revision", revision, ...(QUICK ? ["--quick"] : [])], { encoding: "utf8", timeout: 300_000 });
        rates.get(mode)!.push(Number(out.trim().split("\n").pop()));
      }
    const base = median(rates.get("none")!);
    for (const mode of MODES) {
      const list = rates.get(mode)!;
      const rate = median(list);
      const added = 1e6 / rate - 1e6 / base;
      record({ bench: "hooks", measure: `${revision}, in memory, one at a time, calls/s`, contender: mode, unit: "calls/s", median: rate, runs: list });
      rows.push(
        `| ${revision} | ${mode} | ${Math.round(rate).toLocaleString("en")}/s (${Math.round(Math.min(...list)).toLocaleString("en")}-${Math.round(Math.max(...list)).toLocaleString("en")}) | ${(rate / base).toFixed(2)}x | ${mode === "none" ? "-" : `${added.toFixed(2)} µs`} |`,
      );
    }
  }
  console.log("| revision | mode | calls/s (min-max) | / none | added per call |\n|---|---|---:|---:|---:|\n" + rows.join("\n"));
}
