// Bad input over stdio against the fixture, one test each: the exact error, and the server still
// answering the next message. The fixture runs with a 4 KiB message limit for the oversized case.
//
// "Nothing was sent" is shown without sleeping: the server handles a connection's lines in order,
// and these cases are answered (or not) synchronously, so when the next line out is the answer to
// a ping sent afterwards, nothing came before it.
import { expect } from "chai";
import { McpClient } from "../../runtime/index.js";
import { spawnStdio } from "../../runtime/transports/stdio-child.js";
import { silentLogger } from "../../runtime/util/logger.js";
import type { JsonMessage, RawStdio } from "../support/raw-stdio.js";
import { EVERYTHING, expectValid, initialize, spawnEverything, statelessMeta, tsxArgs } from "../support/mcp.js";

const LIMIT = 4096;
let pings = 0;

/** Pings; the very next line must be the answer: nothing else was written before it. */
async function expectAliveAndQuiet(raw: RawStdio): Promise<void> {
  const id = `alive-${++pings}`;
  raw.send({ jsonrpc: "2.0", id, method: "ping" });
  expect(await raw.next()).to.deep.equal({ jsonrpc: "2.0", id, result: {} });
}

/** The next line, which must be an error response with `id` and `code`; returns its error. */
async function expectError(raw: RawStdio, id: unknown, code: number): Promise<JsonMessage> {
  const response = await raw.next();
  expect(response, JSON.stringify(response)).to.have.keys("jsonrpc", "id", "error");
  expect(response.jsonrpc).to.equal("2.0");
  expect(response.id).to.equal(id);
  expect(response.error.code, JSON.stringify(response.error)).to.equal(code);
  expect(response.error.message).to.be.a("string").that.is.not.empty;
  return response.error;
}

