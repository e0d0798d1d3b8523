// fetchHandler on Node (@hono/node-server), Bun and Deno against our node:http endpoint: tools/call
// throughput with 16 concurrent clients, both eras, in one run; ratios to the node:http endpoint.
// Each server is its own process (binaries from tools/runtimes); the load comes from this process.
// Then workerd's cold start: from spawning workerd (examples/hosting/worker.ts, bundled) to the first
// tools/call answer.
//   node --import tsx bench/http-fetch.ts [--seconds 3] [--runs 3]
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({ options: { seconds: { type: "string", default: "3" }, runs: { type: "string", default: "3" } } });
const SECONDS = Number(values.seconds);
const RUNS = Number(values.runs);
const CLIENTS = 16;
const root = join(import.meta.dirname, "..");
const servers = join(root, "tools", "runtimes", "servers");
const bin = (name: string) => join(root, "tools", "runtimes", "node_modules", ".bin", name);

const TARGETS: Record<string, [string, string[]]> = {
  "node http()": [process.execPath, ["--import", "tsx", join(servers, "hello-node-http.ts")]],
  "node fetchHandler": [process.execPath, ["--import", "tsx", join(servers, "hello-node-fetch.ts")]],
  "bun fetchHandler": [bin("bun"), [join(servers, "hello-bun.ts")]],
  "deno fetchHandler": [bin("deno"), ["run", "--allow-net", "--allow-read", "--allow-env", "--allow-sys", "--sloppy-imports", join(servers, "hello-deno.ts")]],
};

const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" } };
const JSON_HEADERS = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };

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

async function call(url: string, body: unknown, headers: Record<string, string>): Promise<Response> {
  const response = await fetch(url, { method: "POST", headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(body) });
  if (response.status !== 200 && response.status !== 202) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
  return response;
}

/** One client's loop for `SECONDS`: how many tools/call answers it got. */
async function client(url: string, era: "stateless" | "session"): Promise<number> {
  let headers: Record<string, string> = { "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "greet" };
  let params: Record<string, unknown> = { name: "greet", arguments: { name: "bench" }, _meta: META };
  if (era === "session") {
    const init = await call(url, { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } } }, {});
    await init.text();
    headers = { "Mcp-Session-Id": init.headers.get("mcp-session-id")!, "MCP-Protocol-Version": "2025-11-25" };
    await (await call(url, { jsonrpc: "2.0", method: "notifications/initialized" }, headers)).text();
    params = { name: "greet", arguments: { name: "bench" } };
  }
  const deadline = performance.now() + SECONDS * 1000;
  let done = 0;
  for (let id = 1; performance.now() < deadline; id++) {
    const text = await (await call(url, { jsonrpc: "2.0", id, method: "tools/call", params }, headers)).text();
    if (!text.includes("Hello, bench!")) throw new Error(`unexpected answer: ${text}`);
    done++;
  }
  return done;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const results: Record<string, Record<string, number>> = {};
for (const [name, [command, args]] of Object.entries(TARGETS)) {
  const { child, url } = await start(command, args);
  try {
    for (const era of ["stateless", "session"] as const) {
      const rates: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        const counts = await Promise.all(Array.from({ length: CLIENTS }, () => client(url, era)));
        rates.push(counts.reduce((a, b) => a + b, 0) / SECONDS);
      }
      (results[name] ??= {})[era] = median(rates);
    }
  } finally {
    child.kill("SIGKILL");
  }
}
const base = results["node http()"]!;
console.log(`tools/call per second, ${CLIENTS} clients, median of ${RUNS} runs of ${SECONDS} s`);
console.log("| server | stateless 2026-07-28 | ratio | session 2025-11-25 | ratio |");
console.log("|---|---:|---:|---:|---:|");
for (const [name, r] of Object.entries(results))
  console.log(`| ${name} | ${r.stateless!.toFixed(0)} | ${(r.stateless! / base.stateless!).toFixed(2)} | ${r.session!.toFixed(0)} | ${(r.session! / base.session!).toFixed(2)} |`);

/** workerd: spawn to first answer, median of RUNS. */
async function workerdColdStart(): Promise<number> {
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
    return median(times);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
console.log(`workerd cold start to the first tools/call answer (examples/hosting/worker.ts): ${(await workerdColdStart()).toFixed(0)} ms, median of ${RUNS}`);
