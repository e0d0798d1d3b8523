// The Streamable HTTP endpoint's behaviour, over real loopback HTTP: when answers are JSON or
// SSE, the GET stream and resumption, batches, the mountable handler, CORS, and the stateless era.
import { createServer as createHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "chai";
import { ERAS, FEATURES, REVISIONS } from "../../../../generated/registry.js";
import { createServer } from "../../../../runtime/index.js";
import { httpHandler } from "../../../../runtime/transports/http/index.js";
import { SseParser, type SseEvent } from "../../../../runtime/transports/http/sse-parser.js";
import { errorOf, initializeRequest, openSession, post, sessionHeaders, startServer, stateless, type Running } from "./support.js";

/** Reads SSE events from a response until `enough(events)` or `timeoutMs`, then cancels it. */
async function readEvents(response: Response, enough: (events: SseEvent[]) => boolean, timeoutMs = 5_000): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  const parser = new SseParser((e) => events.push(e));
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const timer = setTimeout(() => void reader.cancel(), timeoutMs);
  try {
    while (!enough(events)) {
      const { value, done } = await reader.read();
      if (done) break;
      parser.push(decoder.decode(value, { stream: true }));
    }
  } finally {
    clearTimeout(timer);
    await reader.cancel().catch(() => {});
  }
  return events;
}

const data = (events: SseEvent[]) => events.filter((e) => e.data !== "").map((e) => JSON.parse(e.data) as Record<string, unknown>);

