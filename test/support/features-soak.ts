// The soak of issue 5, as a child process so that it can force garbage collection and measure a
// heap that holds nothing but the soak:
//
//   node --expose-gc --import tsx test/support/features-soak.ts [--calls=100000] [--concurrency=64] [--seed=1] [--revision=2025-11-25] [--leak]
//
// One of our servers and our McpClient over the in-memory transport. Every call asks for
// progress (the tool reports 3 steps, a macrotask apart); about one in five is cancelled through
// its AbortSignal at a random moment: at once, from a microtask, after a few macrotasks, or on its
// first progress notification (so some cancellations cross their response). A tap on the
// server's transport checks the wire as it goes. At the end of each quarter the calls drain, the
// heap is collected and measured. Prints one JSON line (see `Report`) on stdout.
import { createMemoryPair, createServer, McpClient, type Revision } from "../../runtime/index.js";
import { WireTap, type Json } from "./features-server.js";

function option(name: string, fallback: string): string {
  const prefix = `--${name}=`;
  return process.argv.find((arg) => arg.startsWith(prefix))?.slice(prefix.length) ?? fallback;
}

const CALLS = Number(option("calls", "100000"));
const CONCURRENCY = Number(option("concurrency", "64"));
const SEED = Number(option("seed", "1"));
const REVISION = option("revision", "2025-11-25") as Revision;
const STEPS = 3;
/** Test of the test: every handler's context is kept forever, so the heap must grow. */
const LEAK = process.argv.includes("--leak");
const leaked: unknown[] = [];

export interface Report {
  calls: number;
  revision: string;
  seed: number;
  /** Client side: calls that resolved, that rejected because we aborted them, that rejected otherwise. */
  results: number;
  aborted: number;
  otherErrors: string[];
  /** Calls whose promise settled other than exactly once (must be 0). */
  notExactlyOnce: number;
  /** Cancellations the client asked for (some cross their response and change nothing). */
  cancelRequested: number;
  /** Wire, server side: notifications/cancelled received while the request was open; responses sent. */
  cancelledOnWire: number;
  responses: number;
  /** Request ids with neither a response nor a cancellation, or both, or two responses (must be empty). */
  badOutcomes: string[];
  /** Wire rule breaches: progress after the response or the cancellation, a response after a cancellation, a progress value that did not increase. */
  violations: string[];
  progressSeen: number;
  /** heapUsed after forced GC at the end of each quarter, bytes. */
  heap: number[];
  elapsedMs: number;
}

