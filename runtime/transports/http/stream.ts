import { jsonText, type RequestId } from "../../jsonrpc/messages.js";
import type { EventStore, StoredEvent } from "../../stores/event-store.js";
import type { Reply } from "./reply.js";
import { sseEvent, ssePriming, startSse } from "./sse.js";

/**
 * How a stream may answer. JSON is one body once every request of the POST is answered; SSE is
 * one event per message, as they come.
 *
 * The rule: a POST's answer is JSON unless something must be sent before its response(s): a
 * progress or log notification, or a request to the client. Then the answer becomes an SSE
 * stream from that point on. SSE from the start when the client prefers it (its Accept puts
 * text/event-stream first, or accepts nothing else) or the endpoint has `responseMode: "sse"`.
 */
export interface StreamOptions {
  readonly json: boolean;
  readonly sse: boolean;
  /** Start as SSE at once (SSE-only client, or responseMode "sse"). */
  readonly sseFirst: boolean;
  /** Headers for the response: session id, CORS. */
  readonly headers: Readonly<Record<string, string>>;
  /** The HTTP status of a JSON body that is one response (or one batch of them); a body that gathers several goes with 200. */
  readonly statusOf: (body: unknown) => number;
  /** Resumability (session era): where events are kept, for whom, and whether to prime. */
  readonly resumable?: Resumable;
}

export interface Resumable {
  /** Where its events are kept: in this process (an id at once) or shared by many instances (an id once stored). */
  readonly store: Pick<EventStore, "append" | "primingId">;
  readonly owner: string;
  readonly prime: boolean;
  readonly retryMs?: number;
  /**
   * Many instances: told of each event once stored (undefined: the stream ended) while no
   * connection of this instance carries it, so that a client resumed on another instance gets it.
   */
  readonly unattached?: (streamId: string, event: StoredEvent | undefined) => void;
}

export interface StreamEvents {
  /** Every request of the stream is answered (or the stream was ended): it is done. */
  finished(stream: ResponseStream): void;
  /** The client went away before the stream was finished. */
  disconnected(stream: ResponseStream): void;
  /** The client was cut off for reading nothing past the bounds (BackpressureOptions), finished or not. */
  stuck?(stream: ResponseStream): void;
}

/**
 * One logical outbound stream: the answer to one POST (finished once each of its requests has
 * its response) or the standalone GET stream (never finished by responses). Its HTTP connection
 * can go and, when resumable, come back (Last-Event-ID); what is sent meanwhile is kept in the
 * event store.
 */
export class ResponseStream {
  private res: Reply | undefined;
  private unlisten: (() => void) | undefined;
  private mode: "undecided" | "json" | "sse" = "undecided";
  private readonly pending: Set<RequestId>;
  /**
   * Responses held back for a JSON body: their JSON text (made as each is written: one JSON cannot
   * carry is refused then), whether it is an array, and its status; not the message, which would
   * hold a batch's answers twice until the last one comes.
   */
  private held: { readonly text: string; readonly batch: boolean; readonly status: number }[] = [];
  private isFinished = false;
  /** Anything was written or decided: an empty POST answer (202) is no longer possible. */
  private used = false;
  /** Resolves when the stream finishes; made only when a closed connection leaves work behind. */
  private whenFinished: Promise<void> | undefined;
  private resolveFinished: (() => void) | undefined;
  /** With a shared event store: what waits for an event's id, so that the connection gets events (and its end) in order. */
  private queue: Promise<void> | undefined;

  constructor(
    readonly id: string,
    /** Undefined: the stream starts with no connection (one resumes it). */
    res: Reply | undefined,
    requestIds: readonly RequestId[] | undefined,
    private readonly options: StreamOptions,
    private readonly events: StreamEvents,
    /** SSE-first, but from {@link begin} or the first message on: until then a refusal can still have its status ({@link refuse}). */
    deferred = false,
  ) {
    this.res = res;
    this.pending = new Set(requestIds ?? []);
    this.standalone = requestIds === undefined;
    this.listen(res);
    if ((options.sseFirst && !deferred) || this.standalone) this.beginSse();
  }

