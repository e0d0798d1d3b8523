/**
 * The tools of public MCP servers, as they list them: each server, installed in tools/bench-peers
 * from its lock file, is spawned on stdio in a temp dir of its own, asked for tools/list by our
 * client, and closed (its stdin ended, then SIGTERM, then SIGKILL). Nothing of theirs is stored:
 * the schemas are captured anew at each run.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { McpClient, spawnStdio } from "../../runtime/index.js";
import { removeDir, tempDir } from "../../test/support/project.js";
import { PEERS } from "./peers.js";

export interface ServerTools {
  readonly server: string;
  /** name@version, from the server's package.json. */
  readonly version: string;
  readonly tools: readonly { readonly name: string; readonly inputSchema: Record<string, unknown> }[];
}

interface Server {
  readonly name: string;
  readonly packageName: string;
  readonly bin: string;
  /** Its arguments, given the temp dir it runs in. */
  readonly args: (dir: string) => string[];
  readonly env?: (dir: string) => Record<string, string>;
}

export const SERVERS: readonly Server[] = [
  { name: "everything", packageName: "@modelcontextprotocol/server-everything", bin: "dist/index.js", args: () => ["stdio"] },
  // Its allowed directory: the temp dir, nothing else.
  { name: "filesystem", packageName: "@modelcontextprotocol/server-filesystem", bin: "dist/index.js", args: (dir) => [dir] },
  { name: "memory", packageName: "@modelcontextprotocol/server-memory", bin: "dist/index.js", args: () => [], env: (dir) => ({ MEMORY_FILE_PATH: join(dir, "memory.jsonl") }) },
  // No browser is started to list the tools.
  { name: "playwright", packageName: "@playwright/mcp", bin: "cli.js", args: () => ["--headless", "--isolated"] },
];

const TIMEOUT_MS = 30_000;

/** `server`'s tools; rejects (after killing it) when it does not list them within the timeout. */
export async function captureTools(server: Server): Promise<ServerTools> {
  const home = join(PEERS, server.packageName);
  const { version } = JSON.parse(readFileSync(join(home, "package.json"), "utf8")) as { version: string };
  const dir = tempDir(`bench-${server.name}`);
  let timer: NodeJS.Timeout | undefined;
  const transport = await spawnStdio(process.execPath, [join(home, server.bin), ...server.args(dir)], {
    cwd: dir,
    env: { ...process.env, ...server.env?.(dir) },
    stderr: "ignore",
    exitTimeoutMs: 2_000,
  }).catch((error: unknown) => {
    removeDir(dir);
    throw error;
  });
  try {
    const listed = (async () => {
      const client = await McpClient.connect(transport, { name: "mcp-codegen-bench", version: "1.0.0", requestTimeoutMs: TIMEOUT_MS });
      return (await client.listTools({ all: true })).items;
    })();
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${server.packageName} listed no tools within ${TIMEOUT_MS} ms`)), TIMEOUT_MS);
    });
    const tools = await Promise.race([listed, timeout]);
    return { server: server.name, version: `${server.packageName}@${version}`, tools: tools.map((t) => ({ name: t.name, inputSchema: t.inputSchema as Record<string, unknown> })) };
  } finally {
    clearTimeout(timer);
    await transport.close();
    removeDir(dir);
  }
}
