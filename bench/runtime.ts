// The runtime against the official SDKs, v2 (@modelcontextprotocol/server + /client 2.4, from
// tools/bench-peers) and v1 (@modelcontextprotocol/sdk 1.32), side by side in one run, in both
// eras where the peer speaks them, each row next to its floor.
//
//   node --import tsx bench/runtime.ts [--quick] [--only memory,stdio,spawn,large]
//
// Eras: "legacy" is 2025-11-25 (initialize, a session); "stateless" is 2026-07-28 (every request
// carries its _meta). SDK v1 speaks only the legacy era; SDK v2 both (its client pinned with
// `versionNegotiation: { mode: { pin: "2026-07-28" } }`, as its docs say for a 2026 server).
//
// - memory: tools/call of an echo tool, one at a time and 16 in flight. Ours: createServer +
//   McpClient over createMemoryPair. v2 and v1: McpServer + Client over their InMemoryTransport.
//   Floor: JSON.stringify + JSON.parse of the call's two messages as our client and server
//   exchange them in that era (captured from a real call): what a wire would cost at the least.
// - stdio: the same calls to a spawned server process, each client against its own server:
//   McpClient (spawnStdio) -> bench/servers/ours.mjs, the v2 Client (StdioClientTransport) ->
//   bench/servers/v2.mjs, the v1 Client -> bench/servers/sdk.mjs; every server is plain
//   JavaScript run by plain node, each set up as its README does; ours is the packed package
//   (`make pack`, staged in pack/staging/runtime), what a user runs, its main entry bundled.
//   Floor: node alone echoing lines (bench/servers/echo.mjs), no MCP on either side.
// - spawn: from spawn() to the initialize response on stdout, the same raw client for all, and
//   for node alone answering with a fixed line (bench/servers/bare.mjs): the floor.
// - large: a 64 MiB tool result over stdio (our client and server), next to its floor
//   (JSON.stringify + JSON.parse of the same response message); and the SDK (client and server)
//   asked for a result just over its 10 MiB line limit, bounded by a timeout.
//
// Call rates are measured in worker processes (this file with --worker), one per contender,
// era and measure, so no side's garbage or JIT state weighs on another: each worker warms up,
// then makes several runs. Workers alternate (ours, v2, v1, floor, ours, ...) ROUNDS times and
// all their runs count: the median is reported with the spread (min-max). Every loop is bounded
// by a count and a time budget. Targets are reported, never asserted; the exit code is 1 only
// when a measurement could not be made.

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
import * as z from "zod";
import type { McpClient } from "../runtime/index.js";
import { runtime } from "./support/ours.js";
import { processCpuMs } from "./support/process-cpu.js";
import { v2Client, v2ClientStdio, v2Server, v2ServerStdio, zod4 } from "./support/peers.js";
import { payload } from "./servers/payload.mjs";
import { record } from "./support/results.js";
import { collectGarbage } from "./support/gc.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const OURS_SERVER = join(ROOT, "bench", "servers", "ours.mjs");
const SDK_SERVER = join(ROOT, "bench", "servers", "sdk.mjs");
const V2_SERVER = join(ROOT, "bench", "servers", "v2.mjs");
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
/**
 * Each worker's warm-up: at least WARMUP_MS and WARMUP_CALLS calls (V8 keeps speeding calls up for
 * the first ~100k in memory; a loaded machine makes that take longer than any fixed time), at
 * most WARMUP_MAX_MS. The floor warms in no time; without a count, the slower-warming contenders
 * were measured half-optimized.
 */
const WARMUP_MS = QUICK ? 1_000 : 3_000;
const WARMUP_CALLS = { memory: 100_000, stdio: 3_000 } as const;
const WARMUP_MAX_MS = 20_000;
const SPAWNS = QUICK ? 3 : 7;
const LARGE_RUNS = QUICK ? 3 : 5;
const LARGE_BYTES = 64 * MiB;
const SDK_OVER_LIMIT_BYTES = 11 * MiB;
const WAIT_MS = 60_000;

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
  call(i: number): unknown;
  close(): Promise<void>;
}

