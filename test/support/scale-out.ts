// Several processes of test/fixtures/scale-out/server.ts, each on its own port.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const SERVER = fileURLToPath(new URL("../fixtures/scale-out/server.ts", import.meta.url));
const START_TIMEOUT_MS = 30_000;

export interface Instance {
  readonly url: string;
  readonly pid: number;
  stop(): Promise<void>;
}

export async function startInstance(env: { MCP_SECRET: string; REDIS_URL?: string }): Promise<Instance> {
  const child = spawn(process.execPath, ["--import", "tsx", SERVER], {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, ...env },
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let stderr = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the instance reported no URL within ${START_TIMEOUT_MS} ms: ${stderr}`)), START_TIMEOUT_MS);
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      const found = /serving MCP over Streamable HTTP at (\S+)/.exec(stderr);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]!);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the instance exited (${code}) before serving: ${stderr}`));
    });
  });
  return {
    url,
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
