// Our McpClient over HttpClientTransport: against the official SDK's StreamableHTTPServerTransport
// (SSE and JSON answers), and against our own endpoint in both eras.
import { expect } from "chai";
import * as z from "zod";
import { createConformanceServer } from "../../examples/conformance-server/server.js";
import { McpClient, type McpServer } from "../../runtime/index.js";
import { http, HttpClientTransport, type HttpEndpoint } from "../../runtime/transports/http/index.js";
import { startSdkHttpServer, type SdkHttpServer } from "../support/sdk-http-server.js";
import { until } from "../runtime/transports/http/support.js";

const quiet = () => {};

for (const enableJsonResponse of [false, true]) {
  describe(`interop over Streamable HTTP: our McpClient against the SDK's server (${enableJsonResponse ? "JSON" : "SSE"} answers)`, () => {
    let sdk: SdkHttpServer;
    let client: McpClient;

    before(async () => {
      sdk = await startSdkHttpServer({
        enableJsonResponse,
        setup: (server) => {
          server.registerTool("echo", { description: "Returns its text", inputSchema: { text: z.string() } }, ({ text }) => ({ content: [{ type: "text", text }] }));
          server.registerTool("chatty", { description: "Logs, then answers" }, async (extra) => {
            await extra.sendNotification({ method: "notifications/message", params: { level: "info", data: "working" } });
            return { content: [{ type: "text", text: "done" }] };
          });
          server.registerResource("note", "note://one", { mimeType: "text/plain" }, (uri) => ({ contents: [{ uri: uri.href, mimeType: "text/plain", text: "one" }] }));
          server.registerPrompt("greet", { argsSchema: { name: z.string() } }, ({ name }) => ({ messages: [{ role: "user", content: { type: "text", text: `Hello ${name}` } }] }));
        },
      });
      client = await McpClient.connect(new HttpClientTransport(sdk.url), { name: "ours", version: "1.0.0", logger: quiet });
    });
    after(async () => {
      await client?.close();
      await sdk?.close();
    });

    it("initializes at 2025-11-25 and lists tools", async () => {
      expect(client.revision).to.equal("2025-11-25");
      expect(client.serverInfo.name).to.equal("sdk-http");
      const { items } = await client.listTools();
      expect(items.map((t) => t.name)).to.have.members(["echo", "chatty"]);
    });

    it("calls tools, reads resources, gets prompts", async () => {
      expect((await client.callTool("echo", { text: "hi" })).content).to.deep.equal([{ type: "text", text: "hi" }]);
      expect((await client.readResource("note://one")).contents[0]).to.deep.include({ text: "one" });
      expect((await client.getPrompt("greet", { name: "Ada" })).messages[0]!.content).to.deep.equal({ type: "text", text: "Hello Ada" });
    });

    it("receives a notification sent before the response", async () => {
      const logs: unknown[] = [];
      const stop = client.on("notifications/message", (params) => void logs.push(params.data));
      const result = await client.callTool("chatty");
      stop();
      expect(result.content).to.deep.equal([{ type: "text", text: "done" }]);
      // With JSON answers the SDK has no stream for it and drops it: only SSE carries it.
      if (!enableJsonResponse) expect(logs).to.deep.equal(["working"]);
    });

    it("runs 32 calls at once, each with its own answer", async () => {
      const texts = Array.from({ length: 32 }, (_, i) => `call ${i}`);
      const results = await Promise.all(texts.map((text) => client.callTool("echo", { text })));
      expect(results.map((r) => (r.content[0] as { text: string }).text)).to.deep.equal(texts);
    });
  });
}

