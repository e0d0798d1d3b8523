// The official SDK's Client, over its StdioClientTransport, against our fixture server.
//
// The SDK client always offers its latest revision (2025-11-25) at initialize; it cannot be told to
// offer another. Each older revision is reached the way a real deployment reaches it: the fixture
// is started speaking only that revision, answers initialize with it, and the SDK accepts it (it
// supports all four). The revisions as the client's own request are covered with raw messages
// (raw-session.test.ts). Every result on the wire is checked against that revision's generated
// validator, besides the SDK's own zod parsing.
import { expect } from "chai";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import type { Readable } from "node:stream";
import { EVERYTHING, PIXEL_PNG_BASE64, rejection, SESSION_REVISIONS, tsxArgs, until, within } from "../support/mcp.js";
import { expectResultsValid, recordWire, type Wire } from "../support/wire.js";

const TOOLS = ["echo", "add", "get_weather", "fail", "slow", "probe"];
const WEATHER = { location: "Lisbon", temperature: 21.5, units: "celsius", conditions: "Partly cloudy" };

/** [revision the fixture is limited to, or undefined for all of them; revision expected]. */
const CASES: [string | undefined, string][] = [[undefined, "2025-11-25"], ...SESSION_REVISIONS.filter((r) => r !== "2025-11-25").map((r): [string, string] => [r, r])];

