// Helpers for the Streamable HTTP tests: a server on a free loopback port, and raw HTTP exchanges
// whose answers are read whole (JSON) or as SSE events, every wait bounded.
import { request as httpRequest } from "node:http";
import { createServer, type McpServer } from "../../../../runtime/index.js";
import { http, type HttpEndpoint, type HttpOptions } from "../../../../runtime/transports/http/index.js";
import { SseParser, type SseEvent } from "../../../../runtime/transports/http/sse-parser.js";

export const LATEST_SESSION = "2025-11-25";
export const STATELESS = "2026-07-28";
export const JSON_AND_SSE = "application/json, text/event-stream";

export interface Running {
  readonly server: McpServer;
  readonly endpoint: HttpEndpoint;
  readonly url: string;
  close(): Promise<void>;
}

/** A server with a few tools, on 127.0.0.1 with a free port. `setup` may register more. */
export async function startServer(options: HttpOptions = {}, setup?: (server: McpServer) => void): Promise<Running> {
  const server = createServer({ name: "http-test", version: "1.0.0", logger: () => {} });
  server.tool({ name: "echo", description: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } } } }, ({ text }: { text?: string }) => ({
    content: [{ type: "text", text: text ?? "" }],
  }));
  server.tool({ name: "progress", description: "reports progress twice", inputSchema: { type: "object" } }, async (_args, ctx) => {
    ctx.progress(1, 2);
    await new Promise((r) => setTimeout(r, 5));
    ctx.progress(2, 2);
    return { content: [{ type: "text", text: "done" }] };
  });
  server.resource({ uri: "test://a", name: "a", mimeType: "text/plain" }, (uri) => ({ contents: [{ uri, mimeType: "text/plain", text: "A" }] }));
  server.prompt({ name: "hello", description: "says hello" }, () => ({ messages: [{ role: "user", content: { type: "text", text: "hello" } }] }));
  setup?.(server);
  const endpoint = http({ port: 0, ...options });
  await server.listen(endpoint);
  return { server, endpoint, url: endpoint.url, close: () => server.close() };
}

export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly contentType: string;
  /** The JSON body, when the answer is JSON. */
  readonly json?: unknown;
  /** The SSE events, when the answer is a stream read to its end (or to `until`). */
  readonly events: SseEvent[];
  /** The JSON-RPC messages of the SSE events. */
  readonly messages: unknown[];
  readonly text: string;
}

/** POSTs `body` (an object is sent as JSON, a string as is) and reads the whole answer. */
export async function post(url: string, body: unknown, headers: Record<string, string> = {}, timeoutMs = 10_000): Promise<Answer> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: JSON_AND_SSE, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  return read(response);
}

export async function read(response: Response): Promise<Answer> {
  const contentType = response.headers.get("content-type") ?? "";
  const text = await response.text();
  const events: SseEvent[] = [];
  let json: unknown;
  if (contentType.includes("text/event-stream")) {
    const parser = new SseParser((event) => events.push(event));
    parser.push(text);
  } else if (text !== "") json = JSON.parse(text);
  const messages = events.filter((e) => e.data !== "").map((e) => JSON.parse(e.data) as unknown);
  return { status: response.status, headers: response.headers, contentType, json, events, messages, text };
}

/** The JSON-RPC error an answer carries (JSON body). */
export function errorOf(answer: Answer): { code: number; message: string; data?: unknown } | undefined {
  return (answer.json as { error?: { code: number; message: string; data?: unknown } } | undefined)?.error;
}

export function initializeRequest(id: number | string = 1, protocolVersion = LATEST_SESSION) {
  return { jsonrpc: "2.0", id, method: "initialize", params: { protocolVersion, capabilities: {}, clientInfo: { name: "test", version: "1" } } };
}

/** Initializes a session and sends notifications/initialized; returns its id. */
export async function openSession(url: string, protocolVersion = LATEST_SESSION): Promise<string> {
  const answer = await post(url, initializeRequest(1, protocolVersion));
  const id = answer.headers.get("mcp-session-id");
  if (answer.status !== 200 || !id) throw new Error(`initialize failed: ${answer.status} ${answer.text}`);
  const initialized = await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, sessionHeaders(id, protocolVersion));
  if (initialized.status !== 202) throw new Error(`notifications/initialized got ${initialized.status}`);
  return id;
}

export function sessionHeaders(sessionId: string, protocolVersion = LATEST_SESSION): Record<string, string> {
  return { "Mcp-Session-Id": sessionId, "MCP-Protocol-Version": protocolVersion };
}

export const STATELESS_META = {
  "io.modelcontextprotocol/protocolVersion": STATELESS,
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "test", version: "1" },
};

/** A 2026-07-28 request with its `_meta`, and the headers that must mirror it. */
export function stateless(id: number, method: string, params: Record<string, unknown> = {}): { body: unknown; headers: Record<string, string> } {
  const headers: Record<string, string> = { "MCP-Protocol-Version": STATELESS, "Mcp-Method": method };
  if (method === "tools/call" || method === "prompts/get") headers["Mcp-Name"] = String(params.name);
  if (method === "resources/read") headers["Mcp-Name"] = String(params.uri);
  return { body: { jsonrpc: "2.0", id, method, params: { ...params, _meta: { ...STATELESS_META, ...(params._meta as object | undefined) } } }, headers };
}

/**
 * A raw HTTP request with node:http, for what fetch will not send: a foreign Host header, or a
 * body cut off by closing the socket. Resolves with the status and body text.
 */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string | number>; body?: string | Buffer },
  timeoutMs = 10_000,
): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { hostname: target.hostname, port: target.port, path: target.pathname, method: options.method ?? "POST", headers: options.headers, timeout: timeoutMs },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on("error", reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

/** Resolves when `condition()` holds, checking every 5 ms, or rejects after `timeoutMs`. */
export async function until(condition: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