  /** A deferred SSE-first stream starts, if nothing has decided it yet (its POST's messages were delivered). */
  begin(): void {
    if (!this.isFinished && this.mode === "undecided" && this.options.sseFirst) this.beginSse();
  }

  /**
   * The peer refused one of the POST's requests before any handler ran (SendOptions.refusal: its
   * id is already in flight). Its only answer, with nothing sent yet, goes with 400 (Streamable
   * HTTP: "If the server cannot accept the input, it MUST return an HTTP error status code");
   * otherwise it is an answer like any other.
   */
  refuse(message: unknown, given?: string): boolean {
    if (this.isFinished || this.mode !== "undecided" || this.held.length > 0 || this.pending.size !== 1 || this.res?.started !== false) return this.write(message, given);
    const text = given ?? jsonText(message);
    this.pending.clear();
    this.sendJson(400, text);
    return true;
  }

  readonly standalone: boolean;

  get finished(): boolean {
    return this.isFinished;
  }

  get attached(): boolean {
    return this.res !== undefined;
  }

  get requestIds(): ReadonlySet<RequestId> {
    return this.pending;
  }

  get wasUsed(): boolean {
    return this.used;
  }

  /**
   * Sends one message (or batch). Returns false when this stream cannot carry it: a notification
   * or request for a client that does not accept SSE, or a finished stream. The caller then sends
   * it elsewhere.
   */
  write(message: unknown, given?: string): boolean {
    if (this.isFinished) return false;
    this.begin();
    const answered = answeredIds(message);
    if (answered === undefined) {
      // A notification or a request of ours: its text made only when this stream carries it.
      if (this.mode === "undecided") {
        if (!this.options.sse) return false;
        this.beginSse();
      } else if (this.mode === "json") return false;
      this.emit(given ?? jsonText(message));
      return true;
    }
    // A response: its text before the pending ids move (one JSON cannot carry is refused to the sender, which answers for it).
    const text = given ?? jsonText(message);
    this.used = true;
    if (answered === "all") this.pending.clear();
    else for (const id of answered) this.pending.delete(id);
    if (this.mode === "sse") {
      this.emit(text);
      if (this.pending.size === 0 && !this.standalone) this.finish();
      return true;
    }
    this.held.push({ text, batch: Array.isArray(message), status: this.options.statusOf(message) });
    if (this.pending.size === 0) this.complete();
    return true;
  }

  /** Backpressure (Reply.room): undefined while its connection has room, or while it has none (the event store keeps what it misses). */
  room(): Promise<void> | undefined {
    return this.res?.room();
  }

  /**
   * The client cancelled request `id` (notifications/cancelled): no response will come for it, so
   * the stream no longer waits for one, and ends once nothing else is pending.
   */
  cancel(id: RequestId): void {
    if (this.isFinished || !this.pending.delete(id) || this.pending.size > 0) return;
    if (this.mode === "sse" || this.held.length === 0) this.finish();
    else this.complete();
  }

  /** Every request answered with nothing sent before: the held responses as one JSON body (or SSE). */
  private complete(): void {
    if (!this.options.json) {
      this.beginSse();
      for (const held of this.held.splice(0)) this.emit(held.text);
      this.finish();
      return;
    }
    const [first] = this.held;
    // One body: the single response, or every response (a batch's spread) in one array.
    const [status, text] = this.held.length === 1 ? [first!.status, first!.text] : [200, `[${this.held.map((h) => (h.batch ? h.text.slice(1, -1) : h.text)).filter((t) => t !== "").join(",")}]`];
    this.held = [];
    this.sendJson(status, text);
  }

  /** The whole answer, as one JSON body. */
  private sendJson(status: number, text: string): void {
    this.mode = "json";
    this.used = true;
    const res = this.res;
    this.detach(false);
    res?.send(status, { ...this.options.headers, "Content-Type": "application/json" }, text);
    this.finish();
  }

  /**
   * Resumption: the client reconnected with Last-Event-ID. Replays `missed` on `res`, then carries
   * on there (or ends at once when the stream is already finished).
   */
  resume(res: Reply, missed: readonly { id: string; data: string }[]): void {
    this.detach(true);
    startSse(res, this.options.headers);
    for (const event of missed) res.write(sseEvent(event.data, event.id));
    if (this.isFinished) {
      res.end();
      return;
    }
    this.res = res;
    this.mode = "sse";
    this.listen(res);
  }

