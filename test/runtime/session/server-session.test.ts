// Sessions in both eras, through raw JSON-RPC on in-memory connections to one server: version
// negotiation, what is allowed before initialize, the stateless `_meta` rules, one server serving
// both eras, and the result check before anything is sent.
import { expect } from "chai";
import { ALL_REVISIONS, createServer, type McpServer } from "../../../runtime/index.js";
import type { MessageContext, Receiver, Transport } from "../../../runtime/jsonrpc/transport.js";
import { silentLogger } from "../../../runtime/util/logger.js";
import { initializeRaw, RawPeer, statelessMeta, type Json } from "../../support/features-server.js";
import { expectValid, SESSION_REVISIONS } from "../../support/mcp.js";

const SERVER_INFO = "io.modelcontextprotocol/serverInfo";

function server(options: { revisions?: string[]; validateResults?: boolean; cache?: { ttlMs?: number; scope?: "public" | "private" } } = {}): McpServer {
  const s = createServer({ name: "session-test", version: "2.0.0", logger: silentLogger, ...options });
  s.tool({ name: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } } } }, ({ text }: { text?: string }) => ({
    content: [{ type: "text", text: text ?? "" }],
  }));
  // Returns whatever it is told to: the result check must catch what is invalid.
  s.tool({ name: "raw", inputSchema: { type: "object" } }, ({ result }: { result?: unknown }) => result as never);
  s.prompt({ name: "bad-role", arguments: [] }, () => ({ messages: [{ role: "robot", content: { type: "text", text: "x" } }] }) as never);
  s.resource({ uri: "mem://a", name: "a" }, (uri) => ({ contents: [{ uri, text: "A" }] }));
  return s;
}

