// McpClient over Streamable HTTP when the server forgets its session (restarted, or the session
// ended): "When a client receives HTTP 404 in response to a request containing an Mcp-Session-Id,
// it MUST start a new session by sending a new InitializeRequest without a session ID attached"
// (2025-03-26 and later, Session Management). Real servers on 127.0.0.1, restarted on the same port.
import { createServer as createHttpServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "chai";
import { createServer, McpClient, type McpServer } from "../../../runtime/index.js";
import { http, HttpClientTransport, HttpStatusError } from "../../../runtime/http.js";
import { silentLogger } from "../../../runtime/util/logger.js";
import { rejection, until } from "../../support/mcp.js";

const REVISION = "2025-11-25";

/** Our server on 127.0.0.1 (`port` 0: a free one), with a tool that says who asked, in which session. */
async function serve(port: number, revisions?: readonly string[]): Promise<{ server: McpServer; port: number; url: string; sessions: () => number; calls: string[] }> {
  const calls: string[] = [];
  const server = createServer({ name: "renewal", version: "1.0.0", logger: silentLogger, ...(revisions ? { revisions: revisions as never } : {}) });
  server.tool({ name: "whoami", inputSchema: { type: "object" } }, (_args, ctx) => {
    calls.push(ctx.sessionId ?? "");
    return { content: [{ type: "text", text: JSON.stringify({ client: ctx.client, revision: ctx.revision, sessionId: ctx.sessionId }) }] };
  });
  server.resource({ uri: "res://watched", name: "watched" }, (uri) => ({ contents: [{ uri, text: "w" }] }));
  server.tool({ name: "chatter", inputSchema: { type: "object" } }, async (_args, ctx) => {
    await ctx.log("debug", "a debug line");
    await ctx.log("error", "an error line");
    return { content: [] };
  });
  const endpoint = http({ port, host: "127.0.0.1" });
  await server.listen(endpoint);
  const url = endpoint.url;
  return { server, port: Number(new URL(url).port), url, sessions: () => endpoint.sessionCount, calls };
}

async function whoami(client: McpClient): Promise<{ client: Record<string, unknown>; revision: string; sessionId: string }> {
  const result = await client.callTool("whoami");
  return JSON.parse((result.content as { text: string }[])[0]!.text);
}

const OPTIONS = { name: "renewing-client", version: "2.0.0", revision: REVISION, capabilities: { experimental: { probe: {} } }, logger: silentLogger } as const;

type Served = Awaited<ReturnType<typeof serve>>;

/**
 * A client in a session with a server that then restarts on the same port (`revisions`: the new
 * server's); `test` runs with the new server (`restart` replaces it again), then both close.
 */
async function afterRestart(
  test: (run: { client: McpClient; transport: HttpClientTransport; before: Awaited<ReturnType<typeof whoami>>; second: () => Served; restart: (revisions?: readonly string[]) => Promise<Served> }) => Promise<void>,
  revisions?: readonly string[],
): Promise<void> {
  const first = await serve(0);
  const transport = new HttpClientTransport(first.url);
  const client = await McpClient.connect(transport, OPTIONS);
  let second: Served | undefined;
  const restart = async (next?: readonly string[]) => {
    await second?.server.close();
    return (second = await serve(first.port, next));
  };
  try {
    const before = await whoami(client);
    await first.server.close();
    await restart(revisions);
    await test({ client, transport, before, second: () => second!, restart });
  } finally {
    await client.close();
    await second?.server.close();
  }
}

describe("McpClient over HTTP: a new session after 404", () => {
  it("after the server restarts, the call starts a new session (same identity and revision) and is answered there, once; the GET stream follows", () =>
    afterRestart(async ({ client, transport, before, second }) => {
      const after = await whoami(client);
      expect(after.sessionId).to.be.a("string").and.not.equal(before.sessionId);
      expect(transport.session).to.equal(after.sessionId);
      expect(after.client).to.deep.equal(before.client);
      expect(after.revision).to.equal(REVISION);
      expect(client.revision).to.equal(REVISION);
      expect(second().sessions(), "one new session").to.equal(1);
      expect(second().calls, "the failed call ran once, in the new session").to.deep.equal([after.sessionId]);
      // What the new server sends on its own reaches the client: the GET stream is the new session's.
      let changed = 0;
      let added = 0;
      client.on("notifications/tools/list_changed", () => changed++);
      // Sent only on an open GET stream, which opens after notifications/initialized: add a tool until one is heard.
      await until(() => {
        second().server.tool({ name: `late${added++}`, inputSchema: { type: "object" } }, () => ({ content: [] }));
        return changed > 0;
      }, 5_000, "tools/list_changed on the new session's GET stream");
    }));

  it("the new session is told what the lost one held: its resource subscriptions and its log level", async () => {
    const first = await serve(0);
    const client = await McpClient.connect(new HttpClientTransport(first.url), OPTIONS);
    let second: Served | undefined;
    try {
      await client.subscribeResource("res://watched");
      await client.setLoggingLevel("error");
      await first.server.close();
      second = await serve(first.port);
      const updated: unknown[] = [];
      const logged: unknown[] = [];
      client.on("notifications/resources/updated", (params) => updated.push(params));
      client.on("notifications/message", (params) => logged.push((params as { data: unknown }).data));
      await client.callTool("chatter");
      expect(logged, "the level set before the restart holds in the new session").to.deep.equal(["an error line"]);
      second.server.notifyResourceUpdated("res://watched");
      await until(() => updated.length > 0, 5_000, "resources/updated in the new session");
    } finally {
      await client.close();
      await second?.server.close();
    }
  });

  it("after the transport forgot the session, a request meant for it fails as the 404 did, unsent, so that its caller renews too (not a 400 for a missing session)", async () => {
    let posts = 0;
    const counting: Server = createHttpServer((req: IncomingMessage, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString()));
      req.on("end", () => {
        posts++;
        const message = JSON.parse(body) as { id?: number; method: string; params?: { protocolVersion?: string } };
        if (message.method === "initialize") {
          res.writeHead(200, { "Content-Type": "application/json", "Mcp-Session-Id": "s1" });
          return void res.end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: { protocolVersion: REVISION, capabilities: {}, serverInfo: { name: "gone", version: "0" } } }));
        }
        res.writeHead(404, { "Content-Type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32000, message: "Not Found: no such session" } }));
      });
    });
    await new Promise<void>((resolve) => counting.listen(0, "127.0.0.1", resolve));
    const transport = new HttpClientTransport(`http://127.0.0.1:${(counting.address() as AddressInfo).port}/mcp`, { openStream: false });
    transport.start({ message: () => {}, malformed: () => {}, closed: () => {} });
    try {
      await transport.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: REVISION, capabilities: {}, clientInfo: { name: "c", version: "1" } } });
      const first = await rejection(transport.send({ jsonrpc: "2.0", id: 2, method: "ping" }));
      expect((first as HttpStatusError).sessionLost).to.equal(true);
      const second = await rejection(transport.send({ jsonrpc: "2.0", id: 3, method: "ping" }));
      expect(second).to.be.instanceOf(HttpStatusError);
      expect((second as HttpStatusError).sessionLost, "the same 404, for the lost session").to.equal(true);
      expect((second as HttpStatusError).sessionId).to.equal("s1");
      expect(posts, "the second ping was not sent").to.equal(2);
    } finally {
      await transport.close();
      counting.closeAllConnections();
      await new Promise((resolve) => counting.close(resolve));
    }
  });

  it("calls that meet the 404 together share one new session", () =>
    afterRestart(async ({ client, second }) => {
      const answers = await Promise.all([whoami(client), whoami(client), client.ping()]);
      expect(second().sessions()).to.equal(1);
      expect(answers[0].sessionId).to.equal(answers[1].sessionId);
      expect(second().calls).to.have.length(2);
    }));

  it("a notification that meets the 404 fails with it, and the next call starts the new session", () =>
    afterRestart(async ({ client, second }) => {
      const refused = await rejection(client.notify("notifications/roots/list_changed"));
      expect(refused).to.be.instanceOf(HttpStatusError);
      expect(refused.status).to.equal(404);
      expect((await whoami(client)).revision).to.equal(REVISION);
      expect(second().sessions()).to.equal(1);
    }));

  it("when the new initialize fails, the call fails naming the lost session and the refused initialize", () =>
    // Back on the same port, but speaking only the stateless era: initialize at 2025-11-25 is refused.
    afterRestart(async ({ client, second, restart }) => {
      const error = await rejection(whoami(client));
      expect(error.message).to.contain("no such session").and.contain("a new session could not be started").and.contain("initialize");
      expect(second().sessions()).to.equal(0);
      // The next call tries again: the server is back at the session era.
      const third = await restart();
      expect((await whoami(client)).revision).to.equal(REVISION);
      expect(third.sessions()).to.equal(1);
    }, ["2026-07-28"]));

  it("starts one new session per failed call: a server that forgets every session is not asked again and again", async () => {
    // A server that issues a session at initialize and answers every later request 404.
    let initializes = 0;
    let initializesWithSession = 0;
    const forgetful: Server = createHttpServer((req: IncomingMessage, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString()));
      req.on("end", () => {
        if (req.method !== "POST") return void res.writeHead(405).end();
        const message = JSON.parse(body) as { id?: number; method: string; params?: { protocolVersion?: string } };
        if (message.method === "initialize") {
          if (req.headers["mcp-session-id"] !== undefined) initializesWithSession++;
          initializes++;
          res.writeHead(200, { "Content-Type": "application/json", "Mcp-Session-Id": `s${initializes}` });
          return void res.end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: { protocolVersion: message.params!.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "forgetful", version: "0" } } }));
        }
        if (message.id === undefined) return void res.writeHead(202).end();
        res.writeHead(404, { "Content-Type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32000, message: "Not Found: no such session" } }));
      });
    });
    await new Promise<void>((resolve) => forgetful.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(forgetful.address() as AddressInfo).port}/mcp`;
    const client = await McpClient.connect(new HttpClientTransport(url, { openStream: false }), OPTIONS);
    try {
      expect(initializes).to.equal(1);
      const error = await rejection(client.ping());
      expect(error.message).to.contain("no such session");
      expect(initializes, "one new session for the failed ping, none for its second 404").to.equal(2);
      expect(initializesWithSession, "a new initialize goes without a session id").to.equal(0);
    } finally {
      await client.close();
      forgetful.closeAllConnections();
      await new Promise((resolve) => forgetful.close(resolve));
    }
  });
});
