import { isRequestId, jsonText, type RequestId } from "../../jsonrpc/messages.js";
import { TransportClosedError } from "../closed-error.js";
import type { MessageContext, Receiver, SendOptions, Transport, TransportFacts } from "../../jsonrpc/transport.js";
import type { Logger } from "../../util/logger.js";
import { refuse, statusOfResponse, writeError } from "./errors.js";
import type { EventStore, Replay } from "../../stores/event-store.js";
import { isThenable } from "../../util/thenable.js";
import type { Accepts } from "./negotiation.js";
import type { Reply } from "./reply.js";
import { sseEvent, startSse } from "./sse.js";
import { newStreamId, streamOf } from "./ids.js";
import type { SharedSessions } from "./sessions.js";
import { ResponseStream, type StreamEvents, type StreamOptions } from "./stream.js";

export interface SessionSettings {
  readonly store: EventStore | undefined;
  readonly retryMs: number | undefined;
  readonly sseFirst: boolean;
  readonly logger: Logger;
  /** Whether SSE streams start with a priming event (the client speaks 2025-11-25 or later). */
  readonly prime: () => boolean;
  /** Many instances: the session lives in shared stores, and its replicas talk over the bus (sessions.ts). */
  readonly shared?: SharedSessions;
  /** Many instances: records a session once its initialize succeeded, before the client learns of it. */
  readonly initialized?: (result: Record<string, unknown>) => Promise<unknown>;
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
  private readonly standaloneId: string;
  /** Many instances: this instance holds the GET stream; resolves with the function that lets go of it. */
  private holding: Promise<() => Promise<void>> | undefined;
  /** Many instances: requests whose answer waits until what they changed is in the shared store. */
  private readonly effects = new Map<RequestId, () => Promise<unknown>>();
  /** The stream of the POST being delivered, for replies the peer makes at once (id null). */
  private delivering: ResponseStream | undefined;
  private isClosed = false;
  /** The id of the initialize request that started the session, until it is answered. */
  private initializeId: RequestId | undefined;
  private closing: Promise<void> | undefined;
  private streamCount = 0;
  private lastOptions: { readonly accepts: Accepts; readonly headers: Record<string, string>; readonly prime: boolean; readonly options: StreamOptions } | undefined;

  constructor(
    readonly id: string,
    private readonly settings: SessionSettings,
    private readonly onClosed: (session: HttpSession) => void,
    /** Who started the session (their token's client and subject), "" without authorization. */
    readonly principal: string = "",
  ) {
    this.standaloneId = settings.shared?.standaloneId(id) ?? newStreamId();
  }

  get closed(): boolean {
    return this.isClosed;
  }

  get facts(): TransportFacts {
    return { network: "tcp", sessionId: this.id };
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
    try {
      // Backpressure: the sender waits until the stream it went on has room.
      return this.route(message, options)?.room() ?? RESOLVED;
    } catch (error) {
      // A message JSON cannot carry: refused to the sender, which answers for it (jsonrpc/peer.ts).
      return Promise.reject(error);
    }
  }