  /** Attaches a fresh connection to the standalone stream (a GET without Last-Event-ID). */
  reattach(res: Reply): void {
    this.detach(true);
    this.res = res;
    this.listen(res);
    this.beginSse();
  }

  /**
   * SEP-1699 polling: ends the HTTP response but not the stream. Only for a resumable stream
   * whose client gets priming events (2025-11-25 and later); it becomes SSE first so that the
   * client has an event id to come back with.
   */
  closeConnection(): boolean {
    // Without a priming event the client has no id to come back with: keep the connection.
    if (this.isFinished || !this.options.resumable?.prime || !this.options.sse) return false;
    if (this.mode === "json") return false;
    if (this.mode === "undecided") this.beginSse();
    // The requests still run: on platforms that end a request's work with its response, they must not.
    this.res?.waitUntil?.((this.whenFinished ??= new Promise((resolve) => (this.resolveFinished = resolve))));
    this.detach(true);
    return true;
  }

  /** Ends the stream: no more messages; the connection (if any) is closed. */
  end(): void {
    this.finish();
  }

  private beginSse(): void {
    if (this.mode === "sse") return;
    this.mode = "sse";
    this.used = true;
    const res = this.res;
    if (!res) return;
    if (!res.started) startSse(res, this.options.headers);
    const resumable = this.options.resumable;
    if (resumable?.prime) res.write(ssePriming(resumable.store.primingId(this.id), resumable.retryMs));
  }

  private emit(data: string): void {
    const resumable = this.options.resumable;
    if (!resumable) return void this.res?.write(sseEvent(data));
    const id = resumable.store.append(resumable.owner, this.id, data);
    if (typeof id === "string" && !this.queue) return this.written({ id, data });
    this.queue = (this.queue ?? Promise.resolve()).then(async () => this.written({ id: await id, data }));
    this.queue.catch(() => {}); // a failed append reaches the finish below, which logs nothing more
  }

  private written(event: StoredEvent): void {
    if (this.res) this.res.write(sseEvent(event.data, event.id));
    else this.options.resumable?.unattached?.(this.id, event);
  }

  private finish(): void {
    if (this.isFinished) return;
    this.isFinished = true;
    const done = () => {
      this.resolveFinished?.();
      const res = this.res;
      this.detach(false);
      if (res && !res.ended) {
        if (!res.started) res.send(202, this.options.headers);
        else res.end();
      } else if (!res && this.mode === "sse") this.options.resumable?.unattached?.(this.id, undefined);
      this.events.finished(this);
    };
    if (this.queue) void this.queue.then(done, done);
    else done();
  }

  /** Lets go of the connection; `end` closes it too. */
  private detach(end: boolean): void {
    const res = this.res;
    if (!res) return;
    this.res = undefined;
    this.unlisten?.();
    this.unlisten = undefined;
    if (end && !res.ended) res.end();
  }

  private listen(res: Reply | undefined): void {
    if (!res) return;
    this.unlisten = res.onClose(this.onClose);
    if (this.events.stuck) res.onCutOff(() => this.events.stuck!(this));
  }

  private readonly onClose = (): void => {
    if (!this.res) return;
    this.res = undefined;
    if (!this.isFinished) this.events.disconnected(this);
  };
}

/**
 * The request ids a message answers: undefined when it is not a response (a notification or a
 * request), "all" for an error response with id null (the whole message failed).
 */
export function answeredIds(message: unknown): RequestId[] | "all" | undefined {
  if (Array.isArray(message)) {
    const ids: RequestId[] = [];
    for (const item of message) {
      const one = answeredIds(item);
      if (one === undefined) return undefined;
      if (one === "all") return "all";
      ids.push(...one);
    }
    return ids;
  }
  if (typeof message !== "object" || message === null) return undefined;
  const m = message as { method?: unknown; id?: unknown; result?: unknown; error?: unknown };
  if (m.method !== undefined || (m.result === undefined && m.error === undefined)) return undefined;
  if (m.id === null || m.id === undefined) return "all";
  return [m.id as RequestId];
}
