// Issue 32 item 3: backpressure on every Streamable HTTP stream. What the server sends a client
// waits for room: `ctx.progress`, `ctx.log` and `session.notify` resolve only once the stream holds
// no more than maxBufferedBytes unread, so a handler that awaits them cannot grow the server. A
// client that stays over the bound for stuckTimeoutMs is cut off and its session ended.
//
// In process (fetchHandler), the bytes the client has not read are exactly what the handler sent
// minus what the test read: the handler's own counter is the observable.
import { connect, type Socket } from "node:net";
import { expect } from "chai";
import { createServer, type McpServer } from "../../../../runtime/index.js";
import { fetchHandler } from "../../../../runtime/http.js";
import { SseParser } from "../../../../runtime/transports/http/sse-parser.js";
import { initializeRequest, JSON_AND_SSE, LATEST_SESSION, openSession, sessionHeaders, startServer, stateless, until, type Running } from "./support.js";

const LIMIT = 64 * 1024;
const PAYLOAD = "x".repeat(16 * 1024);
const MESSAGES = 64; // 1 MiB in all: sixteen times the bound

/** A tool that sends MESSAGES large messages, awaiting each, and counts what it sent and what resolved. */
class Flood {
  started = 0;
  resolved = 0;
  finished = false;
  register(server: McpServer, send: (ctx: Parameters<Parameters<McpServer["tool"]>[1]>[1], i: number) => Promise<void>): void {
    server.tool({ name: "flood", description: "sends large messages, awaiting each", inputSchema: { type: "object" } }, async (_args, ctx) => {
      for (let i = 1; i <= MESSAGES; i++) {
        this.started++;
        await send(ctx, i);
        this.resolved++;
      }
      this.finished = true;
      return { content: [{ type: "text", text: "done" }] };
    });
  }
}

const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

/** Reads SSE messages from `body` until `count` satisfy `match`; the stream may go on. */
async function readMessages(body: ReadableStream<Uint8Array>, count: number, match: (m: { method?: string }) => boolean): Promise<unknown[]> {
  const messages: unknown[] = [];
  const parser = new SseParser((event) => event.data !== "" && messages.push(JSON.parse(event.data)));
  const reader = body.getReader();
  const decoder = new TextDecoder();
  while (messages.filter((m) => match(m as { method?: string })).length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    parser.push(decoder.decode(value, { stream: true }));
  }
  await reader.cancel();
  return messages;
}

/**
 * The handler, with the client reading nothing: it sends until the stream is over the bound, then
 * waits there. Bytes unread never exceed the bound by more than one message.
 */
async function expectHeldAtTheBound(flood: Flood): Promise<void> {
  await until(() => flood.finished || flood.started >= LIMIT / PAYLOAD.length, "the handler to fill the stream", 20_000);
  await turns(100);
  expect(flood.finished, "the handler waits for the client").to.equal(false);
  expect(flood.started, "sends beyond the bound").to.equal(flood.resolved + 1);
  expect(flood.started * PAYLOAD.length, "bytes sent, none read").to.be.at.most(LIMIT + 2 * PAYLOAD.length);
}