describe("bad input over stdio (fixture initialized at 2025-11-25, 4 KiB limit)", function () {
  this.timeout(30_000);
  let raw: RawStdio;

  before(async () => {
    raw = await spawnEverything(`--max-message-bytes=${LIMIT}`);
    // Hostile keys from the start: capabilities and clientInfo carrying __proto__ and constructor.
    raw.writeLine(
      '{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25",' +
        '"capabilities":{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}},' +
        '"clientInfo":{"name":"hostile","version":"1","__proto__":{"polluted":true}}}}',
    );
    const init = await raw.response("init");
    expect(init.result?.protocolVersion, JSON.stringify(init)).to.equal("2025-11-25");
    raw.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  });
  after(async () => {
    raw.kill();
  });

  it("malformed JSON: -32700 with id null", async () => {
    for (const line of ['{"jsonrpc":"2.0","id":1,"method":"ping"', "{'single': 'quotes'}", "[1, 2", "nul", '{"a":1}}']) {
      raw.writeLine(line);
      const error = await expectError(raw, null, -32700);
      expect(error.message).to.match(/^Parse error/);
    }
    await expectAliveAndQuiet(raw);
  });

  it("valid JSON that is not a request: -32600, with the id when one can be read", async () => {
    const cases: [string, unknown][] = [
      ["42", null],
      ['"ping"', null],
      ["null", null],
      ["true", null],
      ["{}", null],
      ['{"jsonrpc":"2.0"}', null],
      ['{"jsonrpc":"2.0","id":3}', 3],
      ['{"jsonrpc":"1.0","id":5,"method":"ping"}', 5],
      ['{"id":"no-version","method":"ping"}', "no-version"],
      ['{"jsonrpc":"2.0","id":6,"method":7}', 6],
      ['{"jsonrpc":"2.0","id":8,"method":"ping","params":[1,2]}', 8],
      ['{"jsonrpc":"2.0","id":9,"method":"ping","params":"x"}', 9],
      ['{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}', null],
      // Not a valid notification either (JSON-RPC 2.0's own example): answered, with id null.
      ['{"jsonrpc":"2.0","method":"notifications/cancelled","params":"bar"}', null],
      ['{"jsonrpc":"2.0","method":1,"params":"bar"}', null],
      ['{"jsonrpc":"2.0","id":[1],"method":"ping"}', null],
      ['{"jsonrpc":"2.0","id":true,"method":"ping"}', null],
    ];
    for (const [line, id] of cases) {
      raw.writeLine(line);
      const error = await expectError(raw, id, -32600);
      expect(error.message, line).to.match(/^Invalid Request/);
    }
    await expectAliveAndQuiet(raw);
  });

  it("an unknown method: -32601", async () => {
    for (const method of ["no/such/method", "", "tools/list/", "TOOLS/LIST", "notifications/initialized"]) {
      raw.send({ jsonrpc: "2.0", id: `m-${method}`, method });
      await expectError(raw, `m-${method}`, -32601);
    }
    await expectAliveAndQuiet(raw);
  });

  it("invalid params: -32602 with the issues' paths in error.data.issues", async () => {
    raw.send({ jsonrpc: "2.0", id: "p1", method: "tools/call", params: { name: 5, arguments: [] } });
    const error = await expectError(raw, "p1", -32602);
    const issues = error.data.issues as { path: string; schemaPath: string; keyword: string; message: string }[];
    expect(issues).to.be.an("array").that.is.not.empty;
    for (const issue of issues) expect(issue).to.have.keys("path", "schemaPath", "keyword", "message");
    const paths = issues.map((i) => i.path);
    expect(paths).to.include("/params/name");
    expect(paths).to.include("/params/arguments");
    expect(error.message).to.match(/\/params\/(name|arguments)/);

    raw.send({ jsonrpc: "2.0", id: "p2", method: "resources/read", params: {} });
    const missing = await expectError(raw, "p2", -32602);
    expect(missing.data.issues.map((i: { path: string; keyword: string }) => [i.path, i.keyword])).to.deep.include(["/params", "required"]);

    raw.send({ jsonrpc: "2.0", id: "p3", method: "tools/call" });
    await expectError(raw, "p3", -32602);
    await expectAliveAndQuiet(raw);
  });

  it("a duplicate in-flight id: -32600 for the second; the first keeps running (cancelled here, never answered)", async () => {
    raw.send({ jsonrpc: "2.0", id: "dup", method: "tools/call", params: { name: "slow", arguments: { ms: 30_000 } } });
    raw.send({ jsonrpc: "2.0", id: "dup", method: "tools/call", params: { name: "echo", arguments: { text: "second" } } });
    const error = await expectError(raw, "dup", -32600);
    expect(error.message).to.match(/already in flight/);
    await expectAliveAndQuiet(raw);
    // The first is still running (its handler started; the tool's schema engine loads on the first call): cancel it;
    // it is never answered, and its id is free again.
    await raw.waitForStderr(/slow: started "dup"/);
    raw.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "dup", reason: "test" } });
    await raw.waitForStderr(/slow: aborted "dup"/);
    await expectAliveAndQuiet(raw);
    const reused = await raw.request({ jsonrpc: "2.0", id: "dup", method: "tools/call", params: { name: "echo", arguments: { text: "again" } } });
    expect(reused.result).to.deep.equal({ content: [{ type: "text", text: "again" }] });
    await expectAliveAndQuiet(raw);
  });

  it("a response to an unknown id: ignored, logged on stderr, and the next request is answered", async () => {
    raw.send({ jsonrpc: "2.0", id: "never-sent", result: {} });
    raw.send({ jsonrpc: "2.0", id: 424242, error: { code: -32603, message: "nobody asked" } });
    await expectAliveAndQuiet(raw);
    await raw.waitForStderr(/unknown request id "never-sent"/);
    await raw.waitForStderr(/unknown request id 424242/);
  });

  it(`an oversized message (over ${LIMIT} bytes): -32600 with its size and the limit, with its id where its ends carry it, and the next message works`, async () => {
    const params = { name: "echo", arguments: { text: "é".repeat(LIMIT) } };
    const cases: [string, unknown][] = [
      [JSON.stringify({ jsonrpc: "2.0", id: "big", method: "tools/call", params }), "big"], // id first: ours, Python's
      [JSON.stringify({ method: "tools/call", params, jsonrpc: "2.0", id: 7 }), 7], // id last: the official SDKs
      [JSON.stringify({ jsonrpc: "2.0", params, id: 8, more: params, method: "tools/call" }), null], // id between two large members
      [JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params }), null],
    ];
    for (const [line, id] of cases) {
      raw.writeLine(line);
      const error = await expectError(raw, id, -32600);
      expect(error.data).to.deep.equal({ bytes: Buffer.byteLength(line), limit: LIMIT });
    }
    const next = await raw.request({ jsonrpc: "2.0", id: "small", method: "tools/call", params: { name: "echo", arguments: { text: "fits" } } });
    expect(next.result).to.deep.equal({ content: [{ type: "text", text: "fits" }] });
    await expectAliveAndQuiet(raw);
  });

  it("__proto__ and constructor as names: unknown tool / prompt / method, never a prototype member", async () => {
    for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty"]) {
      raw.send({ jsonrpc: "2.0", id: `t-${name}`, method: "tools/call", params: { name } });
      const tool = await raw.response(`t-${name}`);
      expect(tool.error, JSON.stringify(tool)).to.deep.equal({ code: -32602, message: `Unknown tool: ${name}`, data: { name } });
      raw.send({ jsonrpc: "2.0", id: `p-${name}`, method: "prompts/get", params: { name } });
      const prompt = await raw.response(`p-${name}`);
      expect(prompt.error?.code, JSON.stringify(prompt)).to.equal(-32602);
      raw.send({ jsonrpc: "2.0", id: `m-${name}`, method: name });
      await expectError(raw, `m-${name}`, -32601);
      raw.send({ jsonrpc: "2.0", id: `r-${name}`, method: "resources/read", params: { uri: `fixture://${name}` } });
      const resource = await raw.response(`r-${name}`);
      expect(resource.error?.code, JSON.stringify(resource)).to.equal(-32002);
    }
    await expectAliveAndQuiet(raw);
  });

  it("__proto__ and constructor as keys (message, params, _meta, arguments) pollute nothing in the server", async () => {
    raw.writeLine('{"jsonrpc":"2.0","id":"k1","method":"ping","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}');
    expect(await raw.next()).to.deep.equal({ jsonrpc: "2.0", id: "k1", result: {} });
    raw.writeLine('{"jsonrpc":"2.0","id":"k2","method":"ping","params":{"__proto__":{"polluted":true},"_meta":{"__proto__":{"polluted":true}}}}');
    expect(await raw.next()).to.deep.equal({ jsonrpc: "2.0", id: "k2", result: {} });
    raw.writeLine('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"__proto__","__proto__":{"polluted":true}}}');
    raw.writeLine('{"jsonrpc":"2.0","id":"__proto__","method":"ping"}');
    expect(await raw.next()).to.deep.equal({ jsonrpc: "2.0", id: "__proto__", result: {} });
    raw.writeLine(
      '{"jsonrpc":"2.0","id":"k3","method":"tools/call","params":{"name":"echo","arguments":{"text":"x","__proto__":{"text":5,"polluted":true}},"__proto__":{"name":"fail"}}}',
    );
    expect((await raw.response("k3")).result).to.deep.equal({ content: [{ type: "text", text: "x" }] });
    raw.writeLine(
      '{"jsonrpc":"2.0","id":"probe","method":"tools/call","params":{"name":"probe","_meta":{"__proto__":{"polluted":true}},' +
        '"arguments":{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}}}',
    );
    const probe = await raw.response("probe");
    expect(probe.result.structuredContent).to.deep.include({
      clean: true,
      argumentKeys: ["__proto__", "constructor"],
      argumentsPrototypeIsObject: true,
      revision: "2025-11-25",
    });
    await expectAliveAndQuiet(raw);
  });

  it("a notification never gets a response, whatever its method", async () => {
    raw.send({ jsonrpc: "2.0", method: "notifications/nope" });
    raw.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    raw.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "not-in-flight" } });
    raw.send({ jsonrpc: "2.0", method: "tools/call", params: { name: "echo", arguments: { text: "as a notification" } } });
    raw.send({ jsonrpc: "2.0", method: "ping" });
    raw.send({ jsonrpc: "2.0", method: "no/such/method" });
    await expectAliveAndQuiet(raw);
  });

  it("a batch outside 2025-03-26: one -32600 with id null, nothing in it is run", async () => {
    raw.send([
      { jsonrpc: "2.0", id: "b1", method: "ping" },
      { jsonrpc: "2.0", id: "b-slow", method: "tools/call", params: { name: "slow", arguments: { ms: 30_000 } } },
    ]);
    const error = await expectError(raw, null, -32600);
    expect(error.message).to.match(/batch/);
    // Had the slow call started, its id would still be in flight.
    const reused = await raw.request({ jsonrpc: "2.0", id: "b-slow", method: "tools/call", params: { name: "echo", arguments: { text: "free" } } });
    expect(reused.result).to.deep.equal({ content: [{ type: "text", text: "free" }] });
    raw.send([]);
    await expectError(raw, null, -32600);
    await expectAliveAndQuiet(raw);
  });

  it("wrote only protocol lines on stdout, and exits cleanly at EOF", async () => {
    expect(raw.pending).to.deep.equal([]);
    expect(await raw.close()).to.deep.equal({ code: 0, signal: null });
  });
});

