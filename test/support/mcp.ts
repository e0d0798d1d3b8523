/**
 * Shared by the runtime and interop tests: the fixture servers, how to start them, the stateless
 * `_meta`, and ajv (test/support/oracle.ts) as an independent check of what a peer answered: not
 * the generated validators, which the server itself applies.
 */
import { expect } from "chai";
import { fileURLToPath } from "node:url";
import { createMemoryPair, McpClient, type McpServer, type Revision } from "../../runtime/index.js";
import { silentLogger } from "../../runtime/util/logger.js";
import { oracleFor } from "./oracle.js";
import { RawStdio } from "./raw-stdio.js";

export { PIXEL_PNG_BASE64 } from "../fixtures/servers/pixel.js";

export const SESSION_REVISIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] as const;
export const STATELESS_REVISION = "2026-07-28";

/** The interop fixture on our runtime (stdio). */
export const EVERYTHING = fileURLToPath(new URL("../fixtures/servers/everything.ts", import.meta.url));
/** The SDK's McpServer with the same surface, over the SDK's StdioServerTransport. */
export const SDK_STDIO_SERVER = fileURLToPath(new URL("../fixtures/servers/sdk-stdio.ts", import.meta.url));

/** `node --import tsx <script> ...args`, as argv after the node binary. */
export function tsxArgs(script: string, ...args: string[]): string[] {
  return ["--import", "tsx", script, ...args];
}

/** Spawns the fixture for raw lines; resolves once it says it is ready. */
export async function spawnEverything(...args: string[]): Promise<RawStdio> {
  const raw = await RawStdio.spawn(process.execPath, tsxArgs(EVERYTHING, ...args));
  try {
    await raw.waitForStderr(/everything: ready\n/, 20_000);
  } catch (error) {
    raw.kill();
    throw error;
  }
  return raw;
}

export const CLIENT_INFO = { name: "raw-test-client", version: "0.0.1" } as const;

/** initialize at `revision`, then notifications/initialized; the initialize result. */
export async function initialize(raw: RawStdio, revision: string, id: string | number = "init", capabilities: Record<string, unknown> = {}) {
  const response = await raw.request({
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: { protocolVersion: revision, capabilities, clientInfo: CLIENT_INFO },
  });
  expect(response.error, JSON.stringify(response.error)).to.equal(undefined);
  raw.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return response.result as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** The stateless era's per-request `_meta`. */
export function statelessMeta(revision: string = STATELESS_REVISION, capabilities: Record<string, unknown> = {}) {
  return {
    "io.modelcontextprotocol/protocolVersion": revision,
    "io.modelcontextprotocol/clientCapabilities": capabilities,
    "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
  };
}

/** Asserts that `value` is a valid `definition` of `revision` by ajv's verdict, listing the issues when not. */
export function expectValid(revision: string, definition: string, value: unknown): void {
  const validate = oracleFor(revision).validator(definition);
  if (validate(value)) return;
  expect.fail(`not a valid ${definition} of ${revision} (ajv): ${JSON.stringify(validate.errors?.slice(0, 5))}\nvalue: ${JSON.stringify(value).slice(0, 400)}`);
}

/** Polls `condition` every 10 ms; rejects naming `what` once `ms` have passed. */
export async function until(condition: () => boolean, ms = 10_000, what = "the condition"): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** `promise`, or a rejection naming `what` after `ms`. */
export async function within<T>(ms: number, promise: Promise<T>, what = "the operation"): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The rejection of `promise`, failing the test when it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<any> { // eslint-disable-line @typescript-eslint/no-explicit-any
  try {
    await promise;
  } catch (error) {
    return error;
  }
  expect.fail("expected a rejection, got a result");
}

/** Our McpClient on an in-memory connection to `server`, at `revision`. */
export async function connectClient(server: McpServer, revision: Revision, options: { capabilities?: Record<string, unknown> } = {}): Promise<McpClient> {
  const [clientEnd, serverEnd] = createMemoryPair();
  await server.listen(serverEnd);
  return McpClient.connect(clientEnd, { name: "test-client", version: "0.1.0", revision, logger: silentLogger, ...options });
}
