// Scale-out: calls/s through a round-robin proxy (no affinity) to 1 or 3 server processes
// (test/fixtures/scale-out/server.ts), with their stores in each process's memory or in one shared
// Redis, same machine, same run, same clients.
//
//   node --import tsx bench/scale-out.ts [--quick] [--session]   (--session: the session-era rows alone)
//
// Stateless era (2026-07-28): a multi-round-trip tools/call (the tool elicits a name; the client
// answers and retries with the requestState, which is claimed in the nonce store): 2 HTTP requests
// and one nonce claim per call. Session era (2025-11-25): the same tool, where the elicitation is a
// request on the call's SSE stream and the client's answer is a POST of its own, which the proxy
// sends to another instance (with Redis: forwarded over the bus to the one that asked); every
// request loads the session from the store. Memory stores cannot serve a session over 3
// instances, so the session era has no "3 instances, memory" row.
// 8 clients (McpClient over HTTP, in this process), each with one call in flight, call as fast as
// answers come for RUN_MS. Configurations alternate within each round; the figure is the median
// calls/s over the rounds, with the spread (min..max). Ratios: 3 instances / 1, Redis / memory,
// and the time Redis adds per call. 2 cores limit what 3 instances can show (the proxy, the
// clients, Redis and the instances share them): per-instance figures are printed too. Every loop
// is bounded in count and time. Since a shared machine makes rates noisy, each configuration is also
// given in CPU time per call (from /proc schedstat: the instances, and redis-server) and in Redis
// commands per call (INFO stats), which other work disturbs far less.
import { McpClient } from "../runtime/index.js";
import { connectRedis } from "../runtime/stores/redis-connection.js";
import { processCpuMs } from "./support/process-cpu.js";
import { record } from "./support/results.js";
import { HttpClientTransport } from "../runtime/http.js";
import { startProxy } from "../test/support/round-robin-proxy.js";
import { startRedis } from "../test/support/redis-server.js";
import { startInstance, type Instance } from "../test/support/scale-out.js";

const QUICK = process.argv.includes("--quick");
const CLIENTS = 8;
const ROUNDS = QUICK ? 3 : 5;
const RUN_MS = QUICK ? 1_500 : 3_000;
const WARMUP_CALLS = QUICK ? 50 : 200;
const MAX_CALLS_PER_RUN = 1_000_000;
const SECRET = "bench secret";

interface Config {
  readonly era: "stateless" | "session";
  readonly instances: 1 | 3;
  readonly store: "memory" | "redis";
}
const ALL_CONFIGS: Config[] = [
  { era: "stateless", instances: 1, store: "memory" },
  { era: "stateless", instances: 3, store: "memory" },
  { era: "stateless", instances: 1, store: "redis" },
  { era: "stateless", instances: 3, store: "redis" },
  { era: "session", instances: 1, store: "memory" },
  { era: "session", instances: 1, store: "redis" },
  { era: "session", instances: 3, store: "redis" },
];
const CONFIGS = process.argv.includes("--session") ? ALL_CONFIGS.filter((c) => c.era === "session") : ALL_CONFIGS;
const label = (config: Config) => `${config.era}, ${config.instances} instance${config.instances > 1 ? "s" : ""}, ${config.store} stores`;

interface Measured {
  readonly rate: number;
  /** CPU µs per call: the instances, and redis-server. */
  readonly instancesCpu: number;
  readonly redisCpu: number;
  readonly redisCommands: number;
}

