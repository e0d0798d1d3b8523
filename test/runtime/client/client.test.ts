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

    it("auto by default: probes server/discover, then offers 2025-11-25, and speaks the older revision the server answers with", async () => {
      const server = new ScriptedServer(sessionScript("2024-11-05"));
      const client = await server.connect();
      expect(server.received[0].method).to.equal("server/discover");
      expect(server.received[0].params._meta["io.modelcontextprotocol/protocolVersion"]).to.equal("2026-07-28");
      expect(server.received[1].params.protocolVersion).to.equal("2025-11-25");
      expect(client.revision).to.equal("2024-11-05");
      expect(client.era).to.equal("session");
      await client.close();
    });

    for (const answered of ["1999-01-01", "2026-07-28"])
      it(`refuses a server that answers initialize with ${answered}, and closes`, async () => {
        const server = new ScriptedServer(sessionScript(answered));
        const error = await rejection(server.connect());
        expect(error.message).to.include(answered);
        expect(server.methods()).to.deep.equal(["server/discover", "initialize"]); // no notifications/initialized
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
        // The tasks extension is declared unless `tasks: false` (runtime/extensions/tasks/client.ts follows tasks).
        "io.modelcontextprotocol/clientCapabilities": { elicitation: {}, extensions: { "io.modelcontextprotocol/tasks": {} } },
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

    it("validate: \"off\" hands over whatever the server sent", async () => {
      const server = new ScriptedServer(sessionScript(undefined, { "tools/list": () => badTools }));
      const client = await server.connect({ revision: "2025-06-18", validate: "off" });
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
      const error = await rejection(server.connect({ revision: "2025-11-25", requestTimeoutMs: 40 }));
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

    it("runs at most maxConcurrentRequests of its requests at once: the rest are answered -32603 at once, their handler never called", async () => {
      const server = new ScriptedServer(sessionScript());
      let calls = 0;
      const release: (() => void)[] = [];
      const logged: string[] = [];
      const client = await server.connect({
        revision: "2025-11-25",
        maxConcurrentRequests: 8,
        logger: (_level, message) => logged.push(message),
        handlers: { sampling: () => (calls++, new Promise((resolve) => release.push(() => resolve(SAMPLED)))) },
      });
      const flood = 300;
      for (let i = 0; i < flood; i++) void server.send({ jsonrpc: "2.0", id: `s${i}`, method: "sampling/createMessage", params: { messages: [], maxTokens: 1 } });
      await until(() => server.received.filter((m) => typeof m.id === "string").length === flood - 8, 5_000, "the refusals");
      expect(calls).to.equal(8);
      const refusals = server.received.filter((m) => typeof m.id === "string");
      expect(refusals.map((m) => m.id)).to.deep.equal(Array.from({ length: flood - 8 }, (_, i) => `s${i + 8}`));
      for (const refusal of refusals) {
        expect(refusal.error.code).to.equal(-32603);
        expect(refusal.error.data).to.deep.equal({ maxConcurrentRequests: 8 });
      }
      // Logged at the 1st, 10th and 100th refusal, not once each.
      expect(logged.filter((line) => line.includes("maxConcurrentRequests")).map((line) => line.match(/\((\d+) so far\)/)?.[1])).to.deep.equal(["1", "10", "100"]);
      // Room again once one is answered.
      release.shift()!();
      await until(() => server.received.some((m) => m.id === "s0"), 2_000, "the first answer");
      await server.send({ jsonrpc: "2.0", id: "again", method: "sampling/createMessage", params: { messages: [], maxTokens: 1 } });
      await until(() => calls === 9, 2_000, "the next request's handler");
      for (const go of release) go();
      await until(() => server.received.some((m) => m.id === "again"), 2_000, "its answer");
      expect(server.received.find((m) => m.id === "again").result).to.deep.equal(SAMPLED);
      await client.close();
    });
  });
});

const SAMPLED = { role: "assistant", content: { type: "text", text: "hi" }, model: "m" };

const DISCOVERED = {
  resultType: "complete",
  supportedVersions: ["2026-07-28"],
  capabilities: { tools: { listChanged: true }, resources: {} },
  ttlMs: 0,
  cacheScope: "private",
  _meta: { "io.modelcontextprotocol/serverInfo": SERVER_INFO },
};

