// The traffic log: one line per request and notification (direction, method, id, target, time,
// outcome) through the configured logger, on with MCP_DEBUG or `logTraffic`; on a stdio server on
// stderr, never stdout; no secret ever written.
import { expect } from "chai";
import { createMemoryPair, createServer, McpClient, type Logger, type McpServer } from "../../../runtime/index.js";
import { http, HttpClientTransport, type HttpEndpoint } from "../../../runtime/transports/http/index.js";
import { EVERYTHING, initialize, tsxArgs } from "../../support/mcp.js";
import { RawStdio } from "../../support/raw-stdio.js";

/** A logger that keeps its "info" lines. */
function capture(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  return { lines, logger: (level, message) => void (level === "info" && lines.push(message)) };
}

/** `key=value` pairs of a traffic line (values JSON-quoted when needed). */
function fields(line: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const match of line.matchAll(/(\w+)=("(?:[^"\\]|\\.)*"|\S+)/g)) found[match[1]!] = match[2]!.startsWith('"') ? (JSON.parse(match[2]!) as string) : match[2]!;
  return found;
}

function newServer(logger: Logger, logTraffic?: boolean): McpServer {
  const server = createServer({ name: "logged", version: "1.0.0", logger, ...(logTraffic !== undefined && { logTraffic }) });
  server.tool({ name: "add", inputSchema: { type: "object" } }, () => ({ content: [{ type: "text", text: "3" }] }));
  server.tool({ name: "fails", inputSchema: { type: "object" } }, () => ({ content: [{ type: "text", text: "no" }], isError: true }));
  return server;
}

describe("runtime/telemetry/traffic-log", () => {
  // The default (off) depends on MCP_DEBUG, read when a server or client is made: unset here, as it was found after.
  const found = process.env.MCP_DEBUG;
  before(() => delete process.env.MCP_DEBUG);
  after(() => {
    if (found !== undefined) process.env.MCP_DEBUG = found;
  });

  for (const revision of ["2025-11-25", "2026-07-28"])
    it(`${revision}: logTraffic writes one line per request and notification, both sides, with the outcome`, async () => {
      const serverLog = capture();
      const clientLog = capture();
      const server = newServer(serverLog.logger, true);
      const [serverEnd, clientEnd] = createMemoryPair();
      server.connect(serverEnd);
      const client = await McpClient.connect(clientEnd, { name: "c", version: "1", revision, logger: clientLog.logger, logTraffic: true });
      try {
        await client.callTool("add", {});
        await client.callTool("fails", {});
        await client.request("no/such", {}).catch(() => undefined);
        const served = serverLog.lines.map(fields);
        const call = served.find((f) => f.method === "tools/call" && f.target === "add")!;
        expect(call).to.include({ side: "server", dir: "in", kind: "request", outcome: "ok" });
        expect(Number(call.ms)).to.be.at.least(0);
        expect(served.find((f) => f.target === "fails")).to.include({ outcome: "tool_error" });
        expect(served.find((f) => f.method === "no/such")).to.include({ outcome: "error -32601" });
        const sent = clientLog.lines.map(fields);
        const clientCall = sent.find((f) => f.method === "tools/call" && f.target === "add")!;
        expect(clientCall).to.include({ side: "client", dir: "out", kind: "request", outcome: "ok", id: call.id });
        // One line per message: each call once on each side.
        expect(served.filter((f) => f.method === "tools/call")).to.have.length(2);
        expect(sent.filter((f) => f.method === "tools/call")).to.have.length(2);
        if (revision === "2025-11-25") expect(served.find((f) => f.method === "notifications/initialized")).to.include({ kind: "notification", dir: "in" });
      } finally {
        await client.close();
        await server.close();
      }
    });

  it("off by default (MCP_DEBUG unset), and logTraffic: false keeps it off with MCP_DEBUG set", async () => {
    const serverLog = capture();
    const clientLog = capture();
    const server = newServer(serverLog.logger);
    const [serverEnd, clientEnd] = createMemoryPair();
    server.connect(serverEnd);
    const client = await McpClient.connect(clientEnd, { name: "c", version: "1", revision: "2025-11-25", logger: clientLog.logger });
    process.env.MCP_DEBUG = "1";
    const quietLog = capture();
    const debugLog = capture();
    const quietServer = newServer(quietLog.logger, false);
    const debugged = newServer(debugLog.logger);
    delete process.env.MCP_DEBUG;
    try {
      await client.callTool("add", {});
      expect(serverLog.lines).to.deep.equal([]);
      expect(clientLog.lines).to.deep.equal([]);
      // Both made while MCP_DEBUG was set: only the one that did not say logTraffic: false writes lines.
      for (const made of [quietServer, debugged]) {
        const [serverEnd, clientEnd] = createMemoryPair();
        made.connect(serverEnd);
        const other = await McpClient.connect(clientEnd, { name: "c", version: "1", revision: "2025-11-25", logger: clientLog.logger });
        await other.callTool("add", {});
        await other.close();
      }
      expect(quietLog.lines).to.deep.equal([]);
      expect(debugLog.lines.map(fields).find((f) => f.method === "tools/call")).to.include({ target: "add", outcome: "ok" });
    } finally {
      await client.close();
      await server.close();
      await quietServer.close();
      await debugged.close();
    }
  });

  it("no secret is written: Authorization, cookies, arguments, requestState, a token in a URI", async () => {
    const serverLog = capture();
    const clientLog = capture();
    const server = newServer(serverLog.logger, true);
    const endpoint: HttpEndpoint = http({ port: 0 });
    await server.listen(endpoint);
    const transport = new HttpClientTransport(endpoint.url, { headers: { Authorization: "Bearer SECRET-BEARER", Cookie: "sid=SECRET-COOKIE" } });
    const client = await McpClient.connect(transport, { name: "c", version: "1", revision: "2026-07-28", logger: clientLog.logger, logTraffic: true });
    try {
      await client.callTool("add", { password: "SECRET-ARG", requestState: "SECRET-STATE" });
      await client.readResource("https://user:SECRET-USERINFO@example.com/doc?token=SECRET-QUERY#SECRET-FRAGMENT").catch(() => undefined);
      const all = [...serverLog.lines, ...clientLog.lines];
      expect(all.some((line) => fields(line).target === "https://example.com/doc"), all.join("\n")).to.equal(true);
      for (const line of all) expect(line).to.not.match(/SECRET/);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it("a stdio server with MCP_DEBUG writes its lines to stderr; stdout carries only JSON-RPC", async () => {
    const raw = await RawStdio.spawn(process.execPath, tsxArgs(EVERYTHING), { env: { ...process.env, MCP_DEBUG: "1" } });
    try {
      await raw.waitForStderr(/everything: ready\n/, 20_000);
      await initialize(raw, "2025-11-25");
      const response = await raw.request({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "echo", arguments: { text: "hi" } } });
      expect(response.error).to.equal(undefined);
      await raw.waitForStderr(/\[mcp info\] mcp side=server dir=in kind=request method=tools\/call id=7 target=echo ms=\S+ outcome=ok\n/, 10_000);
      expect(raw.stderr).to.match(/method=initialize id=init /);
      expect(raw.stderr).to.match(/kind=notification method=notifications\/initialized /);
      for (const line of raw.pending) expect(() => JSON.parse(line), line).to.not.throw();
    } finally {
      raw.kill();
    }
  });
});
