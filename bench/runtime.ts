// The runtime against the official SDK (@modelcontextprotocol/sdk), side by side in one run.
//
//   node --import tsx bench/runtime.ts [--quick] [--only memory,stdio,spawn,large]
//
// - memory: tools/call of an echo tool, one at a time and 16 in flight. Ours: createServer +
//   McpClient over createMemoryPair. SDK: McpServer + Client over its InMemoryTransport.
// - stdio: the same calls to a spawned server process, each client against its own server:
//   our McpClient (spawnStdio) -> bench/servers/ours.mjs, the SDK Client (StdioClientTransport)
//   -> bench/servers/sdk.mjs. Both servers are plain JavaScript run by plain node, ours from
//   dist/ (`make build`), as each would be deployed.
// - spawn: from spawn() to the initialize response on stdout, the same raw client for both,
//   and for node alone answering with a fixed line (bench/servers/bare.mjs): the floor.
// - large: a 64 MiB tool result over stdio (our client and server), next to its floor
//   (JSON.stringify + JSON.parse of the same response message); and the SDK (client and server)
//   asked for a result just over its 10 MiB line limit, bounded by a timeout.
//
// Call rates are measured in worker processes (this file with --worker), one per contender and
// measure, so neither side's garbage or JIT state weighs on the other: each worker warms up for a
// few seconds, then makes several runs; the median is reported. Workers alternate, ours then
// the SDK's, ROUNDS times, and all their runs count. Every loop is bounded by a count and a time
// budget. The targets (issue 4) are reported, never asserted; the exit code is 1 only when a
// measurement could not be made.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer as SdkMcpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { cpus } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import * as z from "zod";
import type { McpClient } from "../runtime/index.js";
import { runtime } from "./support/ours.js";
import { payload } from "./servers/payload.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const OURS_SERVER = join(ROOT, "bench", "servers", "ours.mjs");
const SDK_SERVER = join(ROOT, "bench", "servers", "sdk.mjs");
const BARE_NODE = join(ROOT, "bench", "servers", "bare.mjs");
const RAW_ECHO = join(ROOT, "bench", "servers", "echo.mjs");
const MiB = 1024 * 1024;
const { createMemoryPair, createServer, spawnStdio } = runtime;
const silentLogger = () => {};

const { values } = parseArgs({ options: { quick: { type: "boolean", default: false }, only: { type: "string" }, worker: { type: "string" } } });
const QUICK = values.quick;
const ONLY = new Set((values.only ?? "memory,stdio,spawn,large").split(","));

/** Worker rounds per measure, runs per worker (the median of all is reported), calls per run, and each run's time budget. */
const ROUNDS = QUICK ? 1 : 2;
const RUNS = QUICK ? 3 : 4;
const CALLS = { memory: QUICK ? 50_000 : 200_000, stdio: QUICK ? 5_000 : 20_000 } as const;
const RUN_BUDGET_MS = QUICK ? 2_000 : 5_000;
/** Each worker's warm-up: V8 keeps speeding our in-memory calls up for the first ~300k of them (about 1 s). */
const WARMUP_MS = QUICK ? 1_000 : 3_000;
const SPAWNS = QUICK ? 3 : 7;
const LARGE_RUNS = QUICK ? 3 : 5;
const LARGE_BYTES = 64 * MiB;
const SDK_OVER_LIMIT_BYTES = 11 * MiB;
const WAIT_MS = 60_000;

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

// -- helpers ---------------------------------------------------------------------------------------

