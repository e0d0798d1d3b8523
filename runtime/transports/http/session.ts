import type { RequestId } from "../../jsonrpc/messages.js";
import { TransportClosedError } from "../closed-error.js";
import type { MessageContext, Receiver, SendOptions, Transport } from "../transport.js";
import type { Logger } from "../../util/logger.js";
import { refuse, statusOfResponse, writeError } from "./errors.js";
import type { EventStore } from "./event-store.js";
import type { Accepts } from "./negotiation.js";
import type { Reply } from "./reply.js";
import { sseEvent, startSse } from "./sse.js";
import { ResponseStream, type StreamEvents, type StreamOptions } from "./stream.js";

export interface SessionSettings {
  readonly store: EventStore | undefined;
  readonly retryMs: number | undefined;
  readonly sseFirst: boolean;
  readonly logger: Logger;
  /** Whether SSE streams start with a priming event (the client speaks 2025-11-25 or later). */
  readonly prime: () => boolean;
}

/** A fresh session id: 128 random bits as hex, visible ASCII as the spec requires. */
export function newSessionId(): string {
  return randomHex(16);
}

export function newStreamId(): string {
  return randomHex(8);
}

/** `bytes` random bytes as hex, from the Web Crypto API (every runtime has it). */
function randomHex(bytes: number): string {
  let hex = "";
  for (const byte of crypto.getRandomValues(new Uint8Array(bytes))) hex += byte.toString(16).padStart(2, "0");
  return hex;
}

/**
 * Session era: one MCP session over Streamable HTTP, seen by its ServerSession as one transport.
 *
 * Inbound: each POST's messages go to the receiver. Outbound, `send` finds the stream a message
 * belongs to: a response goes on the stream of the POST that carried its request; a message
 * related to a request (progress, logs, a question to the client) goes on that request's stream
 * while it is open; anything else goes on the standalone stream that a GET opens. Messages for a
 * stream without a connection are kept in the event store, for a client that resumes.
 */
export class HttpSession implements Transport {
  private receiver: Receiver | undefined;
  private readonly byRequest = new Map<RequestId, ResponseStream>();
  private readonly streams = new Map<string, ResponseStream>();
  private standalone: ResponseStream | undefined;
  private readonly standaloneId = newStreamId();
  /** The stream of the POST being delivered, for replies the peer makes at once (id null). */
  private delivering: ResponseStream | undefined;
  private isClosed = false;
  /** The id of the initialize request that started the session, until it is answered. */
  private initializeId: RequestId | undefined;
  private closing: Promise<void> | undefined;

  constructor(
    readonly id: string,
    private readonly settings: SessionSettings,
    private readonly onClosed: (session: HttpSession) => void,
    /** Who started the session (their token's client and subject), "" without authorization. */
    readonly principal: string = "",
  ) {}

  get closed(): boolean {
    return this.isClosed;
  }

  /** When the client last sent something (ms since the epoch). */
  lastActive = Date.now();

  /** Something is still going on: an answer in progress, or an open GET stream. */
  get busy(): boolean {
    return this.streams.size > 0 || (this.standalone?.attached ?? false);
  }

  start(receiver: Receiver): void {
    if (this.receiver) throw new Error("HttpSession.start called twice");
    this.receiver = receiver;
  }

  send(message: unknown, options?: SendOptions): Promise<void> {
    if (this.isClosed) return Promise.reject(new TransportClosedError());
    this.route(message, options?.relatedRequestId);
    return RESOLVED;
  }

  close(): Promise<void> {
    if (!this.closing) {
      this.isClosed = true;
      for (const stream of [...this.streams.values()]) stream.end();
      this.standalone?.end();
      this.settings.store?.forget(this.id);
      this.closing = Promise.resolve().then(() => {
        this.onClosed(this);
        this.receiver?.closed();
      });
    }
    return this.closing;
  }

  /**
   * A POST in this session: `body` is one message or a batch, already parsed. `initialize`: this
   * POST starts the session, which ends at once if its initialize fails.
   */
  post(res: Reply, body: unknown, accepts: Accepts, context: MessageContext, headers: Record<string, string>, initialize = false): void {
    this.lastActive = Date.now();
    const messages = Array.isArray(body) ? body : [body];
    const ids: RequestId[] = [];
    for (const message of messages) {
      const m = message as { method?: unknown; id?: unknown } | null;
      if (typeof m === "object" && m !== null && typeof m.method === "string" && (typeof m.id === "string" || typeof m.id === "number")) {
        if (this.byRequest.has(m.id) || ids.includes(m.id)) {
          writeError(res, refuse.invalid(`request id ${JSON.stringify(m.id)} is already in flight in this session`, m.id), headers);
          return;
        }
        ids.push(m.id);
      }
    }
    const stream = this.openStream(res, ids, accepts, headers);
    for (const id of ids) this.byRequest.set(id, stream);
    if (initialize) this.initializeId = ids[0];
    this.delivering = stream;
    try {
      this.receiver!.message(body, context);
    } finally {
      this.delivering = undefined;
    }
    for (const message of messages) this.cancelled(message);
    // Only notifications and responses, and nothing to say about them: 202 Accepted.
    if (ids.length === 0 && !stream.finished) stream.end();
  }

  /**
   * notifications/cancelled: the peer has aborted the request's handler, and no response will
   * follow (MCP "Cancellation"). Its stream stops waiting for one (and ends when nothing else is
   * pending), and its id is free again, so an idle session can expire.
   */
  private cancelled(message: unknown): void {
    const m = message as { method?: unknown; params?: { requestId?: unknown } } | null;
    if (m?.method !== "notifications/cancelled") return;
    const id = m.params?.requestId;
    if (typeof id !== "string" && typeof id !== "number") return;
    const stream = this.byRequest.get(id);
    if (!stream) return;
    this.byRequest.delete(id);
    stream.cancel(id);
  }