type Kind = "memory" | "stdio";
type Side = "ours" | "v2" | "v1" | "floor";
type Era = "legacy" | "stateless";
const REVISION: Record<Era, string> = { legacy: "2025-11-25", stateless: "2026-07-28" };
/** Who speaks which era: SDK v1 has no 2026-07-28. */
const SIDES: Record<Era, readonly Side[]> = { legacy: ["ours", "v2", "v1", "floor"], stateless: ["ours", "v2", "floor"] };

const CONTENDERS: Record<Kind, Record<Side, (era: Era) => Promise<Contender>>> = {
  memory: { ours: (era) => oursInMemory(era), v2: (era) => v2InMemory(era), v1: () => sdkInMemory(), floor: (era) => jsonFloor(era) },
  stdio: { ours: (era) => oursOverStdio(era), v2: (era) => v2OverStdio(era), v1: () => sdkOverStdio(), floor: (era) => rawEcho(era) },
};

/** In a worker: a warm-up of WARMUP_MS (the first calls run in V8's lower tiers), then RUNS runs; their rates. */
async function workerRates(kind: Kind, side: Side, era: Era, inFlight: number): Promise<number[]> {
  const contender = await CONTENDERS[kind][side](era);
  try {
    const calls = CALLS[kind];
    const call = async (i: number) => void (await contender.call(i));
    await rate(call, inFlight, Number.MAX_SAFE_INTEGER, WARMUP_MS);
    await rate(call, inFlight, WARMUP_CALLS[kind], WARMUP_MAX_MS - WARMUP_MS);
    const rates: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      collectGarbage();
      rates.push(await rate(call, inFlight, calls, RUN_BUDGET_MS));
    }
    return rates;
  } finally {
    await contender.close();
  }
}

/** Runs a worker process and returns the rates it measured. */
function runWorker(kind: Kind, side: Side, era: Era, inFlight: number): Promise<number[]> {
  return new Promise((resolvePromise, reject) => {
    const spec = `${kind}:${side}:${era}:${inFlight}`;
    const args = ["--import", "tsx", fileURLToPath(import.meta.url), "--worker", spec, ...(QUICK ? ["--quick"] : [])];
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => (out += text));
    const budget = WARMUP_MAX_MS + RUNS * RUN_BUDGET_MS + 4 * WAIT_MS;
    const timer = setTimeout(() => child.kill("SIGKILL"), budget);
    child.once("error", reject);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`worker ${spec} ${signal ? `killed (${signal}; budget ${budget} ms)` : `exited with ${code}`}`));
      resolvePromise(JSON.parse(out) as number[]);
    });
  });
}

interface Spread {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  readonly runs: readonly number[];
}

function spread(values: number[]): Spread {
  return { median: median(values), min: Math.min(...values), max: Math.max(...values), runs: values };
}

/** Median calls/s of each side with its spread, over ROUNDS rounds of alternating workers. */
async function compareRates(kind: Kind, era: Era, inFlight: number): Promise<Partial<Record<Side, Spread>>> {
  const all: Partial<Record<Side, number[]>> = {};
  for (let round = 0; round < ROUNDS; round++)
    for (const side of SIDES[era]) (all[side] ??= []).push(...(await runWorker(kind, side, era, inFlight)));
  return Object.fromEntries(Object.entries(all).map(([side, values]) => [side, spread(values!)]));
}

/** Every call's answer is checked: a benchmark of failures would be fast and worthless. */
function expectEcho(result: unknown, text: string): void {
  const content = (result as { content?: { text?: string }[] }).content;
  if (content?.[0]?.text !== text) throw new Error(`unexpected echo result: ${JSON.stringify(result).slice(0, 200)}`);
}

const ECHO_TEXT = "hello, echo";
const ECHO_SCHEMA = { type: "object" as const, properties: { text: { type: "string" } }, required: ["text"] };

// -- contenders ------------------------------------------------------------------------------------