for (const [only, revision] of CASES) {
  describe(`SDK Client -> our fixture over stdio, ${revision}${only ? " (fixture limited to it)" : " (fixture speaks every revision)"}`, function () {
    this.timeout(30_000);
    let client: Client;
    let transport: StdioClientTransport;
    let wire: Wire;
    let stderr = "";

    before(async () => {
      transport = new StdioClientTransport({
        command: process.execPath,
        args: tsxArgs(EVERYTHING, ...(only ? [`--revisions=${only}`] : [])),
        stderr: "pipe",
      });
      (transport.stderr as Readable).setEncoding("utf8").on("data", (text: string) => (stderr += text));
      wire = recordWire(transport);
      client = new Client({ name: "sdk-interop", version: "1.0.0" });
      await within(20_000, client.connect(transport), "connect");
    });

    after(async () => {
      await within(10_000, client.close(), "close").catch(() => {});
    });

    it("negotiates the revision and reads the server's identity", async () => {
      const request = wire.sent.find((m) => "method" in m && m.method === "initialize") as unknown as { id: number; params: { protocolVersion: string } };
      expect(request.params.protocolVersion).to.equal("2025-11-25"); // what the SDK always offers
      const response = wire.received.find((m) => "id" in m && m.id === request.id) as unknown as { result: { protocolVersion: string } };
      expect(response.result.protocolVersion).to.equal(revision);
      expect(client.getServerVersion()).to.deep.include({ name: "everything", version: "1.0.0" });
      expect(client.getServerCapabilities()).to.include.keys("tools", "resources", "prompts");
      expect(client.getInstructions()).to.equal("The interop fixture of mcp-codegen.");
      // Handlers see the negotiated revision.
      const probe = await client.callTool({ name: "probe", arguments: {} });
      expect(probe.structuredContent).to.deep.include({ revision });
      expect(await client.ping()).to.deep.equal({});
    });

    it("lists and calls tools: text, structuredContent, draft-07 arguments", async () => {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).to.have.members(TOOLS);
      expect(tools.find((t) => t.name === "get_weather")!.outputSchema).to.have.property("required").that.includes("temperature");
      expect(await client.callTool({ name: "echo", arguments: { text: "héllo" } })).to.deep.equal({ content: [{ type: "text", text: "héllo" }] });
      expect(await client.callTool({ name: "add", arguments: { a: 2, b: 40 } })).to.deep.equal({ content: [{ type: "text", text: "42" }] });
      const weather = await client.callTool({ name: "get_weather", arguments: { location: "Lisbon" } });
      expect(weather.structuredContent).to.deep.equal(WEATHER);
      expect(weather.isError).to.not.equal(true);
    });

    it("bad arguments and a throwing tool are isError results; an unknown tool is -32602", async () => {
      const bad = await client.callTool({ name: "add", arguments: { a: "two", b: 40 } });
      expect(bad.isError).to.equal(true);
      expect((bad.content as { text: string }[])[0]!.text).to.match(/^Invalid arguments for tool add: .*\/a.*number/);
      const missing = await client.callTool({ name: "get_weather", arguments: {} });
      expect(missing.isError).to.equal(true);
      expect((missing.content as { text: string }[])[0]!.text).to.match(/location/);
      const thrown = await client.callTool({ name: "fail", arguments: {} });
      expect(thrown).to.deep.equal({ content: [{ type: "text", text: "the fail tool always fails" }], isError: true });
      const unknown = await rejection(client.callTool({ name: "no_such_tool", arguments: {} }));
      expect(unknown).to.be.instanceOf(McpError);
      expect(unknown.code).to.equal(-32602);
      expect(unknown.message).to.match(/no_such_tool/);
    });

    it("reads static resources (text and blob) and templated ones; an unknown URI is -32002", async () => {
      const { resources } = await client.listResources();
      expect(resources.map((r) => r.uri)).to.have.members(["fixture://text/hello", "fixture://blob/pixel"]);
      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates.map((t) => t.uriTemplate)).to.have.members(["fixture://users/{id}", "file:///project/{+path}"]);
      expect((await client.readResource({ uri: "fixture://text/hello" })).contents).to.deep.equal([
        { uri: "fixture://text/hello", mimeType: "text/plain", text: "Hello, world" },
      ]);
      expect((await client.readResource({ uri: "fixture://blob/pixel" })).contents).to.deep.equal([
        { uri: "fixture://blob/pixel", mimeType: "image/png", blob: PIXEL_PNG_BASE64 },
      ]);
      expect((await client.readResource({ uri: "fixture://users/ada%20l" })).contents).to.deep.equal([
        { uri: "fixture://users/ada%20l", mimeType: "application/json", text: '{"id":"ada l"}' },
      ]);
      expect((await client.readResource({ uri: "file:///project/src/main.rs" })).contents[0]).to.deep.include({ text: "contents of src/main.rs" });
      const unknown = await rejection(client.readResource({ uri: "fixture://nowhere" }));
      expect(unknown).to.be.instanceOf(McpError);
      expect(unknown.code).to.equal(-32002);
      expect(unknown.data).to.deep.equal({ uri: "fixture://nowhere" });
    });

    it("gets prompts with required and optional arguments; a missing argument or unknown prompt is -32602", async () => {
      const { prompts } = await client.listPrompts();
      expect(prompts.map((p) => p.name)).to.have.members(["greet", "code_review"]);
      expect(prompts.find((p) => p.name === "greet")!.arguments).to.deep.equal([
        { name: "name", description: "Who", required: true },
        { name: "style", description: "formal or casual", required: false },
      ]);
      expect((await client.getPrompt({ name: "greet", arguments: { name: "Ada" } })).messages).to.deep.equal([
        { role: "user", content: { type: "text", text: "Say hello to Ada." } },
      ]);
      expect((await client.getPrompt({ name: "greet", arguments: { name: "Ada", style: "formally" } })).messages[0]!.content).to.deep.equal({
        type: "text",
        text: "Say hello to Ada, formally.",
      });
      const missing = await rejection(client.getPrompt({ name: "greet", arguments: { style: "casual" } }));
      expect(missing.code).to.equal(-32602);
      expect(missing.message).to.match(/missing required argument.*name/);
      const unknown = await rejection(client.getPrompt({ name: "nope" }));
      expect(unknown.code).to.equal(-32602);
    });

    it("an aborted call sends notifications/cancelled and the slow tool's handler is aborted", async () => {
      const controller = new AbortController();
      const call = client.callTool({ name: "slow", arguments: { ms: 20_000 } }, undefined, { signal: controller.signal });
      // Abort once the request is on the wire.
      await until(() => wire.sent.some((m) => "method" in m && m.method === "tools/call" && (m.params as { name?: string }).name === "slow"), 5_000, "the call going out");
      controller.abort("test cancels");
      await rejection(call);
      await until(() => /slow: aborted/.test(stderr), 5_000, "the handler's abort");
      const cancel = wire.sent.find((m) => "method" in m && m.method === "notifications/cancelled");
      expect(cancel).to.not.equal(undefined);
      // Still serving.
      expect(await client.callTool({ name: "echo", arguments: { text: "after" } })).to.deep.equal({ content: [{ type: "text", text: "after" }] });
    });

    it(`every result on the wire is a valid ${revision} result of its method`, () => {
      expect(expectResultsValid(wire, revision)).to.be.greaterThan(15);
    });
  });
}
