// Issue 13, item 3 (SSE): a client that stops reading its stream. What waits to be written is
// bounded per stream; past the limit for stuckTimeoutMs the connection is closed with a log line,
// and what it did not receive stays in the event store for a client that resumes.
import { connect, type Socket } from "node:net";
import { expect } from "chai";
import { openSession, sessionHeaders, startServer, until, type Running } from "./support.js";

const MESSAGES = 300;
const PAYLOAD = "x".repeat(64 * 1024);

describe("transports/http: a client that stops reading", () => {
  let running: Running;
  const logged: string[] = [];
  let finished = false;
  before(async () => {
    running = await startServer({ maxBufferedBytes: 256 * 1024, stuckTimeoutMs: 200, logger: (_level, message) => logged.push(message) }, (server) =>
      server.tool({ name: "flood", description: "sends many large progress notifications", inputSchema: { type: "object" } }, async (_args, ctx) => {
        for (let i = 1; i <= MESSAGES; i++) ctx.progress(i, MESSAGES, PAYLOAD);
        finished = true;
        return { content: [{ type: "text", text: "done" }] };
      }),
    );
  });
  after(() => running.close());

  it("is disconnected with a log line once past the bound for stuckTimeoutMs, even after its answer ended; the session serves on", async () => {
    const session = await openSession(running.url);
    const url = new URL(running.url);
    const body = JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "flood", arguments: {}, _meta: { progressToken: "t" } } });
    const rssBefore = process.memoryUsage().rss;
    // A raw socket that sends the request and never reads a byte of the answer.
    const socket: Socket = connect(Number(url.port), url.hostname);
    socket.pause();
    const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    socket.on("error", () => {});
    socket.write(
      `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
        `Mcp-Session-Id: ${session}\r\nMCP-Protocol-Version: 2025-11-25\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    await until(() => finished, "the tool to send everything", 20_000);
    await until(() => logged.some((m) => /read nothing for 200 ms .* disconnected/.test(m)), "the log line", 20_000);
    // Reading now drains what the kernel already held, then meets the end of the connection.
    let closedSeen = false;
    void closed.then(() => (closedSeen = true));
    socket.on("data", () => {});
    socket.resume();
    await until(() => closedSeen, "the server to close the connection", 20_000);
    const rssAfter = process.memoryUsage().rss;
    console.log(`      rss before ${(rssBefore / 2 ** 20).toFixed(0)} MiB, after ${(rssAfter / 2 ** 20).toFixed(0)} MiB, ${((MESSAGES * PAYLOAD.length) / 2 ** 20).toFixed(0)} MiB sent`);
    socket.destroy();

    // The session still serves.
    const ping = await fetch(running.url, {
      method: "POST",
      headers: { ...sessionHeaders(session), "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 10, method: "ping" }),
      signal: AbortSignal.timeout(10_000),
    });
    expect(ping.status).to.equal(200);
  });
});
