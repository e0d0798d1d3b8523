/**
 * The contract between a server and an endpoint: something that accepts connections (Streamable
 * HTTP) rather than being one. The server hands the endpoint a {@link Listener}; the endpoint
 * hands it each connection's transport, and asks it which era a protocol version belongs to, so
 * that the era is decided from the server's revisions, not from a table the transport keeps.
 */
import type { Era, RevisionFeatures } from "../contract.js";
import type { Transport } from "../jsonrpc/transport.js";
import type { SessionRecord } from "../stores/session-store.js";

/** A connection's server side, as {@link Listener.accept} returns it. */
export interface Accepted {
  /** Session era: the negotiated revision, once initialize has been answered. */
  readonly revision?: string;
  /** Session era: what the runtime does differently in that revision (whether SSE streams are primed), once negotiated. */
  readonly features?: RevisionFeatures;
  /** Many instances: takes on a session negotiated on another instance, as the shared store keeps it. */
  adopt?(state: SessionRecord): void | Promise<void>;
}

/** What a server hands an endpoint when it listens on it. */
export interface Listener {
  /** A new connection: its server side. */
  accept(transport: Transport): Accepted;
  /** The era of a protocol version (an MCP-Protocol-Version header); undefined for a version the server does not know. */
  eraOf(version: string): Era | undefined;
  /** Many instances: a server-wide notification any instance announced (see {@link Endpoint.announce}), this one's included. */
  announced(event: unknown): void;
}

export interface Endpoint {
  /** Starts accepting connections, handing each to `listener`. */
  listen(listener: Listener): Promise<void>;
  /** Stops accepting connections and closes the open ones. */
  close(): Promise<void>;
  /** Many instances: sends a server-wide notification to every instance sharing the endpoint's bus; false when the endpoint shares nothing. */
  announce?(event: unknown): boolean;
}

/** What serves an endpoint (`McpServer`): `fetchHandler(server)` and `http()` take it. */
export interface Listenable {
  listen(endpoint: Endpoint): Promise<void>;
}
