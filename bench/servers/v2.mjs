// The same server on the official SDK v2 (@modelcontextprotocol/server 2.4, tools/bench-peers):
// McpServer served by serveStdio, as its docs set up a server for both eras (2025 initialize and
// 2026-07-28 discovery: serveStdio picks the era from the opening exchange); plain node, stdio.
import { McpServer } from "../../tools/bench-peers/node_modules/@modelcontextprotocol/server/dist/index.mjs";
import { serveStdio } from "../../tools/bench-peers/node_modules/@modelcontextprotocol/server/dist/stdio.mjs";
import * as z from "../../tools/bench-peers/node_modules/zod/index.js";
import { payload } from "./payload.mjs";

serveStdio(() => {
  const server = new McpServer({ name: "bench-v2", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.registerTool("echo", { inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({ content: [{ type: "text", text }] }));
  server.registerTool("blob", { inputSchema: z.object({ bytes: z.number().int().min(0) }) }, ({ bytes }) => ({ content: [{ type: "text", text: payload(bytes) }] }));
  return server;
});