  /** A GET: opens the standalone stream, or resumes a stream after `lastEventId`. */
  get(res: Reply, lastEventId: string | undefined, headers: Record<string, string>): void {
    this.lastActive = Date.now();
    if (lastEventId !== undefined) {
      const store = this.settings.store;
      const replay = store?.replayAfter(this.id, lastEventId);
      if (!replay) {
        writeError(res, refuse.badRequest(`Last-Event-ID ${JSON.stringify(lastEventId)} names no stream of this session`), headers);
        return;
      }
      if (replay.evicted) {
        writeError(res, refuse.gone(`events after Last-Event-ID ${JSON.stringify(lastEventId)} are no longer kept (the event store's bounds); reconnect without Last-Event-ID`), headers);
        return;
      }
      const stream = replay.streamId === this.standaloneId ? this.ensureStandalone(res, headers, false) : this.streams.get(replay.streamId);
      if (stream) {
        stream.resume(res, replay.events);
        return;
      }
      // The stream is over: replay what it sent, then end.
      startSse(res, headers);
      for (const event of replay.events) res.write(sseEvent(event.data, event.id));
      res.end();
      return;
    }
    if (this.standalone?.attached) {
      writeError(res, refuse.conflict("this session already has an open GET stream"), headers);
      return;
    }
    this.ensureStandalone(res, headers, true);
  }

  /** SEP-1699: closes the connection carrying `requestId`'s stream; the client resumes with Last-Event-ID. */
  closeRequestStream(requestId: RequestId): boolean {
    return this.byRequest.get(requestId)?.closeConnection() ?? false;
  }

  /** Closes the standalone stream's connection (the client may reconnect with Last-Event-ID). */
  closeStandaloneStream(): boolean {
    return this.standalone?.closeConnection() ?? false;
  }

  // -- routing --------------------------------------------------------------------------------

  private route(message: unknown, related: RequestId | undefined): void {
    const responseId = responseIdOf(message);
    if (responseId !== NOT_A_RESPONSE) {
      const stream = (responseId === null ? undefined : this.byRequest.get(responseId)) ?? this.delivering;
      if (this.initializeId !== undefined && responseId === this.initializeId) {
        this.initializeId = undefined;
        // A session whose initialize failed never began.
        if ((message as { error?: unknown }).error !== undefined) queueMicrotask(() => void this.close());
      }
      if (stream?.write(message)) return;
      this.settings.logger("debug", `dropped a response for request ${JSON.stringify(responseId)}: its stream is gone`);
      return;
    }
    if (related !== undefined && this.byRequest.get(related)?.write(message)) return;
    this.toStandalone(message);
  }

  private toStandalone(message: unknown): void {
    const stream = this.standalone;
    if (stream) stream.write(message);
    else if (this.settings.store) this.settings.store.append(this.id, this.standaloneId, JSON.stringify(message));
  }

  private ensureStandalone(res: Reply, headers: Record<string, string>, attach: boolean): ResponseStream {
    if (this.standalone) {
      if (attach) this.standalone.reattach(res);
      return this.standalone;
    }
    this.standalone = new ResponseStream(
      this.standaloneId,
      res,
      undefined,
      this.streamOptions({ json: false, sse: true, preferSse: true }, headers),
      { finished: () => {}, disconnected: () => {} },
    );
    return this.standalone;
  }

  private openStream(res: Reply, ids: RequestId[], accepts: Accepts, headers: Record<string, string>): ResponseStream {
    const events: StreamEvents = {
      finished: (stream) => {
        this.streams.delete(stream.id);
        for (const id of ids) if (this.byRequest.get(id) === stream) this.byRequest.delete(id);
      },
      // Session era: a dropped connection is not a cancellation (the client sends notifications/cancelled).
      disconnected: () => {},
    };
    // Only notifications and responses: 202 with no body, even for a client that accepts only SSE.
    const options = this.streamOptions(accepts, headers);
    const stream = new ResponseStream(newStreamId(), res, ids, ids.length === 0 ? { ...options, sseFirst: false } : options, events);
    this.streams.set(stream.id, stream);
    return stream;
  }

  private streamOptions(accepts: Accepts, headers: Record<string, string>): StreamOptions {
    const { store, retryMs } = this.settings;
    return {
      json: accepts.json,
      sse: accepts.sse,
      sseFirst: accepts.sse && (accepts.preferSse || !accepts.json || this.settings.sseFirst),
      headers,
      // A message that failed as a whole (id null) is the client's fault; answers to requests travel with 200.
      statusOf: (body) => ((body as { id?: unknown } | null)?.id === null ? statusOfResponse(body) : 200),
      resumable: store ? { store, owner: this.id, prime: this.settings.prime(), retryMs } : undefined,
    };
  }
}

const NOT_A_RESPONSE = Symbol("not a response");

/** The id a response (or the first of a batch of responses) answers; null for a failed message. */
function responseIdOf(message: unknown): RequestId | null | typeof NOT_A_RESPONSE {
  const first = Array.isArray(message) ? message[0] : message;
  if (typeof first !== "object" || first === null) return NOT_A_RESPONSE;
  const m = first as { method?: unknown; id?: unknown; result?: unknown; error?: unknown };
  if (m.method !== undefined || (m.result === undefined && m.error === undefined)) return NOT_A_RESPONSE;
  return (m.id as RequestId | null | undefined) ?? null;
}

const RESOLVED: Promise<void> = Promise.resolve();
