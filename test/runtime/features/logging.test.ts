// Logging (issue 5). Session era: the `logging` capability is declared, logging/setLevel filters
// by level (per connection), an invalid level is -32602; through the official SDK client
// (setLoggingLevel + a notifications/message handler). Stateless era: logs only for a request
// whose `_meta` carries a logLevel, at or above it, and only on that request's stream.
import { EmptyResultSchema, LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { expect } from "chai";
import { createMemoryPair, createServer, LOG_LEVELS, McpClient, type McpServer, type RequestContext } from "../../../runtime/index.js";
import { connectSdk, expectStateless, quiet, RawPeer, rejectionOf, SESSION_ERA, STATELESS, turn, type Json } from "../../support/features-server.js";

/** logall: one message at each of the eight levels (data = the level), logger "features". keep: also keeps its context. */
function loggingServer(revisions?: string[]) {
  const contexts: RequestContext[] = [];
  const server = createServer({ name: "logging", version: "1.0.0", logger: quiet, ...(revisions ? { revisions } : {}) });
  server.tool({ name: "logall", inputSchema: { type: "object" } }, async (_args, context) => {
    contexts.push(context);
    for (const level of LOG_LEVELS) {
      context.log(level, { level }, "features");
      await turn();
    }
    return { content: [{ type: "text", text: "logged" }] };
  });
  return { server, contexts };
}

describe("features: logging", () => {
  let servers: McpServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.map((server) => server.close()));
    servers = [];
  });
  const make = (revisions?: string[]) => {
    const made = loggingServer(revisions);
    servers.push(made.server);
    return made;
  };

  for (const revision of SESSION_ERA) {
    it(`${revision} through the SDK: logging is declared, and logging/setLevel filters what the tool logs`, async () => {
      const { server } = make([revision]);
      const messages: Json[] = [];
      const { client } = await connectSdk(server, {}, (c) => c.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void messages.push(n.params)));
      expect(client.getServerCapabilities()?.logging).to.deep.equal({});

      expect(await client.setLoggingLevel("warning")).to.deep.equal({});
      await client.callTool({ name: "logall", arguments: {} });
      await client.ping();
      expect(messages).to.deep.equal(["warning", "error", "critical", "alert", "emergency"].map((level) => ({ level, data: { level }, logger: "features" })));

      messages.length = 0;
      await client.setLoggingLevel("debug");
      await client.callTool({ name: "logall", arguments: {} });
      await client.ping();
      expect(messages.map((m) => m.level)).to.deep.equal([...LOG_LEVELS]);

      messages.length = 0;
      await client.setLoggingLevel("emergency");
      await client.callTool({ name: "logall", arguments: {} });
      await client.ping();
      expect(messages.map((m) => m.level)).to.deep.equal(["emergency"]);
      await client.close();
    });
  }

  it("2025-11-25 through the SDK: an invalid level is -32602, and the level in force does not change", async () => {
    const { server } = make(["2025-11-25"]);
    const messages: Json[] = [];
    const { client } = await connectSdk(server, {}, (c) => c.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void messages.push(n.params)));
    await client.setLoggingLevel("error");
    for (const level of ["loud", "", "WARNING", 3, null]) {
      const error = await rejectionOf(client.setLoggingLevel(level as never));
      expect(error.code, `level ${JSON.stringify(level)}`).to.equal(-32602);
    }
    const missing = await rejectionOf(client.request({ method: "logging/setLevel", params: {} } as never, EmptyResultSchema));
    expect(missing.code).to.equal(-32602);
    await client.callTool({ name: "logall", arguments: {} });
    await client.ping();
    expect(messages.map((m) => m.level)).to.deep.equal(["error", "critical", "alert", "emergency"]);
    await client.close();
  });

  it("2025-11-25 through the SDK: server.log() reaches each session at the level that session set", async () => {
    const { server } = make(["2025-11-25"]);
    const heard: Record<string, string[]> = { quiet: [], chatty: [] };
    const listen = (name: string) => (c: Parameters<NonNullable<Parameters<typeof connectSdk>[2]>>[0]) =>
      c.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void heard[name]!.push(n.params.level));
    const quietOne = await connectSdk(server, {}, listen("quiet"));
    const chatty = await connectSdk(server, {}, listen("chatty"));
    await quietOne.client.setLoggingLevel("critical");
    await chatty.client.setLoggingLevel("info");
    for (const level of LOG_LEVELS) server.log(level, `server-wide ${level}`);
    await turn();
    await Promise.all([quietOne.client.ping(), chatty.client.ping()]);
    expect(heard.quiet).to.deep.equal(["critical", "alert", "emergency"]);
    expect(heard.chatty).to.deep.equal(LOG_LEVELS.slice(1));
    await Promise.all([quietOne.close(), chatty.close()]);
  });

  it("2026-07-28 raw: logging is declared; no logLevel in _meta, no log messages", async () => {
    const { server } = make();
    const peer = new RawPeer(server);
    const discovered = await peer.stateless("server/discover");
    expect(discovered.result.capabilities.logging).to.deep.equal({});
    const response = await peer.stateless("tools/call", { name: "logall" });
    expect(response.result.content).to.deep.equal([{ type: "text", text: "logged" }]);
    expect(peer.notifications("notifications/message")).to.deep.equal([]);
    await peer.close();
  });

  it("2026-07-28 raw: a request's _meta logLevel gets logs at or above it, on that request's stream only; a concurrent request without one gets none", async () => {
    const { server } = make();
    const peer = new RawPeer(server);
    const logLevel = { "io.modelcontextprotocol/logLevel": "error" };
    const [withLevel, without] = await Promise.all([
      peer.stateless("tools/call", { name: "logall", _meta: logLevel }, {}, "with-level"),
      peer.stateless("tools/call", { name: "logall" }, {}, "without"),
    ]);
    expect(withLevel.result.content).to.deep.equal([{ type: "text", text: "logged" }]);
    expect(without.result.content).to.deep.equal([{ type: "text", text: "logged" }]);
    const logs = peer.tap.notifications("notifications/message");
    expect(logs.map((e) => e.message.params.level)).to.deep.equal(["error", "critical", "alert", "emergency"]);
    for (const entry of logs) {
      expectStateless("LoggingMessageNotification", entry.message);
      expect(entry.relatedRequestId).to.equal("with-level");
    }
    const order = peer.received.filter((m) => m.method === "notifications/message" || m.id === "with-level").map((m) => m.method ?? "response");
    expect(order.at(-1), "every log message before the response").to.equal("response");
    await peer.close();
  });

  it("2026-07-28 raw: an invalid logLevel in _meta is -32602", async () => {
    const { server } = make();
    const peer = new RawPeer(server);
    const response = await peer.stateless("tools/call", { name: "logall", _meta: { "io.modelcontextprotocol/logLevel": "loud" } });
    expect(response.error?.code).to.equal(-32602);
    expect(peer.notifications("notifications/message")).to.deep.equal([]);
    await peer.close();
  });

  it("2026-07-28 raw: nothing is logged after the response, and server.log() does not reach stateless clients", async () => {
    const { server, contexts } = make();
    const peer = new RawPeer(server);
    await peer.stateless("tools/call", { name: "logall", _meta: { "io.modelcontextprotocol/logLevel": "debug" } }, {}, "c-1");
    expect(peer.notifications("notifications/message")).to.have.length(8);
    contexts[0]!.log("emergency", "after the response");
    server.log("emergency", "server-wide");
    await turn();
    await peer.stateless("server/discover");
    expect(peer.notifications("notifications/message")).to.have.length(8);
    await peer.close();
  });

  it("2026-07-28 through McpClient: the logLevel call option asks for logs on that call", async () => {
    const { server } = make();
    const [serverEnd, clientEnd] = createMemoryPair();
    server.connect(serverEnd);
    const client = await McpClient.connect(clientEnd, { name: "ours", version: "1.0.0", revision: STATELESS, logger: quiet });
    const levels: unknown[] = [];
    client.on("notifications/message", (params) => levels.push(params.level));
    await client.callTool("logall", {}, { logLevel: "alert" });
    await client.callTool("logall");
    await turn();
    expect(levels).to.deep.equal(["alert", "emergency"]);
    await client.close();
  });
});
