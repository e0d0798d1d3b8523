/**
 * mcp-codegen's Streamable HTTP, both eras: `server.listen(http({ port }))`, a plain
 * `(req, res)` handler to mount in another server, and the client transport. A separate entry
 * point (`mcp-codegen/runtime/http`), so that a stdio server never loads node:http.
 */
export {
  http,
  httpHandler,
  HttpEndpoint,
  HttpClientTransport,
  InMemoryEventStore,
  type EventStore,
  type HttpClientTransportOptions,
  type HttpOptions,
  type HttpRequestHandler,
} from "./transports/http/index.js";