function fail(message: string): never {
  console.error(`bench/runtime: ${message}`);
  process.exit(1);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** `promise`, or a rejection after `ms`. */
async function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Calls per second of `call`, with `inFlight` calls outstanding at all times, until `maxCalls`
 * have been made or `budgetMs` has passed.
 */
async function rate(call: (i: number) => Promise<void>, inFlight: number, maxCalls: number, budgetMs: number): Promise<number> {
  let started = 0;
  let done = 0;
  const t0 = performance.now();
  const deadline = t0 + budgetMs;
  // The clock is read every 64 calls: at ~2 µs a call, reading it on each one would be part of the measure.
  let inTime = true;
  const worker = async () => {
    while (started < maxCalls && inTime) {
      await call(started++);
      if (++done % 64 === 0) inTime = performance.now() < deadline;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return done / ((performance.now() - t0) / 1000);
}

interface Contender {
  call(i: number): Promise<void>;
  close(): Promise<void>;
}

type Kind = "memory" | "stdio";
type Side = "ours" | "sdk";

const CONTENDERS: Record<Kind, Record<Side, () => Promise<Contender>>> = {
  memory: { ours: () => oursInMemory(), sdk: () => sdkInMemory() },
  stdio: { ours: () => oursOverStdio(), sdk: () => sdkOverStdio() },
};

/** In a worker: a warm-up of WARMUP_MS (the first calls run in V8's lower tiers), then RUNS runs; their rates. */
async function workerRates(kind: Kind, side: Side, inFlight: number): Promise<number[]> {
  const contender = await CONTENDERS[kind][side]();
  try {
    const calls = CALLS[kind];
    await rate((i) => contender.call(i), inFlight, Number.MAX_SAFE_INTEGER, WARMUP_MS);
    const rates: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      collectGarbage();
      rates.push(await rate((i) => contender.call(i), inFlight, calls, RUN_BUDGET_MS));
    }
    return rates;
  } finally {
    await contender.close();
  }
}

/** Runs a worker process and returns the rates it measured. */
function runWorker(kind: Kind, side: Side, inFlight: number): Promise<number[]> {
  return new Promise((resolvePromise, reject) => {
    const args = ["--import", "tsx", fileURLToPath(import.meta.url), "--worker", `${kind}:${side}:${inFlight}`, ...(QUICK ? ["--quick"] : [])];
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => (out += text));
    const budget = WARMUP_MS + RUNS * RUN_BUDGET_MS + 4 * WAIT_MS;
    const timer = setTimeout(() => child.kill("SIGKILL"), budget);
    child.once("error", reject);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`worker ${kind}:${side}:${inFlight} ${signal ? `killed (${signal}; budget ${budget} ms)` : `exited with ${code}`}`));
      resolvePromise(JSON.parse(out) as number[]);
    });
  });
}

/** Median calls/s of each side over ROUNDS alternating workers (ours, SDK, ours, SDK...). */
async function compareRates(kind: Kind, inFlight: number): Promise<{ ours: number; sdk: number }> {
  const all = { ours: [] as number[], sdk: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    all.ours.push(...(await runWorker(kind, "ours", inFlight)));
    all.sdk.push(...(await runWorker(kind, "sdk", inFlight)));
  }
  return { ours: median(all.ours), sdk: median(all.sdk) };
}

/** Every call's answer is checked: a benchmark of failures would be fast and worthless. */
function expectEcho(result: unknown, text: string): void {
  const content = (result as { content?: { text?: string }[] }).content;
  if (content?.[0]?.text !== text) throw new Error(`unexpected echo result: ${JSON.stringify(result).slice(0, 200)}`);
}

const ECHO_TEXT = "hello, echo";
const ECHO_SCHEMA = { type: "object" as const, properties: { text: { type: "string" } }, required: ["text"] };

// -- contenders ------------------------------------------------------------------------------------