describe("bad input before initialize", function () {
  this.timeout(30_000);
  const spawned: RawStdio[] = [];
  after(() => spawned.forEach((raw) => raw.kill()));

  it("a session-only server: -32600 for a request before initialize; ping is allowed; initialize then works", async () => {
    const raw = await spawnEverything("--revisions=2025-06-18,2025-11-25");
    spawned.push(raw);
    raw.send({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    const error = await expectError(raw, 1, -32600);
    expect(error.message).to.match(/before initialize/);
    raw.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { text: "early" } } });
    await expectError(raw, 2, -32600);
    await expectAliveAndQuiet(raw);
    await initialize(raw, "2025-06-18");
    const listed = await raw.request({ jsonrpc: "2.0", id: 3, method: "tools/list" });
    expectValid("2025-06-18", "ListToolsResult", listed.result);
    // A second initialize is refused; the session stays at its revision.
    const again = await raw.request({
      jsonrpc: "2.0",
      id: 4,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } },
    });
    expect(again.error.code).to.equal(-32600);
    const probe = await raw.request({ jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "probe" } });
    expect(probe.result.structuredContent.revision).to.equal("2025-06-18");
    await raw.close();
  });

  it("a dual-era server: -32602 (no _meta version, no initialize) for a request before initialize; a stateless one is served", async () => {
    const raw = await spawnEverything();
    spawned.push(raw);
    raw.send({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    const error = await expectError(raw, 1, -32602);
    expect(error.message).to.match(/_meta/).and.match(/initialize/);
    await expectAliveAndQuiet(raw);
    const stateless = await raw.request({ jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: statelessMeta() } });
    expectValid("2026-07-28", "ListToolsResult", stateless.result);
    // A batch before initialize is refused too.
    raw.send([{ jsonrpc: "2.0", id: 3, method: "ping" }]);
    await expectError(raw, null, -32600);
    await raw.close();
  });
});

