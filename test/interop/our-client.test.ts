// Our McpClient against real servers: the official SDK's McpServer (over stdio, spawned, and in
// memory through the adapters of test/support/sdk-transport.ts, on either side's in-memory pipe),
// and our own fixture (over stdio and in memory, a session-era revision and 2026-07-28).
// The client checks every result against the revision's generated validators, so an invalid
// answer from either server fails these tests.
import { expect } from "chai";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { McpServer as SdkMcpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { McpClient, type Revision } from "../../runtime/index.js";
import { silentLogger } from "../../runtime/util/logger.js";
import { createMemoryPair } from "../../runtime/transports/memory.js";
import { spawnStdio } from "../../runtime/transports/stdio-child.js";
import type { Transport } from "../../runtime/jsonrpc/transport.js";
import { createEverythingServer, EVERYTHING_INFO, EVERYTHING_INSTRUCTIONS } from "../fixtures/servers/everything-server.js";
import { createSdkServer, SDK_SERVER_INFO } from "../fixtures/servers/sdk-everything.js";
import { EVERYTHING, PIXEL_PNG_BASE64, rejection, SDK_STDIO_SERVER, SESSION_REVISIONS, tsxArgs, until, within } from "../support/mcp.js";
import { FromSdkTransport, ToSdkTransport } from "../support/sdk-transport.js";

const WEATHER = { location: "Lisbon", temperature: 21.5, units: "celsius", conditions: "Partly cloudy" };

/** How a test reaches a server: the client's transport, and how to stop the rest. */
interface Connection {
  readonly transport: Transport;
  stop(): Promise<void>;
  /** What our fixture noted ("slow: aborted ..."); the SDK's server notes nothing. */
  readonly notes?: () => string;
}

/** Where a server's answers legitimately differ. */
interface Dialect {
  /** An unknown tool: a JSON-RPC error -32602 (the spec), or an isError result (the SDK 1.32.2). */
  readonly unknownTool: "error" | "isError";
  /** An unknown resource: -32002 (session era) / -32602 (stateless era) by the spec; the SDK 1.32.2 says -32602 in both. */
  readonly unknownResource: (revision: Revision) => number;
}

const SPEC: Dialect = { unknownTool: "error", unknownResource: (revision) => (revision === "2026-07-28" ? -32602 : -32002) };
const SDK: Dialect = { unknownTool: "isError", unknownResource: () => -32602 };

/** The conversation both servers can hold: the same answers from the SDK's McpServer and ours. */
function commonConversation(connect: () => Promise<Connection>, revision: Revision, server: { name: string; version: string }, dialect: Dialect) {
  let connection: Connection;
  let client: McpClient;

  before(async () => {
    connection = await connect();
    client = await within(20_000, McpClient.connect(connection.transport, { name: "our-client", version: "1.0.0", revision, logger: silentLogger }), "connect");
  });
  after(async () => {
    await within(10_000, client.close(), "client close").catch(() => {});
    await connection.stop();
  });

  it(`connects at ${revision} and reads the server's identity and capabilities`, async () => {
    expect(client.revision).to.equal(revision);
    expect(client.serverInfo).to.deep.include(server);
    expect(client.serverCapabilities).to.include.keys("tools", "resources", "prompts");
    if (revision !== "2026-07-28") expect(await client.ping()).to.deep.equal({});
  });

  it("lists and calls tools, with structuredContent", async () => {
    const tools = await client.listTools();
    expect(tools.items.map((t) => t.name)).to.include.members(["echo", "get_weather", "fail", "slow"]);
    expect(tools.items.find((t) => t.name === "get_weather")!.outputSchema).to.have.nested.property("properties.temperature");
    const echo = await client.callTool("echo", { text: "ünïcode ✓" });
    expect(echo.content).to.deep.equal([{ type: "text", text: "ünïcode ✓" }]);
    const weather = await client.callTool("get_weather", { location: "Lisbon" });
    expect(weather.structuredContent).to.deep.equal(WEATHER);
  });

  it("a throwing tool and bad arguments are isError results; an unknown tool is an error", async () => {
    const thrown = await client.callTool("fail");
    expect(thrown.isError).to.equal(true);
    expect(JSON.stringify(thrown.content)).to.include("the fail tool always fails");
    const bad = await client.callTool("get_weather", { location: 42 });
    expect(bad.isError).to.equal(true);
    if (dialect.unknownTool === "error") {
      const unknown = await rejection(client.callTool("no_such_tool"));
      expect(unknown.code).to.equal(-32602);
    } else {
      const unknown = await client.callTool("no_such_tool");
      expect(unknown.isError).to.equal(true);
      expect(JSON.stringify(unknown.content)).to.include("no_such_tool");
    }
  });

  it("reads text, blob and templated resources; an unknown one is an error", async () => {
    expect((await client.listResources()).items.map((r) => r.uri)).to.include.members(["fixture://text/hello", "fixture://blob/pixel"]);
    expect((await client.listResourceTemplates()).items.map((t) => t.uriTemplate)).to.include("fixture://users/{id}");
    expect((await client.readResource("fixture://text/hello")).contents).to.deep.equal([{ uri: "fixture://text/hello", mimeType: "text/plain", text: "Hello, world" }]);
    expect((await client.readResource("fixture://blob/pixel")).contents).to.deep.equal([{ uri: "fixture://blob/pixel", mimeType: "image/png", blob: PIXEL_PNG_BASE64 }]);
    expect((await client.readResource("fixture://users/42")).contents).to.deep.equal([{ uri: "fixture://users/42", mimeType: "application/json", text: '{"id":"42"}' }]);
    const unknown = await rejection(client.readResource("fixture://nowhere"));
    expect(unknown.code).to.equal(dialect.unknownResource(revision));
  });

  it("gets a prompt with and without its optional argument; a missing required one is -32602", async () => {
    const prompts = await client.listPrompts();
    // `required: false` may be left out (the SDK does).
    const greet = prompts.items.find((p) => p.name === "greet")!.arguments!.map((a) => ({ ...a, required: a.required === true }));
    expect(greet).to.have.deep.members([
      { name: "name", description: "Who", required: true },
      { name: "style", description: "formal or casual", required: false },
    ]);
    expect((await client.getPrompt("greet", { name: "Ada" })).messages).to.deep.equal([{ role: "user", content: { type: "text", text: "Say hello to Ada." } }]);
    expect((await client.getPrompt("greet", { name: "Ada", style: "formally" })).messages[0]!.content).to.deep.include({ text: "Say hello to Ada, formally." });
    const missing = await rejection(client.getPrompt("greet", {}));
    expect(missing.code).to.equal(-32602);
  });

  it("an aborted call rejects at once, and the connection serves the next call", async () => {
    const controller = new AbortController();
    const call = client.callTool("slow", { ms: 30_000 }, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("the test gave up")), 20);
    const error = await within(5_000, rejection(call), "the aborted call");
    expect(error.message).to.equal("the test gave up");
    // The server heard notifications/cancelled and aborted the handler.
    const notes = connection.notes;
    if (notes) await until(() => /slow: aborted/.test(notes()), 5_000, "the handler's abort");
    expect((await client.callTool("echo", { text: "still here" })).content).to.deep.equal([{ type: "text", text: "still here" }]);
  });

  it("a request that times out rejects with -32001", async () => {
    const error = await within(5_000, rejection(client.callTool("slow", { ms: 30_000 }, { timeoutMs: 50 })), "the timeout");
    expect(error.code).to.equal(-32001);
  });
}

