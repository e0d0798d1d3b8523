// Several server processes, each on its own port: test/fixtures/scale-out/server.ts (stateless era),
// or examples/conformance-server with its stores in Redis (both eras).
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { servedOverHttp, type ServedProcess } from "./served-process.js";

const SERVER = fileURLToPath(new URL("../fixtures/scale-out/server.ts", import.meta.url));
const CONFORMANCE_SERVER = fileURLToPath(new URL("../../examples/conformance-server/main.ts", import.meta.url));
const START_TIMEOUT_MS = 30_000;

export type Instance = ServedProcess;

export async function startInstance(env: { MCP_SECRET: string; REDIS_URL?: string }): Promise<Instance> {
  const child = spawn(process.execPath, ["--import", "tsx", SERVER], {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, ...env },
  });
  return servedOverHttp(child, "the instance", START_TIMEOUT_MS);
}

/** The conformance fixture as one of many instances: sessions, events, nonces and the bus in the Redis at `redisUrl`. */
export async function startConformanceInstance(redisUrl: string, secret: string): Promise<Instance> {
  const child = spawn(process.execPath, ["--import", "tsx", CONFORMANCE_SERVER, "--port", "0", "--redis", redisUrl, "--secret", secret], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  return servedOverHttp(child, "the conformance instance", START_TIMEOUT_MS, /listening on (\S+)/);
}