async function measure(config: Config, redisUrl: string): Promise<Measured> {
  const env = { MCP_SECRET: SECRET, ...(config.store === "redis" ? { REDIS_URL: redisUrl } : {}) };
  const instances: Instance[] = await Promise.all(Array.from({ length: config.instances }, () => startInstance(env)));
  const proxy = await startProxy(instances.map((instance) => instance.url));
  const clients = await Promise.all(
    Array.from({ length: CLIENTS }, () =>
      McpClient.connect(new HttpClientTransport(proxy.url), {
        name: "bench",
        version: "1.0.0",
        revision: config.era === "stateless" ? "2026-07-28" : "2025-11-25",
        requestTimeoutMs: 30_000,
        handlers: { elicitation: () => ({ action: "accept", content: { name: "Ada" } }) },
      }),
    ),
  );
  try {
    for (let i = 0; i < WARMUP_CALLS; i++) await clients[i % CLIENTS]!.callTool("ask");
    let calls = 0;
    const instancesCpu = () => instances.reduce((sum, instance) => sum + processCpuMs(instance.pid), 0);
    const cpu0 = instancesCpu();
    const redisCpu0 = processCpuMs(redisPid);
    const commands0 = await redisCommands();
    const started = performance.now();
    const deadline = started + RUN_MS;
    await Promise.all(
      clients.map(async (client) => {
        while (performance.now() < deadline && calls < MAX_CALLS_PER_RUN) {
          const result = await client.callTool("ask");
          if (result.isError) throw new Error(`the call failed: ${JSON.stringify(result)}`);
          calls++;
        }
      }),
    );
    const rate = calls / ((performance.now() - started) / 1000);
    return {
      rate,
      instancesCpu: ((instancesCpu() - cpu0) * 1000) / calls,
      redisCpu: ((processCpuMs(redisPid) - redisCpu0) * 1000) / calls,
      // Less the INFO commands of this measure itself.
      redisCommands: ((await redisCommands()) - commands0 - 1) / calls,
    };
  } finally {
    await Promise.all(clients.map((client) => client.close()));
    await proxy.close();
    await Promise.all(instances.map((instance) => instance.stop()));
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const redis = await startRedis();
const admin = await connectRedis(redis.url);
const info = async (section: string, field: string) => Number(new RegExp(`${field}:(\\d+)`).exec(String(await admin.commands.sendCommand(["INFO", section])))?.[1]);
const redisPid = await info("server", "process_id");
const redisCommands = () => info("stats", "total_commands_processed");
try {
  const rates = new Map<Config, number[]>(CONFIGS.map((config) => [config, []]));
  const costs = new Map<Config, Measured[]>(CONFIGS.map((config) => [config, []]));
  for (let round = 0; round < ROUNDS; round++)
    for (const config of round % 2 ? [...CONFIGS].reverse() : CONFIGS) {
      const measured = await measure(config, redis.url);
      rates.get(config)!.push(measured.rate);
      costs.get(config)!.push(measured);
    }
  const figure = (config: Config) => median(rates.get(config)!);
  const cost = (config: Config, what: "instancesCpu" | "redisCpu" | "redisCommands") => median(costs.get(config)!.map((m) => m[what]));
  console.log(`scale-out: an eliciting tools/call through a round-robin proxy, ${CLIENTS} clients, median of ${ROUNDS} runs of ${RUN_MS} ms`);
  console.log("| configuration | calls/s | calls/s per instance | spread (min..max) | runs |");
  console.log("|---|---:|---:|---|---|");
  for (const config of CONFIGS) {
    const runs = rates.get(config)!;
    console.log(
      `| ${label(config)} | ${figure(config).toFixed(0)} | ${(figure(config) / config.instances).toFixed(0)} | ${Math.min(...runs).toFixed(0)}..${Math.max(...runs).toFixed(0)} | ${runs.map((rate) => rate.toFixed(0)).join(", ")} |`,
    );
  }
  console.log("\nCPU time per call (µs, medians) and Redis commands per call:\n");
  console.log("| configuration | instances' CPU | redis-server CPU | Redis commands |");
  console.log("|---|---:|---:|---:|");
  for (const config of CONFIGS)
    console.log(`| ${label(config)} | ${cost(config, "instancesCpu").toFixed(0)} | ${cost(config, "redisCpu").toFixed(0)} | ${cost(config, "redisCommands").toFixed(1)} |`);
  const find = (era: Config["era"], instances: Config["instances"], store: Config["store"]) => CONFIGS.find((c) => c.era === era && c.instances === instances && c.store === store);
  const added = (redis: Config | undefined, memory: Config | undefined) => (redis && memory ? ((1000 / figure(redis) - 1000 / figure(memory)) * CLIENTS).toFixed(2) : "-");
  const cpuAdded = (redis: Config | undefined, memory: Config | undefined) =>
    redis && memory ? ((cost(redis, "instancesCpu") + cost(redis, "redisCpu") - cost(memory, "instancesCpu") - cost(memory, "redisCpu")) / 1000).toFixed(2) : "-";
  const ratio = (a: Config | undefined, b: Config | undefined) => (a && b ? `${(figure(a) / figure(b)).toFixed(2)}x` : "-");
  const [oneMemory, threeMemory, oneRedis, threeRedis] = [find("stateless", 1, "memory"), find("stateless", 3, "memory"), find("stateless", 1, "redis"), find("stateless", 3, "redis")];
  const [sessionMemory, sessionRedis, sessionThree] = [find("session", 1, "memory"), find("session", 1, "redis"), find("session", 3, "redis")];
  console.log(`\nstateless, 3 instances / 1: memory stores ${ratio(threeMemory, oneMemory)}, Redis stores ${ratio(threeRedis, oneRedis)}`);
  console.log(`stateless, Redis / memory: 1 instance ${ratio(oneRedis, oneMemory)}, 3 instances ${ratio(threeRedis, threeMemory)}`);
  console.log(`session, Redis / memory (1 instance) ${ratio(sessionRedis, sessionMemory)}; 3 instances on Redis / 1 on Redis ${ratio(sessionThree, sessionRedis)}; / 1 in memory ${ratio(sessionThree, sessionMemory)}`);
  console.log(`time Redis adds per call (from the per-call time at ${CLIENTS} in flight, 1 instance): stateless ${added(oneRedis, oneMemory)} ms, session ${added(sessionRedis, sessionMemory)} ms`);
  console.log(`CPU time Redis adds per call (instances + redis-server, 1 instance): stateless ${cpuAdded(oneRedis, oneMemory)} ms, session ${cpuAdded(sessionRedis, sessionMemory)} ms`);
  for (const config of CONFIGS) {
    const name = `${config.instances} instance${config.instances > 1 ? "s" : ""}, ${config.store}`;
    record({ bench: "scale-out", measure: `${config.era} era, calls/s`, contender: name, unit: "calls/s", median: figure(config), runs: rates.get(config)! });
    record({ bench: "scale-out", measure: `${config.era} era, CPU per call (instances + Redis)`, contender: name, unit: "ms", median: (cost(config, "instancesCpu") + cost(config, "redisCpu")) / 1000, runs: costs.get(config)!.map((m) => (m.instancesCpu + m.redisCpu) / 1000) });
  }
} finally {
  await admin.close();
  await redis.stop();
}