/** mulberry32: a small seeded PRNG, so a failing run can be repeated. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with node --expose-gc");

async function measureHeap(): Promise<number> {
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
  gc!();
  gc!();
  return process.memoryUsage().heapUsed;
}

async function main(): Promise<Report> {
  const started = performance.now();
  const rand = random(SEED);
  // Wire bookkeeping in preallocated arrays indexed by request id / progress token (both count up
  // from 1), so that the soak's own records do not grow the heap it measures.
  const size = CALLS + 16;
  const responded = new Uint8Array(size);
  const cancelledOpen = new Uint8Array(size);
  const tokenToId = new Int32Array(size);
  const lastProgress = new Float64Array(size).fill(-Infinity);
  const violations: string[] = [];
  const violate = (what: string) => void (violations.length < 20 && violations.push(what));
  let cancelledOnWire = 0;
  let responses = 0;

  const server = createServer({ name: "soak", version: "1.0.0", logger: () => {} });
  server.tool({ name: "work", inputSchema: { type: "object" } }, async (_args, context) => {
    if (LEAK) leaked.push(context);
    for (let step = 1; step <= STEPS; step++) {
      context.progress(step, STEPS);
      await new Promise((resolve) => setImmediate(resolve));
      if (context.signal.aborted) throw context.signal.reason;
    }
    return { content: [{ type: "text", text: "done" }] };
  });

  const [serverEnd, clientEnd] = createMemoryPair();
  const tap = new WireTap(serverEnd, {
    keep: false,
    onIn: (message: Json) => {
      if (message.method === "tools/call") {
        const token = message.params._meta?.progressToken;
        if (typeof token === "number" && token < size) tokenToId[token] = message.id;
      } else if (message.method === "notifications/cancelled") {
        const id = message.params.requestId;
        if (typeof id === "number" && id < size && responded[id] === 0) {
          cancelledOpen[id] = 1;
          cancelledOnWire++;
        }
      }
    },
    onOut: (message: Json) => {
      if (message.method === "notifications/progress") {
        const id = tokenToId[message.params.progressToken] ?? 0;
        if (id === 0) violate(`progress for unknown token ${message.params.progressToken}`);
        else if (responded[id]) violate(`progress after the response to ${id}`);
        else if (cancelledOpen[id]) violate(`progress after ${id} was cancelled`);
        if (!(message.params.progress > lastProgress[id]!)) violate(`progress for ${id} did not increase`);
        lastProgress[id] = message.params.progress;
      } else if (message.method === undefined && typeof message.id === "number" && message.id < size) {
        responses++;
        if (cancelledOpen[message.id]) violate(`response to ${message.id} after it was cancelled`);
        responded[message.id] = responded[message.id]! + 1;
      }
    },
  });
  server.connect(tap);
  const client = await McpClient.connect(clientEnd, { name: "soak-client", version: "1.0.0", revision: REVISION, logger: () => {} });

  const settledCount = new Uint8Array(CALLS);
  let results = 0;
  let aborted = 0;
  let cancelRequested = 0;
  let progressSeen = 0;
  const otherErrors: string[] = [];

  const call = (index: number): Promise<void> => {
    const controller = new AbortController();
    const roll = rand();
    let abortOnProgress = false;
    const cancel = () => {
      if (controller.signal.aborted) return;
      cancelRequested++;
      controller.abort(new DOMException("soak cancellation", "AbortError"));
    };
    const promise = client.callTool(
      "work",
      {},
      {
        signal: controller.signal,
        onProgress: () => {
          progressSeen++;
          if (abortOnProgress) cancel();
        },
      },
    );
    if (roll < 0.05) cancel();
    else if (roll < 0.1) queueMicrotask(cancel);
    else if (roll < 0.15) {
      let turns = Math.floor(rand() * 4);
      const later = () => (turns-- > 0 ? setImmediate(later) : cancel());
      setImmediate(later);
    } else if (roll < 0.2) abortOnProgress = true;
    return promise.then(
      () => {
        settledCount[index]!++;
        results++;
      },
      (error: Error) => {
        settledCount[index]!++;
        if (error.name === "AbortError" && controller.signal.aborted) aborted++;
        else if (otherErrors.length < 20) otherErrors.push(`${error.name}: ${error.message}`);
      },
    );
  };

  const heap: number[] = [];
  let next = 0;
  for (let quarter = 1; quarter <= 4; quarter++) {
    const end = Math.floor((CALLS * quarter) / 4);
    const worker = async () => {
      while (next < end) await call(next++);
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    heap.push(await measureHeap());
  }
  // Requests still answered after their call settled (a cancellation that crossed the response) have arrived by now.
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));

  const badOutcomes: string[] = [];
  // Request ids: 1 is initialize, the calls are 2 .. CALLS + 1.
  for (let id = 2; id <= CALLS + 1 && badOutcomes.length < 20; id++) {
    const outcomes = responded[id]! + cancelledOpen[id]!;
    if (outcomes !== 1) badOutcomes.push(`request ${id}: ${responded[id]} response(s), ${cancelledOpen[id] ? "cancelled" : "not cancelled"}`);
  }
  let notExactlyOnce = 0;
  for (let i = 0; i < CALLS; i++) if (settledCount[i] !== 1) notExactlyOnce++;

  await client.close();
  await server.close();
  return {
    calls: CALLS,
    revision: REVISION,
    seed: SEED,
    results,
    aborted,
    otherErrors,
    notExactlyOnce,
    cancelRequested,
    cancelledOnWire,
    responses,
    badOutcomes,
    violations,
    progressSeen,
    heap,
    elapsedMs: Math.round(performance.now() - started),
  };
}

main().then(
  (report) => process.stdout.write(`${JSON.stringify(report)}\n`),
  (error: Error) => {
    process.stderr.write(`${error.stack ?? error.message}\n`);
    process.exitCode = 1;
  },
);
