// Notifications of any method (issue 27): `ctx.notify` from a handler, tied to its request, and
// `server.notify` to every session-era client; a method the revision defines is held to its params
// (a wrong one throws, naming the field), a vendor's own goes as given; through our McpClient and
// the SDK v1 Client. And `ctx.sessionId`: the Mcp-Session-Id over Streamable HTTP, undefined
// elsewhere. The @ts-expect-error lines are checked by `make typecheck`.
import { expect } from "chai";
import { createServer, McpClient, type McpServer, type RequestContext } from "../../../runtime/index.js";
import { loadRevision } from "../../../runtime/session/revisions.js";
import { HttpClientTransport } from "../../../runtime/transports/http/index.js";
import { silentLogger } from "../../../runtime/util/logger.js";
import { connectSdk } from "../../support/features-server.js";
import { connectClient, STATELESS_REVISION, until } from "../../support/mcp.js";
import { startServer } from "../transports/http/support.js";

const VENDOR = "notifications/acme/indexed";

function notifyingServer(revisions?: string[]): McpServer {
  const server = createServer({ name: "notify", version: "1.0.0", logger: silentLogger, ...(revisions ? { revisions } : {}) });
  server.tool({ name: "index", inputSchema: { type: "object", properties: { method: { type: "string" }, params: { type: "object" } } } }, async (args, ctx) => {
    await ctx.notify(args.method ?? VENDOR, args.params);
    return { content: [{ type: "text", text: "indexed" }] };
  });
  return server;
}

const textOf = (result: { content?: unknown }) => (result.content as { text: string }[])[0]!.text;

describe("features: notifications of any method", () => {
  describe("ctx.notify", () => {
    for (const revision of ["2024-11-05", "2025-11-25", STATELESS_REVISION] as const)
      it(`${revision}: a vendor's method reaches the client before the request's result`, async () => {
        const client = await connectClient(notifyingServer(), revision);
        const received: unknown[] = [];
        client.on(VENDOR, (params) => received.push(params));
        const result = await client.callTool("index", { params: { files: 3 } });
        expect(textOf(result)).to.equal("indexed");
        expect(received).to.deep.equal([{ files: 3 }]);
        await client.close();
      });

    it("a method the revision defines, with its params, is sent; with wrong params the handler throws, naming the method and the field", async () => {
      const client = await connectClient(notifyingServer(), "2025-11-25");
      const updated: unknown[] = [];
      client.on("notifications/resources/updated", (params) => updated.push(params));
      await client.callTool("index", { method: "notifications/resources/updated", params: { uri: "file:///a" } });
      expect(updated).to.deep.equal([{ uri: "file:///a" }]);
      const wrong = await client.callTool("index", { method: "notifications/resources/updated", params: { uri: 5 } });
      expect(wrong.isError).to.equal(true);
      expect(textOf(wrong)).to.match(/^invalid params for notifications\/resources\/updated in MCP 2025-11-25: \/uri: /);
      const clientOnly = await client.callTool("index", { method: "notifications/initialized", params: {} });
      expect(textOf(clientOnly)).to.equal("notifications/initialized is not a server notification in MCP 2025-11-25");
      expect(updated).to.have.length(1);
      await client.close();
    });

    for (const revision of ["2025-11-25", STATELESS_REVISION] as const)
      it(`${revision} over Streamable HTTP: on the request's own stream, before its result`, async () => {
        const running = await startServer({}, (server) =>
          server.tool({ name: "index", inputSchema: { type: "object" } }, async (_args, ctx) => {
            await ctx.notify(VENDOR, { over: "http" });
            return { content: [{ type: "text", text: "indexed" }] };
          }),
        );
        const client = await McpClient.connect(new HttpClientTransport(running.url), { name: "t", version: "1", revision, logger: silentLogger });
        const received: unknown[] = [];
        client.on(VENDOR, (params) => received.push(params));
        expect(textOf(await client.callTool("index"))).to.equal("indexed");
        expect(received).to.deep.equal([{ over: "http" }]);
        await client.close();
        await running.close();
      });

    it("a method only a newer revision defines is not sent to an older revision's client, and the handler goes on", async () => {
      const newer = "notifications/elicitation/complete";
      const [oldest, latest] = await Promise.all([loadRevision("2024-11-05"), loadRevision("2025-11-25")]);
      expect([oldest.methods.has(newer), latest.methods.has(newer)]).to.deep.equal([false, true]);
      const server = notifyingServer();
      const old = await connectClient(server, "2024-11-05");
      const current = await connectClient(server, "2025-11-25");
      const seen: string[] = [];
      old.on(newer, () => seen.push("2024-11-05"));
      current.on(newer, () => seen.push("2025-11-25"));
      for (const client of [old, current]) expect(textOf(await client.callTool("index", { method: newer, params: { elicitationId: "e1" } }))).to.equal("indexed");
      await old.ping();
      expect(seen).to.deep.equal(["2025-11-25"]);
      await old.close();
      await current.close();
    });

    it("reaches the SDK v1 Client (its fallback notification handler)", async () => {
      const received: unknown[] = [];
      const { client, close } = await connectSdk(notifyingServer(), {}, (c) => (c.fallbackNotificationHandler = async (n) => void received.push(n)));
      await client.callTool({ name: "index", arguments: { params: { files: 1 } } });
      expect(received).to.deep.equal([{ jsonrpc: "2.0", method: VENDOR, params: { files: 1 } }]);
      await close();
    });

    it("is typed by the revisions (a tool's by those its server serves): a defined method's params are checked by tsc, a vendor's are any object", () => {
      const typed = async (ctx: RequestContext) => {
        await ctx.notify("notifications/message", { level: "info", data: "ok" });
        await ctx.notify("notifications/tools/list_changed");
        await ctx.notify(VENDOR, { anything: [1, 2] });
        // @ts-expect-error not a logging level
        await ctx.notify("notifications/message", { level: "loud", data: "x" });
        // @ts-expect-error uri is required
        await ctx.notify("notifications/resources/updated", {});
      };
      expect(typed).to.be.a("function");
      // A tool's ctx is typed by the revisions its server serves: elicitation/complete is 2025-11-25's, a vendor's name to 2024-11-05.
      createServer({ name: "latest", version: "1", revisions: ["2025-11-25"] }).tool({ name: "t", inputSchema: { type: "object" } }, async (_args, ctx) => {
        // @ts-expect-error elicitationId is required in 2025-11-25
        await ctx.notify("notifications/elicitation/complete", { id: "e1" });
        return { content: [] };
      });
      createServer({ name: "oldest", version: "1", revisions: ["2024-11-05"] }).tool({ name: "t", inputSchema: { type: "object" } }, async (_args, ctx) => {
        await ctx.notify("notifications/elicitation/complete", { id: "e1" });
        return { content: [] };
      });
    });
  });

  describe("server.notify", () => {
    it("reaches every session-era client, each only with the methods its revision defines", async () => {
      // URL-mode elicitation's completion: in 2025-11-25's tables, not in 2024-11-05's (checked, not assumed).
      const newer = "notifications/elicitation/complete";
      const [oldest, latest] = await Promise.all([loadRevision("2024-11-05"), loadRevision("2025-11-25")]);
      expect([oldest.methods.has(newer), latest.methods.get(newer)?.senders]).to.deep.equal([false, ["server"]]);
      const server = notifyingServer(["2024-11-05", "2025-11-25"]);
      const clients = [await connectClient(server, "2024-11-05"), await connectClient(server, "2025-11-25"), await connectClient(server, "2025-11-25")];
      const seen = clients.map(() => [] as string[]);
      clients.forEach((client, i) => {
        client.on(VENDOR, () => seen[i]!.push(VENDOR));
        client.on(newer, () => seen[i]!.push(newer));
      });
      server.notify(VENDOR, { done: true });
      server.notify(newer, { elicitationId: "e1" });
      await until(() => seen[1]!.length === 2 && seen[2]!.length === 2 && seen[0]!.length >= 1);
      // A ping after: whatever else was sent has arrived.
      await clients[0]!.ping();
      expect(seen).to.deep.equal([[VENDOR], [VENDOR, newer], [VENDOR, newer]]);
      await Promise.all(clients.map((client) => client.close()));
    });

    it("throws at the caller on params its revisions refuse, sending nothing", async () => {
      const server = notifyingServer(["2025-11-25"]);
      const client = await connectClient(server, "2025-11-25");
      const updated: unknown[] = [];
      client.on("notifications/resources/updated", (params) => updated.push(params));
      // @ts-expect-error uri is a string
      expect(() => server.notify("notifications/resources/updated", { uri: 1 })).to.throw(/^invalid params for notifications\/resources\/updated in MCP 2025-11-25: \/uri: /);
      server.notify("notifications/resources/updated", { uri: "file:///b" });
      await until(() => updated.length === 1);
      expect(updated).to.deep.equal([{ uri: "file:///b" }]);
      await client.close();
    });
  });
});

