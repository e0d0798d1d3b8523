// 2026-07-28 (stateless era) in raw JSON-RPC lines over stdio. No SDK speaks it, so the inputs are
// the spec's own request examples (spec/2026-07-28/examples/*Request*/), sent verbatim where the
// fixture has what they name (get_weather, code_review, file:///project/...), and the precise error
// where it does not (build_simulation), which still proves the request passed validation. Every
// result is checked against the generated 2026-07-28 validators.
import { expect } from "chai";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { JsonMessage, RawStdio } from "../support/raw-stdio.js";
import { expectValid, spawnEverything, statelessMeta, STATELESS_REVISION as REV } from "../support/mcp.js";
import { ROOT } from "../support/project.js";

const SERVER_INFO = "io.modelcontextprotocol/serverInfo";

function examples(definition: string): { file: string; value: JsonMessage }[] {
  const dir = join(ROOT, "spec", REV, "examples", definition);
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((file) => ({ file, value: JSON.parse(readFileSync(join(dir, file), "utf8")) as JsonMessage }));
}

/** The one example of a request definition. */
function example(definition: string): JsonMessage {
  const [first, ...rest] = examples(definition);
  if (!first || rest.length > 0) throw new Error(`expected exactly one example of ${definition}`);
  expectValid(REV, definition, first.value);
  return first.value;
}

/** What every stateless result carries; `cacheable` adds ttlMs and cacheScope. */
function expectStatelessResult(result: JsonMessage, cacheable: boolean): void {
  expect(result.resultType).to.equal("complete");
  expect(result._meta?.[SERVER_INFO]).to.deep.include({ name: "everything", version: "1.0.0" });
  if (cacheable) {
    expect(result.ttlMs).to.be.a("number").that.is.at.least(0);
    expect(result.cacheScope).to.be.oneOf(["public", "private"]);
  }
}