async function oursInMemory(): Promise<Contender> {
  const server = createServer({ name: "bench-ours", version: "1.0.0", logger: silentLogger });
  server.tool({ name: "echo", inputSchema: ECHO_SCHEMA }, ({ text }: { text: string }) => ({ content: [{ type: "text", text }] }));
  const [clientEnd, serverEnd] = createMemoryPair();
  await server.listen(serverEnd);
  const client = await runtime.McpClient.connect(clientEnd, { name: "bench", version: "1.0.0", revision: "2025-11-25", logger: silentLogger });
  return {
    call: async () => expectEcho(await client.callTool("echo", { text: ECHO_TEXT }), ECHO_TEXT),
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

async function sdkInMemory(): Promise<Contender> {
  const server = new SdkMcpServer({ name: "bench-sdk", version: "1.0.0" });
  server.registerTool("echo", { inputSchema: { text: z.string() } }, ({ text }) => ({ content: [{ type: "text", text }] }));
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  await server.connect(serverEnd);
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(clientEnd);
  return {
    call: async () => expectEcho(await client.callTool({ name: "echo", arguments: { text: ECHO_TEXT } }), ECHO_TEXT),
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

async function oursOverStdio(): Promise<Contender & { client: McpClient }> {
  const transport = await spawnStdio(process.execPath, [OURS_SERVER], { stderr: "inherit" });
  const client = await within(WAIT_MS, runtime.McpClient.connect(transport, { name: "bench", version: "1.0.0", revision: "2025-11-25", logger: silentLogger, requestTimeoutMs: WAIT_MS }), "our server");
  return {
    client,
    call: async () => expectEcho(await client.callTool("echo", { text: ECHO_TEXT }), ECHO_TEXT),
    close: () => client.close(),
  };
}

async function sdkOverStdio(): Promise<Contender & { client: Client }> {
  const client = new Client({ name: "bench", version: "1.0.0" });
  await within(WAIT_MS, client.connect(new StdioClientTransport({ command: process.execPath, args: [SDK_SERVER], stderr: "inherit" })), "the SDK server");
  return {
    client,
    call: async () => expectEcho(await client.callTool({ name: "echo", arguments: { text: ECHO_TEXT } }), ECHO_TEXT),
    close: () => client.close(),
  };
}

// -- measures --------------------------------------------------------------------------------------

interface Row {
  readonly measure: string;
  readonly ours: string;
  readonly sdk: string;
  readonly ratio: string;
  readonly target: string;
  readonly met: boolean | undefined;
}
const rows: Row[] = [];

function rateRow(measure: string, result: { ours: number; sdk: number }, target: number): void {
  const ratio = result.ours / result.sdk;
  rows.push({
    measure,
    ours: `${Math.round(result.ours).toLocaleString("en-US")} calls/s`,
    sdk: `${Math.round(result.sdk).toLocaleString("en-US")} calls/s`,
    ratio: `${ratio.toFixed(2)}x`,
    target: `>= ${target}x`,
    met: ratio >= target,
  });
  console.log(`  ${measure}: ours ${Math.round(result.ours)} calls/s, SDK ${Math.round(result.sdk)} calls/s, ${ratio.toFixed(2)}x`);
}

/** The floor of an echo call: its request and response only stringified and parsed, no dispatch. */
function echoFloor(): number {
  return rateSync(() => {
    const request = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { text: "hello 1" } } });
    JSON.parse(request);
    const response = JSON.stringify({ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "hello 1" }] } });
    JSON.parse(response);
  }, 200_000);
}

function rateSync(run: () => void, count: number): number {
  const t0 = performance.now();
  for (let i = 0; i < count; i++) run();
  return count / ((performance.now() - t0) / 1000);
}

async function measureMemory(): Promise<void> {
  console.log("in memory: tools/call echo");
  rateRow("in memory, one at a time", await compareRates("memory", 1), 8);
  rateRow("in memory, 16 in flight", await compareRates("memory", 16), 8);
}

async function measureStdio(): Promise<void> {
  console.log("stdio: tools/call echo, each client against its own spawned server");
  rateRow("stdio, one at a time", await compareRates("stdio", 1), 1.5);
  rateRow("stdio, 16 in flight", await compareRates("stdio", 16), 3);
  const floor = median([echoFloor(), echoFloor(), echoFloor()]);
  console.log(`  floor (the call's two messages stringified and parsed, no I/O, no dispatch): ${Math.round(floor)} calls/s`);
  rows.push({ measure: "stdio floor (stringify+parse only)", ours: `${Math.round(floor).toLocaleString("en-US")} calls/s`, sdk: "-", ratio: "-", target: "-", met: undefined });
  const ceiling = median([await rawEchoRate(), await rawEchoRate(), await rawEchoRate()]);
  console.log(`  ceiling (node alone echoing lines over stdio, one at a time, no MCP): ${Math.round(ceiling)} calls/s`);
  rows.push({ measure: "stdio ceiling, one at a time (raw line echo, no MCP)", ours: `${Math.round(ceiling).toLocaleString("en-US")} calls/s`, sdk: "-", ratio: "-", target: "-", met: undefined });
}