describe("batches after initializing 2025-03-26", function () {
  this.timeout(30_000);
  let raw: RawStdio;
  before(async () => {
    raw = await spawnEverything();
    await initialize(raw, "2025-03-26");
  });
  after(() => raw.kill());

  it("a batch of requests gets an array of responses; notifications in it get none; a bad member gets its error", async () => {
    raw.send([
      { jsonrpc: "2.0", id: "b1", method: "ping" },
      { jsonrpc: "2.0", method: "notifications/nope" },
      { jsonrpc: "2.0", id: "b2", method: "tools/call", params: { name: "echo", arguments: { text: "batched" } } },
      { jsonrpc: "2.0", id: "b3", method: "no/such" },
      { not: "a message" },
      { jsonrpc: "2.0", id: "b4", method: "resources/read", params: { uri: "fixture://text/hello" } },
    ]);
    const batch = await raw.next();
    expect(batch).to.be.an("array").with.length(5);
    const byId = new Map((batch as unknown as JsonMessage[]).map((r) => [r.id, r]));
    expect(byId.get("b1")).to.deep.equal({ jsonrpc: "2.0", id: "b1", result: {} });
    expect(byId.get("b2")!.result).to.deep.equal({ content: [{ type: "text", text: "batched" }] });
    expect(byId.get("b3")!.error.code).to.equal(-32601);
    expect(byId.get(null)!.error.code).to.equal(-32600);
    expect(byId.get("b4")!.result.contents[0].text).to.equal("Hello, world");
    for (const response of batch as unknown as JsonMessage[]) if (response.result) expectValid("2025-03-26", "JSONRPCResponse", response);
    await expectAliveAndQuiet(raw);
  });

  it("a batch of notifications only gets no response at all; an empty batch is -32600", async () => {
    raw.send([
      { jsonrpc: "2.0", method: "notifications/nope" },
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "nothing" } },
    ]);
    await expectAliveAndQuiet(raw);
    raw.send([]);
    await expectError(raw, null, -32600);
    await expectAliveAndQuiet(raw);
  });

  it("a duplicate id inside one batch: the second is -32600", async () => {
    raw.send([
      { jsonrpc: "2.0", id: "same", method: "tools/call", params: { name: "slow", arguments: { ms: 50 } } },
      { jsonrpc: "2.0", id: "same", method: "ping" },
    ]);
    const batch = (await raw.next()) as unknown as JsonMessage[];
    expect(batch).to.have.length(2);
    expect(batch.map((r) => r.error?.code ?? "ok")).to.have.members([-32600, "ok"]);
  });
});

