// Streamable HTTP refuses bad input with its documented status and a JSON-RPC error body, and
// keeps serving: after every refusal, a well-formed call still succeeds.
import { expect } from "chai";
import {
  errorOf,
  initializeRequest,
  openSession,
  post,
  rawRequest,
  sessionHeaders,
  startServer,
  stateless,
  STATELESS,
  STATELESS_META,
  until,
  type Running,
} from "./support.js";
import { createServer as createNodeServer } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { createServer } from "../../../../runtime/index.js";
import { httpHandler } from "../../../../runtime/transports/http/index.js";
import { SseParser } from "../../../../runtime/transports/http/sse-parser.js";

describe("transports/http: bad input", () => {
  let running: Running;
  let handlerAborted = 0;

  before(async () => {
    running = await startServer({ maxBodyBytes: 4096 }, (server) => {
      server.tool({ name: "wait_for_cancel", description: "runs until cancelled", inputSchema: { type: "object" } }, async (_args, ctx) => {
        ctx.progress(1); // makes the answer an SSE stream, so the client holds it open
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 10_000);
          ctx.signal.addEventListener("abort", () => (clearTimeout(timer), handlerAborted++, resolve()), { once: true });
        });
        return { content: [{ type: "text", text: "not cancelled" }] };
      });
    });
  });
  after(() => running.close());

  /** The server still answers a well-formed stateless call. */
  async function stillServing(): Promise<void> {
    const call = stateless(999, "tools/call", { name: "echo", arguments: { text: "alive" } });
    const answer = await post(running.url, call.body, call.headers);
    expect(answer.status).to.equal(200);
    expect((answer.json as { result: { content: { text: string }[] } }).result.content[0]!.text).to.equal("alive");
  }

  function expectJsonRpcError(text: string, code?: number): { code: number; message: string } {
    const body = JSON.parse(text) as { jsonrpc: string; error: { code: number; message: string } };
    expect(body.jsonrpc).to.equal("2.0");
    expect(body.error.message).to.be.a("string").and.not.be.empty;
    if (code !== undefined) expect(body.error.code).to.equal(code);
    return body.error;
  }

  it("a foreign Origin, or one that nearly matches localhost: 403 with a JSON-RPC error", async () => {
    for (const origin of ["http://evil.example", "http://localhost.evil.example", "http://127.0.0.1.nip.io", "http://evil.example@localhost", "http://localhost@evil.example"]) {
      const answer = await post(running.url, initializeRequest(), { Origin: origin });
      expect(answer.status, origin).to.equal(403);
      expect(errorOf(answer)?.message, origin).to.match(/Origin/);
    }
    await stillServing();
  });

  it("an Origin that is not a URL ('null', from a sandboxed page): 403", async () => {
    const answer = await post(running.url, initializeRequest(), { Origin: "null" });
    expect(answer.status).to.equal(403);
    expect(errorOf(answer)).to.exist;
    await stillServing();
  });

  it("a localhost Origin on another port is accepted", async () => {
    const answer = await post(running.url, initializeRequest(), { Origin: "http://localhost:5173" });
    expect(answer.status).to.equal(200);
    expect(answer.headers.get("access-control-allow-origin"), "no CORS header unless configured").to.equal(null);
  });

  it("a foreign Host (DNS rebinding), or one that nearly matches localhost: 403 with a JSON-RPC error", async () => {
    const body = JSON.stringify(initializeRequest());
    for (const host of ["evil.example:8080", "localhost.evil.example", "127.0.0.1.nip.io:80", "localhost:80@evil.example"]) {
      const answer = await rawRequest(running.url, {
        headers: { Host: host, "Content-Type": "application/json", Accept: "application/json, text/event-stream", "Content-Length": Buffer.byteLength(body) },
        body,
      });
      expect(answer.status, host).to.equal(403);
      expect(expectJsonRpcError(answer.text).message, host).to.match(/Host/);
    }
    await stillServing();
  });

  /**
   * A client that sends its whole request before it reads (as a simple client does, or a busy one):
   * resolves with the answer's status and body once it has arrived whole, or with what came before
   * the connection ended.
   */
  function sendThenRead(url: string, request: Buffer): Promise<{ status: number; body: string; error?: string }> {
    return new Promise((resolve) => {
      const socket = connect(Number(new URL(url).port), "127.0.0.1");
      const chunks: Buffer[] = [];
      let error: string | undefined;
      const done = () => {
        const text = Buffer.concat(chunks).toString("utf8");
        const split = text.indexOf("\r\n\r\n");
        resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), body: split < 0 ? "" : text.slice(split + 4), error });
        socket.destroy();
      };
      socket.pause();
      socket.on("data", (chunk: Buffer) => {
        chunks.push(chunk);
        const text = Buffer.concat(chunks).toString("utf8");
        const split = text.indexOf("\r\n\r\n");
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(text.slice(0, split))?.[1]);
        if (split >= 0 && Buffer.byteLength(text.slice(split + 4)) >= length) done();
      });
      socket.on("error", (e: NodeJS.ErrnoException) => (error = e.code));
      socket.on("close", done);
      socket.setTimeout(60_000, () => socket.destroy(new Error("no answer within 60 s")));
      socket.write(request, () => socket.resume());
    });
  }

  const CLIENTS = 20;
  const BIG = 8 * 1024 * 1024;

  it(`oversized headers, ${CLIENTS} clients at once each sending ${BIG / 1024 / 1024} MiB of headers before reading: each reads 431 with a JSON-RPC error body`, async function () {
    this.timeout(120_000);
    const request = Buffer.from(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nX-Padding: ${"a".repeat(BIG)}\r\nContent-Length: 2\r\n\r\n{}`);
    const answers = await Promise.all(Array.from({ length: CLIENTS }, () => sendThenRead(running.url, request)));
    for (const answer of answers) {
      expect(answer.status, answer.error).to.equal(431);
      expect(expectJsonRpcError(answer.body, -32000).message).to.match(/Header Fields Too Large/);
    }
    await stillServing();
  });

  it(`oversized bodies, ${CLIENTS} clients at once each sending ${BIG / 1024 / 1024} MiB before reading, declared or chunked: each reads 413 with a JSON-RPC error body`, async function () {
    this.timeout(120_000);
    const head = (framing: string) => `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n${framing}\r\n\r\n`;
    const declared = Buffer.concat([Buffer.from(head(`Content-Length: ${BIG}`)), Buffer.alloc(BIG, 32)]);
    const chunked = Buffer.concat([Buffer.from(head("Transfer-Encoding: chunked")), Buffer.from(`${BIG.toString(16)}\r\n`), Buffer.alloc(BIG, 32), Buffer.from("\r\n0\r\n\r\n")]);
    const answers = await Promise.all(Array.from({ length: CLIENTS }, (_, i) => sendThenRead(running.url, i % 2 ? chunked : declared)));
    for (const answer of answers) {
      expect(answer.status, answer.error).to.equal(413);
      expect(expectJsonRpcError(answer.body, -32000).message).to.match(/Payload Too Large/);
    }
    await stillServing();
  });

  it("a request that is not HTTP/1.1: 400 with a JSON-RPC error body", async () => {
    const answer = await sendThenRead(running.url, Buffer.from("HELLO THERE\r\n\r\n"));
    expect(answer.status).to.equal(400);
    expect(expectJsonRpcError(answer.body, -32000).message).to.match(/not valid HTTP/);
    await stillServing();
  });

  it("a request without a Host header: 400 with a JSON-RPC error body (not node:http's bare 400)", async () => {
    const answer = await sendThenRead(running.url, Buffer.from("POST /mcp HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"));
    expect(answer.status).to.equal(400);
    expect(expectJsonRpcError(answer.body, -32000).message).to.match(/the Host header is missing/);
    await stillServing();
  });

  it("a body that trickles in: 408 once bodyTimeoutMs has passed, with a JSON-RPC error body", async () => {
    const slow = await startServer({ bodyTimeoutMs: 300 });
    try {
      const head = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n`;
      const answer = await sendThenRead(slow.url, Buffer.from(`${head}{"jsonrpc":`));
      expect(answer.status).to.equal(408);
      expect(expectJsonRpcError(answer.body, -32000).message).to.match(/the body did not arrive within 0\.3 s/);
    } finally {
      await slow.close();
    }
  });

  it("an oversized body (declared): 413 before reading it", async () => {
    const body = JSON.stringify({ ...initializeRequest(), padding: "x".repeat(8192) });
    const answer = await post(running.url, body);
    expect(answer.status).to.equal(413);
    expect(errorOf(answer)?.data).to.deep.include({ limit: 4096 });
    await stillServing();
  });

  it("an oversized body (chunked, no Content-Length): 413 once it passes the limit", async () => {
    const chunks = [Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"'), Buffer.alloc(8192, 0x61), Buffer.from('"}}')];
    const answer = await fetch(running.url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: new ReadableStream({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(chunk);
          controller.close();
        },
      }),
      duplex: "half",
      signal: AbortSignal.timeout(10_000),
    } as RequestInit);
    expect(answer.status).to.equal(413);
    expectJsonRpcError(await answer.text());
    await stillServing();
  });

  it("a body that is not JSON: 400 with -32700 and id null", async () => {
    const answer = await post(running.url, '{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(answer.status).to.equal(400);
    expect(errorOf(answer)?.code).to.equal(-32700);
    expect((answer.json as { id: unknown }).id).to.equal(null);
    await stillServing();
  });

  it("invalid UTF-8: 400 with -32700", async () => {
    const answer = await fetch(running.url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]),
      signal: AbortSignal.timeout(10_000),
    });
    expect(answer.status).to.equal(400);
    expectJsonRpcError(await answer.text(), -32700);
    await stillServing();
  });

  it("a byte order mark before the JSON is ignored (RFC 8259 section 8.1), as on stdio; one inside it is a parse error", async () => {
    const call = stateless(7, "tools/call", { name: "echo", arguments: { text: "bom" } });
    const answer = await post(running.url, "\ufeff" + JSON.stringify(call.body), call.headers);
    expect(answer.status).to.equal(200);
    expect((answer.json as { result: { content: { text: string }[] } }).result.content[0]!.text).to.equal("bom");
    const inside = await post(running.url, "[\ufeff" + JSON.stringify(call.body) + "]", call.headers);
    expect(inside.status).to.equal(400);
    expect(errorOf(inside)?.code).to.equal(-32700);
    await stillServing();
  });

  it("JSON that is not a message (a number): 400 with -32600", async () => {
    const answer = await post(running.url, "42");
    expect(answer.status).to.equal(400);
    expect(errorOf(answer)?.code).to.equal(-32600);
    await stillServing();
  });

  it("a wrong Content-Type: 415", async () => {
    const answer = await post(running.url, JSON.stringify(initializeRequest()), { "Content-Type": "text/plain" });
    expect(answer.status).to.equal(415);
    expect(errorOf(answer)).to.exist;
    await stillServing();
  });

  it("an Accept that allows neither JSON nor SSE: 406", async () => {
    const answer = await post(running.url, initializeRequest(), { Accept: "text/html" });
    expect(answer.status).to.equal(406);
    expect(errorOf(answer)).to.exist;
    await stillServing();
  });

  it("a method other than GET, POST, DELETE: 405 with Allow", async () => {
    const answer = await fetch(running.url, { method: "PUT", body: "{}", signal: AbortSignal.timeout(10_000) });
    expect(answer.status).to.equal(405);
    expect(answer.headers.get("allow")).to.equal("GET, POST, DELETE");
    expectJsonRpcError(await answer.text());
  });

  it("another path: 404", async () => {
    const answer = await post(running.url.replace(/\/mcp$/, "/other"), initializeRequest());
    expect(answer.status).to.equal(404);
    expect(errorOf(answer)).to.exist;
  });

  it("a session request without Mcp-Session-Id: 400", async () => {
    const answer = await post(running.url, { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });
    expect(answer.status).to.equal(400);
    expect(errorOf(answer)?.message).to.match(/Mcp-Session-Id/);
    await stillServing();
  });

  it("an unknown session: 404", async () => {
    const answer = await post(running.url, { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} }, sessionHeaders("0123456789abcdef0123456789abcdef"));
    expect(answer.status).to.equal(404);
    expect(errorOf(answer)).to.exist;
    await stillServing();
  });

  it("a deleted session: DELETE answers 200, then the id gets 404 (POST, GET and DELETE)", async () => {
    const id = await openSession(running.url);
    const deleted = await fetch(running.url, { method: "DELETE", headers: sessionHeaders(id), signal: AbortSignal.timeout(10_000) });
    expect(deleted.status).to.equal(200);
    const again = await post(running.url, { jsonrpc: "2.0", id: 3, method: "tools/list", params: {} }, sessionHeaders(id));
    expect(again.status).to.equal(404);
    expect(errorOf(again)).to.exist;
    const get = await fetch(running.url, { headers: { ...sessionHeaders(id), Accept: "text/event-stream" }, signal: AbortSignal.timeout(10_000) });
    expect(get.status).to.equal(404);
    const deleteAgain = await fetch(running.url, { method: "DELETE", headers: sessionHeaders(id), signal: AbortSignal.timeout(10_000) });
    expect(deleteAgain.status).to.equal(404);
    await stillServing();
  });

  it("an invalid MCP-Protocol-Version on a session: 400", async () => {
    const id = await openSession(running.url);
    const answer = await post(running.url, { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} }, sessionHeaders(id, "1999-01-01"));
    expect(answer.status).to.equal(400);
    expect(errorOf(answer)?.message).to.match(/MCP-Protocol-Version/);
    const without = await post(running.url, { jsonrpc: "2.0", id: 3, method: "tools/list", params: {} }, { "Mcp-Session-Id": id });
    expect(without.status, "a missing header means 2025-03-26, which is fine").to.equal(200);
  });

  it("stateless: a header that disagrees with the body: 400 with -32020 and the request's id", async () => {
    const call = stateless(41, "tools/call", { name: "echo", arguments: { text: "x" } });
    const cases: Record<string, string>[] = [
      { ...call.headers, "Mcp-Method": "tools/list" },
      { ...call.headers, "Mcp-Name": "other_tool" },
      { ...call.headers, "MCP-Protocol-Version": "2025-11-25" },
      Object.fromEntries(Object.entries(call.headers).filter(([name]) => name !== "Mcp-Name")),
    ];
    for (const headers of cases) {
      const answer = await post(running.url, call.body, headers);
      expect(answer.status, JSON.stringify(headers)).to.equal(400);
      expect(errorOf(answer)?.code).to.equal(-32020);
      expect((answer.json as { id: unknown }).id).to.equal(41);
    }
    await stillServing();
  });

  it("stateless: a notification POST without Mcp-Method is accepted (202); a request without it, or a notification naming another method, is -32020", async () => {
    const notification = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 7, _meta: STATELESS_META } };
    const accepted = await post(running.url, notification, { "MCP-Protocol-Version": STATELESS });
    expect(accepted.status).to.equal(202);
    expect(accepted.text).to.equal("");
    const wrong = await post(running.url, notification, { "MCP-Protocol-Version": STATELESS, "Mcp-Method": "tools/list" });
    expect(wrong.status).to.equal(400);
    expect(errorOf(wrong)?.code).to.equal(-32020);
    const list = stateless(43, "tools/list");
    const request = await post(running.url, list.body, { "MCP-Protocol-Version": STATELESS });
    expect(request.status).to.equal(400);
    expect(errorOf(request)?.code).to.equal(-32020);
    expect((request.json as { id: unknown }).id).to.equal(43);
    await stillServing();
  });

  it("stateless: an unknown method: 404 with -32601", async () => {
    const call = stateless(42, "no/such/method");
    const answer = await post(running.url, call.body, call.headers);
    expect(answer.status).to.equal(404);
    expect(errorOf(answer)?.code).to.equal(-32601);
    expect((answer.json as { id: unknown }).id).to.equal(42);
    await stillServing();
  });

  it("stateless: a client that disconnects mid-stream cancels its handler, and the server keeps serving", async () => {
    const before = handlerAborted;
    const controller = new AbortController();
    const call = stateless(43, "tools/call", { name: "wait_for_cancel", arguments: {}, _meta: { progressToken: "p" } });
    const response = await fetch(running.url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...call.headers },
      body: JSON.stringify(call.body),
      signal: controller.signal,
    });
    expect(response.headers.get("content-type")).to.equal("text/event-stream");
    // Read until the progress notification arrives: the handler is running.
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    const seen: unknown[] = [];
    const parser = new SseParser((event) => event.data && seen.push(JSON.parse(event.data)));
    for (let i = 0; i < 100 && seen.length === 0; i++) {
      const { value, done } = await reader.read();
      if (done) break;
      parser.push(decoder.decode(value, { stream: true }));
    }
    expect(seen[0]).to.deep.include({ method: "notifications/progress" });
    controller.abort();
    await until(() => handlerAborted === before + 1, "the handler's AbortSignal");
    await stillServing();
  });

  it("session: a client that disconnects from an SSE answer does not cancel (it may resume); the session keeps working", async () => {
    // Its own server, so that the test sees the moment node:http closes the aborted response.
    let started = 0;
    let aborted = 0;
    const mcp = createServer({ name: "disconnect", version: "1.0.0", logger: () => {} });
    mcp.tool({ name: "wait_for_cancel", description: "runs until cancelled", inputSchema: { type: "object" } }, async (_args, ctx) => {
      started++;
      ctx.progress(1);
      await new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => (aborted++, resolve()), { once: true }));
      return { content: [{ type: "text", text: "cancelled" }] };
    });
    const handler = httpHandler(mcp);
    let closed = 0;
    const node = createNodeServer((req, res) => {
      res.once("close", () => closed++);
      handler(req, res);
    });
    await new Promise<void>((resolve) => node.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(node.address() as AddressInfo).port}/mcp`;
    try {
      const id = await openSession(url);
      const controller = new AbortController();
      const response = await fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...sessionHeaders(id) },
        body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "wait_for_cancel", arguments: {}, _meta: { progressToken: 1 } } }),
        signal: controller.signal,
      });
      expect(response.headers.get("content-type")).to.equal("text/event-stream");
      await until(() => started === 1, "the handler to start");
      const closedBefore = closed;
      controller.abort();
      // The server has seen the disconnect (its response closed), and answered a request since.
      await until(() => closed === closedBefore + 1, "the server to see the disconnect");
      const list = await post(url, { jsonrpc: "2.0", id: 8, method: "tools/list", params: {} }, sessionHeaders(id));
      expect(list.status).to.equal(200);
      expect((list.json as { result: { tools: unknown[] } }).result.tools).to.not.be.empty;
      expect(aborted, "a disconnect is not a cancellation in the session era").to.equal(0);
      // notifications/cancelled is how a session-era client cancels.
      const cancelled = await post(url, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 7, reason: "test" } }, sessionHeaders(id));
      expect(cancelled.status).to.equal(202);
      await until(() => aborted === 1, "the cancellation");
    } finally {
      await mcp.close();
      node.closeAllConnections();
      await new Promise((resolve) => node.close(resolve));
    }
  });
});