  close(): Promise<void> {
    if (!this.closing) {
      this.isClosed = true;
      for (const stream of [...this.streams.values()]) stream.end();
      this.standalone?.end();
      this.release();
      settle(this.settings.store?.forget(this.id), this.settings.logger, `session ${this.id}: the event store could not forget it`);
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
    const shared = this.settings.shared;
    let messages = Array.isArray(body) ? body : [body];
    if (shared) {
      // Answers to requests another instance sent go there; what is left is this instance's.
      messages = messages.map((message) => shared.inbound(this.id, message)).filter((message) => message !== undefined);
      body = Array.isArray(body) ? messages : messages[0];
      if (messages.length === 0) return void res.send(202, headers);
    }
    // The requests' ids, for routing their answers here. Whether an id is already in flight is the
    // peer's to judge (it refuses the duplicate, SendOptions.refusal): an id keeps the stream of
    // its first request, so a refused duplicate never takes over another request's stream.
    const ids: RequestId[] = [];
    for (const message of messages) {
      const m = message as { method?: unknown; id?: unknown } | null;
      if (typeof m === "object" && m !== null && typeof m.method === "string" && isRequestId(m.id)) {
        ids.push(m.id);
        const effect = shared?.effect(this.id, m.method, (m as { params?: Record<string, unknown> }).params);
        if (effect && !this.effects.has(m.id)) this.effects.set(m.id, effect);
      }
    }
    const stream = this.openStream(res, ids, accepts, headers);
    for (const id of ids) if (!this.byRequest.has(id)) this.byRequest.set(id, stream);
    if (initialize) this.initializeId = ids[0];
    this.delivering = stream;
    try {
      this.receiver!.message(body, context);
    } finally {
      this.delivering = undefined;
    }
    // Only notifications and responses, and nothing to say about them: 202 Accepted.
    if (ids.length === 0 && !stream.finished) stream.end();
    else stream.begin();
  }

  /**
   * The peer aborted the request's handler (notifications/cancelled, MCP "Cancellation") and no
   * response will follow. Its stream stops waiting for one (and ends when nothing else is
   * pending), and its id is free again, so an idle session can expire.
   */
  unanswered(id: RequestId): void {
    const stream = this.byRequest.get(id);
    if (!stream) return;
    this.byRequest.delete(id);
    stream.cancel(id);
  }

  /** Many instances: a client's answer to a request this instance sent, which it POSTed to another. */
  deliver(message: unknown): void {
    if (!this.isClosed) this.receiver?.message(message);
  }

  /** A GET: opens the standalone stream, or resumes a stream after `lastEventId`. */
  get(res: Reply, lastEventId: string | undefined, headers: Record<string, string>): void | Promise<void> {
    this.lastActive = Date.now();
    if (this.settings.shared) return this.sharedGet(res, lastEventId, headers, this.settings.shared);
    if (lastEventId !== undefined) {
      const replay = this.settings.store?.replayAfter(this.id, lastEventId);
      return isThenable(replay) ? replay.then((answered) => this.resume(res, lastEventId, answered, headers)) : this.resume(res, lastEventId, replay, headers);
    }
    if (this.standalone?.attached) {
      writeError(res, refuse.conflict("this session already has an open GET stream"), headers);
      return;
    }
    this.ensureStandalone(res, headers, true);
  }

  /** A GET with Last-Event-ID: the store's replay after it, on the stream if it is still open. */
  private resume(res: Reply, lastEventId: string, replay: Replay | undefined, headers: Record<string, string>): void {
    if (!replay) return writeError(res, refuse.badRequest(`Last-Event-ID ${JSON.stringify(lastEventId)} names no stream of this session`), headers);
    if (replay.truncated)
      return writeError(res, refuse.gone(`events after Last-Event-ID ${JSON.stringify(lastEventId)} are no longer kept (the event store's bounds); reconnect without Last-Event-ID`), headers);
    const stream = replay.streamId === this.standaloneId ? this.ensureStandalone(res, headers, false) : this.streams.get(replay.streamId);
    if (stream) return stream.resume(res, replay.events);
    // The stream is over: replay what it sent, then end.
    startSse(res, headers);
    for (const event of replay.events) res.write(sseEvent(event.data, event.id));
    res.end();
  }

  /**
   * Many instances: a GET may resume a stream of this instance, the GET stream (whichever instance
   * held it before), or a request's stream that another instance goes on producing.
   */
  private async sharedGet(res: Reply, lastEventId: string | undefined, headers: Record<string, string>, shared: SharedSessions): Promise<void> {
    if (lastEventId === undefined) {
      if (this.standalone?.attached) return writeError(res, refuse.conflict("this session already has an open GET stream"), headers);
      // Held before the stream opens: what another instance sends once the client sees it open must
      // reach it, not the store (a publish no instance receives is kept only for a client that resumes).
      const waiting: unknown[] = [];
      await this.hold(shared, waiting);
      if (this.standalone?.attached) return writeError(res, refuse.conflict("this session already has an open GET stream"), headers);
      const stream = this.ensureStandalone(res, headers, true);
      for (const message of waiting.splice(0)) stream.write(message);
      return;
    }
    const streamId = streamOf(lastEventId);
    const local = streamId === undefined ? undefined : this.streams.get(streamId);
    if (streamId !== this.standaloneId && !local) return shared.resume(this.id, lastEventId, res, headers);
    // Messages for the GET stream that arrive while the store is read wait, so they follow what it kept.
    const waiting: unknown[] = [];
    if (!local) await this.hold(shared, waiting);
    const replay = await shared.replay(this.id, lastEventId, res, headers);
    if (!replay) return;
    const stream = local ?? this.ensureStandalone(undefined, headers, false);
    stream.resume(res, replay.events);
    for (const message of waiting.splice(0)) stream.write(message);
  }

  /** Takes the messages other instances send this session's GET stream; until it is attached, they wait in `waiting`. */
  private async hold(shared: SharedSessions, waiting: unknown[]): Promise<void> {
    if (this.holding) return;
    this.holding = shared.hold(this.id, (message) => {
      if (this.standalone?.attached) this.standalone.write(message);
      else waiting.push(message);
    });
    await this.holding;
  }

  /** Lets another instance hold the GET stream. */
  private release(): void {
    const holding = this.holding;
    this.holding = undefined;
    holding?.then((letGo) => letGo()).catch((error: Error) => this.settings.logger("warn", `session ${this.id}: ${error.message}`));
  }

  /** SEP-1699: closes the connection carrying `requestId`'s stream; the client resumes with Last-Event-ID. */
  closeRequestStream(requestId: RequestId): boolean {
    return this.byRequest.get(requestId)?.closeConnection() ?? false;
  }

  /** Closes the standalone stream's connection (the client may reconnect with Last-Event-ID). */
  closeStandaloneStream(): boolean {
    return this.standalone?.closeConnection() ?? false;
  }

  /** A client cut off for reading nothing past the bounds: the session ends, its handlers aborted and what it kept forgotten. */
  private readonly stuck = (): void => {
    if (this.isClosed) return;
    this.settings.logger("warn", `session ${this.id}: ended, its client stopped reading`);
    void this.close();
  };

  // -- routing --------------------------------------------------------------------------------

  /** Sends `message` where it belongs; where it went, when it is not a response (responses never wait). */
  private route(message: unknown, options: SendOptions | undefined): Delivery | undefined {
    // The peer refused a request of the POST being delivered (its id is another request's): it goes there.
    if (options?.refusal) {
      if (!this.delivering?.refuse(message)) this.settings.logger("debug", `dropped a refusal ${JSON.stringify(message)}: no POST is being delivered`);
      return;
    }
    const responseId = responseIdOf(message);
    if (responseId !== NOT_A_RESPONSE) {
      // Its JSON text first: a result JSON cannot carry is refused before the session's state moves (initializeId, effects).
      const text = jsonText(message);
      const stream = (responseId === null ? undefined : this.streamAnswering(message, responseId)) ?? this.delivering;
      const failed = (message as { error?: unknown }).error !== undefined;
      // The effect of the request that holds the id (not of a batch answered elsewhere that repeats it).
      let effect = responseId === null || stream !== this.byRequest.get(responseId) ? undefined : this.effects.get(responseId);
      if (effect) this.effects.delete(responseId!);
      if (this.initializeId !== undefined && responseId === this.initializeId) {
        this.initializeId = undefined;
        // A session whose initialize failed never began.
        if (failed) queueMicrotask(() => void this.close());
        else if (this.settings.initialized) effect = () => this.settings.initialized!((message as { result: Record<string, unknown> }).result);
      }
      // Many instances: the client learns of a change once every instance can see it.
      if (effect && !failed && stream)
        return void effect().then(
          () => stream.write(message, text),
          (error: Error) => {
            this.settings.logger("error", `session ${this.id}: the session store failed: ${error.message}`);
            stream.write({ jsonrpc: "2.0", id: responseId, error: { code: -32603, message: "Internal error: the session store failed" } });
          },
        );
      if (stream?.write(message, text)) return;
      this.settings.logger("debug", `dropped a response for request ${JSON.stringify(responseId)}: its stream is gone`);
      return;
    }
    const shared = this.settings.shared;
    const m = message as { method?: unknown; id?: unknown };
    // Many instances: the client answers our request to any instance, which finds us by the id.
    if (shared && typeof m.method === "string" && isRequestId(m.id)) message = { ...m, id: shared.outboundId(m.id) };
    const related = options?.relatedRequestId;
    const stream = related === undefined ? undefined : this.byRequest.get(related);
    if (stream?.write(message)) return stream;
    // Every instance raises it for its replica: the one holding the GET stream delivers it.
    if (shared && options?.everySession && !this.standalone?.attached) return;
    return this.toStandalone(message);
  }

  /**
   * The stream a response goes on: its request's. A batch's answers go to the stream awaiting all
   * of them: where one of its ids is also in flight on an earlier POST (the peer refused it in
   * the batch), the batch's own stream, not that POST's.
   */
  private streamAnswering(message: unknown, id: RequestId): ResponseStream | undefined {
    const first = this.byRequest.get(id);
    if (!Array.isArray(message) || first === undefined) return first;
    const ids = message.map((m) => (m as { id?: RequestId }).id);
    const awaitsAll = (stream: ResponseStream) => ids.every((i) => i !== undefined && stream.requestIds.has(i));
    if (awaitsAll(first)) return first;
    for (const stream of this.streams.values()) if (awaitsAll(stream)) return stream;
    return first;
  }

  private toStandalone(message: unknown): Delivery | undefined {
    const stream = this.standalone;
    const shared = this.settings.shared;
    if (shared && !stream?.attached) {
      // The sender waits until another instance has it or the store keeps it: what it sends next,
      // maybe from another instance, comes after it on the GET stream.
      const handed = shared.toStandalone(this.id, message).catch((error: Error) => this.settings.logger("error", `session ${this.id}: a message for the GET stream was lost: ${error.message}`));
      return { room: () => handed };
    }
    if (stream) return stream.write(message) ? stream : undefined;
    if (this.settings.store) settle(this.settings.store.append(this.id, this.standaloneId, JSON.stringify(message)), this.settings.logger, `session ${this.id}: a message for the GET stream was lost`);
    return undefined;
  }

  private ensureStandalone(res: Reply | undefined, headers: Record<string, string>, attach: boolean): ResponseStream {
    if (this.standalone) {
      if (attach && res) this.standalone.reattach(res);
      return this.standalone;
    }
    this.standalone = new ResponseStream(
      this.standaloneId,
      res,
      undefined,
      this.streamOptions({ json: false, sse: true, preferSse: true }, headers),
      // Many instances: a client whose GET stream broke may come back to another instance, which then holds it.
      { finished: () => {}, disconnected: () => this.release(), stuck: this.stuck },
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
      stuck: this.stuck,
    };
    // Only notifications and responses: 202 with no body, even for a client that accepts only SSE.
    const options = this.requestStreamOptions(accepts, headers);
    // A stream whose events no store keeps needs an id only here: a number is enough (a random id cost more than the rest of making the stream).
    const id = this.settings.store || this.settings.shared ? newStreamId() : String(++this.streamCount);
    // SSE-first streams begin once the POST is delivered (post), so that a refused request still gets its 400.
    const stream = new ResponseStream(id, res, ids, ids.length === 0 ? { ...options, sseFirst: false } : options, events, true);
    this.streams.set(stream.id, stream);
    return stream;
  }

  /** The options of the last POST's stream, when this one's are the same (a client sends the same Accept each time; no CORS: the same headers). */
  private requestStreamOptions(accepts: Accepts, headers: Record<string, string>): StreamOptions {
    const last = this.lastOptions;
    if (last && last.accepts === accepts && last.headers === headers && last.prime === this.settings.prime()) return last.options;
    const options = this.streamOptions(accepts, headers);
    this.lastOptions = { accepts, headers, prime: this.settings.prime(), options };
    return options;
  }

  private streamOptions(accepts: Accepts, headers: Record<string, string>): StreamOptions {
    const { store, retryMs, shared } = this.settings;
    return {
      json: accepts.json,
      sse: accepts.sse,
      sseFirst: accepts.sse && (accepts.preferSse || !accepts.json || this.settings.sseFirst),
      headers,
      statusOf: sessionStatusOf,
      resumable: shared
        ? { store: shared.events, owner: this.id, prime: this.settings.prime(), retryMs, unattached: (streamId, event) => shared.unattached(this.id, streamId, event) }
        : store
          ? { store, owner: this.id, prime: this.settings.prime(), retryMs }
          : undefined,
    };
  }
}

/** A message that failed as a whole (id null) is the client's fault; answers to requests travel with 200. */
function sessionStatusOf(body: unknown): number {
  return (body as { id?: unknown } | null)?.id === null ? statusOfResponse(body) : 200;
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

/** Where a message went: its sender waits for `room` (a stream's backpressure, or the hand-off to another instance). */
interface Delivery {
  room(): Promise<void> | undefined;
}

/** A store's answer that nobody waits for: a rejection is logged, not left unhandled. */
function settle(answer: unknown, logger: Logger, what: string): void {
  if (isThenable(answer)) (answer as Promise<unknown>).then(undefined, (error: Error) => logger("error", `${what}: ${error.message}`));
}