describe("transports/http: the endpoint", () => {
  let running: Running;
  before(async () => {
    running = await startServer();
  });
  after(() => running.close());

  it("binds 127.0.0.1 on a free port and says where", () => {
    expect(running.url).to.match(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(running.endpoint.port).to.be.greaterThan(0);
  });

  it("issues a session id of 32 hex digits at initialize, a fresh one each time", async () => {
    const a = await post(running.url, initializeRequest());
    const b = await post(running.url, initializeRequest());
    expect(a.status).to.equal(200);
    expect(a.headers.get("mcp-session-id")).to.match(/^[0-9a-f]{32}$/);
    expect(a.headers.get("mcp-session-id")).to.not.equal(b.headers.get("mcp-session-id"));
  });

  it("a failed initialize starts no session", async () => {
    const before = running.endpoint.sessionCount;
    const answer = await post(running.url, { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25" } });
    expect(errorOf(answer)?.code).to.equal(-32602);
    await new Promise((r) => setTimeout(r, 10));
    expect(running.endpoint.sessionCount).to.equal(before);
  });

  it("answers with JSON when nothing comes before the response, with SSE when something does", async () => {
    const id = await openSession(running.url);
    const plain = await post(running.url, { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { text: "x" } } }, sessionHeaders(id));
    expect(plain.contentType).to.equal("application/json");
    const streamed = await post(running.url, { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "progress", arguments: {}, _meta: { progressToken: "t" } } }, sessionHeaders(id));
    expect(streamed.contentType).to.equal("text/event-stream");
    expect(streamed.messages.map((m) => (m as { method?: string }).method ?? "response")).to.deep.equal(["notifications/progress", "notifications/progress", "response"]);
    expect(streamed.events[0], "a priming event (id, no data) comes first for 2025-11-25").to.deep.include({ data: "" });
    expect(streamed.events[0]!.id).to.be.a("string");
  });

  it("primes SSE streams exactly in the revisions whose registry FEATURES say so (SEP-1699, from 2025-11-25 on)", async () => {
    const primed: Record<string, boolean> = {};
    for (const revision of REVISIONS.filter((r) => ERAS[r] === "session")) {
      const id = await openSession(running.url, revision);
      const headers = { ...sessionHeaders(id, revision), Accept: "text/event-stream" };
      const answer = await post(running.url, { jsonrpc: "2.0", id: 2, method: "ping" }, headers);
      expect(answer.contentType, revision).to.equal("text/event-stream");
      primed[revision] = answer.events[0]?.data === "";
      expect(answer.messages, revision).to.have.length(1);
    }
    const expected = Object.fromEntries(Object.keys(primed).map((r) => [r, FEATURES[r as keyof typeof FEATURES].ssePriming]));
    expect(primed).to.deep.equal(expected);
    // The spec's own line, independent of the table: revisions before SEP-1699 are never primed, 2025-11-25 is.
    expect(primed["2025-06-18"]).to.equal(false);
    expect(primed["2025-11-25"]).to.equal(true);
  });

  it("answers with SSE when the client prefers it, and to a client that accepts only SSE", async () => {
    const id = await openSession(running.url);
    for (const accept of ["text/event-stream, application/json", "text/event-stream"]) {
      const answer = await post(running.url, { jsonrpc: "2.0", id: 4, method: "ping" }, { ...sessionHeaders(id), Accept: accept });
      expect(answer.contentType, accept).to.equal("text/event-stream");
      expect(answer.messages).to.deep.equal([{ jsonrpc: "2.0", id: 4, result: {} }]);
    }
  });

  it("answers a POST of notifications only with 202 and no body", async () => {
    const id = await openSession(running.url);
    const answer = await post(running.url, { jsonrpc: "2.0", method: "notifications/roots/list_changed" }, sessionHeaders(id));
    expect(answer.status).to.equal(202);
    expect(answer.text).to.equal("");
  });

  it("the GET stream carries what belongs to no request; a second GET gets 409; Last-Event-ID replays what was missed", async () => {
    const id = await openSession(running.url);
    const headers = { ...sessionHeaders(id), Accept: "text/event-stream" };
    const first = await fetch(running.url, { headers, signal: AbortSignal.timeout(10_000) });
    expect(first.headers.get("content-type")).to.equal("text/event-stream");
    const second = await fetch(running.url, { headers, signal: AbortSignal.timeout(10_000) });
    expect(second.status).to.equal(409);
    await second.body?.cancel();
    setTimeout(() => running.server.log("info", "one"), 20);
    const events = await readEvents(first, (e) => data(e).length >= 1);
    expect(data(events)).to.deep.equal([{ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "one" } }]);
    const lastId = events[events.length - 1]!.id!;
    // Disconnected now: what is sent meanwhile is kept, then replayed after Last-Event-ID.
    await new Promise((r) => setTimeout(r, 20));
    running.server.log("info", "two");
    running.server.log("info", "three");
    const resumed = await fetch(running.url, { headers: { ...headers, "Last-Event-ID": lastId }, signal: AbortSignal.timeout(10_000) });
    const replayed = await readEvents(resumed, (e) => data(e).length >= 2);
    expect(data(replayed).map((m) => (m.params as { data: string }).data)).to.deep.equal(["two", "three"]);
  });

  it("a Last-Event-ID of another session is refused", async () => {
    const a = await openSession(running.url);
    const b = await openSession(running.url);
    const streamed = await post(running.url, { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "progress", arguments: {}, _meta: { progressToken: 1 } } }, sessionHeaders(a));
    const eventId = streamed.events.find((e) => e.id !== undefined)!.id!;
    const foreign = await fetch(running.url, { headers: { ...sessionHeaders(b), Accept: "text/event-stream", "Last-Event-ID": eventId }, signal: AbortSignal.timeout(10_000) });
    expect(foreign.status).to.equal(400);
    const own = await fetch(running.url, { headers: { ...sessionHeaders(a), Accept: "text/event-stream", "Last-Event-ID": eventId }, signal: AbortSignal.timeout(10_000) });
    expect(own.status).to.equal(200);
    const replay = data(await readEvents(own, () => false, 1_000));
    expect(replay.length, "the events after the priming event, then the stream ends").to.equal(3);
  });

  it("2025-03-26 batches: one POST, one JSON array of answers", async () => {
    const id = await openSession(running.url, "2025-03-26");
    const answer = await post(
      running.url,
      [
        { jsonrpc: "2.0", id: "a", method: "ping" },
        { jsonrpc: "2.0", method: "notifications/roots/list_changed" },
        { jsonrpc: "2.0", id: "b", method: "tools/call", params: { name: "echo", arguments: { text: "b" } } },
      ],
      sessionHeaders(id, "2025-03-26"),
    );
    expect(answer.status).to.equal(200);
    const answers = answer.json as { id: string }[];
    expect(answers.map((a) => a.id).sort()).to.deep.equal(["a", "b"]);
  });

  it("stateless: no session, one exchange per POST; subscriptions/listen is a long-lived SSE answer", async () => {
    const before = running.endpoint.sessionCount;
    const call = stateless(1, "tools/call", { name: "echo", arguments: { text: "hi" } });
    const answer = await post(running.url, call.body, call.headers);
    expect(answer.status).to.equal(200);
    expect(answer.headers.get("mcp-session-id")).to.equal(null);
    expect((answer.json as { result: Record<string, unknown> }).result).to.deep.include({ resultType: "complete", content: [{ type: "text", text: "hi" }] });
    expect(running.endpoint.sessionCount).to.equal(before);

    const listen = stateless(2, "subscriptions/listen", { notifications: { toolsListChanged: true } });
    const response = await fetch(running.url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...listen.headers },
      body: JSON.stringify(listen.body),
      signal: AbortSignal.timeout(10_000),
    });
    expect(response.headers.get("content-type")).to.equal("text/event-stream");
    setTimeout(() => running.server.tool({ name: "added_later", description: "x", inputSchema: { type: "object" } }, () => ({ content: [] })), 50);
    const events = data(await readEvents(response, (e) => data(e).length >= 2));
    expect(events.map((m) => m.method)).to.deep.equal(["notifications/subscriptions/acknowledged", "notifications/tools/list_changed"]);
    expect((events[1]!.params as { _meta: Record<string, unknown> })._meta["io.modelcontextprotocol/subscriptionId"]).to.equal(2);
    running.server.removeTool("added_later");
  });

  it("stateless by its header alone: the endpoint's decision holds, so an initialize without _meta starts no session (400, -32602)", async () => {
    const before = running.endpoint.sessionCount;
    const answer = await post(running.url, initializeRequest(1, "2025-11-25"), { "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "initialize" });
    expect(answer.status, answer.text).to.equal(400);
    expect(errorOf(answer)?.code).to.equal(-32602);
    expect(answer.headers.get("mcp-session-id")).to.equal(null);
    expect(running.endpoint.sessionCount).to.equal(before);
  });

  it("stateless: a GET has no stream to open (405)", async () => {
    const answer = await fetch(running.url, { headers: { Accept: "text/event-stream", "MCP-Protocol-Version": "2026-07-28" }, signal: AbortSignal.timeout(10_000) });
    expect(answer.status).to.equal(405);
  });
});