/** Round trips per second through a child that only echoes lines (bench/servers/echo.mjs): no MCP on either side. */
async function rawEchoRate(): Promise<number> {
  const child = spawn(process.execPath, [RAW_ECHO], { stdio: ["pipe", "pipe", "inherit"] });
  let pending = "";
  let answer: (() => void) | undefined;
  child.stdout.setEncoding("utf8").on("data", (data: string) => {
    pending += data;
    for (let end; (end = pending.indexOf("\n")) >= 0; pending = pending.slice(end + 1)) {
      JSON.parse(pending.slice(0, end));
      answer?.();
    }
  });
  try {
    let id = 0;
    const call = () =>
      new Promise<void>((resolveCall) => {
        answer = resolveCall;
        child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: ++id, method: "tools/call", params: { name: "echo", arguments: { text: ECHO_TEXT } } })}\n`);
      });
    await within(WAIT_MS, rate(call, 1, 500, WAIT_MS), "the raw echo warm-up");
    return await within(WAIT_MS, rate(call, 1, CALLS.stdio, RUN_BUDGET_MS), "the raw echo");
  } finally {
    child.kill();
  }
}

/** ms from spawn() to the initialize response's line on stdout. */
function spawnToInitialize(script: string): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [script], { stdio: ["pipe", "pipe", "inherit"] });
    let out = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${relative(ROOT, script)}: no initialize response in ${WAIT_MS} ms`));
    }, WAIT_MS);
    child.stdout.setEncoding("utf8").on("data", (text: string) => {
      out += text;
      if (!out.includes("\n")) return;
      const ms = performance.now() - t0;
      clearTimeout(timer);
      const response = JSON.parse(out.slice(0, out.indexOf("\n"))) as { id?: unknown; result?: { protocolVersion?: string } };
      child.once("exit", () =>
        response.id === 1 && response.result?.protocolVersion === "2025-11-25" ? resolvePromise(ms) : reject(new Error(`unexpected: ${out.slice(0, 200)}`)),
      );
      child.kill("SIGKILL");
    });
    child.on("error", reject);
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } } })}\n`,
    );
  });
}

async function measureSpawn(): Promise<void> {
  console.log(`spawn -> initialize response, ${SPAWNS} spawns each, interleaved`);
  for (const script of [OURS_SERVER, SDK_SERVER, BARE_NODE]) await spawnToInitialize(script); // warm the file system cache
  const ours: number[] = [];
  const sdk: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < SPAWNS; i++) {
    ours.push(await spawnToInitialize(OURS_SERVER));
    sdk.push(await spawnToInitialize(SDK_SERVER));
    bare.push(await spawnToInitialize(BARE_NODE));
  }
  const ratio = median(ours) / median(sdk);
  console.log(`  ours ${median(ours).toFixed(0)} ms, SDK ${median(sdk).toFixed(0)} ms (${ratio.toFixed(2)}x); node alone ${median(bare).toFixed(0)} ms`);
  rows.push({
    measure: "spawn -> initialize response",
    ours: `${median(ours).toFixed(0)} ms`,
    sdk: `${median(sdk).toFixed(0)} ms`,
    ratio: `${ratio.toFixed(2)}x`,
    target: "<= 0.5x",
    met: ratio <= 0.5,
  });
  rows.push({ measure: "spawn -> initialize, node alone (no MCP)", ours: `${median(bare).toFixed(0)} ms`, sdk: "-", ratio: `${(median(bare) / median(sdk)).toFixed(2)}x`, target: "-", met: undefined });
}

async function measureLarge(): Promise<void> {
  console.log(`large: a ${LARGE_BYTES / MiB} MiB tool result over stdio`);
  // The floor: the very response message, stringified and parsed, nothing else.
  const text = payload(LARGE_BYTES);
  const message = { jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text }] } };
  const floors: number[] = [];
  for (let run = 0; run < LARGE_RUNS; run++) {
    collectGarbage();
    const t0 = performance.now();
    const parsed = JSON.parse(JSON.stringify(message)) as typeof message;
    floors.push(performance.now() - t0);
    if (parsed.result.content[0]!.text.length !== LARGE_BYTES) fail("floor: wrong length");
  }
  const floor = median(floors);

  const ours = await oursOverStdio();
  const times: number[] = [];
  try {
    // Warm-up: the server makes (and caches) the payload on the first call.
    await within(WAIT_MS, ours.client.callTool("blob", { bytes: LARGE_BYTES }), "64 MiB from our server");
    for (let run = 0; run < LARGE_RUNS; run++) {
      collectGarbage();
      const t0 = performance.now();
      const result = await within(WAIT_MS, ours.client.callTool("blob", { bytes: LARGE_BYTES }), "64 MiB from our server");
      times.push(performance.now() - t0);
      const received = (result.content as { text: string }[])[0]!.text;
      if (received.length !== LARGE_BYTES || received !== text) fail("our 64 MiB result came back different");
    }
  } finally {
    await ours.close();
  }
  const ratio = median(times) / floor;
  console.log(`  ours ${median(times).toFixed(0)} ms, floor ${floor.toFixed(0)} ms (${ratio.toFixed(2)}x)`);

  // The SDK, both sides: its client refuses any line over 10 MiB and drops the connection.
  const sdk = await sdkOverStdio();
  let sdkOutcome: string;
  const t0 = performance.now();
  try {
    await within(WAIT_MS, sdk.client.callTool({ name: "blob", arguments: { bytes: SDK_OVER_LIMIT_BYTES } }), "the SDK");
    sdkOutcome = `succeeded with ${SDK_OVER_LIMIT_BYTES / MiB} MiB?`;
  } catch (error) {
    sdkOutcome = `fails at ${SDK_OVER_LIMIT_BYTES / MiB} MiB after ${(performance.now() - t0).toFixed(0)} ms: ${(error as Error).message}`;
  } finally {
    await sdk.close().catch(() => {});
  }
  console.log(`  SDK ${sdkOutcome}`);
  rows.push({
    measure: `${LARGE_BYTES / MiB} MiB result round trip over stdio`,
    ours: `${median(times).toFixed(0)} ms (floor ${floor.toFixed(0)} ms)`,
    sdk: sdkOutcome.split(":")[0]!,
    ratio: `${ratio.toFixed(2)}x floor`,
    target: "<= 2x floor",
    met: ratio <= 2,
  });
}

// -- main ------------------------------------------------------------------------------------------

if (values.worker !== undefined) {
  // Worker mode: measure one contender, print its rates as JSON on stdout, nothing else there.
  const [kind, side, inFlight] = values.worker.split(":") as [Kind, Side, string];
  process.stdout.write(JSON.stringify(await workerRates(kind, side, Number(inFlight))));
  process.exit(0);
}

if (!existsSync(join(ROOT, "dist", "runtime", "index.js"))) fail("dist/ is missing: run `make build` first (the stdio servers run compiled JavaScript)");
const stale = newerSources(join(ROOT, "runtime"), join(ROOT, "dist", "runtime"));
if (stale.length > 0) console.warn(`warning: dist/ is older than ${stale.slice(0, 3).join(", ")}: run \`make build\` for numbers that match the sources\n`);

