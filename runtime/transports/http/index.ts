/** Streamable HTTP, both eras: the platform-neutral endpoint, fetchHandler, the node:http adapter, and a client transport over fetch. */
export { StreamableHttpEndpoint, type EndpointOptions } from "./endpoint.js";
export type { Listenable } from "../endpoint.js";
export type { SharingOptions } from "./sessions.js";
export { fetchHandler, type FetchHandler } from "./fetch.js";
export { http, httpHandler, HttpEndpoint, type HttpOptions, type HttpRequestHandler } from "./node.js";
export type { AuthInfo, AuthOptions, EndpointAuth } from "../auth-info.js";
export { InMemoryEventStore, DEFAULT_MAX_EVENTS, DEFAULT_EVENT_STORE_LIMITS, type EventStoreLimits } from "./event-store.js";
export type { EventStore, StoredEvent } from "../../stores/event-store.js";
export { HttpError, STATUS_BY_ERROR_CODE } from "./errors.js";
export { LOCAL_HOSTNAMES, type SecurityOptions } from "./security.js";
export { DEFAULT_MAX_BODY_BYTES } from "./body.js";
export { type BackpressureOptions, type PlatformContext } from "./reply.js";
export { DEFAULT_MAX_BUFFERED_BYTES, DEFAULT_STUCK_TIMEOUT_MS } from "../../jsonrpc/transport.js";
export { HttpClientTransport, type HttpClientTransportOptions } from "./client.js";
export { HttpStatusError } from "./status-error.js";
export { encodeHeaderValue } from "../../shared/header-value.js";
export { SseParser, type SseEvent } from "./sse-parser.js";