// -- the SDK's McpServer ------------------------------------------------------------------------

/** The SDK's server over the SDK's InMemoryTransport; our client on the other end through FromSdkTransport. */
async function sdkOverSdkMemory(): Promise<Connection> {
  const [ours, theirs] = InMemoryTransport.createLinkedPair();
  const server: SdkMcpServer = createSdkServer();
  await server.connect(theirs);
  return { transport: new FromSdkTransport(ours), stop: () => server.close() };
}

/** The SDK's server on one end of our createMemoryPair through ToSdkTransport; our client on the other. */
async function sdkOverOurMemory(): Promise<Connection> {
  const [ours, theirs] = createMemoryPair();
  const server: SdkMcpServer = createSdkServer();
  await server.connect(new ToSdkTransport(theirs));
  return { transport: ours, stop: () => server.close() };
}

async function sdkOverStdio(): Promise<Connection> {
  const transport = await spawnStdio(process.execPath, tsxArgs(SDK_STDIO_SERVER), { stderr: "ignore", exitTimeoutMs: 3_000 });
  return {
    transport,
    stop: async () => {
      await transport.close();
      expect(transport.child.exitCode !== null || transport.child.signalCode !== null).to.equal(true);
    },
  };
}

describe("our McpClient -> the SDK's McpServer", function () {
  this.timeout(30_000);
  for (const revision of SESSION_REVISIONS) {
    describe(`in memory, the SDK's InMemoryTransport, ${revision}`, () => commonConversation(sdkOverSdkMemory, revision, SDK_SERVER_INFO, SDK));
  }
  describe("in memory, our createMemoryPair, 2025-11-25", () => commonConversation(sdkOverOurMemory, "2025-11-25", SDK_SERVER_INFO, SDK));
  for (const revision of ["2024-11-05", "2025-11-25"] as const) {
    describe(`over stdio (spawned), ${revision}`, () => commonConversation(sdkOverStdio, revision, SDK_SERVER_INFO, SDK));
  }

  it("a 2026-07-28 client cannot connect: the SDK has no server/discover (-32601)", async () => {
    const connection = await sdkOverSdkMemory();
    try {
      const error = await rejection(McpClient.connect(connection.transport, { name: "c", version: "1", revision: "2026-07-28", logger: silentLogger }));
      expect(error.code).to.equal(-32601);
    } finally {
      await connection.stop();
    }
  });
});