describe("transports/http: backpressure (fetchHandler, bytes counted)", () => {
  const headers = { "Content-Type": "application/json", Accept: JSON_AND_SSE };

  it("session era, a request's SSE answer: ctx.progress waits for room, and nothing is lost once the client reads", async () => {
    const server = createServer({ name: "bp", version: "1", logger: () => {} });
    const flood = new Flood();
    flood.register(server, (ctx, i) => ctx.progress(i, MESSAGES, PAYLOAD));
    const handler = fetchHandler(server, { maxBufferedBytes: LIMIT, stuckTimeoutMs: 600_000 });
    try {
      const init = await handler(new Request("http://localhost/", { method: "POST", headers, body: JSON.stringify(initializeRequest()) }));
      const session = init.headers.get("mcp-session-id")!;
      await init.text();
      const call = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "flood", arguments: {}, _meta: { progressToken: "p" } } };
      const answer = await handler(new Request("http://localhost/", { method: "POST", headers: { ...headers, ...sessionHeaders(session) }, body: JSON.stringify(call) }));
      await expectHeldAtTheBound(flood);
      const messages = await readMessages(answer.body!, 1, (m) => (m as { id?: unknown }).id === 2);
      expect(messages.filter((m) => (m as { method?: string }).method === "notifications/progress")).to.have.length(MESSAGES);
      expect(flood.finished).to.equal(true);
    } finally {
      await server.close();
    }
  });

  it("session era, the GET stream: session.notify waits for room there", async () => {
    const server = createServer({ name: "bp", version: "1", logger: () => {} });
    const flood = new Flood();
    flood.register(server, (ctx, i) => ctx.session.notify("notifications/message", { level: "info", data: `${i} ${PAYLOAD}` }));
    const handler = fetchHandler(server, { maxBufferedBytes: LIMIT, stuckTimeoutMs: 600_000 });
    try {
      const init = await handler(new Request("http://localhost/", { method: "POST", headers, body: JSON.stringify(initializeRequest()) }));
      const session = init.headers.get("mcp-session-id")!;
      await init.text();
      const get = await handler(new Request("http://localhost/", { method: "GET", headers: { Accept: "text/event-stream", ...sessionHeaders(session) } }));
      expect(get.status).to.equal(200);
      const call = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "flood", arguments: {} } };
      const answer = handler(new Request("http://localhost/", { method: "POST", headers: { ...headers, ...sessionHeaders(session) }, body: JSON.stringify(call) }));
      await expectHeldAtTheBound(flood);
      const messages = await readMessages(get.body!, MESSAGES, (m) => m.method === "notifications/message");
      expect(messages.filter((m) => (m as { method?: string }).method === "notifications/message")).to.have.length(MESSAGES);
      expect(((await (await answer).json()) as { id: number }).id).to.equal(2);
      expect(flood.finished).to.equal(true);
    } finally {
      await server.close();
    }
  });

  it("stateless era: ctx.log waits for room on the request's stream", async () => {
    const server = createServer({ name: "bp", version: "1", logger: () => {} });
    const flood = new Flood();
    flood.register(server, (ctx, i) => ctx.log("info", `${i} ${PAYLOAD}`));
    const handler = fetchHandler(server, { maxBufferedBytes: LIMIT, stuckTimeoutMs: 600_000 });
    try {
      const call = stateless(1, "tools/call", { name: "flood", arguments: {}, _meta: { "io.modelcontextprotocol/logLevel": "debug" } });
      const answer = await handler(new Request("http://localhost/", { method: "POST", headers: { ...headers, ...call.headers }, body: JSON.stringify(call.body) }));
      await expectHeldAtTheBound(flood);
      const messages = await readMessages(answer.body!, 1, (m) => (m as { id?: unknown }).id === 1);
      expect(messages.filter((m) => (m as { method?: string }).method === "notifications/message")).to.have.length(MESSAGES);
      expect(flood.finished).to.equal(true);
    } finally {
      await server.close();
    }
  });
});

describe("transports/http: a client that stops reading (node:http, raw socket)", () => {
  const BIG = "x".repeat(64 * 1024);
  const COUNT = 1_000; // 64 MiB
  let running: Running;
  const logged: string[] = [];
  let sent = 0;
  let sentWhenAborted: number | undefined;
  before(async () => {
    running = await startServer({ maxBufferedBytes: 256 * 1024, stuckTimeoutMs: 2_000, logger: (_level, message) => logged.push(message) }, (server) =>
      server.tool({ name: "flood", description: "sends many large progress notifications", inputSchema: { type: "object" } }, async (_args, ctx) => {
        ctx.signal.addEventListener("abort", () => (sentWhenAborted = sent), { once: true });
        for (let i = 1; i <= COUNT && !ctx.signal.aborted; i++) {
          sent += BIG.length;
          await ctx.progress(i, COUNT, BIG);
        }
        return { content: [{ type: "text", text: "done" }] };
      }),
    );
  });
  after(() => running.close());

  it("holds the handler at the bound, then cuts the client off and ends its session", async () => {
    const session = await openSession(running.url);
    const url = new URL(running.url);
    const body = JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "flood", arguments: {}, _meta: { progressToken: "t" } } });
    // A raw socket that sends the request and never reads a byte of the answer.
    const socket: Socket = connect(Number(url.port), url.hostname);
    socket.pause();
    socket.on("error", () => {});
    socket.write(
      `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nAccept: ${JSON_AND_SSE}\r\n` +
        `Mcp-Session-Id: ${session}\r\nMCP-Protocol-Version: ${LATEST_SESSION}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    try {
      await until(() => sentWhenAborted !== undefined, "the handler to be aborted", 30_000);
      // What the kernel's socket buffers took, plus the bound: far from all of it.
      expect(sentWhenAborted!, "bytes sent before the cut-off").to.be.below((COUNT * BIG.length) / 2);
      expect(logged.some((m) => /read nothing for 2000 ms .* disconnected/.test(m))).to.equal(true);
      expect(logged.some((m) => new RegExp(`session ${session}: ended, its client stopped reading`).test(m))).to.equal(true);
    } finally {
      socket.destroy();
    }
    // The session is gone: its id is not found.
    const ping = await fetch(running.url, {
      method: "POST",
      headers: { ...sessionHeaders(session), "Content-Type": "application/json", Accept: JSON_AND_SSE },
      body: JSON.stringify({ jsonrpc: "2.0", id: 10, method: "ping" }),
      signal: AbortSignal.timeout(10_000),
    });
    expect(ping.status).to.equal(404);
  });
});
