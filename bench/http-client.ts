// The client side of Streamable HTTP: tools/call throughput of McpClient over HttpClientTransport
// against SDK v2's Client and SDK v1's Client (each over its StreamableHTTPClientTransport), beside
// the floor: the raw node:http client of bench/http/client.ts over a keep-alive agent. Every client
// calls the same server, ours (bench/http/server.ts, JSON answers), in a child process of its own,
// so the ratios are of clients alone.
//
//   node --import tsx bench/http-client.ts [--quick] [--runs N] [--ms N] [--era 2025-11-25|2026-07-28] [--kinds ours,v2,v1,raw]
//
// 16 clients of a kind, each one call in flight at a time, calling an echo tool as fast as answers
// come (2025-11-25: each its own session; 2026-07-28: no handshake, SDK v2 pinned to it as its docs
// say for a 2026 server; SDK v1 speaks 2025 only). Every run measures each kind once, the order
// rotating; the figure is the median calls/s over the runs (slowest-fastest), ratios are of
// medians. A second table gives this process's CPU time per call (process.cpuUsage), which a
// shared machine disturbs less than the rates. Every loop is bounded in count and time.
import { spawn, type ChildProcess } from "node:child_process";
import { Agent } from "node:http";
import { cpus } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1Transport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { median, Session, type Era } from "./http/client.js";
import { httpRuntime, runtime } from "./support/ours.js";
import { v2Client } from "./support/peers.js";
import { record } from "./support/results.js";

const { values } = parseArgs({ options: { quick: { type: "boolean", default: false }, runs: { type: "string" }, ms: { type: "string" }, era: { type: "string" }, kinds: { type: "string" } } });
const CLIENTS = 16;
const RUNS = Number(values.runs ?? (values.quick ? 3 : 5));
const RUN_MS = Number(values.ms ?? (values.quick ? 1_000 : 2_000));
const WARMUP_CALLS = values.quick ? 1_000 : 3_000;
const MAX_CALLS_PER_RUN = 2_000_000;
const here = dirname(fileURLToPath(import.meta.url));

type Kind = "ours" | "v2" | "v1" | "raw";
const TEXT = "hello, echo";

interface Clients {
  call(i: number): Promise<void>;
  close(): Promise<void>;
}

function expectEcho(result: unknown): void {
  if ((result as { content?: { text?: string }[] }).content?.[0]?.text !== TEXT) throw new Error(`unexpected echo result: ${JSON.stringify(result).slice(0, 200)}`);
}

async function open(kind: Kind, url: URL, era: Era): Promise<Clients> {
  if (kind === "raw") {
    const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
    const sessions = Array.from({ length: CLIENTS }, () => new Session(url, agent, era));
    await Promise.all(sessions.map((s) => s.open()));
    return {
      call: async (i) => {
        if ((await sessions[i]!.call("echo", { text: TEXT })) !== TEXT) throw new Error("the echo did not come back");
      },
      close: async () => agent.destroy(),
    };
  }
  if (kind === "ours") {
    const clients = await Promise.all(
      Array.from({ length: CLIENTS }, () =>
        runtime.McpClient.connect(new httpRuntime.HttpClientTransport(url), { name: "bench", version: "1.0.0", revision: era as never, logger: () => {} }),
      ),
    );
    return { call: async (i) => expectEcho(await clients[i]!.callTool("echo", { text: TEXT })), close: async () => void (await Promise.all(clients.map((c) => c.close()))) };
  }
  const clients = await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      if (kind === "v1") {
        const client = new V1Client({ name: "bench", version: "1.0.0" });
        await client.connect(new V1Transport(url));
        return client;
      }
      const client = new v2Client.Client({ name: "bench", version: "1.0.0" }, era === "2026-07-28" ? { versionNegotiation: { mode: { pin: era } } } : {});
      await client.connect(new v2Client.StreamableHTTPClientTransport(url));
      return client;
    }),
  );
  return {
    call: async (i) => expectEcho(await clients[i]!.callTool({ name: "echo", arguments: { text: TEXT } })),
    close: async () => void (await Promise.all(clients.map((c: { close(): Promise<void> }) => c.close()))),
  };
}

async function startServer(era: Era): Promise<{ url: URL; child: ChildProcess }> {
  const child = spawn(process.execPath, ["--import", "tsx", join(here, "http", "server.ts"), "ours", era, "json"], { stdio: ["pipe", "pipe", "inherit"] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`the server (${era}) did not start within 30 s`)), 30_000);
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      const found = /listening on (\S+)/.exec(out);
      if (found) (clearTimeout(timer), resolve(found[1]!));
    });
    child.once("exit", (code) => reject(new Error(`the server (${era}) exited with ${code}`)));
  });
  return { url: new URL(url), child };
}