describe("__proto__ keys pollute nothing in our client either", function () {
  this.timeout(30_000);

  it("our McpClient over stdio receives a result that echoes hostile keys, and keeps them as plain data", async () => {
    const transport = await spawnStdio(process.execPath, tsxArgs(EVERYTHING), { stderr: "ignore" });
    const client = await McpClient.connect(transport, { name: "c", version: "1", revision: "2025-11-25", logger: silentLogger });
    try {
      const hostile = JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"text":"x"}') as Record<string, unknown>;
      const result = await client.callTool("probe", hostile);
      const report = result.structuredContent as { clean: boolean; argumentKeys: string[]; arguments: Record<string, unknown> };
      expect(report).to.deep.include({ clean: true, argumentKeys: ["__proto__", "constructor", "text"] });
      // The echo came back over the wire with the same keys, as own data properties of a plain object.
      expect(Object.keys(report.arguments)).to.deep.equal(["__proto__", "constructor", "text"]);
      expect(Object.getPrototypeOf(report.arguments)).to.equal(Object.prototype);
      expect(Object.getOwnPropertyDescriptor(report.arguments, "__proto__")!.value).to.deep.equal({ polluted: true });
      const echoed = await client.callTool("echo", hostile);
      expect(echoed.content).to.deep.equal([{ type: "text", text: "x" }]);
      expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
      expect(Object.prototype).to.not.have.own.property("polluted");
    } finally {
      await client.close();
    }
  });
});