/** A 2026-07-28 server: discover, then `more` by method. */
function statelessScript(more: Record<string, (params: Json) => unknown> = {}) {
  return (method: string, params: Json) => {
    if (more[method]) return more[method]!(params);
    if (method === "server/discover") return DISCOVERED;
    return new Error(`unscripted ${method}`);
  };
}

const tool = (name: string) => ({ name, inputSchema: { type: "object" } });

describe("McpClient at SDK v2's level", () => {
  describe("capabilities per revision", () => {
    for (const [revision, declared] of [
      ["2025-03-26", false],
      ["2025-06-18", true],
    ] as const)
      it(`${declared ? "declares" : "does not declare"} elicitation at ${revision}, handler or not`, async () => {
        const server = new ScriptedServer(sessionScript());
        const client = await server.connect({
          revision,
          capabilities: { elicitation: {}, experimental: { x: {} } },
          handlers: { elicitation: () => ({ action: "decline" }), sampling: () => ({}) },
        });
        const capabilities = server.received[0].params.capabilities;
        expect(capabilities).to.have.property("sampling");
        expect(capabilities).to.have.property("experimental");
        expect(Object.keys(capabilities).includes("elicitation")).to.equal(declared);
        await client.close();
      });
  });

  describe("era negotiation", () => {
    it("auto: a server that discovers is spoken to statelessly, with no initialize", async () => {
      const server = new ScriptedServer(statelessScript());
      const client = await server.connect();
      expect(client.era).to.equal("stateless");
      expect(client.revision).to.equal("2026-07-28");
      expect(server.methods()).to.deep.equal(["server/discover"]);
      await client.close();
    });

    it("auto: when neither works, the error says what was tried and what each answered", async () => {
      const server = new ScriptedServer(() => new Error("nope"));
      const error = await rejection(server.connect());
      expect(error.message).to.match(/server\/discover at 2026-07-28 failed \(nope \[-32603\]\), then initialize at 2025-11-25 failed \(nope \[-32603\]\)/);
    });

    it("-32022 on discover with data.supported naming the same version: retries once (SEP-2575)", async () => {
      let rejected = 0;
      // The first discover is answered by hand, with -32022.
      const raw = new ScriptedServer((method) => {
        if (method !== "server/discover") return new Error("unscripted");
        return rejected++ === 0 ? HANG : DISCOVERED;
      });
      const connecting = raw.connect({ revision: "2026-07-28" });
      await until(() => raw.received.length === 1, 2_000, "the first discover");
      await raw.send({ jsonrpc: "2.0", id: raw.received[0].id, error: { code: -32022, message: "Unsupported protocol version", data: { supported: ["2026-07-28"], requested: "2026-07-28" } } });
      const client = await connecting;
      expect(raw.methods()).to.deep.equal(["server/discover", "server/discover"]);
      expect(client.era).to.equal("stateless");
      await client.close();
    });

    it("-32022 on a later stateless request: discovers again and retries that request once, and only once", async () => {
      let hangs = 1; // requests left unanswered, to be rejected by hand
      const server = new ScriptedServer(statelessScript({ "tools/list": () => (hangs-- > 0 ? HANG : { resultType: "complete", tools: [], ttlMs: 0, cacheScope: "private" }) }));
      const client = await server.connect();
      const listing = client.listTools();
      await until(() => server.methods().includes("tools/list"), 2_000, "tools/list");
      const reject = (id: unknown) => server.send({ jsonrpc: "2.0", id, error: { code: -32022, message: "no", data: { supported: ["2026-07-28"] } } });
      await reject(server.received.find((m) => m.method === "tools/list").id);
      expect((await listing).items).to.deep.equal([]);
      expect(server.methods()).to.deep.equal(["server/discover", "tools/list", "server/discover", "tools/list"]);
      // A second -32022 on the retry is the caller's: no loop.
      hangs = 2;
      const again = client.listTools();
      await until(() => server.methods().filter((m) => m === "tools/list").length === 3, 2_000, "tools/list");
      await reject(server.received.filter((m) => m.method === "tools/list")[2].id);
      await until(() => server.methods().filter((m) => m === "tools/list").length === 4, 2_000, "the retry");
      await reject(server.received.filter((m) => m.method === "tools/list")[3].id);
      expect((await rejection(again)).code).to.equal(-32022);
      await client.close();
    });

    it("-32022 naming only session-era versions: initializes at the newest of them we speak", async () => {
      const server = new ScriptedServer((method, params) => {
        if (method === "server/discover") return HANG;
        return sessionScript()(method, params);
      });
      const connecting = server.connect({ revision: "2026-07-28" });
      await until(() => server.received.length === 1, 2_000, "discover");
      await server.send({ jsonrpc: "2.0", id: server.received[0].id, error: { code: -32022, message: "no", data: { supported: ["2024-11-05", "2025-06-18", "1999-01-01"] } } });
      const client = await connecting;
      expect(client.revision).to.equal("2025-06-18");
      expect(server.received[1].params.protocolVersion).to.equal("2025-06-18");
      await client.close();
    });
  });

  describe("results", () => {
    it("a stateless result without resultType is complete, and is returned as such", async () => {
      const server = new ScriptedServer(statelessScript({ "tools/call": () => ({ content: [] }) }));
      const client = await server.connect();
      expect(await client.callTool("x")).to.deep.equal({ content: [], resultType: "complete" });
      expect(server.methods().filter((m) => m === "tools/call")).to.have.length(1);
      await client.close();
    });

    it('validate "warn" logs the issues and passes an invalid result through; the count reads as issues', async () => {
      const bad = { content: [{ type: "resource_link", uri: 1 }, { type: "text" }] };
      const server = new ScriptedServer(sessionScript(undefined, { "tools/call": () => bad }));
      const logged: string[] = [];
      const client = await server.connect({ revision: "2025-03-26", validate: "warn", logger: (_level, text) => logged.push(text) });
      expect(await client.callTool("x")).to.deep.equal(bad);
      expect(logged).to.have.length(1);
      expect(logged[0]).to.match(/CallToolResult of MCP 2025-03-26: \/content\/0.*\(and \d+ more issues?\)/);
      await client.close();
      const strict = new ScriptedServer(sessionScript(undefined, { "tools/call": () => bad }));
      const strictClient = await strict.connect({ revision: "2025-03-26" });
      expect((await rejection(strictClient.callTool("x"))).code).to.equal(-32603);
      await strictClient.close();
    });

    for (const [mode, answered] of [
      ["strict", false],
      ["warn", true],
      ["off", true],
    ] as const)
      it(`validate "${mode}" ${answered ? "answers" : "refuses with -32602"} an invalid request from the server`, async () => {
        const server = new ScriptedServer(sessionScript());
        const client = await server.connect({ revision: "2025-06-18", validate: mode, logger: silentLogger, handlers: { elicitation: () => ({ action: "decline" }) } });
        await server.send({ jsonrpc: "2.0", id: "e1", method: "elicitation/create", params: { message: 3, requestedSchema: { type: "object", properties: {} } } });
        await until(() => server.received.some((m) => m.id === "e1"), 2_000, "the answer");
        const answer = server.received.find((m) => m.id === "e1");
        if (answered) expect(answer.result).to.deep.equal({ action: "decline" });
        else expect(answer.error.code).to.equal(-32602);
        await client.close();
      });
  });

  describe("elicitation defaults (SEP-1034)", () => {
    const requestedSchema = {
      type: "object",
      properties: {
        name: { type: "string", default: "John Doe" },
        age: { type: "integer", default: 30 },
        status: { type: "string", enum: ["active", "inactive"], default: "active" },
        verified: { type: "boolean", default: true },
        plain: { type: "string" },
      },
    };

    it("fills an accepted form's missing fields from the defaults, keeping what the user gave", async () => {
      const server = new ScriptedServer(sessionScript());
      const client = await server.connect({ revision: "2025-11-25", handlers: { elicitation: () => ({ action: "accept", content: { age: 41 } }) } });
      await server.send({ jsonrpc: "2.0", id: "e", method: "elicitation/create", params: { message: "who?", requestedSchema } });
      await until(() => server.received.some((m) => m.id === "e"), 2_000, "the answer");
      expect(server.received.find((m) => m.id === "e").result).to.deep.equal({
        action: "accept",
        content: { age: 41, name: "John Doe", status: "active", verified: true },
      });
      await client.close();
    });

    it("stateless era: the retry's inputResponses carry the filled form", async () => {
      let round = 0;
      const server = new ScriptedServer(
        statelessScript({
          "tools/call": () =>
            round++ === 0
              ? { resultType: "input_required", inputRequests: { ask: { method: "elicitation/create", params: { mode: "form", message: "who?", requestedSchema } } } }
              : { resultType: "complete", content: [] },
        }),
      );
      const client = await server.connect({ handlers: { elicitation: () => ({ action: "accept", content: {} }) } });
      await client.callTool("x");
      const retry = server.received.filter((m) => m.method === "tools/call")[1];
      expect(retry.params.inputResponses.ask.content).to.deep.equal({ name: "John Doe", age: 30, status: "active", verified: true });
      await client.close();
    });
  });

  describe("extension methods", () => {
    it("sends a method the revision does not define, with the stateless _meta, and checks a given resultSchema", async () => {
      const server = new ScriptedServer(statelessScript({ "skills/list": () => ({ resultType: "complete", skills: [{ uri: "skill://a" }] }) }));
      const client = await server.connect();
      const result = await client.request("skills/list", {});
      expect(result.skills).to.deep.equal([{ uri: "skill://a" }]);
      expect(server.received.at(-1).params._meta["io.modelcontextprotocol/protocolVersion"]).to.equal("2026-07-28");
      const resultSchema = { type: "object", required: ["skills"], properties: { skills: { type: "array", items: { type: "object", required: ["name"] } } } };
      const error = await rejection(client.request("skills/list", {}, { resultSchema }));
      expect(error.code).to.equal(-32603);
      expect(error.message).to.include("name");
      await client.close();
    });

    it("still refuses, before sending, a method the revision gives to the server", async () => {
      const server = new ScriptedServer(sessionScript());
      const client = await server.connect({ revision: "2025-06-18" });
      const before = server.received.length;
      expect((await rejection(client.request("sampling/createMessage"))).code).to.equal(-32601);
      expect(server.received).to.have.length(before);
      await client.close();
    });
  });

  describe("lists", () => {
    const pages: Record<string, Json> = {
      "": { resultType: "complete", tools: [tool("a")], nextCursor: "p2", ttlMs: 0, cacheScope: "private" },
      p2: { resultType: "complete", tools: [tool("b")], nextCursor: "p3", ttlMs: 0, cacheScope: "private" },
      p3: { resultType: "complete", tools: [tool("c")], ttlMs: 0, cacheScope: "private" },
    };

    it("one page with its cursor, or every page with all: true", async () => {
      const server = new ScriptedServer(statelessScript({ "tools/list": (params) => pages[params.cursor ?? ""] }));
      const client = await server.connect();
      const first = await client.listTools();
      expect(first.items.map((t) => t.name)).to.deep.equal(["a"]);
      expect(first.nextCursor).to.equal("p2");
      expect((await client.listTools({ cursor: "p2" })).nextCursor).to.equal("p3");
      const all = await client.listTools({ all: true });
      expect(all.items.map((t) => t.name)).to.deep.equal(["a", "b", "c"]);
      expect(all.nextCursor).to.equal(undefined);
      await client.close();
    });

    it("all: true stops on a cursor the server repeats", async () => {
      const server = new ScriptedServer(statelessScript({ "tools/list": () => ({ resultType: "complete", tools: [], nextCursor: "again", ttlMs: 0, cacheScope: "private" }) }));
      const client = await server.connect();
      expect((await rejection(client.listTools({ all: true }))).message).to.include('"again" twice');
      await client.close();
    });
  });

  describe("the cache (ttlMs, cacheScope)", () => {
    const listed = (ttlMs: number, cacheScope = "private") => ({ resultType: "complete", tools: [tool("a")], ttlMs, cacheScope });
    const count = (server: ScriptedServer, method: string) => server.methods().filter((m) => m === method).length;

    it("answers from the cache while ttlMs lasts; fresh: true and list_changed go to the server", async () => {
      const server = new ScriptedServer(statelessScript({ "tools/list": () => listed(600_000) }));
      const client = await server.connect();
      await client.listTools();
      await client.listTools();
      expect(count(server, "tools/list")).to.equal(1);
      await client.listTools({ fresh: true });
      expect(count(server, "tools/list")).to.equal(2);
      let heard = false;
      client.on("notifications/tools/list_changed", () => (heard = true));
      await server.send({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
      await until(() => heard, 2_000, "list_changed");
      await client.listTools();
      expect(count(server, "tools/list")).to.equal(3);
      await client.close();
    });

    it("an entry expires after its ttlMs", async () => {
      const server = new ScriptedServer(statelessScript({ "tools/list": () => listed(1) }));
      const client = await server.connect();
      await client.listTools();
      const kept = Date.now();
      await until(() => Date.now() > kept + 2, 2_000, "the clock to pass the ttl");
      await client.listTools();
      expect(count(server, "tools/list")).to.equal(2);
      await client.close();
    });

    it("ttlMs 0 is never kept, and cache: false keeps nothing", async () => {
      for (const [options, ttlMs] of [
        [{}, 0],
        [{ cache: false }, 600_000],
      ] as const) {
        const server = new ScriptedServer(statelessScript({ "tools/list": () => listed(ttlMs) }));
        const client = await server.connect(options);
        await client.listTools();
        await client.listTools();
        expect(count(server, "tools/list")).to.equal(2);
        await client.close();
      }
    });

    it("a shared store serves public results to every partition, private ones only to their own", async () => {
      const store = new Map();
      for (const [scope, shared] of [
        ["public", true],
        ["private", false],
      ] as const) {
        store.clear();
        const server = new ScriptedServer(statelessScript({ "tools/list": () => listed(600_000, scope) }));
        const alice = await server.connect({ cache: { store, partition: "alice" } });
        const bob = await new ScriptedServer(statelessScript({ "tools/list": () => listed(600_000, scope) })).connect({ cache: { store, partition: "bob" } });
        await alice.listTools();
        const before = store.size;
        await bob.listTools();
        expect(store.size - before, `${scope}: bob ${shared ? "reuses alice's entry" : "stores his own"}`).to.equal(shared ? 0 : 1);
        await alice.close();
        await bob.close();
      }
    });
  });

  describe("list_changed", () => {
    it("onListChanged re-lists every page and hands over the new list", async () => {
      let version = 0;
      const server = new ScriptedServer(sessionScript(undefined, { "tools/list": () => ({ tools: [tool(`v${version}`)] }) }));
      const lists: string[][] = [];
      const client = await server.connect({ revision: "2025-06-18", onListChanged: { tools: (tools) => lists.push(tools.map((t) => t.name)) } });
      version = 1;
      await server.send({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
      await until(() => lists.length === 1, 2_000, "the new list");
      expect(lists).to.deep.equal([["v1"]]);
      await client.close();
    });
  });

  describe("subscriptions", () => {
    it("close(reason) ends the stream, and closed says why", async () => {
      const server = new ScriptedServer(statelessScript({ "subscriptions/listen": () => HANG }));
      const client = await server.connect();
      const subscription = client.listen({ toolsListChanged: true });
      await until(() => server.methods().includes("subscriptions/listen"), 2_000, "listen");
      const id = server.received.find((m) => m.method === "subscriptions/listen").id;
      await server.send({
        jsonrpc: "2.0",
        method: "notifications/subscriptions/acknowledged",
        params: { notifications: { toolsListChanged: true }, _meta: { "io.modelcontextprotocol/subscriptionId": id } },
      });
      expect(await subscription.acknowledged).to.deep.equal({ toolsListChanged: true });
      subscription.close("the user left");
      expect(await subscription.closed).to.equal("closed by the client: the user left");
      await client.close();
    });

    it("closed reports a stream the server ended", async () => {
      const server = new ScriptedServer(statelessScript({ "subscriptions/listen": () => ({ resultType: "complete" }) }));
      const client = await server.connect({ validate: "off" });
      expect(await client.listen({ toolsListChanged: true }).closed).to.equal("the server ended the subscription");
      await client.close();
    });
  });
});
