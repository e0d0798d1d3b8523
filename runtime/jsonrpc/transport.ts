import type { Era } from "../contract.js";
import type { RequestId } from "./messages.js";

/**
 * The contract between the JSON-RPC layer and the ways bytes move (stdio, memory, HTTP).
 *
 * A transport turns bytes into parsed JSON values and back, and knows nothing of JSON-RPC. It
 * hands every inbound message to its {@link Receiver} exactly once, in order, and reports every
 * frame it could not turn into a value instead of dropping it, so that the peer can answer
 * with a precise error.
 */
export interface Transport {
  /** Begin delivering inbound messages. Called once, before any `send`. */
  start(receiver: Receiver): void;
  /**
   * Queue one outbound message (a JSON-RPC object, or an array for a batch). Resolves once the
   * transport has accepted it, honouring back-pressure; rejects when the transport is closed
   * (`TransportClosedError`) or the message cannot be encoded. The message is the transport's from
   * then on: the in-memory transport hands the very object to the other side, so never mutate it.
   */
  send(message: unknown, options?: SendOptions): Promise<void>;
  /** Stop: flush what is queued, release resources, then call `receiver.closed()` once. */
  close(): Promise<void>;
  /**
   * The other side reads a byte stream, so several of our messages may reach it in one read
   * (stdio). The dispatcher then confirms progress with a ping before the response: see
   * dispatch/router.ts.
   */
  readonly coalesces?: boolean;
  /**
   * The peer will send no response to inbound request `id`: the other side cancelled it. A
   * transport that holds something open until a request is answered (an HTTP stream) lets go.
   */
  unanswered?(id: RequestId): void;
  /** The connection as observability reports it (hooks, OpenTelemetry); read only when a hook is installed. */
  readonly facts?: TransportFacts;
}

/** What a transport tells about its connection: the OpenTelemetry `network.transport`, `mcp.session.id`, `server.address` and `server.port`. */
export interface TransportFacts {
  /** "pipe" for stdio, "tcp" for HTTP; absent in memory. */
  readonly network?: "pipe" | "tcp";
  /** Streamable HTTP, session era: the Mcp-Session-Id. */
  readonly sessionId?: string;
  /** Client side over HTTP: the server's host and port, from its URL. */
  readonly serverAddress?: string;
  readonly serverPort?: number;
}

/** Options of one message a transport sends: the request it belongs to, and where it goes. */
export interface SendOptions {
  /**
   * The inbound request this message belongs to (its progress, logs, server-to-client requests
   * and its response). Streamable HTTP sends it on that request's stream; stdio and memory
   * ignore it.
   */
  readonly relatedRequestId?: string | number;
  /**
   * A notification the server sends every session alike (list_changed, resources/updated, its
   * log): with many instances each raises it for its own replicas, so only the instance holding a
   * session's GET stream delivers it (Streamable HTTP); other transports ignore it.
   */
  readonly everySession?: boolean;
  /** Extra HTTP headers for this message's POST (SEP-2243 `Mcp-Param-*`); other transports ignore them. */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Leave in a write of its own, and resolve once that write has completed rather than when it
   * is queued. stdio sends progress this way: the official SDK clients drop progress that they
   * read in the same chunk as its response (typescript-sdk#2580). Memory and HTTP ignore it.
   */
  readonly alone?: boolean;
  /**
   * Start far enough after what was written before that no read of a pipe holds both: stdio
   * writes it after 64 KiB of JSON whitespace. Sent with a response that follows progress where
   * nothing can confirm the progress was handled (2026-07-28). Memory and HTTP ignore it.
   */
  readonly apart?: boolean;
  /**
   * The peer's answer refusing a request before any handler ran, because its id is already in
   * flight (JSON-RPC: ids are unique among a sender's outstanding requests). Sent from within
   * `receiver.message()`, it answers the message being delivered, not the request in flight under
   * the same id. Streamable HTTP sends it on that POST, with 400 when it is the POST's only answer
   * ("If the server cannot accept the input, it MUST return an HTTP error status code"); stdio and
   * memory ignore it.
   */
  readonly refusal?: boolean;
}

/** Called by the transport, in order and never from inside `send`. Its methods must not throw. */
export interface Receiver {
  /** One parsed JSON value. The value is the receiver's; the transport keeps no reference. */
  message(value: unknown, context?: MessageContext): void;
  /** A frame that is not JSON, or is too large; the connection stays usable. */
  malformed(problem: FrameProblem): void;
  /** The transport is finished (EOF, peer gone, `close()`); `error` says why when it was not asked to. */
  closed(error?: Error): void;
  /**
   * The input ended cleanly (EOF) while the output is still open. Resolves once the receiver has
   * sent everything it still owes, giving up after `graceMs`; the transport then flushes, closes
   * and reports `closed()`. Without it, EOF closes at once.
   */
  ended?(graceMs: number): Promise<void>;
}

/** What a transport tells about the message it delivers: over Streamable HTTP, its request's facts. Handlers read it as `ctx.transport`. */
export interface MessageContext {
  /** Streamable HTTP: the request's headers, names lower-cased (repeated ones as arrays). */
  readonly headers?: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** Streamable HTTP with `auth`: the request's verified access token. */
  readonly auth?: AuthInfo;
  /** Platforms that end a request's work with its response (Workers): keeps `work` running after it. */
  readonly waitUntil?: (work: Promise<unknown>) => void;
  /**
   * The era, when the transport decided it (Streamable HTTP, from the session id and headers): the
   * server session takes it as decided. Absent (stdio, memory), the session reads it from the
   * request's `_meta`.
   */
  readonly era?: Era;
}

/**
 * What a verified access token says (the resource server side of MCP authorization): put in a
 * message's context by an HTTP endpoint configured with `auth`, read by handlers as `ctx.auth`.
 * Here, with the transport contract, so that every layer above can name it; runtime/auth produces it.
 */
export interface AuthInfo {
  /** The access token itself, as presented. */
  readonly token: string;
  readonly clientId?: string;
  /** The resource owner (`sub`). */
  readonly subject?: string;
  readonly scopes: readonly string[];
  /** Expiry, in seconds since the epoch (`exp`). */
  readonly expiresAt?: number;
  /** Every claim of the token (JWT) or of the introspection answer. */
  readonly claims?: Readonly<Record<string, unknown>>;
}

/**
 * "parse": the frame is not JSON (`message` is the parser's; `excerpt`, when the transport keeps
 * it, the frame's first characters, to show what wrote it). "oversized": the frame was larger
 * than `limit`; `bytes` is its size, terminator excluded, and none of it was kept but, where the
 * transport keeps them, its first and last 200 characters (`head`, `tail`: what names the message,
 * jsonrpc/frame-ends.ts).
 */
export type FrameProblem =
  | { readonly kind: "parse"; readonly message: string; readonly excerpt?: string }
  | { readonly kind: "oversized"; readonly bytes: number; readonly limit: number; readonly head?: string; readonly tail?: string };

/** The default largest message a byte transport accepts: 128 MiB (a 64 MiB payload and its envelope fit). */
export const DEFAULT_MAX_MESSAGE_BYTES = 128 * 1024 * 1024;

/** Bytes waiting to be written at which a transport applies back-pressure (senders wait; stdio stops reading): 4 MiB. */
export const DEFAULT_MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

/** How long a reader may stay over the bound before it is cut off (stdio, Streamable HTTP): 30 s. */
export const DEFAULT_STUCK_TIMEOUT_MS = 30_000;
