/**
 * MCP authorization (OAuth 2.1), both sides: `bearerAuth` and token verifiers for a server's HTTP
 * endpoint, providers for HttpClientTransport's `authProvider`. A separate entry point
 * (`@mcp-codegen/runtime/auth`): only it loads oauth4webapi and jose.
 */
export type { AuthInfo } from "./types.js";
export * from "./server/index.js";
export * from "./client/index.js";
export { MissingPeerError } from "./peers.js";
