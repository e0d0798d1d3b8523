// The official SDK's Streamable HTTP server as its docs show it: one McpServer and one
// StreamableHTTPServerTransport per session, on node:http, bound to 127.0.0.1, given the body
// parsed as express.json() parses it (`handleRequest(req, res, req.body)`: without it the SDK reads
// and parses the body itself, 35-45% slower). The peer our HTTP client is tested against, and the
// SDK v1 baseline of bench/http.ts.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

export interface SdkHttpServer {
  readonly url: string;
  close(): Promise<void>;
}

/** What express.json() leaves in req.body: the parsed JSON, undefined for no body, or the SyntaxError. */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  if (chunks.length === 0) return undefined;
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch (error) {
    return error;
  }
}

/**
 * `enableJsonResponse`: answer requests with JSON (true) or SSE (false, the SDK's default).
 * `holdStreamsMs`: each GET reaches the SDK this much later, as on a loaded server.
 */
export async function startSdkHttpServer(options: { enableJsonResponse: boolean; holdStreamsMs?: number; setup: (server: McpServer) => void }): Promise<SdkHttpServer> {
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; server: McpServer }>();

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readJson(req);
    if (body instanceof SyntaxError) {
      res.writeHead(400, { "Content-Type": "application/json" });
      return void res.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32700, message: `Parse error: ${body.message}` } }));
    }
    const sessionId = req.headers["mcp-session-id"];
    const known = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
    if (known && req.method === "GET" && options.holdStreamsMs) await new Promise((resolve) => setTimeout(resolve, options.holdStreamsMs));
    if (known) return known.transport.handleRequest(req, res, body);
    if (req.method === "POST" && sessionId === undefined) {
      const server = new McpServer({ name: "sdk-http", version: "1.0.0" }, { capabilities: { logging: {} } });
      options.setup(server);
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: options.enableJsonResponse,
        onsessioninitialized: (id) => void sessions.set(id, { transport, server }),
      });
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
      };
      await server.connect(transport);
      return transport.handleRequest(req, res, body);
    }
    res.writeHead(sessionId === undefined ? 400 : 404, { "Content-Type": "application/json" });
    res.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32000, message: "no such session" } }));
  };

  const http = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    async close() {
      await Promise.all([...sessions.values()].map(({ server }) => server.close().catch(() => {})));
      sessions.clear();
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeAllConnections();
      await closed;
    },
  };
}
