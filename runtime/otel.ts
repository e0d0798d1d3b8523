/**
 * OpenTelemetry for MCP servers and clients, as a hook: `createServer({ hooks: [otel()] })`. A
 * separate entry point (`@mcp-codegen/runtime/otel`), the only one that imports the optional peer
 * `@opentelemetry/api`: an application that does not trace never loads it.
 */
export { otel, type OtelOptions } from "./telemetry/otel.js";