/** One run of `kind`: fresh clients, a warm-up, then RUN_MS of calls; calls/s and this process's CPU µs per call. */
async function measure(kind: Kind, url: URL, era: Era): Promise<{ rate: number; cpu: number }> {
  const clients = await open(kind, url, era);
  try {
    let warm = 0;
    await Promise.all(Array.from({ length: CLIENTS }, async (_, i) => {
      while (warm++ < WARMUP_CALLS) await clients.call(i);
    }));
    let calls = 0;
    const cpu0 = process.cpuUsage();
    const started = performance.now();
    const deadline = started + RUN_MS;
    await Promise.all(Array.from({ length: CLIENTS }, async (_, i) => {
      while (performance.now() < deadline && calls < MAX_CALLS_PER_RUN) {
        await clients.call(i);
        calls++;
      }
    }));
    const elapsed = performance.now() - started;
    const cpu = process.cpuUsage(cpu0);
    return { rate: calls / (elapsed / 1000), cpu: (cpu.user + cpu.system) / calls };
  } finally {
    await clients.close();
  }
}

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
const ratio = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? "-" : `${(a / b).toFixed(2)}x`);

console.log(`tools/call over Streamable HTTP, ${CLIENTS} clients of each kind against our server (JSON answers), ${RUNS} runs of ${RUN_MS} ms, median calls/s (slowest-fastest)`);
console.log(`node ${process.version}, ${cpus().length} cores; the server in a child process, bound to 127.0.0.1\n`);
console.log("| era | ours | SDK v2 | SDK v1 | raw node:http | ours / raw | ours / v2 | ours / v1 |");
console.log("|---|---:|---:|---:|---:|---:|---:|---:|");
const cpuRows: string[] = [];
for (const era of (["2025-11-25", "2026-07-28"] as const).filter((e) => (values.era ?? e) === e)) {
  const kinds = (era === "2025-11-25" ? (["ours", "v2", "v1", "raw"] as const) : (["ours", "v2", "raw"] as const)).filter((k) => values.kinds?.split(",").includes(k) ?? true);
  const server = await startServer(era);
  try {
    const rates = new Map<Kind, number[]>(kinds.map((k) => [k, []]));
    const cpus = new Map<Kind, number[]>(kinds.map((k) => [k, []]));
    for (let run = 0; run < RUNS; run++)
      for (let i = 0; i < kinds.length; i++) {
        const kind = kinds[(i + run) % kinds.length]!;
        const { rate, cpu } = await measure(kind, server.url, era);
        rates.get(kind)!.push(rate);
        cpus.get(kind)!.push(cpu);
      }
    const med = (k: Kind) => (rates.has(k) ? median(rates.get(k)!) : undefined);
    const cpuMed = (k: Kind) => (cpus.has(k) ? median(cpus.get(k)!) : undefined);
    const cell = (k: Kind) => (rates.has(k) ? `${fmt(med(k)!)} (${fmt(Math.min(...rates.get(k)!))}-${fmt(Math.max(...rates.get(k)!))})` : "-");
    console.log(`| ${era} | ${cell("ours")} | ${cell("v2")} | ${cell("v1")} | ${cell("raw")} | ${ratio(med("ours"), med("raw"))} | ${ratio(med("ours"), med("v2"))} | ${ratio(med("ours"), med("v1"))} |`);
    const cpuCell = (k: Kind) => (cpus.has(k) ? cpuMed(k)!.toFixed(0) : "-");
    cpuRows.push(`| ${era} | ${cpuCell("ours")} | ${cpuCell("v2")} | ${cpuCell("v1")} | ${cpuCell("raw")} | ${ratio(cpuMed("ours"), cpuMed("raw"))} |`);
    for (const kind of kinds) {
      const contender = kind === "raw" ? "floor" : kind;
      record({ bench: "http-client", measure: `${era}, 16 clients, calls/s`, contender, unit: "calls/s", runs: rates.get(kind)!, median: med(kind)! });
      record({ bench: "http-client", measure: `${era}, client CPU per call`, contender, unit: "µs", runs: cpus.get(kind)!, median: cpuMed(kind)! });
    }
  } finally {
    server.child.stdin!.end();
    await new Promise((resolve) => server.child.once("exit", resolve));
  }
}
console.log("\nClient CPU time per call in this process, µs (median over the runs; lower is better):\n");
console.log("| era | ours | SDK v2 | SDK v1 | raw node:http | ours / raw |");
console.log("|---|---:|---:|---:|---:|---:|");
for (const row of cpuRows) console.log(row);
