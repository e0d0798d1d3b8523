// The official SDK Client over its StreamableHTTPClientTransport against our conformance fixture
// served by our Streamable HTTP endpoint: lists and calls, notifications on the request's stream
// and on the GET stream, questions to the client, and SEP-1699 resumption.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  ElicitRequestSchema,
  CreateMessageRequestSchema,
  LoggingMessageNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { expect } from "chai";
import { createConformanceServer } from "../../examples/conformance-server/server.js";
import type { McpServer } from "../../runtime/index.js";
import { http, type HttpEndpoint } from "../../runtime/transports/http/index.js";
import { until } from "../runtime/transports/http/support.js";

describe("interop over Streamable HTTP: the SDK Client against our server", () => {
  let server: McpServer;
  let endpoint: HttpEndpoint;
  let client: Client;
  let transport: StreamableHTTPClientTransport;

  before(async () => {
    endpoint = http({ port: 0, retryMs: 50 });
    server = createConformanceServer({ closeStream: (ctx) => endpoint.closeStream(ctx.session, ctx.requestId) });
    await server.listen(endpoint);
  });
  after(() => server.close());

  beforeEach(async () => {
    client = new Client({ name: "sdk-interop", version: "1.0.0" }, { capabilities: { sampling: {}, elicitation: {} } });
    transport = new StreamableHTTPClientTransport(new URL(endpoint.url));
    await client.connect(transport);
  });
  afterEach(async () => {
    await transport.terminateSession().catch(() => {});
    await client.close();
  });

  it("negotiates 2025-11-25 and gets a session id of visible ASCII", () => {
    expect(transport.sessionId).to.match(/^[\x21-\x7e]{32}$/);
    expect(client.getServerVersion()).to.deep.include({ name: "mcp-conformance-test-server" });
    expect(client.getServerCapabilities()).to.have.property("tools");
  });

  it("lists and calls tools", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).to.include.members(["test_simple_text", "test_image_content", "test_tool_with_progress"]);
    const result = await client.callTool({ name: "test_simple_text", arguments: {} });
    expect(result.content).to.deep.equal([{ type: "text", text: "This is a simple text response for testing." }]);
    const failed = await client.callTool({ name: "test_error_handling", arguments: {} });
    expect(failed.isError).to.equal(true);
  });

  it("reads resources and templates, gets prompts", async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).to.include("test://static-text");
    const text = await client.readResource({ uri: "test://static-text" });
    expect(text.contents[0]).to.deep.include({ text: "This is the content of the static text resource." });
    const templated = await client.readResource({ uri: "test://template/42/data" });
    expect(JSON.parse((templated.contents[0] as { text: string }).text)).to.deep.equal({ id: "42", templateTest: true, data: "Data for ID: 42" });
    const prompt = await client.getPrompt({ name: "test_prompt_with_arguments", arguments: { arg1: "a", arg2: "b" } });
    expect(prompt.messages[0]!.content).to.deep.equal({ type: "text", text: "Prompt with arguments: arg1='a', arg2='b'" });
    const completion = await client.complete({ ref: { type: "ref/prompt", name: "test_prompt_with_arguments" }, argument: { name: "arg1", value: "pa" } });
    expect(completion.completion.values).to.deep.equal(["paris", "park", "party"]);
  });

  it("receives a tool's log messages and progress on the request's SSE stream, in order, before the result", async () => {
    const logs: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params.data));
    await client.callTool({ name: "test_tool_with_logging", arguments: {} });
    expect(logs).to.deep.equal(["Tool execution started", "Tool processing data", "Tool execution completed"]);
    const progress: number[] = [];
    await client.callTool({ name: "test_tool_with_progress", arguments: {} }, undefined, { onprogress: (p) => void progress.push(p.progress) });
    expect(progress).to.deep.equal([0, 50, 100]);
  });

  it("answers the server's sampling and elicitation requests", async () => {
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => ({
      role: "assistant",
      model: "test-model",
      content: { type: "text", text: `echo of ${(request.params.messages[0]!.content as { text: string }).text}` },
    }));
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { username: "ada", email: "ada@example.com" } }));
    const sampled = await client.callTool({ name: "test_sampling", arguments: { prompt: "hi" } });
    expect(sampled.content).to.deep.equal([{ type: "text", text: "LLM response: echo of hi" }]);
    const elicited = await client.callTool({ name: "test_elicitation", arguments: { message: "who?" } });
    expect((elicited.content as { text: string }[])[0]!.text).to.equal('User response: action=accept, content={"username":"ada","email":"ada@example.com"}');
  });

  it("hears list changes on the GET stream", async () => {
    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changes++);
    // The SDK opens its GET stream after initialization, in the background: wait until a change reaches it.
    for (const deadline = Date.now() + 10_000; changes === 0 && Date.now() < deadline; ) {
      await client.callTool({ name: "test_trigger_tool_change", arguments: {} });
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(changes).to.be.greaterThan(0);
  });

  it("resumes a stream the server closed mid-call (SEP-1699) and gets the result after reconnecting", async () => {
    const result = await client.callTool({ name: "test_reconnection", arguments: {} });
    expect((result.content as { text: string }[])[0]!.text).to.match(/^Reconnection test completed successfully/);
  });

  it("ends the session with DELETE: the id is then unknown (404)", async () => {
    const id = transport.sessionId!;
    const before = endpoint.sessionCount;
    await transport.terminateSession();
    await until(() => endpoint.sessionCount === before - 1, "the session to end");
    const answer = await fetch(endpoint.url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "Mcp-Session-Id": id },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
      signal: AbortSignal.timeout(10_000),
    });
    expect(answer.status).to.equal(404);
  });
});
