/** Streamable HTTP, both eras: the server endpoint on node:http, and a client transport over fetch. */
export { http, httpHandler, HttpEndpoint, type HttpOptions, type HttpRequestHandler } from "./endpoint.js";
export { InMemoryEventStore, DEFAULT_MAX_EVENTS, type EventStore, type StoredEvent } from "./event-store.js";
export { HttpError, STATUS_BY_ERROR_CODE } from "./errors.js";
export { LOCAL_HOSTNAMES, type SecurityOptions } from "./security.js";
export { DEFAULT_MAX_BODY_BYTES } from "./body.js";
export { HttpClientTransport, encodeHeaderValue, type HttpClientTransportOptions } from "./client.js";
export { SseParser, type SseEvent } from "./sse-parser.js";
