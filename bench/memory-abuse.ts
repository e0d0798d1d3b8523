// The server's memory under two abusive Streamable HTTP clients (issue 13, items 3 and 4), for the
// runtime of any checkout, so the same script measures a commit before a fix and the tree after it:
//
//   node --import tsx bench/memory-abuse.ts [<tree>] [--scenario stuck|stdio|events|all] [--runs N] [--quick] [--ours-only]
//
// <tree> is a source checkout with node_modules and generated/ (`make generate`), by default this
// one; --quick is one run per scenario. Beside it, unless --ours-only, the official SDK v2's server
// under the same abuse (bench/memory-abuse/v2-server.ts, its defaults). The tree's runtime
// serves from bench/memory-abuse/server.ts, in a child process on 127.0.0.1 with the endpoint's
// defaults and SSE answers. Scenarios, one fresh server per run:
// - stuck (item 3): a client opens a session, then on a raw socket POSTs tools/call of a tool that
//   sends FLOOD_COUNT progress notifications of FLOOD_BYTES each, and never reads a byte; it stays
//   connected for STUCK_HOLD_MS (past the 30 s default stuckTimeoutMs), then leaves.
// - stdio (issue 32 item 3): the same flood over stdio, to a client that writes its requests on the
//   server's stdin and never reads its stdout, for STDIO_HOLD_MS.
// - events (item 4): SESSIONS sessions each call a tool answering BLOB_BYTES, ANSWERS times, read
//   every answer in full, and never resume: what the event store keeps is kept for nobody.
// RSS is the child's VmRSS (/proc/<pid>/status) every SAMPLE_MS: start (after gc, before the
// client), peak (the highest sample), end (after gc, at the end of the abuse, the client still
// there), and for stuck, left (after gc, once the client has gone). Each figure is the median over
// the runs (the machine is shared), with the min-max spread. Every wait is bounded in time.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { connect } from "node:net";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { record } from "./support/results.js";

const USAGE = `usage: node --import tsx bench/memory-abuse.ts [<tree>] [--scenario stuck|stdio|events|all] [--runs N] [--quick]
  <tree>      a source checkout of mcp-codegen with node_modules and generated/ (make generate);
              default: this checkout
  --scenario  stuck: an SSE client that never reads a flood of progress (issue 13 item 3)
              stdio: the same flood over stdio, to a client that never reads stdout (issue 32 item 3)
              events: sessions whose answers fill the event store, never resumed (item 4)
              all (default): every one
  --runs N    runs per scenario, one fresh server each (default 3, --quick 1); figures are medians
  --ours-only without the peer: SDK v2's server under the same abuse (bench/memory-abuse/v2-server.ts)`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { scenario: { type: "string", default: "all" }, runs: { type: "string" }, quick: { type: "boolean", default: false }, "ours-only": { type: "boolean", default: false }, help: { type: "boolean", default: false } },
});
values.runs ??= values.quick ? "1" : "3";
if (values.help || positionals.length > 1 || !["stuck", "stdio", "events", "all"].includes(values.scenario) || !(Number(values.runs) >= 1)) {
  console.log(USAGE);
  process.exit(values.help ? 0 : 2);
}
const TREE = resolve(positionals[0] ?? join(dirname(fileURLToPath(import.meta.url)), ".."));
const RUNS = Math.min(Number(values.runs), 20);
const SERVER = join(dirname(fileURLToPath(import.meta.url)), "memory-abuse", "server.ts");
const V2_SERVER = join(dirname(fileURLToPath(import.meta.url)), "memory-abuse", "v2-server.ts");
type Impl = "ours" | "v2";
const IMPLS: readonly Impl[] = values["ours-only"] ? ["ours"] : ["ours", "v2"];
const REVISION = "2025-11-25";
const MiB = 2 ** 20;

