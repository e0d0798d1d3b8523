// The hosting example's server on the official SDK v2 (@modelcontextprotocol/server 2.4,
// tools/bench-peers), through its web-standard handler `createMcpHandler`, mounted as its docs
// mount it: `handler.fetch` given to Bun.serve / Deno.serve, and `toNodeHandler(handler)` from
// @modelcontextprotocol/node on node:http. Defaults throughout: 2026-07-28 per request, and the
// 2025 era through its stateless legacy fallback (a fresh McpServer per request, no sessions).
// Prints "listening on URL" on stderr, as tools/runtimes/servers/hello-*.ts do.
//   node|bun bench/servers/v2-web.mjs   deno run -A bench/servers/v2-web.mjs
import { createMcpHandler, McpServer } from "../../tools/bench-peers/node_modules/@modelcontextprotocol/server/dist/index.mjs";
import * as z from "../../tools/bench-peers/node_modules/zod/index.js";

const handler = createMcpHandler(() => {
  const server = new McpServer({ name: "hello", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.registerTool("greet", { description: "Greets someone", inputSchema: z.object({ name: z.string().min(1) }) }, ({ name }) => ({ content: [{ type: "text", text: `Hello, ${name}!` }] }));
  return server;
});

const port = Number(globalThis.Deno?.env.get("PORT") ?? globalThis.process?.env.PORT ?? 0);
const listening = (at) => console.error(`listening on http://127.0.0.1:${at}/mcp`);
if (globalThis.Bun) {
  listening(Bun.serve({ hostname: "127.0.0.1", port, idleTimeout: 0, fetch: handler.fetch }).port);
} else if (globalThis.Deno) {
  Deno.serve({ hostname: "127.0.0.1", port, onListen: ({ port }) => listening(port) }, handler.fetch);
} else {
  const { createServer } = await import("node:http");
  const { toNodeHandler } = await import("../../tools/bench-peers/node_modules/@modelcontextprotocol/node/dist/index.mjs");
  const node = toNodeHandler(handler);
  const server = createServer((req, res) => void node(req, res)).listen(port, "127.0.0.1", () => listening(server.address().port));
}
