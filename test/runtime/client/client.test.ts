// McpClient against a scripted server on an in-memory pair: what it sends to open each era, the
// `_meta` of stateless requests, the check of every result, cancellation and timeouts on the wire.
import { expect } from "chai";
import { McpClient, type ClientOptions } from "../../../runtime/index.js";
import { createMemoryPair, type MemoryTransport } from "../../../runtime/transports/memory.js";
import { silentLogger } from "../../../runtime/util/logger.js";
import { rejection, until } from "../../support/mcp.js";

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Answers each request with `script(method, params)`: a result object, `HANG` to never answer, or an Error for -32603. */
const HANG = Symbol("hang");

class ScriptedServer {
  readonly received: Json[] = [];
  closed = false;
  readonly end: MemoryTransport;
  readonly clientEnd: MemoryTransport;

  constructor(private readonly script: (method: string, params: Json) => unknown) {
    [this.clientEnd, this.end] = createMemoryPair();
    this.end.start({
      message: (message: Json) => {
        this.received.push(message);
        if (message.id === undefined || message.method === undefined) return;
        const answer = this.script(message.method, message.params ?? {});
        if (answer === HANG) return;
        if (answer instanceof Error) void this.end.send({ jsonrpc: "2.0", id: message.id, error: { code: -32603, message: answer.message } });
        else void this.end.send({ jsonrpc: "2.0", id: message.id, result: answer });
      },
      malformed: () => {},
      closed: () => (this.closed = true),
    });
  }

  send(message: Json): Promise<void> {
    return this.end.send(message);
  }

  methods(): string[] {
    return this.received.map((m) => m.method ?? `response:${m.id}`);
  }

  connect(options: Partial<ClientOptions> = {}): Promise<McpClient> {
    return McpClient.connect(this.clientEnd, { name: "unit-client", version: "3.2.1", logger: silentLogger, ...options });
  }
}

const SERVER_INFO = { name: "scripted", version: "0.0.1" };

/** A session-era server answering initialize with `answered` (default: what was asked). */
function sessionScript(answered?: string, more: Record<string, (params: Json) => unknown> = {}) {
  return (method: string, params: Json) => {
    if (method === "initialize")
      return { protocolVersion: answered ?? params.protocolVersion, capabilities: { tools: {} }, serverInfo: SERVER_INFO, instructions: "be nice" };
    const handler = more[method];
    if (handler) return handler(params);
    if (method === "ping") return {};
    return new Error(`unscripted ${method}`);
  };
}

