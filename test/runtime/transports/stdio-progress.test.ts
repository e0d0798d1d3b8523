// Issue 12 item 11: the official SDK clients (v1 and v2) delete a request's progress handler as
// soon as its response arrives, but run notification handlers a microtask later
// (typescript-sdk#2580), so progress read in the same chunk as its response is lost. Our stdio
// server writes progress on its own and answers only once that write has completed. Counted here
// with the real SDK clients over a real pipe, 1,000 calls each, every notification accounted for.
import { expect } from "chai";
import { existsSync } from "node:fs";
import { PassThrough, Writable } from "node:stream";
import { createServer } from "../../../runtime/index.js";
import { StdioTransport } from "../../../runtime/transports/stdio.js";
import { silentLogger } from "../../../runtime/util/logger.js";
import { statelessMeta } from "../../support/features-server.js";
import { within } from "../../support/mcp.js";
import { join } from "node:path";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const SERVER = join(import.meta.dirname, "fixtures", "progress-server.ts");
const PEERS = join(ROOT, "tools", "bench-peers", "node_modules", "@modelcontextprotocol");
const CALLS = 1_000;
const STEPS = 3;

interface SdkClient {
  callTool(params: { name: string; arguments: Record<string, unknown> }, ...rest: unknown[]): Promise<unknown>;
  close(): Promise<void>;
}

/** Calls `steps` CALLS times, one at a time; how many progress notifications each call got before its result. */
async function countProgress(client: SdkClient, call: (onprogress: () => void) => Promise<unknown>): Promise<number[]> {
  const received: number[] = [];
  try {
    for (let i = 0; i < CALLS; i++) {
      let count = 0;
      const result = (await call(() => count++)) as { content: { text: string }[] };
      expect(result.content[0]!.text).to.equal("done");
      received.push(count);
    }
  } finally {
    await client.close();
  }
  return received;
}

/** Every call got all STEPS notifications: none lost, none extra. */
function expectNoneLost(received: number[]): void {
  expect(received).to.have.length(CALLS);
  const lost = received.reduce((sum, n) => sum + (STEPS - n), 0);
  const calls = received.filter((n) => n !== STEPS).length;
  expect({ lost, calls }, `${lost} notifications lost in ${calls} of ${CALLS} calls`).to.deep.equal({ lost: 0, calls: 0 });
}

const stdioParams = { command: process.execPath, args: ["--import", "tsx", SERVER], stderr: "inherit" as const };

describe("stdio: progress reaches SDK clients before the response (typescript-sdk#2580)", function () {
  this.timeout(180_000);

  it(`SDK v1 client (2025-11-25): every progress notification of ${CALLS} calls arrives, none lost`, async () => {
    const client = new ClientV1({ name: "progress-v1", version: "1.0.0" });
    await client.connect(new StdioV1(stdioParams));
    const received = await countProgress(client, (onprogress) => client.callTool({ name: "steps", arguments: {} }, undefined, { onprogress }));
    expectNoneLost(received);
  });

  it(`SDK v2 client (2025-11-25): every progress notification of ${CALLS} calls arrives, none lost`, async () => {
    if (!existsSync(join(PEERS, "client"))) throw new Error("tools/bench-peers is not installed: run `make tools`");
    const { Client } = await import(join(PEERS, "client", "dist", "index.mjs"));
    const { StdioClientTransport } = await import(join(PEERS, "client", "dist", "stdio.mjs"));
    const client = new Client({ name: "progress-v2", version: "1.0.0" });
    await client.connect(new StdioClientTransport(stdioParams));
    const received = await countProgress(client, (onprogress) => client.callTool({ name: "steps", arguments: {} }, { onprogress }));
    expectNoneLost(received);
  });

  // Issue 32 item 6: no server-to-client request to confirm with, so the response starts 64 KiB
  // after the last progress notification; no read of a pipe holds both.
  it(`SDK v2 client (2026-07-28): every progress notification of ${CALLS} calls arrives, none lost`, async () => {
    if (!existsSync(join(PEERS, "client"))) throw new Error("tools/bench-peers is not installed: run `make tools`");
    const { Client } = await import(join(PEERS, "client", "dist", "index.mjs"));
    const { StdioClientTransport } = await import(join(PEERS, "client", "dist", "stdio.mjs"));
    const client = new Client({ name: "progress-v2", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
    await client.connect(new StdioClientTransport(stdioParams));
    expect(client.getNegotiatedProtocolVersion()).to.equal("2026-07-28");
    const received = await countProgress(client, (onprogress) => client.callTool({ name: "steps", arguments: {} }, { onprogress }));
    expectNoneLost(received);
  });
});

// 2026-07-28 has no server-to-client request to confirm with, so there the guarantee is the
// wire's: each progress notification in a write of its own, and the response written only after
// the last of them completed. Checked on a real Writable that records each write it gets.
describe("stdio, 2026-07-28: progress in writes of its own, the response after them", () => {
  it("writes each progress line alone, and the response only once they are written", async () => {
    const writes: string[] = [];
    const lines = () => writes.join("").split("\n").filter(Boolean).length;
    // Resolved by the write that completes both calls' messages (STEPS progress and a response
    // each), whenever that is: the first request loads the revision's modules from disk first.
    let allWritten!: () => void;
    const written = new Promise<void>((resolve) => (allWritten = resolve));
    const output = new Writable({
      // Completion is deferred a turn, as a pipe's may be: the response must wait for it.
      write(chunk: Buffer, _encoding, done) {
        writes.push(chunk.toString("utf8"));
        if (lines() >= 2 * (STEPS + 1)) allWritten();
        setImmediate(done);
      },
    });
    const input = new PassThrough();
    const server = createServer({ name: "p", version: "1", logger: silentLogger });
    server.tool({ name: "steps", inputSchema: { type: "object" } }, (_args, context) => {
      for (let step = 1; step <= STEPS; step++) context.progress(step, STEPS);
      return { content: [{ type: "text", text: "done" }] };
    });
    await server.listen(new StdioTransport(input, output));
    const meta = { ...statelessMeta(), progressToken: "t" };
    for (let id = 1; id <= 2; id++) input.write(`${JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "steps", arguments: {}, _meta: meta } })}\n`);
    await within(30_000, written, "both calls' progress and responses");
    await server.close();
    const kinds = writes.map((chunk) =>
      chunk
        .split("\n")
        .filter(Boolean)
        .map((line) => {
          const message = JSON.parse(line);
          return message.method === "notifications/progress" ? `p${message.params.progress}` : `r${message.id}`;
        })
        .join(","),
    );
    // Both requests arrive in one chunk, and both handlers report before either answers. No
    // writev: each write() call is recorded as it was made. Each progress line is one, in order,
    // and each response comes after all of them.
    expect(kinds).to.deep.equal(["p1", "p2", "p3", "p1", "p2", "p3", "r1", "r2"]);
  });
});
