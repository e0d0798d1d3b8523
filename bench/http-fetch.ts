// fetchHandler on Node (@hono/node-server), Bun and Deno against our node:http endpoint and against
// SDK v2's web-standard handler (createMcpHandler, bench/servers/v2-web.mjs) on the same three
// runtimes: tools/call throughput with 16 concurrent clients, both eras, in one run; ratios to our
// node:http endpoint. Each server is its own process (binaries from tools/runtimes, SDK v2 from
// tools/bench-peers); the load comes from this process. All servers start first; each run then
// measures every server in turn, the order rotating from run to run; the figure is the median run,
// with the slowest and fastest run beside it, after a warm-up of each server that is not counted.
// SDK v2's web handler serves the 2025 era through its stateless legacy fallback (its default:
// no session, a fresh McpServer per request); its initialize returns no session id, so the
// 2025-11-25 clients then call without one. The load is the raw node:http client of bench/http.ts.
// Then workerd's cold start: from spawning workerd (examples/hosting/worker.ts, bundled) to the first
// tools/call answer.
//   node --import tsx bench/http-fetch.ts [--seconds 3] [--runs 3] [--quick]   (--quick: runs of 2 s)
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { Agent } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { median, Session, type Era } from "./http/client.js";
import { record } from "./support/results.js";

const { values } = parseArgs({ options: { seconds: { type: "string" }, runs: { type: "string", default: "3" }, quick: { type: "boolean", default: false } } });
const SECONDS = Number(values.seconds ?? (values.quick ? 2 : 3));
const RUNS = Number(values.runs);
const CLIENTS = 16;
/** Per client and run, whatever the time: a bound on the work. */
const MAX_CALLS = 1_000_000;
const WARMUP_SECONDS = 1;
const root = join(import.meta.dirname, "..");
const servers = join(root, "tools", "runtimes", "servers");
const v2Web = join(root, "bench", "servers", "v2-web.mjs");
const bin = (name: string) => join(root, "tools", "runtimes", "node_modules", ".bin", name);

const TARGETS: Record<string, [string, string[]]> = {
  "node http()": [process.execPath, ["--import", "tsx", join(servers, "hello-node-http.ts")]],
  "node fetchHandler": [process.execPath, ["--import", "tsx", join(servers, "hello-node-fetch.ts")]],
  "bun fetchHandler": [bin("bun"), [join(servers, "hello-bun.ts")]],
  "deno fetchHandler": [bin("deno"), ["run", "--allow-net", "--allow-read", "--allow-env", "--allow-sys", "--sloppy-imports", join(servers, "hello-deno.ts")]],
  "node SDK v2 createMcpHandler": [process.execPath, [v2Web]],
  "bun SDK v2 createMcpHandler": [bin("bun"), [v2Web]],
  "deno SDK v2 createMcpHandler": [bin("deno"), ["run", "--allow-net", "--allow-read", "--allow-env", "--allow-sys", v2Web]],
};

const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" } };
const JSON_HEADERS = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
const ERAS = ["2026-07-28", "2025-11-25"] as const;

function start(command: string, args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(command, args, { cwd: root, stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, PORT: "0" } });
  return new Promise((resolve, reject) => {
    let text = "";
    const timer = setTimeout(() => reject(new Error(`${command} did not start: ${text}`)), 60_000);
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
      text += chunk;
      const found = /listening on (\S+)/.exec(text);
      if (found) {
        clearTimeout(timer);
        resolve({ child, url: found[1]! });
      }
    });
    child.once("exit", (code) => reject(new Error(`${command} exited ${code}: ${text}`)));
  });
}

/** workerd's probe: one fetch, retried until the worker answers. */
async function call(url: string, body: unknown, headers: Record<string, string>): Promise<Response> {
  const response = await fetch(url, { method: "POST", headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(body) });
  if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
  return response;
}

/** CLIENTS sessions (bench/http/client.ts), each one call in flight, for SECONDS: answers per second. */
async function measure(url: string, era: Era, seconds = SECONDS): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
  try {
    const sessions = Array.from({ length: CLIENTS }, () => new Session(new URL(url), agent, era));
    await Promise.all(sessions.map((s) => s.open()));
    const deadline = performance.now() + seconds * 1000;
    const counts = await Promise.all(
      sessions.map(async (session) => {
        let done = 0;
        while (performance.now() < deadline && done < MAX_CALLS) {
          const text = await session.call("greet", { name: "bench" });
          if (text !== "Hello, bench!") throw new Error(`unexpected answer: ${text}`);
          done++;
        }
        return done;
      }),
    );
    return counts.reduce((a, b) => a + b, 0) / seconds;
  } finally {
    agent.destroy();
  }
}