describe("McpClient", () => {
  describe("opening, session era", () => {
    it("sends initialize with its revision, capabilities and identity, then notifications/initialized", async () => {
      const server = new ScriptedServer(sessionScript());
      const client = await server.connect({ revision: "2025-06-18", capabilities: { roots: { listChanged: true } } });
      await until(() => server.received.length === 2, 2_000, "notifications/initialized");
      expect(server.received[0]).to.deep.equal({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: { roots: { listChanged: true } }, clientInfo: { name: "unit-client", version: "3.2.1" } },
      });
      expect(server.received[1]).to.deep.equal({ jsonrpc: "2.0", method: "notifications/initialized" });
      expect(client.revision).to.equal("2025-06-18");
      expect(client.serverInfo).to.deep.equal(SERVER_INFO);
      expect(client.serverCapabilities).to.deep.equal({ tools: {} });
      expect(client.instructions).to.equal("be nice");
      await client.close();
    });

    it("offers 2025-11-25 by default, and speaks the older revision the server answers with", async () => {
      const server = new ScriptedServer(sessionScript("2024-11-05"));
      const client = await server.connect();
      expect(server.received[0].params.protocolVersion).to.equal("2025-11-25");
      expect(client.revision).to.equal("2024-11-05");
      // 2024-11-05 has no tasks: refused before anything is sent.
      const before = server.received.length;
      expect((await rejection(client.request("tasks/list"))).code).to.equal(-32601);
      expect(server.received).to.have.length(before);
      await client.close();
    });

    for (const answered of ["1999-01-01", "2026-07-28"])
      it(`refuses a server that answers initialize with ${answered}, and closes`, async () => {
        const server = new ScriptedServer(sessionScript(answered));
        const error = await rejection(server.connect());
        expect(error.message).to.include(answered);
        expect(server.methods()).to.deep.equal(["initialize"]); // no notifications/initialized
        await until(() => server.closed, 2_000, "the connection to close");
      });

    it("refuses an initialize result that is not a valid InitializeResult", async () => {
      const server = new ScriptedServer((method) => (method === "initialize" ? { protocolVersion: "2025-06-18", capabilities: {} } : {}));
      const error = await rejection(server.connect({ revision: "2025-06-18" }));
      expect(error.code).to.equal(-32603);
      expect(error.message).to.include("serverInfo");
    });
  });

  describe("opening, stateless era", () => {
    it("discovers, and every request carries the version, capabilities and identity in _meta", async () => {
      const server = new ScriptedServer((method) => {
        if (method === "server/discover")
          return {
            resultType: "complete",
            supportedVersions: ["2026-07-28"],
            capabilities: { tools: {} },
            instructions: "stateless",
            ttlMs: 0,
            cacheScope: "private",
            _meta: { "io.modelcontextprotocol/serverInfo": SERVER_INFO },
          };
        if (method === "tools/list") return { resultType: "complete", tools: [], ttlMs: 0, cacheScope: "private" };
        return new Error("unscripted");
      });
      const client = await server.connect({ revision: "2026-07-28", capabilities: { elicitation: {} } });
      expect(client.serverInfo).to.deep.equal(SERVER_INFO);
      expect(client.instructions).to.equal("stateless");
      expect((await client.listTools()).items).to.deep.equal([]);
      const meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
        "io.modelcontextprotocol/clientInfo": { name: "unit-client", version: "3.2.1" },
      };
      expect(server.received.map((m) => [m.method, m.params?._meta])).to.deep.equal([
        ["server/discover", meta],
        ["tools/list", meta],
      ]);
      expect(server.received.map((m) => m.method)).to.not.include("initialize");
      await client.close();
    });
  });

  describe("results", () => {
    const badTools = { tools: [{ name: 1 }] };

    it("checks every result against the revision and rejects an invalid one with -32603 naming the definition", async () => {
      const server = new ScriptedServer(sessionScript(undefined, { "tools/list": () => badTools }));
      const client = await server.connect({ revision: "2025-06-18" });
      const error = await rejection(client.listTools());
      expect(error.code).to.equal(-32603);
      expect(error.message).to.match(/ListToolsResult/).and.match(/\/tools\/0/);
      expect(error.data.result).to.deep.equal(badTools);
      await client.close();
    });

    it("checks a stateless result against its own definition, not the open InputRequiredResult", async () => {
      const server = new ScriptedServer((method) => {
        if (method === "server/discover")
          return { resultType: "complete", supportedVersions: ["2026-07-28"], capabilities: {}, ttlMs: 0, cacheScope: "private" };
        if (method === "tools/call") return { resultType: "complete", content: [{ type: "text" }] };
        return new Error("unscripted");
      });
      const client = await server.connect({ revision: "2026-07-28" });
      const error = await rejection(client.callTool("x"));
      expect(error.code).to.equal(-32603);
      expect(error.message).to.match(/CallToolResult/);
      await client.close();
    });

    it("validateResults: false hands over whatever the server sent", async () => {
      const server = new ScriptedServer(sessionScript(undefined, { "tools/list": () => badTools }));
      const client = await server.connect({ revision: "2025-06-18", validateResults: false });
      expect((await client.listTools()).items).to.deep.equal(badTools.tools);
      await client.close();
    });
  });

  describe("cancellation and timeouts", () => {
    it("aborting a call sends notifications/cancelled with its id, and the call rejects with the reason", async () => {
      const server = new ScriptedServer(sessionScript(undefined, { "tools/call": () => HANG }));
      const client = await server.connect();
      const controller = new AbortController();
      const call = client.callTool("slow", {}, { signal: controller.signal });
      await until(() => server.methods().includes("tools/call"), 2_000, "the call");
      const id = server.received.find((m) => m.method === "tools/call").id;
      controller.abort(new Error("stop"));
      expect((await rejection(call)).message).to.equal("stop");
      await until(() => server.methods().includes("notifications/cancelled"), 2_000, "notifications/cancelled");
      expect(server.received.find((m) => m.method === "notifications/cancelled")).to.deep.equal({
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: id, reason: "stop" },
      });
      await client.close();
    });

    it("a timeout rejects with -32001 and cancels the request on the server", async () => {
      const server = new ScriptedServer(sessionScript(undefined, { "tools/call": () => HANG }));
      const client = await server.connect({ requestTimeoutMs: 40 });
      const error = await rejection(client.callTool("slow"));
      expect(error.code).to.equal(-32001);
      await until(() => server.methods().includes("notifications/cancelled"), 2_000, "notifications/cancelled");
      await client.close();
    });

    it("never cancels initialize: a server that does not answer makes connect time out, with no notifications/cancelled", async () => {
      const server = new ScriptedServer(() => HANG);
      const error = await rejection(server.connect({ requestTimeoutMs: 40 }));
      expect(error.code).to.equal(-32001);
      await new Promise((resolve) => setImmediate(resolve));
      expect(server.methods()).to.deep.equal(["initialize"]);
    });

    it("close rejects what is pending", async () => {
      const server = new ScriptedServer(sessionScript(undefined, { "tools/call": () => HANG }));
      const client = await server.connect();
      const call = client.callTool("slow");
      await until(() => server.methods().includes("tools/call"), 2_000, "the call");
      await client.close();
      expect((await rejection(call)).message).to.match(/connection closed/);
    });
  });

  describe("from the server", () => {
    it("answers ping, refuses what it does not handle with -32601, and delivers notifications to listeners", async () => {
      const server = new ScriptedServer(sessionScript());
      const client = await server.connect();
      const heard: Json[] = [];
      const stop = client.on("notifications/tools/list_changed", (params) => heard.push(params));
      await server.send({ jsonrpc: "2.0", id: "s1", method: "ping" });
      await server.send({ jsonrpc: "2.0", id: "s2", method: "sampling/createMessage", params: { messages: [], maxTokens: 1 } });
      await server.send({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
      await until(() => server.received.filter((m) => m.id === "s1" || m.id === "s2").length === 2 && heard.length === 1, 2_000, "answers");
      expect(server.received.find((m) => m.id === "s1")).to.deep.equal({ jsonrpc: "2.0", id: "s1", result: {} });
      expect(server.received.find((m) => m.id === "s2").error.code).to.equal(-32601);
      stop();
      await server.send({ jsonrpc: "2.0", method: "notifications/tools/list_changed", params: { again: true } });
      await client.ping();
      expect(heard).to.deep.equal([{}]);
      await client.close();
    });
  });
});