const FLOOD_COUNT = 4_000; // 250 MiB (issue 32)
const FLOOD_BYTES = 64 * 1024;
const STUCK_HOLD_MS = 40_000;
const STDIO_HOLD_MS = 10_000;
const SESSIONS = 16;
const ANSWERS = 100;
const BLOB_BYTES = 96 * 1024;
const SAMPLE_MS = 50;
const SETTLE_MS = 1_000;
const WAIT_MS = 60_000;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The server child: its pid, URL, and lines it printed. */
class Child {
  readonly lines: string[] = [];
  readonly warnings: string[] = [];
  /** V8 heap used plus external memory at the last settledRss. */
  heap = 0;
  /** Over stdio, its stdout is the client's, unread; its lines and warnings come on stderr. */
  private constructor(
    readonly process: ChildProcess,
    readonly overStdio: boolean,
  ) {
    if (overStdio) process.stdout!.pause();
    else process.stdout!.setEncoding("utf8").on("data", (chunk: string) => this.lines.push(...chunk.split("\n").filter(Boolean)));
    process.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
      const lines = chunk.split("\n").filter(Boolean);
      this.warnings.push(...lines);
      if (overStdio) this.lines.push(...lines);
    });
  }

  static async start(impl: Impl, overStdio = false): Promise<{ child: Child; url: string }> {
    const args = ["--expose-gc", "--import", "tsx", ...(impl === "ours" ? [SERVER, TREE] : [V2_SERVER]), ...(overStdio ? ["--stdio"] : [])];
    const child = new Child(spawn(process.execPath, args, { stdio: ["pipe", "pipe", "pipe"] }), overStdio);
    const line = await child.waitFor((l) => l.startsWith("listening on "), "the server to listen");
    return { child, url: line.slice("listening on ".length) };
  }

  async waitFor(match: (line: string) => boolean, what: string, from = 0): Promise<string> {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const found = this.lines.slice(from).find(match);
      if (found) return found;
      if (this.process.exitCode !== null) throw new Error(`the server exited (${this.process.exitCode}) waiting for ${what}: ${this.warnings.slice(-5).join("\n")}`);
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await sleep(20);
    }
  }

  rss(): number {
    const status = readFileSync(`/proc/${this.process.pid}/status`, "utf8");
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
  }

  /** RSS after a full collection and a pause: what is held, not garbage awaiting collection. */
  async settledRss(): Promise<number> {
    const from = this.lines.length;
    if (this.overStdio) this.process.kill("SIGUSR2");
    else this.process.stdin!.write("gc\n");
    const line = await this.waitFor((l) => l.startsWith("collected "), "gc", from);
    const [, heap, external] = /heap (\d+) external (\d+)/.exec(line)!;
    this.heap = Number(heap) + Number(external);
    await sleep(SETTLE_MS);
    return this.rss();
  }

  stop(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => (this.process.kill("SIGKILL"), resolve()), 5_000);
      this.process.once("exit", () => (clearTimeout(timer), resolve()));
      // Over stdio the client leaves: the server's writes then fail (EPIPE) and its input ends.
      if (this.overStdio) this.process.stdout!.destroy();
      this.process.stdin!.end();
    });
  }
}

/** The peak RSS while `work` runs, sampled every SAMPLE_MS. */
async function peakDuring(child: Child, work: () => Promise<void>): Promise<number> {
  let peak = child.rss();
  const sampler = setInterval(() => {
    try {
      peak = Math.max(peak, child.rss());
    } catch {
      // the child is gone; the work reports why
    }
  }, SAMPLE_MS);
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  return Math.max(peak, child.rss());
}

const headers = (session?: string): Record<string, string> => ({
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
  "MCP-Protocol-Version": REVISION,
  ...(session ? { "Mcp-Session-Id": session } : {}),
});

async function openSession(url: string): Promise<string> {
  const init = await fetch(url, {
    method: "POST",
    headers: headers(),
    body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: REVISION, capabilities: {}, clientInfo: { name: "memory-abuse", version: "1.0.0" } } }),
    signal: AbortSignal.timeout(WAIT_MS),
  });
  await init.text();
  const session = init.headers.get("mcp-session-id");
  if (init.status !== 200 || !session) throw new Error(`initialize: HTTP ${init.status}, no session`);
  const done = await fetch(url, { method: "POST", headers: headers(session), body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }), signal: AbortSignal.timeout(WAIT_MS) });
  await done.text();
  return session;
}

interface Figures {
  start: number;
  peak: number;
  end: number;
  left?: number;
  /** Heap used plus external after gc at the end: what the runtime still holds, whatever the allocator keeps. */
  heldEnd: number;
  note: string;
}

/** Item 3: a client that never reads its SSE answer while the tool floods it. */
async function stuck(child: Child, url: string): Promise<Figures> {
  const session = await openSession(url);
  const start = await child.settledRss();
  const target = new URL(url);
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "flood", arguments: { count: FLOOD_COUNT, bytes: FLOOD_BYTES }, _meta: { progressToken: "p" } } });
  const socket = connect(Number(target.port), "127.0.0.1");
  socket.on("error", () => {});
  socket.pause();
  let end = 0;
  let heldEnd = 0;
  const peak = await peakDuring(child, async () => {
    const from = child.lines.length;
    const headerLines = Object.entries({ ...headers(session), Host: target.host, "Content-Length": String(Buffer.byteLength(body)) }).map(([k, v]) => `${k}: ${v}\r\n`);
    socket.write(`POST ${target.pathname} HTTP/1.1\r\n${headerLines.join("")}\r\n${body}`);
    const sent = Date.now();
    await child.waitFor((l) => l === "flooded", "the flood", from);
    await sleep(Math.max(0, sent + STUCK_HOLD_MS - Date.now()));
    end = await child.settledRss();
    heldEnd = child.heap;
  });
  socket.destroy();
  const left = await child.settledRss();
  const disconnected = child.warnings.some((w) => /disconnected/.test(w));
  return { start, peak, end, left, heldEnd, note: disconnected ? "disconnected with a log line" : "not disconnected" };
}