describe("features: ctx.sessionId", () => {
  const sessionIdTool = (server: McpServer) =>
    server.tool({ name: "whoami", inputSchema: { type: "object" } }, (_args, ctx) => ({ content: [{ type: "text", text: String(ctx.sessionId) }] }));

  it("Streamable HTTP, session era: the Mcp-Session-Id the server issued, the same on every request of the session", async () => {
    const running = await startServer({}, sessionIdTool);
    const transport = new HttpClientTransport(running.url);
    const client = await McpClient.connect(transport, { name: "t", version: "1", revision: "2025-11-25", logger: silentLogger });
    expect(transport.session).to.be.a("string");
    expect(textOf(await client.callTool("whoami"))).to.equal(transport.session);
    expect(textOf(await client.callTool("whoami"))).to.equal(transport.session);
    const other = new HttpClientTransport(running.url);
    const second = await McpClient.connect(other, { name: "t", version: "1", revision: "2025-11-25", logger: silentLogger });
    expect(textOf(await second.callTool("whoami"))).to.equal(other.session).and.not.equal(transport.session);
    await client.close();
    await second.close();
    await running.close();
  });

  it("undefined in the stateless era over HTTP, and in memory", async () => {
    const running = await startServer({}, sessionIdTool);
    const client = await McpClient.connect(new HttpClientTransport(running.url), { name: "t", version: "1", revision: STATELESS_REVISION, logger: silentLogger });
    expect(textOf(await client.callTool("whoami"))).to.equal("undefined");
    await client.close();
    await running.close();
    const server = createServer({ name: "m", version: "1", logger: silentLogger });
    sessionIdTool(server);
    const memory = await connectClient(server, "2025-11-25");
    expect(textOf(await memory.callTool("whoami"))).to.equal("undefined");
    await memory.close();
  });
});