console.log(
  `runtime vs @modelcontextprotocol/sdk, node ${process.version}, ${cpus().length} CPUs, rates: median of ${ROUNDS * RUNS} runs in ${ROUNDS} worker(s) per side${QUICK ? ", --quick" : ""}\n`,
);
try {
  if (ONLY.has("memory")) await measureMemory();
  if (ONLY.has("stdio")) await measureStdio();
  if (ONLY.has("spawn")) await measureSpawn();
  if (ONLY.has("large")) await measureLarge();
} catch (error) {
  fail((error as Error).stack ?? String(error));
}

console.log("");
const header = ["measure", "ours", "SDK", "ours vs SDK", "target", "met"];
console.log(header.join(" | "));
console.log(header.map((h) => "-".repeat(h.length)).join(" | "));
for (const row of rows) console.log([row.measure, row.ours, row.sdk, row.ratio, row.target, row.met === undefined ? "-" : row.met ? "yes" : "NO"].join(" | "));

/** Source files under `source` newer than their compiled counterpart under `compiled`. */
function newerSources(source: string, compiled: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith(".ts")) {
        const target = join(compiled, relative(source, path)).replace(/\.ts$/, ".js");
        if (!existsSync(target) || statSync(target).mtimeMs < statSync(path).mtimeMs) out.push(relative(ROOT, path));
      }
    }
  };
  walk(source);
  return out;
}