/** Issue 32 item 3 over stdio: a client that writes its requests and never reads the server's stdout. */
async function stdio(child: Child, _url: string): Promise<Figures> {
  const start = await child.settledRss();
  const messages = [
    { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: REVISION, capabilities: {}, clientInfo: { name: "memory-abuse", version: "1.0.0" } } },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "flood", arguments: { count: FLOOD_COUNT, bytes: FLOOD_BYTES }, _meta: { progressToken: "p" } } },
  ];
  let end = 0;
  let heldEnd = 0;
  const peak = await peakDuring(child, async () => {
    child.process.stdin!.write(messages.map((m) => `${JSON.stringify(m)}\n`).join(""));
    await sleep(STDIO_HOLD_MS);
    end = await child.settledRss();
    heldEnd = child.heap;
  });
  const flooded = child.lines.includes("flooded");
  return { start, peak, end, heldEnd, note: flooded ? "the tool sent everything (nothing held it back)" : "the tool waits for the reader" };
}

/** Item 4: answers that fill the event store, all read, never resumed. */
async function events(child: Child, url: string): Promise<Figures> {
  const sessions = await Promise.all(Array.from({ length: SESSIONS }, () => openSession(url)));
  const start = await child.settledRss();
  let read = 0;
  const peak = await peakDuring(child, async () => {
    await Promise.all(
      sessions.map(async (session) => {
        for (let i = 1; i <= ANSWERS; i++) {
          const answer = await fetch(url, {
            method: "POST",
            headers: headers(session),
            body: JSON.stringify({ jsonrpc: "2.0", id: i, method: "tools/call", params: { name: "blob", arguments: { bytes: BLOB_BYTES } } }),
            signal: AbortSignal.timeout(WAIT_MS),
          });
          read += (await answer.text()).length;
        }
      }),
    );
  });
  const end = await child.settledRss();
  return { start, peak, end, heldEnd: child.heap, note: `${(read / MiB).toFixed(0)} MiB read` };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const mib = (n: number) => (n / MiB).toFixed(0);
const spread = (xs: number[]) => `${mib(median(xs))} (${mib(Math.min(...xs))}-${mib(Math.max(...xs))})`;

const scenarios = { stuck, stdio, events } as const;
const chosen = values.scenario === "all" ? (["stuck", "stdio", "events"] as const) : [values.scenario as keyof typeof scenarios];
console.log(`tree ${TREE}, ${RUNS} run(s) per scenario; RSS in MiB, median (min-max)`);
console.log(`stuck: ${FLOOD_COUNT} x ${FLOOD_BYTES / 1024} KiB progress (${mib(FLOOD_COUNT * FLOOD_BYTES)} MiB) to a client that reads nothing for ${STUCK_HOLD_MS / 1000} s`);
console.log(`stdio: the same flood over stdio to a client that never reads stdout, for ${STDIO_HOLD_MS / 1000} s`);
console.log(`events: ${SESSIONS} sessions x ${ANSWERS} answers of ${BLOB_BYTES / 1024} KiB (${mib(SESSIONS * ANSWERS * BLOB_BYTES)} MiB), all read, none resumed`);
for (const name of chosen)
  for (const impl of IMPLS) {
    const runs: Figures[] = [];
    try {
      for (let run = 1; run <= RUNS; run++) {
        const { child, url } = await Child.start(impl, name === "stdio");
        try {
          const figures = await scenarios[name](child, url);
          runs.push(figures);
          console.log(`  ${name}, ${impl}, run ${run}: start ${mib(figures.start)}, peak ${mib(figures.peak)}, end ${mib(figures.end)}${figures.left === undefined ? "" : `, left ${mib(figures.left)}`}; heap+external at end ${mib(figures.heldEnd)}; ${figures.note}`);
        } finally {
          await child.stop();
        }
      }
    } catch (error) {
      // The peer may not bear the abuse: said, not recorded, and the other runs go on.
      if (impl === "ours") throw error;
      console.log(`${name}, ${impl}: failed: ${(error as Error).message}`);
      continue;
    }
    const left = runs.flatMap((r) => (r.left === undefined ? [] : [r.left]));
    const rows: [string, number[]][] = [
      ["start RSS", runs.map((r) => r.start)],
      ["peak RSS", runs.map((r) => r.peak)],
      ["end RSS", runs.map((r) => r.end)],
      ["RSS once the client left", left],
      ["heap+external at end", runs.map((r) => r.heldEnd)],
    ];
    for (const [row, bytes] of rows)
      if (bytes.length > 0) record({ bench: "memory-abuse", measure: `${name}: ${row}`, contender: impl, unit: "MiB", median: median(bytes) / MiB, runs: bytes.map((b) => b / MiB) });
    console.log(
      `${name}, ${impl}: start ${spread(runs.map((r) => r.start))}, peak ${spread(runs.map((r) => r.peak))}, end ${spread(runs.map((r) => r.end))}${left.length ? `, left ${spread(left)}` : ""}; heap+external at end ${spread(runs.map((r) => r.heldEnd))}`,
    );
  }
