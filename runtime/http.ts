/**
 * mcp-codegen's Streamable HTTP, both eras: `fetchHandler(server)` for any platform with web
 * Request and Response (Workers, Deno, Bun, hono), `server.listen(http({ port }))` and a plain
 * `(req, res)` handler on node:http, and the client transport. A separate entry point
 * (`@mcp-codegen/runtime/http`), so that a stdio server never loads any of it. No module here
 * imports from node: (the node:http adapter loads its built-ins when first used).
 */
export {
  fetchHandler,
  http,
  httpHandler,
  HttpEndpoint,
  StreamableHttpEndpoint,
  HttpClientTransport,
  HttpStatusError,
  InMemoryEventStore,
  type AuthInfo,
  type AuthOptions,
  type BackpressureOptions,
  type EndpointOptions,
  type EventStore,
  type FetchHandler,
  type PlatformContext,
  type EndpointAuth,
  type HttpClientTransportOptions,
  type HttpOptions,
  type HttpRequestHandler,
} from "./transports/http/index.js";