// -- our fixture ------------------------------------------------------------------------------------

async function oursInMemory(): Promise<Connection> {
  const [ours, theirs] = createMemoryPair();
  let notes = "";
  const server = createEverythingServer({ logger: silentLogger }, (line) => (notes += `${line}\n`));
  await server.listen(theirs);
  return { transport: ours, stop: () => server.close(), notes: () => notes };
}

async function oursOverStdio(): Promise<Connection> {
  const transport = await spawnStdio(process.execPath, tsxArgs(EVERYTHING), { stderr: "pipe", exitTimeoutMs: 3_000 });
  let notes = "";
  transport.stderr!.setEncoding("utf8").on("data", (text: string) => (notes += text));
  return {
    transport,
    notes: () => notes,
    stop: async () => {
      await transport.close();
      expect(transport.child.exitCode).to.equal(0); // it left on its own when its stdin ended
    },
  };
}

describe("our McpClient -> our fixture", function () {
  this.timeout(30_000);
  const info = { name: EVERYTHING_INFO.name, version: EVERYTHING_INFO.version };
  for (const revision of ["2025-06-18", "2026-07-28"] as const) {
    describe(`in memory, ${revision}`, () => commonConversation(oursInMemory, revision, info, SPEC));
    describe(`over stdio (spawned), ${revision}`, () => commonConversation(oursOverStdio, revision, info, SPEC));
  }

  it("a stateless client reads the instructions from server/discover, and each request is checked", async () => {
    const connection = await oursInMemory();
    const client = await McpClient.connect(connection.transport, { name: "c", version: "1", revision: "2026-07-28", logger: silentLogger });
    try {
      expect(client.instructions).to.equal(EVERYTHING_INSTRUCTIONS);
      // The client refuses, before sending, a method its revision does not have.
      const error = await rejection(client.request("ping"));
      expect(error.code).to.equal(-32601);
    } finally {
      await client.close();
      await connection.stop();
    }
  });
});