describe("transports/http: idle sessions", () => {
  it("ends a session nobody used for sessionIdleTimeoutMs; its id then gets 404", async () => {
    // Initialize alone, so no second request has to arrive within the idle time on a loaded machine.
    const running = await startServer({ sessionIdleTimeoutMs: 200 });
    try {
      const opened = await post(running.url, initializeRequest());
      const id = opened.headers.get("mcp-session-id")!;
      expect(opened.status, opened.text).to.equal(200);
      expect(running.endpoint.sessionCount).to.equal(1);
      const deadline = Date.now() + 5_000;
      while (running.endpoint.sessionCount > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      expect(running.endpoint.sessionCount).to.equal(0);
      const answer = await post(running.url, { jsonrpc: "2.0", id: 2, method: "ping" }, sessionHeaders(id));
      expect(answer.status).to.equal(404);
    } finally {
      await running.close();
    }
  });

  it("keeps a session whose GET stream is open, however long", async () => {
    // 300 ms: long enough for initialize and notifications/initialized to follow each other on a loaded machine.
    const running = await startServer({ sessionIdleTimeoutMs: 300 });
    try {
      const id = await openSession(running.url);
      const stream = await fetch(running.url, { headers: { ...sessionHeaders(id), Accept: "text/event-stream" }, signal: AbortSignal.timeout(10_000) });
      await new Promise((r) => setTimeout(r, 1000));
      expect(running.endpoint.sessionCount).to.equal(1);
      await stream.body?.cancel();
    } finally {
      await running.close();
    }
  });
});

describe("transports/http: httpHandler mounted on express as is", () => {
  // express calls a route's handler with (req, res, next): `next` is no body. Behind express.json() the stream is read
  // and the body is on req.body. Either way the request is served (mutation: pass the third argument through and both fail).
  for (const parser of [undefined, "json", "text", "raw"] as const)
    it(parser ? `behind express.${parser}(): the body express read` : "app.all(\"/mcp\", httpHandler(server)): next is not taken for the body", async () => {
      const { default: express } = await import("express");
      const server = createServer({ name: "express", version: "1.0.0", logger: () => {} });
      server.tool({ name: "echo", description: "echo", inputSchema: { type: "object" } }, () => ({ content: [{ type: "text", text: "from express" }] }));
      const app = express();
      if (parser) app.use(express[parser]({ type: "application/json" }));
      app.all("/mcp", httpHandler(server));
      const http = await new Promise<ReturnType<typeof app.listen>>((resolve) => {
        const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
      });
      const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
      try {
        const answer = await post(url, initializeRequest());
        expect(answer.status, JSON.stringify(answer.json)).to.equal(200);
        const call = stateless(1, "tools/call", { name: "echo", arguments: {} });
        const statelessAnswer = await post(url, call.body, call.headers);
        expect((statelessAnswer.json as { result: { content: { text: string }[] } }).result.content[0]!.text).to.equal("from express");
      } finally {
        await server.close();
        await new Promise<void>((resolve) => http.close(() => resolve()));
      }
    });
});

describe("transports/http: httpHandler after a middleware that read the body and kept nothing", () => {
  it("answers 400 at once, saying so, rather than waiting for bytes that will not come", async () => {
    const server = createServer({ name: "consumed", version: "1.0.0", logger: () => {} });
    const handler = httpHandler(server);
    const http = createHttpServer((req, res) => {
      req.resume();
      req.on("end", () => handler(req, res));
    });
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    try {
      const answer = await post(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`, initializeRequest());
      // Waiting for the bytes would end in 408 after bodyTimeoutMs: the status and the reason tell the two apart, no clock needed.
      expect(answer.status).to.equal(400);
      expect(JSON.stringify(answer.json)).to.contain("the body was already read by another middleware");
    } finally {
      await server.close();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    }
  });
});

describe("transports/http: httpHandler in a server of one's own, with CORS", () => {
  it("serves both eras at the path it is mounted on, and answers CORS only for allowed origins", async () => {
    const server = createServer({ name: "mounted", version: "1.0.0", logger: () => {} });
    server.tool({ name: "echo", description: "echo", inputSchema: { type: "object" } }, () => ({ content: [{ type: "text", text: "mounted" }] }));
    const handler = httpHandler(server, { cors: true, allowedOrigins: ["https://app.example.com"] });
    const http = createHttpServer((req, res) => {
      if (req.url?.startsWith("/api/mcp")) handler(req, res);
      else res.writeHead(404).end("not mcp");
    });
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/api/mcp`;
    try {
      const answer = await post(url, initializeRequest(), { Origin: "https://app.example.com" });
      expect(answer.status).to.equal(200);
      expect(answer.headers.get("access-control-allow-origin")).to.equal("https://app.example.com");
      expect(answer.headers.get("access-control-expose-headers")).to.contain("Mcp-Session-Id");
      const preflight = await fetch(url, { method: "OPTIONS", headers: { Origin: "https://app.example.com", "Access-Control-Request-Method": "POST" }, signal: AbortSignal.timeout(10_000) });
      expect(preflight.status).to.equal(204);
      expect(preflight.headers.get("access-control-allow-methods")).to.contain("POST");
      const foreign = await post(url, initializeRequest(), { Origin: "https://evil.example" });
      expect(foreign.status).to.equal(403);
      expect(foreign.headers.get("access-control-allow-origin")).to.equal(null);
      const call = stateless(1, "tools/call", { name: "echo", arguments: {} });
      const statelessAnswer = await post(url, call.body, call.headers);
      expect((statelessAnswer.json as { result: { content: { text: string }[] } }).result.content[0]!.text).to.equal("mounted");
    } finally {
      await server.close();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    }
  });
});