const names = Object.keys(TARGETS);
const rates: Record<string, Record<string, number[]>> = Object.fromEntries(names.map((name) => [name, Object.fromEntries(ERAS.map((era) => [era, []]))]));
const started: Record<string, { child: ChildProcess; url: string }> = {};
try {
  for (const name of names) started[name] = await start(...TARGETS[name]!);
  // Warm-up, not counted: every server and era for WARMUP_SECONDS (JIT, connection pools).
  for (const name of names) for (const era of ERAS) await measure(started[name]!.url, era, WARMUP_SECONDS);
  for (let run = 0; run < RUNS; run++)
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + run) % names.length]!;
      for (const era of ERAS) {
        rates[name]![era]!.push(await measure(started[name]!.url, era));
      }
    }
} finally {
  for (const { child } of Object.values(started)) child.kill("SIGKILL");
}
const base = Object.fromEntries(ERAS.map((era) => [era, median(rates["node http()"]![era]!)]));
const cell = (xs: number[], era: string) => `${median(xs).toFixed(0)} (${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)}) | ${(median(xs) / base[era]!).toFixed(2)}`;
console.log(`tools/call per second, ${CLIENTS} clients, median of ${RUNS} runs of ${SECONDS} s (slowest-fastest run); ratio to our node http()`);
console.log("| server | 2026-07-28 (stateless) | ratio | 2025-11-25 (ours: session; SDK v2: stateless fallback) | ratio |");
console.log("|---|---:|---:|---:|---:|");
for (const name of names) console.log(`| ${name} | ${ERAS.map((era) => cell(rates[name]![era]!, era)).join(" | ")} |`);
for (const era of ERAS) record({ bench: "http-fetch", measure: `${era}, node http() (node:http), calls/s`, contender: "ours", unit: "calls/s", median: median(rates["node http()"]![era]!), runs: rates["node http()"]![era]! });
for (const runtime of ["node", "bun", "deno"]) {
  const ours = rates[`${runtime} fetchHandler`]!;
  const v2 = rates[`${runtime} SDK v2 createMcpHandler`]!;
  for (const era of ERAS)
    for (const [contender, figures] of [["ours", ours], ["v2", v2]] as const)
      record({ bench: "http-fetch", measure: `${era}, ${runtime}, web-standard handler, calls/s`, contender, unit: "calls/s", median: median(figures[era]!), runs: figures[era]! });
  console.log(`${runtime}: fetchHandler / SDK v2 createMcpHandler: ${ERAS.map((era) => `${era} ${(median(ours[era]!) / median(v2[era]!)).toFixed(2)}x`).join(", ")}`);
}

/** workerd: spawn to first answer, median of RUNS. */
async function workerdColdStart(): Promise<number[]> {
  const dir = mkdtempSync(join(tmpdir(), "mcp-bench-workerd-"));
  try {
    execFileSync(join(root, "node_modules", ".bin", "esbuild"), [join(root, "examples", "hosting", "worker.ts"), "--bundle", "--format=esm", "--platform=neutral", "--main-fields=module,main", "--log-level=warning", `--outfile=${join(dir, "worker.js")}`]);
    const times: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const port = await new Promise<number>((resolve) => {
        const probe = createServer().listen(0, "127.0.0.1", () => {
          const { port } = probe.address() as { port: number };
          probe.close(() => resolve(port));
        });
      });
      writeFileSync(
        join(dir, "config.capnp"),
        `using Workerd = import "/workerd/workerd.capnp";\nconst config :Workerd.Config = (services = [ (name = "main", worker = .w) ], sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ]);\nconst w :Workerd.Worker = (modules = [ (name = "worker", esModule = embed "worker.js") ], compatibilityDate = "2026-11-01");\n`,
      );
      const started = performance.now();
      const child = spawn(bin("workerd"), ["serve", join(dir, "config.capnp")], { stdio: "ignore" });
      try {
        const url = `http://127.0.0.1:${port}/mcp`;
        for (let attempt = 0; ; attempt++) {
          if (attempt > 2000) throw new Error("workerd never answered");
          try {
            const text = await (await call(url, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "greet", arguments: { name: "bench" }, _meta: META } }, { "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "greet" })).text();
            if (text.includes("Hello, bench!")) break;
          } catch {
            await new Promise((r) => setTimeout(r, 5));
          }
        }
        times.push(performance.now() - started);
      } finally {
        child.kill("SIGKILL");
      }
    }
    return times;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const coldStarts = await workerdColdStart();
console.log(`workerd cold start to the first tools/call answer (examples/hosting/worker.ts): ${median(coldStarts).toFixed(0)} ms, median of ${RUNS}`);
record({ bench: "http-fetch", measure: "workerd: spawn -> first tools/call answer", contender: "ours", unit: "ms", median: median(coldStarts), runs: coldStarts });
