// tools/call throughput over Streamable HTTP: our endpoint against the official SDK's
// StreamableHTTPServerTransport (McpServer on node:http), same machine, same run, same client.
//
//   node --import tsx bench/http.ts [--quick]
//
// Each server runs in a child process (bench/http/server.ts); this process is the load: 16
// clients, each its own session (initialize + notifications/initialized), each with one call in
// flight at a time over a keep-alive connection, calling an echo tool as fast as answers come.
// The client is raw node:http, identical for both servers, so it costs both the same. Two modes:
// JSON answers (ours: the default "auto"; SDK: enableJsonResponse) and SSE answers (ours:
// responseMode "sse"; SDK: its default). Runs alternate between the servers; the figure is the
// median calls/s over the runs, and the ratio ours/SDK. Every loop is bounded in count and time.
import { spawn, type ChildProcess } from "node:child_process";
import { Agent, request } from "node:http";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const QUICK = process.argv.includes("--quick");
const CLIENTS = 16;
const RUNS = QUICK ? 3 : 5;
const RUN_MS = QUICK ? 1_000 : 2_000;
const WARMUP_CALLS = QUICK ? 2_000 : 5_000;
/** Per run, whatever the time: a bound on the work. */
const MAX_CALLS_PER_RUN = 2_000_000;
const REQUEST_TIMEOUT_MS = 10_000;
const here = dirname(fileURLToPath(import.meta.url));

type Impl = "ours" | "sdk";
type Mode = "json" | "sse";

interface Target {
  readonly url: URL;
  readonly child: ChildProcess;
}

async function startTarget(impl: Impl, mode: Mode): Promise<Target> {
  const child = spawn(process.execPath, ["--import", "tsx", join(here, "http", "server.ts"), impl, mode], { stdio: ["pipe", "pipe", "inherit"] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`${impl} ${mode} did not start within 30 s`)), 30_000);
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      const found = /listening on (\S+)/.exec(out);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]!);
      }
    });
    child.once("exit", (code) => reject(new Error(`${impl} ${mode} exited with ${code}`)));
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

/** One HTTP session's worth of requests over a keep-alive agent. */
class Session {
  private id: string | undefined;
  private nextId = 1;

  constructor(
    private readonly url: URL,
    private readonly agent: Agent,
  ) {}

  async open(): Promise<void> {
    await this.post({ jsonrpc: "2.0", id: this.nextId++, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } } });
    await this.post({ jsonrpc: "2.0", method: "notifications/initialized" });
  }

  async call(text: string): Promise<void> {
    const answer = await this.post({ jsonrpc: "2.0", id: this.nextId++, method: "tools/call", params: { name: "echo", arguments: { text } } });
    const message = JSON.parse(answer) as { result?: { content: { text: string }[] } };
    if (message.result?.content[0]?.text !== text) throw new Error(`unexpected answer: ${answer.slice(0, 200)}`);
  }

  /** POSTs a message; resolves with the JSON-RPC answer's text (the JSON body, or the SSE event carrying it). */
  private post(message: unknown): Promise<string> {
    const body = JSON.stringify(message);
    const headers: Record<string, string | number> = {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "Content-Length": Buffer.byteLength(body),
    };
    if (this.id) {
      headers["Mcp-Session-Id"] = this.id;
      headers["MCP-Protocol-Version"] = "2025-11-25";
    }
    return new Promise((resolve, reject) => {
      const req = request(this.url, { method: "POST", headers, agent: this.agent, timeout: REQUEST_TIMEOUT_MS }, (res) => {
        const session = res.headers["mcp-session-id"];
        if (typeof session === "string") this.id = session;
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          if ((res.statusCode ?? 0) >= 300) return reject(new Error(`HTTP ${res.statusCode}: ${Buffer.concat(chunks).toString()}`));
          const text = Buffer.concat(chunks).toString("utf8");
          if (!(res.headers["content-type"] ?? "").includes("text/event-stream")) return resolve(text);
          // The last data line that holds a message (priming events have empty data).
          const data = text.split("\n").filter((line) => line.startsWith("data:") && line.length > 6);
          resolve(data.length > 0 ? data[data.length - 1]!.slice(5).trim() : "");
        });
        res.on("error", reject);
      });
      req.on("timeout", () => req.destroy(new Error("request timed out")));
      req.on("error", reject);
      req.end(body);
    });
  }
}

/** Calls per second of CLIENTS sessions for RUN_MS (at most MAX_CALLS_PER_RUN calls). */
async function measure(target: Target): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
  try {
    const sessions = Array.from({ length: CLIENTS }, () => new Session(target.url, agent));
    await Promise.all(sessions.map((s) => s.open()));
    let warm = 0;
    await Promise.all(sessions.map(async (s) => {
      while (warm < WARMUP_CALLS) {
        warm++;
        await s.call("warm");
      }
    }));
    let calls = 0;
    const started = performance.now();
    const deadline = started + RUN_MS;
    await Promise.all(
      sessions.map(async (s, i) => {
        while (performance.now() < deadline && calls < MAX_CALLS_PER_RUN) {
          await s.call(`client ${i}`);
          calls++;
        }
      }),
    );
    return calls / ((performance.now() - started) / 1000);
  } finally {
    agent.destroy();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

console.log(`tools/call over Streamable HTTP, ${CLIENTS} concurrent clients (one session and one call in flight each), ${RUNS} runs of ${RUN_MS} ms, median calls/s`);
console.log(`node ${process.version}, ${(await import("node:os")).cpus().length} cores; servers in child processes, bound to 127.0.0.1\n`);
const rows: string[] = [];
for (const mode of ["json", "sse"] as const) {
  const targets = { ours: await startTarget("ours", mode), sdk: await startTarget("sdk", mode) };
  try {
    const results: Record<Impl, number[]> = { ours: [], sdk: [] };
    for (let run = 0; run < RUNS; run++)
      for (const impl of run % 2 === 0 ? (["ours", "sdk"] as const) : (["sdk", "ours"] as const)) results[impl].push(await measure(targets[impl]));
    const ours = median(results.ours);
    const sdk = median(results.sdk);
    const row = `${mode === "json" ? "JSON answers" : "SSE answers "}  ours ${fmt(ours).padStart(7)} calls/s   SDK ${fmt(sdk).padStart(7)} calls/s   ours/SDK ${(ours / sdk).toFixed(2)}x   (runs: ours ${results.ours.map(fmt).join(", ")}; SDK ${results.sdk.map(fmt).join(", ")})`;
    rows.push(row);
    console.log(row);
  } finally {
    await Promise.all([stopTarget(targets.ours), stopTarget(targets.sdk)]);
  }
}
