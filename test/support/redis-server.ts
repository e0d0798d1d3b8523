// A real redis-server for one test file: a free port on 127.0.0.1, a temporary directory, no
// persistence; stopped (and its directory removed) by `stop`. `make redis` provides the binary.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connectRedis, type RedisConnection } from "../../runtime/stores/redis-connection.js";

export interface RedisServer {
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 20_000;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function startRedis(): Promise<RedisServer> {
  const dir = await mkdtemp(join(tmpdir(), "mcp-redis-"));
  // A port found free can be taken before redis-server binds it: a few tries, each with a new port.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    try {
      await ready(child);
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      return {
        url: `redis://127.0.0.1:${port}`,
        port,
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
          const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
          await exited;
          clearTimeout(timer);
          await rm(dir, { recursive: true, force: true });
        },
      };
    } catch (error) {
      child.kill("SIGKILL");
      if (attempt >= 3 || !/Address already in use/.test((error as Error).message)) {
        await rm(dir, { recursive: true, force: true });
        throw error;
      }
    }
  }
}

/** Resolves when redis-server says it accepts connections; rejects with what it printed when it exits first. */
function ready(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`redis-server did not start within ${START_TIMEOUT_MS} ms: ${output}`)), START_TIMEOUT_MS);
    const read = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      if (/Ready to accept connections/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", read);
    child.once("error", (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(error.code === "ENOENT" ? new Error("redis-server is not on PATH: run `make redis` (or: sudo apt-get install -y redis-server)") : error);
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited (${code}) before it was ready: ${output}`));
    });
  });
}

/**
 * One redis-server for the enclosing describe block, started before its tests and stopped after
 * them with every connection `connect` opened.
 */
export function redisForSuite(): { connect(): Promise<RedisConnection> } {
  let redis: RedisServer | undefined;
  const connections: RedisConnection[] = [];
  before(async () => {
    redis = await startRedis();
  });
  after(async () => {
    await Promise.all(connections.map((connection) => connection.close()));
    await redis?.stop();
  });
  return {
    connect: async () => {
      const connection = await connectRedis(redis!.url);
      connections.push(connection);
      return connection;
    },
  };
}