describe("interop over Streamable HTTP: a request the SDK's server sends on the GET stream right after connect", () => {
  // The SDK's server sends a request tied to no client request on the GET stream, and drops it when
  // that stream is not open yet. Here each GET reaches it 300 ms late: connect must wait for it.
  let sdk: SdkHttpServer;
  let asked = 0;

  before(async () => {
    sdk = await startSdkHttpServer({
      enableJsonResponse: false,
      holdStreamsMs: 300,
      setup: (server) => {
        server.registerTool("ask", { description: "Elicits on the GET stream" }, async () => {
          const answer = await server.server.elicitInput({ message: "name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } }, { timeout: 5_000 });
          return { content: [{ type: "text", text: JSON.stringify(answer.content) }] };
        });
      },
    });
  });
  after(() => sdk?.close());

  it("reaches the client: connect resolves once the GET stream is open", async () => {
    const client = await McpClient.connect(new HttpClientTransport(sdk.url), {
      name: "ours",
      version: "1.0.0",
      logger: quiet,
      capabilities: { elicitation: { form: {} } },
      handlers: { elicitation: () => (asked++, { action: "accept", content: { name: "Ada" } }) },
    });
    try {
      const result = await client.callTool("ask");
      expect(result.isError, JSON.stringify(result.content)).to.not.equal(true);
      expect(result.content).to.deep.equal([{ type: "text", text: '{"name":"Ada"}' }]);
      expect(asked).to.equal(1);
    } finally {
      await client.close();
    }
  });
});

describe("our McpClient against our endpoint over Streamable HTTP", () => {
  let server: McpServer;
  let endpoint: HttpEndpoint;

  before(async () => {
    endpoint = http({ port: 0, retryMs: 20 });
    server = createConformanceServer({ closeStream: (ctx) => endpoint.closeStream(ctx.session, ctx.requestId) });
    await server.listen(endpoint);
  });
  after(() => server.close());

  it("session era (2025-11-25): calls, progress, elicitation on the request's stream, resumption, and DELETE on close", async () => {
    const transport = new HttpClientTransport(endpoint.url);
    const client = await McpClient.connect(transport, {
      name: "ours",
      version: "1.0.0",
      revision: "2025-11-25",
      logger: quiet,
      handlers: { elicitation: () => ({ action: "accept", content: { username: "ada", email: "a@b.c" } }) },
    });
    try {
      expect(client.revision).to.equal("2025-11-25");
      expect(transport.session).to.match(/^[0-9a-f]{32}$/);
      const progress: number[] = [];
      await client.callTool("test_tool_with_progress", {}, { onProgress: (p) => void progress.push(p.progress) });
      expect(progress).to.deep.equal([0, 50, 100]);
      const elicited = await client.callTool("test_elicitation", { message: "who?" });
      expect((elicited.content[0] as { text: string }).text).to.contain('"username":"ada"');
      const resumed = await client.callTool("test_reconnection");
      expect((resumed.content[0] as { text: string }).text).to.match(/^Reconnection test completed/);
    } finally {
      const before = endpoint.sessionCount;
      await client.close();
      await until(() => endpoint.sessionCount === before - 1, "DELETE to end the session");
    }
  });

  it("session era before 2025-11-25: no priming events, so the server keeps the stream open instead of asking the client to resume", async () => {
    const client = await McpClient.connect(new HttpClientTransport(endpoint.url), { name: "ours", version: "1.0.0", revision: "2025-06-18", logger: quiet });
    try {
      expect(client.revision).to.equal("2025-06-18");
      const result = await client.callTool("test_reconnection");
      expect((result.content[0] as { text: string }).text).to.match(/^Reconnection test completed/);
    } finally {
      await client.close();
    }
  });

  it("stateless era (2026-07-28): discover, calls, InputRequiredResult rounds, header-checked requests", async () => {
    const client = await McpClient.connect(new HttpClientTransport(endpoint.url), {
      name: "ours",
      version: "1.0.0",
      revision: "2026-07-28",
      logger: quiet,
      handlers: { elicitation: () => ({ action: "accept", content: { name: "Ada" } }) },
    });
    try {
      expect(client.serverInfo.name).to.equal("mcp-conformance-test-server");
      const sessionsBefore = endpoint.sessionCount;
      expect((await client.callTool("test_simple_text")).content).to.deep.equal([{ type: "text", text: "This is a simple text response for testing." }]);
      const asked = await client.callTool("test_input_required_result_elicitation");
      expect((asked.content[0] as { text: string }).text).to.equal("Hello, Ada!");
      // Mcp-Name of a resource URI travels as a header too.
      expect((await client.readResource("test://template/7/data")).contents[0]).to.deep.include({ mimeType: "application/json" });
      expect(endpoint.sessionCount, "no HTTP session in the stateless era").to.equal(sessionsBefore);
      const logs: unknown[] = [];
      const stop = client.on("notifications/message", (params) => void logs.push(params.data));
      await client.callTool("test_logging_tool", {}, { logLevel: "info" });
      stop();
      expect(logs).to.deep.equal(["Tool execution started", "Tool processing data", "Tool execution completed"]);
    } finally {
      await client.close();
    }
  });

  it("stateless era: cancelling a call aborts its POST, which aborts the handler", async () => {
    let aborted = false;
    let started = false;
    server.tool({ name: "wait_http_cancel", description: "waits until cancelled", inputSchema: { type: "object" } }, (_args, ctx) => {
      started = true;
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve({ content: [{ type: "text", text: "late" }] }), 10_000);
        ctx.signal.addEventListener("abort", () => (clearTimeout(timer), (aborted = true), resolve({ content: [] })), { once: true });
      });
    });
    const client = await McpClient.connect(new HttpClientTransport(endpoint.url), { name: "ours", version: "1.0.0", revision: "2026-07-28", logger: quiet });
    try {
      const controller = new AbortController();
      const call = client.callTool("wait_http_cancel", {}, { signal: controller.signal });
      await until(() => started, "the handler to start");
      controller.abort();
      await call.then(
        () => expect.fail("the call should have been aborted"),
        () => {},
      );
      await until(() => aborted, "the handler's AbortSignal");
    } finally {
      server.removeTool("wait_http_cancel");
      await client.close();
    }
  });
});