describe("ServerSession", () => {
  describe("session era: version negotiation", () => {
    for (const revision of SESSION_REVISIONS)
      it(`echoes ${revision} when it is requested`, async () => {
        const peer = new RawPeer(server());
        const result = await initializeRaw(peer, revision);
        expect(result.protocolVersion).to.equal(revision);
        expectValid(revision, "InitializeResult", result);
      });

    for (const requested of ["1999-01-01", "2025-11-26", "", "2026-07-28"])
      it(`answers ${JSON.stringify(requested)} with the latest session-era revision, 2025-11-25, without an error`, async () => {
        const peer = new RawPeer(server());
        expect((await initializeRaw(peer, requested)).protocolVersion).to.equal("2025-11-25");
      });

    it("answers with the latest revision the server was limited to, and serves at it", async () => {
      const s = server({ revisions: ["2024-11-05", "2025-03-26"] });
      const peer = new RawPeer(s);
      expect((await initializeRaw(peer, "2025-06-18")).protocolVersion).to.equal("2025-03-26");
      const other = new RawPeer(s);
      expect((await initializeRaw(other, "2024-11-05")).protocolVersion).to.equal("2024-11-05");
    });

    it("declares the capabilities of what is registered, and only those", async () => {
      const onlyTools = createServer({ name: "t", version: "1", logger: silentLogger });
      onlyTools.tool({ name: "t", inputSchema: { type: "object" } }, () => ({ content: [] }));
      const capabilities = (await initializeRaw(new RawPeer(onlyTools), "2025-06-18")).capabilities;
      expect(capabilities).to.have.property("tools");
      expect(capabilities).to.not.have.any.keys("resources", "prompts", "completions");
      const peer = new RawPeer(onlyTools);
      await initializeRaw(peer, "2025-06-18");
      expect((await peer.request("prompts/list", {})).error.code).to.equal(-32601);
      expect((await peer.request("resources/list", {})).error.code).to.equal(-32601);
    });

    it("refuses an initialize with invalid params with -32602 and the issue, and stays uninitialized", async () => {
      const peer = new RawPeer(server());
      const response = await peer.request("initialize", { protocolVersion: "2025-06-18", capabilities: {} });
      expect(response.error.code).to.equal(-32602);
      expect(response.error.data.issues).to.deep.include({
        path: "/params",
        schemaPath: "#/definitions/InitializeRequest/properties/params/required",
        keyword: "required",
        message: "must have required property 'clientInfo'",
      });
      expect((await initializeRaw(peer, "2025-06-18")).protocolVersion).to.equal("2025-06-18");
    });
  });

  describe("session era: lifecycle", () => {
    it("allows ping before initialize, and refuses anything else with -32600 (session-only server)", async () => {
      const peer = new RawPeer(server({ revisions: ["2025-06-18", "2025-11-25"] }));
      expect((await peer.request("ping", {})).result).to.deep.equal({});
      const early = await peer.request("tools/list", {});
      expect(early.error.code).to.equal(-32600);
      expect(early.error.message).to.match(/before initialize/);
      await initializeRaw(peer, "2025-11-25");
      expect((await peer.request("tools/list", {})).result.tools).to.have.length(2);
    });

    it("a dual-era server refuses a request with neither initialize nor _meta with -32602", async () => {
      const peer = new RawPeer(server());
      const early = await peer.request("tools/list", {});
      expect(early.error.code).to.equal(-32602);
      expect(early.error.message).to.include("io.modelcontextprotocol/protocolVersion");
    });

    it("a second initialize is -32600 and changes nothing", async () => {
      const peer = new RawPeer(server());
      await initializeRaw(peer, "2024-11-05");
      const again = await peer.request("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } });
      expect(again.error.code).to.equal(-32600);
      expect(again.error.message).to.match(/already initialized/);
      // Still alive, and still at 2024-11-05: a 2025-11-25-only method is unknown.
      expect((await peer.request("ping", {})).result).to.deep.equal({});
      expect((await peer.request("tasks/list", {})).error.code).to.equal(-32601);
    });

    it("a method of another revision is -32601 in this one", async () => {
      const peer = new RawPeer(server());
      await initializeRaw(peer, "2025-06-18");
      expect((await peer.request("tasks/list", {})).error.code).to.equal(-32601);
      expect((await peer.request("server/discover", {})).error.code).to.equal(-32601);
    });
  });

  describe("stateless era (2026-07-28)", () => {
    it("serves a request that carries its version and capabilities in _meta, and completes the result", async () => {
      const peer = new RawPeer(server({ cache: { ttlMs: 5_000, scope: "public" } }));
      const listed = await peer.stateless("tools/list");
      expectValid("2026-07-28", "ListToolsResult", listed.result);
      expect(listed.result).to.deep.include({ resultType: "complete", ttlMs: 5_000, cacheScope: "public" });
      expect(listed.result._meta[SERVER_INFO]).to.deep.equal({ name: "session-test", version: "2.0.0" });
      const called = await peer.stateless("tools/call", { name: "echo", arguments: { text: "hi" } });
      expect(called.result).to.deep.equal({ content: [{ type: "text", text: "hi" }], resultType: "complete", _meta: { [SERVER_INFO]: { name: "session-test", version: "2.0.0" } } });
    });

    it("implements server/discover", async () => {
      const discovered = (await new RawPeer(server()).stateless("server/discover")).result;
      expectValid("2026-07-28", "DiscoverResult", discovered);
      expect(discovered.supportedVersions).to.deep.equal([...ALL_REVISIONS].reverse());
      expect(discovered.capabilities).to.include.keys("tools", "resources", "prompts");
      expect(discovered).to.include.keys("ttlMs", "cacheScope");
    });

    it("a missing _meta version or missing client capabilities is -32602", async () => {
      const peer = new RawPeer(server());
      const noMeta = await peer.request("tools/list", {});
      expect(noMeta.error.code).to.equal(-32602);
      const noCapabilities = await peer.request("tools/list", { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } });
      expect(noCapabilities.error.code).to.equal(-32602);
      expect(noCapabilities.error.data.issues.map((i: { path: string }) => i.path)).to.include("/params/_meta");
      const notAString = await peer.request("tools/list", { _meta: { "io.modelcontextprotocol/protocolVersion": 20260728, "io.modelcontextprotocol/clientCapabilities": {} } });
      expect(notAString.error.code).to.equal(-32602);
    });

    it("an unsupported version is -32022 with data.supported and data.requested", async () => {
      const peer = new RawPeer(server());
      for (const requested of ["2027-01-01", "2025-06-18", "draft"]) {
        const response = await peer.request("tools/list", { _meta: statelessMeta({}, { "io.modelcontextprotocol/protocolVersion": requested }) });
        expect(response.error).to.deep.equal({
          code: -32022,
          message: `Unsupported protocol version: ${requested}`,
          data: { supported: [...ALL_REVISIONS].reverse(), requested },
        });
        expectValid("2026-07-28", "UnsupportedProtocolVersionError", response);
      }
    });

    it("a session-only server answers a stateless request with -32022 listing its versions", async () => {
      const response = await new RawPeer(server({ revisions: ["2025-11-25"] })).stateless("tools/list");
      expect(response.error.code).to.equal(-32022);
      expect(response.error.data).to.deep.equal({ supported: ["2025-11-25"], requested: "2026-07-28" });
    });

    it("keeps no state between requests: each carries its own identity", async () => {
      const peer = new RawPeer(server());
      expect((await peer.stateless("tools/list")).result.tools).to.have.length(2);
      expect((await peer.request("tools/list", {})).error.code).to.equal(-32602);
      expect((await peer.stateless("tools/list")).result.tools).to.have.length(2);
    });
  });

  describe("dual era", () => {
    it("one server instance answers a legacy client and a 2026-07-28 client at once, each in its own terms", async () => {
      const s = server();
      const legacy = new RawPeer(s);
      const modern = new RawPeer(s);
      await initializeRaw(legacy, "2025-06-18");
      const [old, now] = await Promise.all([
        legacy.request("tools/call", { name: "echo", arguments: { text: "old" } }),
        modern.stateless("tools/call", { name: "echo", arguments: { text: "new" } }),
      ]);
      expect(old.result).to.deep.equal({ content: [{ type: "text", text: "old" }] });
      expectValid("2025-06-18", "CallToolResult", old.result);
      expect(now.result).to.deep.include({ content: [{ type: "text", text: "new" }], resultType: "complete" });
      expectValid("2026-07-28", "CallToolResult", now.result);
      // Not-found in each era's terms, from the same registry.
      expect((await legacy.request("resources/read", { uri: "mem://none" })).error.code).to.equal(-32002);
      expect((await modern.stateless("resources/read", { uri: "mem://none" })).error.code).to.equal(-32602);
    });

    it("on one connection, stateless requests may come before an initialize, which then selects the session era", async () => {
      const peer = new RawPeer(server());
      expect((await peer.stateless("tools/list")).result.resultType).to.equal("complete");
      await initializeRaw(peer, "2025-03-26");
      const listed = await peer.request("tools/list", {});
      expectValid("2025-03-26", "ListToolsResult", listed.result);
      expect(listed.result).to.not.have.property("resultType");
    });
  });

  describe("the era is decided once per message: by the transport when it did (MessageContext.era), else by _meta", () => {
    /** A transport that delivers each message with the context given, as Streamable HTTP does. */
    class ContextTransport implements Transport {
      readonly sent: Json[] = [];
      private receiver: Receiver | undefined;
      start(receiver: Receiver): void {
        this.receiver = receiver;
      }
      send(message: unknown): Promise<void> {
        this.sent.push(message as Json);
        return Promise.resolve();
      }
      close(): Promise<void> {
        this.receiver?.closed();
        return Promise.resolve();
      }
      /** Delivers `message` and resolves with the answer to its id. */
      async answer(message: Json, context?: MessageContext): Promise<Json> {
        this.receiver!.message(message, context);
        for (let turn = 0; turn < 1000; turn++) {
          const found = this.sent.find((m) => m.id === message.id);
          if (found) return found;
          await new Promise((resolve) => setImmediate(resolve));
        }
        throw new Error(`no answer to ${JSON.stringify(message.id)}`);
      }
    }
    const list = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/list", params: { _meta: statelessMeta() } });
    const initialize = (id: number) => ({ jsonrpc: "2.0", id, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } });

    it("no era in the context (stdio, memory): _meta decides", async () => {
      const transport = new ContextTransport();
      server().connect(transport);
      expect((await transport.answer(list(1), {})).result.resultType).to.equal("complete");
      expect((await transport.answer(initialize(2))).result.protocolVersion).to.equal("2025-11-25");
    });

    it("the transport said session era: a request naming a version in _meta is not served statelessly", async () => {
      const transport = new ContextTransport();
      server().connect(transport);
      const answer = await transport.answer(list(1), { era: "session" });
      expect(answer.result, JSON.stringify(answer)).to.equal(undefined);
      expect(answer.error.message).to.contain("did not begin with initialize");
    });

    it("the transport said stateless era: an initialize without _meta starts no session (-32602, no version named)", async () => {
      const transport = new ContextTransport();
      const session = server().connect(transport);
      const answer = await transport.answer(initialize(1), { era: "stateless" });
      expect(answer.error?.code, JSON.stringify(answer)).to.equal(-32602);
      expect(session.revision).to.equal(undefined);
    });
  });

  describe("results are checked before they are sent", () => {
    const invalid = { content: [{ type: "text" }] }; // no text

    for (const [era, send] of [
      ["session era", async (peer: RawPeer, params: Record<string, unknown>) => (await initializeRaw(peer, "2025-11-25"), peer.request("tools/call", params))],
      ["stateless era", (peer: RawPeer, params: Record<string, unknown>) => peer.stateless("tools/call", params)],
    ] as const)
      it(`${era}: an invalid result is -32603 naming the handler and the issue, and its data is not sent`, async () => {
        const peer = new RawPeer(server());
        const response = await send(peer, { name: "raw", arguments: { result: invalid } });
        expect(response.result).to.equal(undefined);
        expect(response.error.code).to.equal(-32603);
        expect(response.error.message).to.match(/tools\/call/).and.match(/CallToolResult/).and.match(/\/content\/0/);
        expect(response.error.data.issues).to.deep.include({
          path: "/content/0",
          schemaPath: "#/$defs/TextContent/required",
          keyword: "required",
          message: "must have required property 'text'",
        });
        expect(JSON.stringify(peer.received)).to.not.include('"content":[{"type":"text"}]');
      });

    it("checks every kind of handler: an invalid prompt result is -32603 naming prompts/get", async () => {
      const peer = new RawPeer(server());
      await initializeRaw(peer, "2025-06-18");
      const response = await peer.request("prompts/get", { name: "bad-role" });
      expect(response.error.code).to.equal(-32603);
      expect(response.error.message).to.match(/prompts\/get/).and.match(/\/messages\/0\/role/);
    });

    it("a result that is not an object is -32603", async () => {
      const peer = new RawPeer(server());
      await initializeRaw(peer, "2025-06-18");
      for (const result of [null, 42, "text"]) {
        const response = await peer.request("tools/call", { name: "raw", arguments: { result } });
        expect(response.error?.code, JSON.stringify(response)).to.equal(-32603);
      }
    });

    it("validateResults: false turns the check off and the handler's result is sent as is", async () => {
      const peer = new RawPeer(server({ validateResults: false }));
      await initializeRaw(peer, "2025-11-25");
      const response = await peer.request("tools/call", { name: "raw", arguments: { result: invalid } });
      expect(response.error).to.equal(undefined);
      expect(response.result).to.deep.equal(invalid);
    });
  });
});