async function oursInMemory(era: Era, tap?: unknown[]): Promise<Contender> {
  const server = createServer({ name: "bench-ours", version: "1.0.0", logger: silentLogger });
  server.tool({ name: "echo", inputSchema: ECHO_SCHEMA }, ({ text }: { text: string }) => ({ content: [{ type: "text", text }] }));
  const [clientEnd, serverEnd] = createMemoryPair();
  if (tap) for (const end of [clientEnd, serverEnd]) {
    const send = end.send.bind(end);
    end.send = (message, options) => (tap.push(message), send(message, options));
  }
  await server.listen(serverEnd);
  const client = await runtime.McpClient.connect(clientEnd, { name: "bench", version: "1.0.0", logger: silentLogger, revision: REVISION[era] as never });
  return {
    call: async () => expectEcho(await client.callTool("echo", { text: ECHO_TEXT }), ECHO_TEXT),
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/** The floor of an in-memory call: the two messages our client and server exchange for it in `era`, stringified and parsed. */
async function jsonFloor(era: Era): Promise<Contender> {
  const messages = await exchangedMessages(era);
  return {
    call: () => {
      for (const message of messages) JSON.parse(JSON.stringify(message));
    },
    close: async () => {},
  };
}

/** The request and the response of one echo call in `era`, as they pass between our client and server. */
async function exchangedMessages(era: Era): Promise<unknown[]> {
  const tap: unknown[] = [];
  const ours = await oursInMemory(era, tap);
  await ours.call(0);
  const before = tap.length;
  await ours.call(1);
  await ours.close();
  const messages = tap.slice(before);
  if (messages.length !== 2) throw new Error(`one echo call exchanged ${messages.length} messages, not 2`);
  return messages;
}

function v2ClientOptions(era: Era): Record<string, unknown> {
  return era === "stateless" ? { versionNegotiation: { mode: { pin: REVISION.stateless } } } : {};
}

/** v2 serves both eras through serveStdio, whose `transport` option takes any transport: here its InMemoryTransport. */
async function v2InMemory(era: Era): Promise<Contender> {
  const [clientEnd, serverEnd] = v2Server.InMemoryTransport.createLinkedPair();
  const served = v2ServerStdio.serveStdio(
    () => {
      const server = new v2Server.McpServer({ name: "bench-v2", version: "1.0.0" }, { capabilities: { tools: {} } });
      server.registerTool("echo", { inputSchema: zod4.object({ text: zod4.string() }) }, ({ text }: { text: string }) => ({ content: [{ type: "text", text }] }));
      return server;
    },
    { transport: serverEnd },
  );
  const client = new v2Client.Client({ name: "bench", version: "1.0.0" }, v2ClientOptions(era));
  await client.connect(clientEnd);
  return {
    call: async () => expectEcho(await client.callTool({ name: "echo", arguments: { text: ECHO_TEXT } }), ECHO_TEXT),
    close: async () => {
      await client.close();
      await served?.close?.();
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

async function oursOverStdio(era: Era = "legacy"): Promise<Contender & { client: McpClient }> {
  const transport = await spawnStdio(process.execPath, [OURS_SERVER], { stderr: "inherit" });
  const client = await within(
    WAIT_MS,
    runtime.McpClient.connect(transport, { name: "bench", version: "1.0.0", logger: silentLogger, requestTimeoutMs: WAIT_MS, revision: REVISION[era] as never }),
    "our server",
  );
  return {
    client,
    call: async () => expectEcho(await client.callTool("echo", { text: ECHO_TEXT }), ECHO_TEXT),
    close: () => client.close(),
  };
}

async function v2OverStdio(era: Era): Promise<Contender> {
  const client = new v2Client.Client({ name: "bench", version: "1.0.0" }, v2ClientOptions(era));
  await within(WAIT_MS, client.connect(new v2ClientStdio.StdioClientTransport({ command: process.execPath, args: [V2_SERVER], stderr: "inherit" })), "the v2 server");
  return {
    call: async () => expectEcho(await client.callTool({ name: "echo", arguments: { text: ECHO_TEXT } }), ECHO_TEXT),
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

/** The stdio floor: round trips through a child that only echoes lines (bench/servers/echo.mjs), the era's request as the line. */
async function rawEcho(era: Era): Promise<Contender> {
  const [request] = (await exchangedMessages(era)) as [Record<string, unknown>];
  const child = spawn(process.execPath, [RAW_ECHO], { stdio: ["pipe", "pipe", "inherit"] });
  let pending = "";
  const answers = new Map<number, () => void>();
  child.stdout.setEncoding("utf8").on("data", (data: string) => {
    pending += data;
    for (let end; (end = pending.indexOf("\n")) >= 0; pending = pending.slice(end + 1)) {
      const response = JSON.parse(pending.slice(0, end)) as { id: number; result: unknown };
      expectEcho(response.result, ECHO_TEXT);
      answers.get(response.id)?.();
      answers.delete(response.id);
    }
  });
  let id = 0;
  return {
    call: () =>
      new Promise<void>((resolveCall) => {
        answers.set(++id, resolveCall);
        child.stdin.write(`${JSON.stringify({ ...request, id })}\n`);
      }),
    close: async () => {
      child.kill();
    },
  };
}

// -- measures --------------------------------------------------------------------------------------

interface Row {
  readonly measure: string;
  readonly cells: readonly string[];
}
const RATE_HEADER = ["measure", "ours", "SDK v2", "SDK v1", "floor", "ours / floor", "ours / v2", "ours / v1", "target"];
const rows: Row[] = [];

const callsPerSecond = (s: Spread | undefined) =>
  s ? `${Math.round(s.median).toLocaleString("en-US")}/s (${Math.round(s.min).toLocaleString("en-US")}-${Math.round(s.max).toLocaleString("en-US")})` : "-";
const ratioOf = (a: Spread | undefined, b: Spread | undefined) => (a && b ? `${(a.median / b.median).toFixed(2)}x` : "-");

function rateRow(measure: string, result: Partial<Record<Side, Spread>>, target: string): void {
  const { ours, v2, v1, floor } = result;
  const cells = [callsPerSecond(ours), callsPerSecond(v2), callsPerSecond(v1), callsPerSecond(floor), ratioOf(ours, floor), ratioOf(ours, v2), ratioOf(ours, v1), target];
  rows.push({ measure, cells });
  for (const [side, s] of Object.entries(result)) if (s) record({ bench: "runtime", measure, contender: side, unit: "calls/s", median: s.median, runs: s.runs });
  console.log(`  ${measure}: ${RATE_HEADER.slice(1).map((h, i) => `${h} ${cells[i]}`).join(", ")}`);
}

async function measureMemory(): Promise<void> {
  console.log("in memory: tools/call echo");
  rateRow("in memory, one at a time, legacy (2025-11-25)", await compareRates("memory", "legacy", 1), ">= 0.95x floor");
  rateRow("in memory, one at a time, 2026-07-28", await compareRates("memory", "stateless", 1), ">= 0.85x floor");
  rateRow("in memory, 16 in flight, legacy", await compareRates("memory", "legacy", 16), "-");
  rateRow("in memory, 16 in flight, 2026-07-28", await compareRates("memory", "stateless", 16), "-");
}

async function measureStdio(): Promise<void> {
  console.log("stdio: tools/call echo, each client against its own spawned server; floor: node alone echoing lines");
  rateRow("stdio, one at a time, legacy (2025-11-25)", await compareRates("stdio", "legacy", 1), ">= 0.8x floor");
  rateRow("stdio, one at a time, 2026-07-28", await compareRates("stdio", "stateless", 1), ">= 0.8x floor");
  rateRow("stdio, 16 in flight, legacy", await compareRates("stdio", "legacy", 16), ">= 0.7x floor");
  rateRow("stdio, 16 in flight, 2026-07-28", await compareRates("stdio", "stateless", 16), ">= 0.7x floor");
}

/** ms from spawn() to the initialize response's line on stdout, and the CPU ms the child used by then. */
function spawnToInitialize(script: string): Promise<{ ms: number; cpuMs: number }> {
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
      const cpuMs = processCpuMs(child.pid);
      clearTimeout(timer);
      const response = JSON.parse(out.slice(0, out.indexOf("\n"))) as { id?: unknown; result?: { protocolVersion?: string } };
      child.once("exit", () =>
        response.id === 1 && response.result?.protocolVersion === "2025-11-25" ? resolvePromise({ ms, cpuMs }) : reject(new Error(`unexpected: ${out.slice(0, 200)}`)),
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
  const scripts = { ours: OURS_SERVER, v2: V2_SERVER, v1: SDK_SERVER, floor: BARE_NODE } as const;
  for (const script of Object.values(scripts)) await spawnToInitialize(script); // warm the file system cache
  const times: Record<keyof typeof scripts, number[]> = { ours: [], v2: [], v1: [], floor: [] };
  const cpu: Record<keyof typeof scripts, number[]> = { ours: [], v2: [], v1: [], floor: [] };
  for (let i = 0; i < SPAWNS; i++)
    for (const [side, script] of Object.entries(scripts)) {
      const { ms, cpuMs } = await spawnToInitialize(script);
      times[side as keyof typeof scripts].push(ms);
      cpu[side as keyof typeof scripts].push(cpuMs);
    }
  const ms = (values: number[]) => `${median(values).toFixed(0)} ms (${Math.min(...values).toFixed(0)}-${Math.max(...values).toFixed(0)})`;
  const ratio = (a: number[], b: number[]) => `${(median(a) / median(b)).toFixed(2)}x`;
  const cells = [ms(times.ours), ms(times.v2), ms(times.v1), ms(times.floor), ratio(times.ours, times.floor), ratio(times.ours, times.v2), ratio(times.ours, times.v1), "<= 1.2x floor"];
  rows.push({ measure: "spawn -> initialize response", cells });
  for (const [side, values] of Object.entries(times)) record({ bench: "runtime", measure: "spawn -> initialize response", contender: side, unit: "ms", median: median(values), runs: values });
  console.log(`  ${cells.join(", ")}`);
  if (!cpu.ours.some(Number.isNaN)) {
    const cpuCells = [ms(cpu.ours), ms(cpu.v2), ms(cpu.v1), ms(cpu.floor), ratio(cpu.ours, cpu.floor), ratio(cpu.ours, cpu.v2), ratio(cpu.ours, cpu.v1), "-"];
    rows.push({ measure: "spawn -> initialize response, CPU of the server", cells: cpuCells });
    console.log(`  CPU: ${cpuCells.join(", ")}`);
  }
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
    cells: [`${median(times).toFixed(0)} ms`, "-", sdkOutcome.split(":")[0]!, `${floor.toFixed(0)} ms`, `${ratio.toFixed(2)}x`, "-", "-", "<= 2x floor"],
  });
}

// -- main ------------------------------------------------------------------------------------------

if (values.worker !== undefined) {
  // Worker mode: measure one contender, print its rates as JSON on stdout, nothing else there.
  const [kind, side, era, inFlight] = values.worker.split(":") as [Kind, Side, Era, string];
  process.stdout.write(JSON.stringify(await workerRates(kind, side, era, Number(inFlight))));
  process.exit(0);
}

if (!existsSync(join(ROOT, "dist", "runtime", "index.js"))) fail("dist/ is missing: run `make build` first (the in-process contenders run compiled JavaScript)");
const PACKED = join(ROOT, "pack", "staging", "runtime", "dist", "runtime", "index.js");
if (!existsSync(PACKED)) fail("pack/staging is missing: run `make pack` first (our stdio server runs the packed package)");
const stale = newerSources(join(ROOT, "runtime"), join(ROOT, "dist", "runtime"));
if (stale.length > 0) console.warn(`warning: dist/ is older than ${stale.slice(0, 3).join(", ")}: run \`make build\` for numbers that match the sources\n`);
if (statSync(PACKED).mtimeMs < statSync(join(ROOT, "dist", "runtime", "index.js")).mtimeMs) console.warn("warning: pack/ is older than dist/: run `make pack` for numbers that match the sources\n");

console.log(
  `runtime vs SDK v2 (@modelcontextprotocol/server, /client) and SDK v1 (@modelcontextprotocol/sdk), node ${process.version}, ${cpus().length} CPUs, rates: median of ${ROUNDS * RUNS} runs in ${ROUNDS} worker(s) per side${QUICK ? ", --quick" : ""}\n`,
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
console.log(`| ${RATE_HEADER.join(" | ")} |`);
console.log(`|${RATE_HEADER.map((_, i) => (i === 0 ? "---" : "---:")).join("|")}|`);
for (const row of rows) console.log(`| ${[row.measure, ...row.cells].join(" | ")} |`);

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
