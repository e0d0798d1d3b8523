// One Streamable HTTP server for bench/http.ts, in its own process (so the load generator and the
// server each get a core), on node:http, answering tools/call of an echo tool in one era:
//   node --import tsx bench/http/server.ts ours|v2|v1|floor 2025-11-25|2026-07-28 json|sse
// Each is set up the way its own docs do:
// - ours: `http()` from dist/, serving the one revision, no event store (the peers keep none
//   unless given one), responseMode "auto" (JSON unless the handler streams) or "sse".
// - v2 (@modelcontextprotocol/server 2.4 + @modelcontextprotocol/node, tools/bench-peers):
//   2025-11-25 as its sessionful node:http docs do, one McpServer and NodeStreamableHTTPServerTransport
//   per session, `handleRequest(req, res, parsedBody)`; 2026-07-28 through `createMcpHandler` wrapped by
//   `toNodeHandler`, given the parsed body as its docs do behind express.json() (responseMode "auto", its default, or "sse").
// - v1 (@modelcontextprotocol/sdk 1.32): test/support/sdk-http-server.ts, one McpServer and
//   StreamableHTTPServerTransport per session, given the parsed body; 2025-11-25 only.
// - floor: node:http alone, reading the body, JSON.parse, and answering the same echo result
//   (as JSON or as one SSE event) with JSON.stringify: no MCP at all, the best any server could do.
// Prints "listening on URL" on stdout; stops on SIGTERM or when stdin closes.
import { randomUUID } from "node:crypto";
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import * as z from "zod";
import { readJson, startSdkHttpServer } from "../../test/support/sdk-http-server.js";
import type { Era } from "./client.js";
import { httpRuntime, runtime } from "../support/ours.js";
import { PEERS } from "../support/peers.js";

const [impl, era, mode] = process.argv.slice(2) as [string, Era, string];
if (!["ours", "v2", "v1", "floor"].includes(impl) || (era !== "2025-11-25" && era !== "2026-07-28") || (mode !== "json" && mode !== "sse"))
  throw new Error("usage: server.ts ours|v2|v1|floor 2025-11-25|2026-07-28 json|sse");
if (impl === "v1" && era !== "2025-11-25") throw new Error("SDK v1 speaks the 2025 era only");

const ECHO = { description: "Returns its text", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } } as const;

/** node:http on 127.0.0.1, on a free port; resolves with its URL and a close. */
async function listen(handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createHttpServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** The body as express.json() gives it (test/support's readJson); a malformed one is answered 400 here. */
async function readBody(req: IncomingMessage, res: ServerResponse): Promise<{ ok: true; body: unknown } | { ok: false }> {
  const body = await readJson(req);
  if (!(body instanceof SyntaxError)) return { ok: true, body };
  res.writeHead(400, { "Content-Type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } }));
  return { ok: false };
}

async function ours(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = runtime.createServer({ name: "bench-ours", version: "1.0.0", revisions: [era] });
  server.tool({ name: "echo", ...ECHO }, ({ text }: { text: string }) => ({ content: [{ type: "text", text }] }));
  const endpoint = httpRuntime.http({ port: 0, responseMode: mode === "sse" ? "sse" : "auto", eventStore: false });
  await server.listen(endpoint);
  return { url: endpoint.url, close: () => server.close() };
}

async function v2(): Promise<{ url: string; close: () => Promise<void> }> {
  const { McpServer, createMcpHandler } = await import(`${PEERS}/@modelcontextprotocol/server/dist/index.mjs`);
  const { NodeStreamableHTTPServerTransport, toNodeHandler } = await import(`${PEERS}/@modelcontextprotocol/node/dist/index.mjs`);
  const zod = await import(`${PEERS}/zod/index.js`);
  const create = () => {
    const server = new McpServer({ name: "bench-v2", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.registerTool("echo", { description: ECHO.description, inputSchema: zod.object({ text: zod.string() }) }, ({ text }: { text: string }) => ({ content: [{ type: "text", text }] }));
    return server;
  };
  if (era === "2026-07-28") {
    const node = toNodeHandler(createMcpHandler(create, { legacy: "reject", responseMode: mode === "sse" ? "sse" : "auto" }));
    return listen(async (req, res) => {
      const read = await readBody(req, res);
      if (read.ok) await node(req, res, read.body);
    });
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const sessions = new Map<string, any>();
  return listen(async (req, res) => {
    const read = await readBody(req, res);
    if (!read.ok) return;
    const sessionId = req.headers["mcp-session-id"];
    const known = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
    if (known) return known.handleRequest(req, res, read.body);
    if (sessionId !== undefined) return void res.writeHead(404).end();
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: mode === "json",
      onsessioninitialized: (id: string) => void sessions.set(id, transport),
    });
    await create().connect(transport);
    await transport.handleRequest(req, res, read.body);
  });
}

function v1(): Promise<{ url: string; close: () => Promise<void> }> {
  return startSdkHttpServer({
    enableJsonResponse: mode === "json",
    setup: (server) => server.registerTool("echo", { description: ECHO.description, inputSchema: { text: z.string() } }, ({ text }) => ({ content: [{ type: "text", text }] })),
  });
}

function floor(): Promise<{ url: string; close: () => Promise<void> }> {
  return listen(async (req, res) => {
    const read = await readBody(req, res);
    if (!read.ok) return;
    const message = read.body as { id?: number; method: string; params?: { arguments?: { text?: string } } };
    if (message.id === undefined) return void res.writeHead(202).end();
    const result = message.method === "tools/call" ? { content: [{ type: "text", text: message.params!.arguments!.text }], ...(era === "2026-07-28" ? { resultType: "complete" } : {}) } : { protocolVersion: era, capabilities: { tools: {} }, serverInfo: { name: "floor", version: "1.0.0" } };
    const answer = JSON.stringify({ jsonrpc: "2.0", id: message.id, result });
    if (mode === "sse") res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" }).end(`event: message\ndata: ${answer}\n\n`);
    else res.writeHead(200, { "Content-Type": "application/json" }).end(answer);
  });
}

const { url, close } = await { ours, v2, v1, floor }[impl as "ours"]();
process.stdout.write(`listening on ${url}\n`);
const stop = () => void close().finally(() => process.exit(0));
process.once("SIGTERM", stop);
process.stdin.on("end", stop).resume();
