// Session-era revisions as the client's own request, in raw JSON-RPC lines over stdio: the ones
// the SDK client never offers (2024-11-05, 2025-03-26, 2025-06-18), against the fixture that
// speaks every revision. Each response is checked against that revision's generated validators.
import { expect } from "chai";
import type { RawStdio, JsonMessage } from "../support/raw-stdio.js";
import { expectValid, initialize, PIXEL_PNG_BASE64, spawnEverything } from "../support/mcp.js";

/** Each revision's name for an error response. */
const ERROR_RESPONSE: Record<string, string> = {
  "2024-11-05": "JSONRPCError",
  "2025-03-26": "JSONRPCError",
  "2025-06-18": "JSONRPCError",
  "2025-11-25": "JSONRPCErrorResponse",
};

interface Case {
  readonly what: string;
  readonly method: string;
  readonly params?: Record<string, unknown>;
  /** The result definition, and what else the result must say. */
  readonly result?: [definition: string, check: (result: JsonMessage) => void];
  /** The error code, and what else the error must say. */
  readonly error?: [code: number, check?: (error: JsonMessage) => void];
}

const CASES: readonly Case[] = [
  { what: "ping", method: "ping", result: ["EmptyResult", (r) => expect(r).to.deep.equal({})] },
  {
    what: "tools/list",
    method: "tools/list",
    result: ["ListToolsResult", (r) => expect(r.tools.map((t: JsonMessage) => t.name)).to.have.members(["echo", "add", "get_weather", "fail", "slow", "probe"])],
  },
  {
    what: "tools/call echo",
    method: "tools/call",
    params: { name: "echo", arguments: { text: "hi" } },
    result: ["CallToolResult", (r) => expect(r).to.deep.equal({ content: [{ type: "text", text: "hi" }] })],
  },
  {
    what: "tools/call get_weather (structuredContent)",
    method: "tools/call",
    params: { name: "get_weather", arguments: { location: "Oslo", units: "fahrenheit" } },
    result: ["CallToolResult", (r) => expect(r.structuredContent).to.deep.equal({ location: "Oslo", temperature: 70.7, units: "fahrenheit", conditions: "Partly cloudy" })],
  },
  {
    what: "tools/call with bad arguments",
    method: "tools/call",
    params: { name: "get_weather", arguments: { location: 7 } },
    result: ["CallToolResult", (r) => expect(r).to.deep.include({ isError: true }).and.have.nested.property("content[0].text").that.matches(/\/location.*string/)],
  },
  {
    what: "tools/call of a throwing tool",
    method: "tools/call",
    params: { name: "fail" },
    result: ["CallToolResult", (r) => expect(r).to.deep.equal({ content: [{ type: "text", text: "the fail tool always fails" }], isError: true })],
  },
  { what: "tools/call of an unknown tool", method: "tools/call", params: { name: "nope" }, error: [-32602, (e) => expect(e.data).to.deep.equal({ name: "nope" })] },
  {
    what: "resources/list",
    method: "resources/list",
    result: ["ListResourcesResult", (r) => expect(r.resources.map((x: JsonMessage) => x.uri)).to.have.members(["fixture://text/hello", "fixture://blob/pixel"])],
  },
  {
    what: "resources/templates/list",
    method: "resources/templates/list",
    result: ["ListResourceTemplatesResult", (r) => expect(r.resourceTemplates).to.have.length(2)],
  },
  {
    what: "resources/read text",
    method: "resources/read",
    params: { uri: "fixture://text/hello" },
    result: ["ReadResourceResult", (r) => expect(r.contents).to.deep.equal([{ uri: "fixture://text/hello", mimeType: "text/plain", text: "Hello, world" }])],
  },
  {
    what: "resources/read blob",
    method: "resources/read",
    params: { uri: "fixture://blob/pixel" },
    result: ["ReadResourceResult", (r) => expect(r.contents[0].blob).to.equal(PIXEL_PNG_BASE64)],
  },
  {
    what: "resources/read through a template",
    method: "resources/read",
    params: { uri: "fixture://users/7" },
    result: ["ReadResourceResult", (r) => expect(r.contents[0].text).to.equal('{"id":"7"}')],
  },
  { what: "resources/read of an unknown URI", method: "resources/read", params: { uri: "fixture://missing" }, error: [-32002, (e) => expect(e.data).to.deep.equal({ uri: "fixture://missing" })] },
  {
    what: "prompts/list",
    method: "prompts/list",
    result: ["ListPromptsResult", (r) => expect(r.prompts.map((p: JsonMessage) => p.name)).to.have.members(["greet", "code_review"])],
  },
  {
    what: "prompts/get",
    method: "prompts/get",
    params: { name: "code_review", arguments: { code: "x = 1", language: "python" } },
    result: ["GetPromptResult", (r) => expect(r.messages[0].content.text).to.equal("Review this python:\nx = 1")],
  },
  { what: "prompts/get without a required argument", method: "prompts/get", params: { name: "code_review", arguments: {} }, error: [-32602, (e) => expect(e.data).to.deep.equal({ missing: ["code"] })] },
  { what: "prompts/get of an unknown prompt", method: "prompts/get", params: { name: "nope" }, error: [-32602] },
  { what: "a server-to-client method sent by the client", method: "sampling/createMessage", params: { messages: [], maxTokens: 1 }, error: [-32601] },
  { what: "an unknown method", method: "tools/frobnicate", error: [-32601] },
];

