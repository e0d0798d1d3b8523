// The same server on the official SDK (McpServer + StdioServerTransport), plain node, stdio.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import * as z from "zod";
import { payload } from "./payload.mjs";

const server = new McpServer({ name: "bench-sdk", version: "1.0.0" });
server.registerTool("echo", { inputSchema: { text: z.string() } }, ({ text }) => ({ content: [{ type: "text", text }] }));
server.registerTool("blob", { inputSchema: { bytes: z.number().int().min(0) } }, ({ bytes }) => ({ content: [{ type: "text", text: payload(bytes) }] }));
await server.connect(new StdioServerTransport());
