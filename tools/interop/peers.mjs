// The interop peers, imported from here so that they resolve against tools/interop/node_modules
// (test/interop/support/peers.ts loads this file, and skips or fails when it is not installed).
import { fileURLToPath } from "node:url";

export { Client, InMemoryTransport, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
// DPoP (SEP-1932): a signing session and the fetch wrapper that presents a DPoP-bound token.
export { DpopSession, withDpop } from "@modelcontextprotocol/client";
export { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
export { McpServer, createMcpHandler } from "@modelcontextprotocol/server";
export { serveStdio, StdioServerTransport } from "@modelcontextprotocol/server/stdio";
export { experimental_createMCPClient as createAiSdkMcpClient } from "@ai-sdk/mcp";

/** server-everything's launcher: `node <this> stdio`. */
export const SERVER_EVERYTHING = fileURLToPath(import.meta.resolve("@modelcontextprotocol/server-everything/dist/index.js"));

// SEP-2640 skills, both sides.
export { SkillsClient, SkillVerificationError } from "@modelcontextprotocol/client/ext/skills";
export { SkillsExtension, memorySkillFiles, skillEntry } from "@modelcontextprotocol/server/ext/skills";

// MCP Apps: the ext-apps server helpers and the JSON Schema of its types.
export { registerAppTool, registerAppResource, getUiCapability } from "@modelcontextprotocol/ext-apps/server";
export const EXT_APPS_SCHEMA = fileURLToPath(import.meta.resolve("@modelcontextprotocol/ext-apps/schema.json"));

// The tasks extension's official requester (@modelcontextprotocol/ext-tasks), its client side.
export { createTaskSessionFromClient, resultFromTaskOutcome, TaskCancelledError, TaskFailedError } from "@modelcontextprotocol/ext-tasks/client";
