// Several processes of test/fixtures/scale-out/server.ts, each on its own port.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { servedOverHttp, type ServedProcess } from "./served-process.js";

const SERVER = fileURLToPath(new URL("../fixtures/scale-out/server.ts", import.meta.url));
const START_TIMEOUT_MS = 30_000;

export type Instance = ServedProcess;

export async function startInstance(env: { MCP_SECRET: string; REDIS_URL?: string }): Promise<Instance> {
  const child = spawn(process.execPath, ["--import", "tsx", SERVER], {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, ...env },
  });
  return servedOverHttp(child, "the instance", START_TIMEOUT_MS);
}
