// Scale-out: calls/s through a round-robin proxy (no affinity) to 1 or 3 server processes
// (test/fixtures/scale-out/server.ts), with their stores in each process's memory or in one shared
// Redis, same machine, same run, same clients.
//
//   node --import tsx bench/scale-out.ts [--quick]
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
// is bounded in count and time.
import { McpClient } from "../runtime/index.js";
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
const CONFIGS: Config[] = [
  { era: "stateless", instances: 1, store: "memory" },
  { era: "stateless", instances: 3, store: "memory" },
  { era: "stateless", instances: 1, store: "redis" },
  { era: "stateless", instances: 3, store: "redis" },
  { era: "session", instances: 1, store: "memory" },
  { era: "session", instances: 1, store: "redis" },
  { era: "session", instances: 3, store: "redis" },
];
const label = (config: Config) => `${config.era}, ${config.instances} instance${config.instances > 1 ? "s" : ""}, ${config.store} stores`;

async function measure(config: Config, redisUrl: string): Promise<number> {
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
    return calls / ((performance.now() - started) / 1000);
  } finally {
    await Promise.all(clients.map((client) => client.close()));
    await proxy.close();
    await Promise.all(instances.map((instance) => instance.stop()));
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const redis = await startRedis();
try {
  const rates = new Map<Config, number[]>(CONFIGS.map((config) => [config, []]));
  for (let round = 0; round < ROUNDS; round++)
    for (const config of round % 2 ? [...CONFIGS].reverse() : CONFIGS) rates.get(config)!.push(await measure(config, redis.url));
  const figure = (config: Config) => median(rates.get(config)!);
  console.log(`scale-out: an eliciting tools/call through a round-robin proxy, ${CLIENTS} clients, median of ${ROUNDS} runs of ${RUN_MS} ms`);
  console.log("| configuration | calls/s | calls/s per instance | spread (min..max) | runs |");
  console.log("|---|---:|---:|---|---|");
  for (const config of CONFIGS) {
    const runs = rates.get(config)!;
    console.log(
      `| ${label(config)} | ${figure(config).toFixed(0)} | ${(figure(config) / config.instances).toFixed(0)} | ${Math.min(...runs).toFixed(0)}..${Math.max(...runs).toFixed(0)} | ${runs.map((rate) => rate.toFixed(0)).join(", ")} |`,
    );
  }
  const [oneMemory, threeMemory, oneRedis, threeRedis, sessionMemory, sessionRedis, sessionThree] = CONFIGS.map(figure) as number[] as [number, number, number, number, number, number, number];
  const added = (redis: number, memory: number) => ((1000 / redis - 1000 / memory) * CLIENTS).toFixed(2);
  console.log(`stateless, 3 instances / 1: memory stores ${(threeMemory / oneMemory).toFixed(2)}x, Redis stores ${(threeRedis / oneRedis).toFixed(2)}x`);
  console.log(`stateless, Redis / memory: 1 instance ${(oneRedis / oneMemory).toFixed(2)}x, 3 instances ${(threeRedis / threeMemory).toFixed(2)}x`);
  console.log(`session, Redis / memory (1 instance) ${(sessionRedis / sessionMemory).toFixed(2)}x; 3 instances on Redis / 1 on Redis ${(sessionThree / sessionRedis).toFixed(2)}x; / 1 in memory ${(sessionThree / sessionMemory).toFixed(2)}x`);
  console.log(
    `time Redis adds per call (from the per-call time at ${CLIENTS} in flight, 1 instance): stateless ${added(oneRedis, oneMemory)} ms, session ${added(sessionRedis, sessionMemory)} ms`,
  );
} finally {
  await redis.stop();
}