for (const revision of ["2024-11-05", "2025-03-26", "2025-06-18"]) {
  describe(`raw ${revision} client -> our fixture over stdio`, function () {
    this.timeout(30_000);
    let raw: RawStdio;

    before(async () => {
      raw = await spawnEverything();
    });
    after(async () => {
      await raw.close();
    });

    it("initialize echoes the revision, declares what is registered, and is a valid InitializeResult", async () => {
      const result = await initialize(raw, revision);
      expectValid(revision, "InitializeResult", result);
      expect(result.protocolVersion).to.equal(revision);
      expect(result.capabilities).to.include.keys("tools", "resources", "prompts");
      expect(result.capabilities).to.not.have.property("completions"); // no completers registered
      expect(result.serverInfo).to.deep.include({ name: "everything", version: "1.0.0" });
    });

    let id = 0;
    for (const c of CASES)
      it(c.what, async () => {
        const response = await raw.request({ jsonrpc: "2.0", id: ++id, method: c.method, ...(c.params ? { params: c.params } : {}) });
        if (c.result) {
          expect(response.error, JSON.stringify(response.error)).to.equal(undefined);
          expectValid(revision, "JSONRPCResponse", response);
          expectValid(revision, c.result[0], response.result);
          c.result[1](response.result);
        } else {
          expect(response.result).to.equal(undefined);
          expectValid(revision, ERROR_RESPONSE[revision]!, response);
          expect(response.error.code).to.equal(c.error![0]);
          c.error![1]?.(response.error);
        }
      });

    it("handlers see the negotiated revision", async () => {
      const response = await raw.request({ jsonrpc: "2.0", id: "probe", method: "tools/call", params: { name: "probe" } });
      expect(response.result.structuredContent.revision).to.equal(revision);
    });

    it("wrote nothing else on stdout, and exits cleanly when its stdin ends", async () => {
      expect(raw.pending).to.deep.equal([]);
      const exit = await raw.close();
      expect(exit).to.deep.equal({ code: 0, signal: null });
    });
  });
}

describe("raw session-era version negotiation over stdio", function () {
  this.timeout(30_000);
  const spawned: RawStdio[] = [];
  after(() => spawned.forEach((raw) => raw.kill()));

  const offers: [offered: string, answered: string][] = [
    ["2099-01-01", "2025-11-25"],
    ["2026-07-28", "2025-11-25"],
  ];
  for (const [offered, answered] of offers)
    it(`answers an initialize offering ${offered} with ${answered}, its latest session-era revision`, async () => {
      const raw = await spawnEverything();
      spawned.push(raw);
      const result = await initialize(raw, offered);
      expect(result.protocolVersion).to.equal(answered);
      expectValid(answered, "InitializeResult", result);
      const probe = await raw.request({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "probe" } });
      expect(probe.result.structuredContent.revision).to.equal(answered);
      await raw.close();
    });

  it("answers with the latest revision it was limited to", async () => {
    const raw = await spawnEverything("--revisions=2024-11-05,2025-03-26");
    spawned.push(raw);
    const result = await initialize(raw, "2025-11-25");
    expect(result.protocolVersion).to.equal("2025-03-26");
    await raw.close();
  });
});