describe("raw 2026-07-28 client -> our fixture over stdio, with the spec's request examples", function () {
  this.timeout(30_000);
  let raw: RawStdio;
  let discovered: JsonMessage;

  before(async () => {
    raw = await spawnEverything();
  });
  after(async () => {
    await raw.close();
  });

  /** Sends an example and returns its result, checked against `definition` and the stateless rules. */
  async function served(request: JsonMessage, definition: string, cacheable: boolean): Promise<JsonMessage> {
    const response = await raw.request(request as JsonMessage & { id: string });
    expect(response.error, JSON.stringify(response.error)).to.equal(undefined);
    expectValid(REV, "JSONRPCResultResponse", response);
    expectValid(REV, definition, response.result);
    expectStatelessResult(response.result, cacheable);
    return response.result;
  }

  it("DiscoverRequest: server/discover names the versions, capabilities, identity and instructions", async () => {
    discovered = await served(example("DiscoverRequest"), "DiscoverResult", true);
    expect(discovered.supportedVersions).to.include(REV);
    expect(discovered.capabilities).to.include.keys("tools", "resources", "prompts");
    expect(discovered.instructions).to.equal("The interop fixture of mcp-codegen.");
  });

  it("ListToolsRequest", async () => {
    const result = await served(example("ListToolsRequest"), "ListToolsResult", true);
    expect(result.tools.map((t: JsonMessage) => t.name)).to.include.members(["get_weather", "echo"]);
  });

  it("CallToolRequest: get_weather answers with structuredContent", async () => {
    const result = await served(example("CallToolRequest"), "CallToolResult", false);
    expect(result.structuredContent).to.deep.equal({ location: "New York", temperature: 21.5, units: "celsius", conditions: "Partly cloudy" });
  });

  it("CallToolRequestParams examples: get_weather served; build_simulation is -32602 unknown tool", async () => {
    const [weather, progress] = examples("CallToolRequestParams");
    expect(progress!.file).to.equal("tool-call-params-with-progress-token.json");
    const ok = await raw.request({ jsonrpc: "2.0", id: "params-1", method: "tools/call", params: weather!.value });
    expectValid(REV, "CallToolResult", ok.result);
    const unknown = await raw.request({ jsonrpc: "2.0", id: "params-2", method: "tools/call", params: progress!.value });
    expect(unknown.error).to.deep.equal({ code: -32602, message: "Unknown tool: build_simulation", data: { name: "build_simulation" } });
    expectValid(REV, "InvalidParamsError", unknown.error);
  });

  it("GetPromptRequest: code_review with its required argument", async () => {
    const result = await served(example("GetPromptRequest"), "GetPromptResult", false);
    expect(result.messages[0].content.text).to.equal("Review this code:\ndef hello():\n    print('world')");
  });

  it("ReadResourceRequest: file:///project/src/main.rs through the file:///project/{+path} template", async () => {
    const result = await served(example("ReadResourceRequest"), "ReadResourceResult", true);
    expect(result.contents).to.deep.equal([{ uri: "file:///project/src/main.rs", mimeType: "text/plain", text: "contents of src/main.rs" }]);
  });

  it("ListResourcesRequest, ListResourceTemplatesRequest, ListPromptsRequest", async () => {
    const resources = await served(example("ListResourcesRequest"), "ListResourcesResult", true);
    expect(resources.resources).to.have.length(2);
    const templates = await served(example("ListResourceTemplatesRequest"), "ListResourceTemplatesResult", true);
    expect(templates.resourceTemplates.map((t: JsonMessage) => t.uriTemplate)).to.include("file:///project/{+path}");
    const prompts = await served(example("ListPromptsRequest"), "ListPromptsResult", true);
    expect(prompts.prompts.map((p: JsonMessage) => p.name)).to.have.members(["greet", "code_review"]);
  });

  it("CompleteRequest: a valid CompleteResult when completions are declared, else -32601", async () => {
    const response = await raw.request(example("CompleteRequest") as JsonMessage & { id: string });
    if (discovered.capabilities.completions !== undefined) {
      expectValid(REV, "CompleteResult", response.result);
      expectStatelessResult(response.result, false);
    } else {
      expect(response.error?.code, JSON.stringify(response)).to.equal(-32601);
      expectValid(REV, "MethodNotFoundError", response.error);
    }
  });

  it("resources/read of an unknown URI is -32602 in this era (not -32002)", async () => {
    const request = example("ReadResourceRequest");
    const response = await raw.request({ ...request, id: "missing", params: { ...request.params, uri: "file:///elsewhere/x" } });
    expect(response.error).to.deep.equal({ code: -32602, message: "Resource not found: file:///elsewhere/x", data: { uri: "file:///elsewhere/x" } });
    expectValid(REV, "InvalidParamsError", response.error);
  });

  it("a missing required prompt argument and an unknown prompt are -32602", async () => {
    const request = example("GetPromptRequest");
    const missing = await raw.request({ ...request, id: "p1", params: { ...request.params, arguments: { language: "python" } } });
    expect(missing.error).to.deep.include({ code: -32602, data: { missing: ["code"] } });
    const unknown = await raw.request({ ...request, id: "p2", params: { ...request.params, name: "nope" } });
    expect(unknown.error.code).to.equal(-32602);
    expectValid(REV, "InvalidParamsError", unknown.error);
  });

  it("bad tool arguments and a throwing tool are isError results", async () => {
    const bad = await raw.request({ jsonrpc: "2.0", id: "t1", method: "tools/call", params: { _meta: statelessMeta(), name: "get_weather", arguments: {} } });
    expectValid(REV, "CallToolResult", bad.result);
    expect(bad.result.isError).to.equal(true);
    expectStatelessResult(bad.result, false);
    const thrown = await raw.request({ jsonrpc: "2.0", id: "t2", method: "tools/call", params: { _meta: statelessMeta(), name: "fail" } });
    expect(thrown.result).to.deep.include({ isError: true, content: [{ type: "text", text: "the fail tool always fails" }] });
  });

  it("a request without _meta version is -32602; an unsupported version is -32022 with supported and requested", async () => {
    const missing = await raw.request({ jsonrpc: "2.0", id: "m1", method: "tools/list", params: {} });
    expect(missing.error.code).to.equal(-32602);
    for (const requested of ["1900-01-01", "2025-11-25"]) {
      const request = example("ListToolsRequest");
      const response = await raw.request({
        ...request,
        id: `v-${requested}`,
        params: { _meta: { ...request.params._meta, "io.modelcontextprotocol/protocolVersion": requested } },
      });
      expectValid(REV, "UnsupportedProtocolVersionError", response);
      expect(response.error.data.requested).to.equal(requested);
      expect(response.error.data.supported).to.include(REV);
    }
  });

  it("session-era methods do not exist in this era: ping with _meta is -32601", async () => {
    const response = await raw.request({ jsonrpc: "2.0", id: "ping", method: "ping", params: { _meta: statelessMeta() } });
    expect(response.error.code).to.equal(-32601);
  });

  it("SubscriptionsListenRequest: acknowledged with a valid notification, or -32601 when not offered", async () => {
    const request = example("SubscriptionsListenRequest");
    raw.send(request);
    const first = await raw.take((m) => m.id === request.id || m.method === "notifications/subscriptions/acknowledged");
    if (first.method !== undefined) {
      expectValid(REV, "SubscriptionsAcknowledgedNotification", first);
      raw.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: request.id } });
    } else {
      expect(first.error.code).to.equal(-32601);
    }
  });

  it("the stateless requests left no state: a 2026-07-28-only fixture refuses initialize with -32601", async () => {
    const only = await spawnEverything(`--revisions=${REV}`);
    try {
      const init = await only.request({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } },
      });
      expect(init.error.code).to.equal(-32601);
      const noMeta = await only.request({ jsonrpc: "2.0", id: 2, method: "tools/list" });
      expect(noMeta.error.code).to.equal(-32602);
      const served = await only.request({ ...example("ListToolsRequest"), id: 3 });
      expectValid(REV, "ListToolsResult", served.result);
      const legacy = await only.request({ ...example("ListToolsRequest"), id: 4, params: { _meta: statelessMeta("2025-06-18") } });
      expect(legacy.error.code).to.equal(-32022);
      expect(legacy.error.data).to.deep.equal({ supported: [REV], requested: "2025-06-18" });
    } finally {
      await only.close();
    }
  });
});
