import { CHANNELS, MemoryEventBus, type EventBus } from "../../stores/event-bus.js";
import type { EventStore, Replay, StoredEvent } from "../../stores/event-store.js";
import type { SessionRecord, SessionStore } from "../../stores/session-store.js";
import type { Logger } from "../../util/logger.js";
import { within } from "../../util/within.js";
import { isRequestId } from "../../jsonrpc/messages.js";
import { refuse, writeError } from "./errors.js";
import { InMemoryEventStore } from "./event-store.js";
import type { Reply } from "./reply.js";
import { newStreamId, streamOf } from "./ids.js";
import { sseEvent, startSse } from "./sse.js";

/**
 * Session era, many instances behind a load balancer with no affinity (issue 13): the endpoint's
 * options that share what a session is between instances. Give all three for many instances
 * (`@mcp-codegen/runtime/redis` has each); `sessions` alone turns sharing on with the other two in
 * this process's memory (one instance: what the tests of this layer use).
 */
export interface SharingOptions {
  /** Where sessions live: any instance serves any request of a session another initialized. */
  readonly sessions?: SessionStore;
  /** Where SSE events are kept, so a client resumes (Last-Event-ID) on any instance. */
  readonly events?: EventStore;
  /** Messages between instances: to the one holding a session's GET stream, a client's answer to the instance that asked, a resumed stream's events. */
  readonly bus?: EventBus;
}

/** A stream's end, as kept in the shared event store: an event with no data (a JSON-RPC message is never empty). */
const END = "";

/** What travels on a session's channel: a message for its GET stream, from any instance. */
type ToStandalone = { readonly message: unknown };
/** What travels on a stream's channel: its events while no connection of its instance carries it, and its end. */
type StreamEvent = { readonly id: string; readonly data: string } | { readonly end: true };
/** What travels on an instance's reply channel: a client's answer to a request that instance sent. */
type Forwarded = { readonly sessionId: string; readonly message: unknown };
/** What travels on the session-changed channel, and back on the changer's acks channel. */
type Changed = { readonly sessionId: string; readonly from: string; readonly nonce: number };
type Ack = { readonly nonce: number };

/**
 * A cached record is served without asking the store for this long (or a quarter of the session's
 * ttl, if less, so that a session in use never expires); then the next request of the session
 * pushes its expiry back and checks its version in one command. Changes reach every
 * instance over the bus before they are answered; this bounds what a lost bus message (a dropped
 * pub/sub connection) could leave stale.
 */
const RECHECK_MS = 1_000;
/** How long a change waits for the other instances to confirm they dropped their copy. */
const ACK_TIMEOUT_MS = 2_000;
/** The most records an instance keeps; the oldest go first. */
const MAX_CACHED = 10_000;

/** The requests whose success changes the shared session record; their answer waits until it is written. */
const EFFECTS: Record<string, (store: SessionStore, sessionId: string, params: Record<string, unknown>) => Promise<boolean>> = {
  "logging/setLevel": (store, id, params) => store.setLogLevel(id, String(params.level)),
  "resources/subscribe": (store, id, params) => store.subscribe(id, String(params.uri)),
  "resources/unsubscribe": (store, id, params) => store.unsubscribe(id, String(params.uri)),
};

/**
 * The sharing itself, one per endpoint. Each instance keeps a local replica (an HttpSession and its
 * ServerSession) of every session it serves, adopted from the store and refreshed on each request.
 * Requests we send a client carry this instance's id in their JSON-RPC id, so that the answer, which
 * the client POSTs to any instance, is forwarded here.
 */
export class SharedSessions {
  readonly instanceId = newStreamId();
  readonly sessions: SessionStore;
  readonly events: EventStore;
  readonly bus: EventBus;
  private replies: Promise<unknown> | undefined;
  /** Records of the sessions this instance serves, when the store versions them (touchVersion). */
  private readonly cache = new Map<string, { readonly record: SessionRecord; checkedAt: number }>();
  /** Counts invalidations: a load that saw one start meanwhile does not fill the cache. */
  private epoch = 0;
  private caching = false;
  private nonce = 0;
  private readonly pendingAcks = new Map<number, () => void>();

  constructor(
    options: SharingOptions & { readonly sessions: SessionStore },
    private readonly ttlMs: number,
    private readonly logger: Logger,
  ) {
    this.sessions = options.sessions;
    this.events = options.events ?? sharedMemoryEvents();
    this.bus = options.bus ?? new MemoryEventBus(logger);
  }

  /** Starts taking clients' answers forwarded to this instance; `deliver` hands one to the session's replica. */
  listen(deliver: (sessionId: string, message: unknown) => void): Promise<unknown> {
    return (this.replies ??= Promise.all([
      this.bus.subscribe(CHANNELS.replies(this.instanceId), (forwarded) => {
        const { sessionId, message } = forwarded as Forwarded;
        deliver(sessionId, message);
      }),
      this.watch(),
    ]));
  }

  /** With a store that versions records: drop a copy whenever any instance says it changed, and confirm. */
  private async watch(): Promise<void> {
    if (!this.sessions.touchVersion) return;
    await this.bus.subscribe(CHANNELS.acks(this.instanceId), (ack) => this.pendingAcks.get((ack as Ack).nonce)?.());
    await this.bus.subscribe(CHANNELS.sessionChanged, (changed) => {
      const { sessionId, from, nonce } = changed as Changed;
      this.drop(sessionId);
      void this.bus.publish(CHANNELS.acks(from), { nonce } satisfies Ack).catch(() => {});
    });
    this.caching = true;
  }

  private drop(sessionId: string): void {
    this.epoch++;
    this.cache.delete(sessionId);
  }

  /**
   * After a change to the record (or its end), before it is answered: every instance drops its
   * copy and confirms, so that the client's next request, wherever it lands, sees the change.
   * An instance that does not confirm in time is logged (it may be gone).
   */
  private async invalidate(sessionId: string): Promise<void> {
    this.drop(sessionId);
    if (!this.caching) return;
    const nonce = ++this.nonce;
    let acks = 0;
    let expected = Number.POSITIVE_INFINITY;
    let done: () => void = () => {};
    const all = new Promise<void>((resolve) => (done = resolve));
    this.pendingAcks.set(nonce, () => ++acks >= expected && done());
    try {
      expected = await this.bus.publish(CHANNELS.sessionChanged, { sessionId, from: this.instanceId, nonce } satisfies Changed);
      if (acks >= expected) return;
      if ((await within(ACK_TIMEOUT_MS, all.then(() => true))) === undefined)
        this.logger("warn", `session ${sessionId} changed: ${expected - acks} instance(s) did not confirm within ${ACK_TIMEOUT_MS} ms`);
    } finally {
      this.pendingAcks.delete(nonce);
    }
  }

  create(sessionId: string, record: Omit<SessionRecord, "logLevel" | "subscriptions">): Promise<void> {
    return this.sessions.create(sessionId, record, this.ttlMs);
  }

  /**
   * The session's record, kept alive another ttl; undefined when it ended or expired (on any
   * instance). With a versioned store, the copy this instance keeps, checked against the store's
   * version (and the expiry pushed back) at most every RECHECK_MS: changes invalidate it at once.
   */
  async load(sessionId: string): Promise<SessionRecord | undefined> {
    if (!this.caching) {
      const [record] = await Promise.all([this.sessions.get(sessionId), this.sessions.touch(sessionId, this.ttlMs)]);
      return record;
    }
    const now = Date.now();
    const cached = this.cache.get(sessionId);
    if (cached && now - cached.checkedAt < Math.min(RECHECK_MS, this.ttlMs / 4)) return cached.record;
    const epoch = this.epoch;
    if (cached) {
      const version = await this.sessions.touchVersion!(sessionId, this.ttlMs);
      if (version === undefined) return void this.cache.delete(sessionId);
      if (version === cached.record.version && epoch === this.epoch) {
        cached.checkedAt = now;
        return cached.record;
      }
    }
    const [record] = await Promise.all([this.sessions.get(sessionId), cached ? undefined : this.sessions.touch(sessionId, this.ttlMs)]);
    if (!record) return void this.cache.delete(sessionId);
    if (epoch === this.epoch) {
      this.cache.delete(sessionId);
      if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(sessionId, { record, checkedAt: now });
    }
    return record;
  }

  /** DELETE, or the idle timeout: the session ends for every instance. */
  async end(sessionId: string): Promise<void> {
    await Promise.all([this.sessions.delete(sessionId), this.events.forget(sessionId)]);
    await this.invalidate(sessionId);
  }

  /** The write a request's success makes to the record, if any, to await before its answer goes out. */
  effect(sessionId: string, method: string, params: Record<string, unknown> | undefined): (() => Promise<unknown>) | undefined {
    const change = EFFECTS[method];
    return (
      change &&
      (async () => {
        const changed = await change(this.sessions, sessionId, params ?? {});
        await this.invalidate(sessionId);
        return changed;
      })
    );
  }

  /** Our request's id as the client sees it: this instance's id, then the peer's id as JSON. */
  outboundId(id: string | number): string {
    return `${this.instanceId}:${JSON.stringify(id)}`;
  }

  /**
   * A client's answer, as received: for this instance (the peer's own id back), for another
   * (forwarded there: `undefined` is returned), or not one of ours (unchanged).
   */
  inbound(sessionId: string, message: unknown): unknown {
    const m = message as { id?: unknown; method?: unknown; result?: unknown; error?: unknown } | null;
    if (typeof m !== "object" || m === null || m.method !== undefined || typeof m.id !== "string") return message;
    const cut = m.id.indexOf(":");
    if (cut <= 0) return message;
    let id: unknown;
    try {
      id = JSON.parse(m.id.slice(cut + 1));
    } catch {
      return message;
    }
    if (!isRequestId(id)) return message;
    const local = { ...m, id };
    const instance = m.id.slice(0, cut);
    if (instance === this.instanceId) return local;
    void this.bus.publish(CHANNELS.replies(instance), { sessionId, message: local } satisfies Forwarded).then(
      (received) => received === 0 && this.logger("warn", `an answer for instance ${instance} (session ${sessionId}) was dropped: it is gone`),
      (error: Error) => this.logger("error", `forwarding an answer to instance ${instance} failed: ${error.message}`),
    );
    return undefined;
  }

  /** The id of a session's GET stream: the same on every instance, so that any of them can hold it. */
  standaloneId(sessionId: string): string {
    return `g${sessionId}`;
  }

  /**
   * A message for the session's GET stream when this instance does not hold it: to the instance
   * that does, or into the event store for a client that resumes it, when none does.
   */
  async toStandalone(sessionId: string, message: unknown): Promise<void> {
    const received = await this.bus.publish(CHANNELS.session(sessionId), { message } satisfies ToStandalone);
    if (received === 0) await this.events.append(sessionId, this.standaloneId(sessionId), JSON.stringify(message));
  }

  /** This instance holds the session's GET stream: what others send it goes to `deliver` until the returned function is called. */
  hold(sessionId: string, deliver: (message: unknown) => void): Promise<() => Promise<void>> {
    return this.bus.subscribe(CHANNELS.session(sessionId), (sent) => deliver((sent as ToStandalone).message));
  }

  /** A stream's event (or its end) while no connection of this instance carries it: to a client that resumed it elsewhere. */
  unattached(owner: string, streamId: string, event: StoredEvent | undefined): void {
    const sent = event
      ? this.bus.publish(CHANNELS.stream(streamId), { id: event.id, data: event.data } satisfies StreamEvent)
      : Promise.resolve(this.events.append(owner, streamId, END)).then(() => this.bus.publish(CHANNELS.stream(streamId), { end: true } satisfies StreamEvent));
    sent.catch((error: Error) => this.logger("error", `stream ${streamId}: ${error.message}`));
  }

  /**
   * A GET with Last-Event-ID for a request's stream that is not this instance's: what the store
   * kept after that id, then what its instance sends while it goes on, until its end.
   */
  async resume(owner: string, lastEventId: string, res: Reply, headers: Record<string, string>): Promise<void> {
    const live: StreamEvent[] = [];
    let follow: ((event: StreamEvent) => void) | undefined;
    const streamId = streamOf(lastEventId);
    const unsubscribe = streamId === undefined ? undefined : await this.bus.subscribe(CHANNELS.stream(streamId), (event) => (follow ? follow(event as StreamEvent) : live.push(event as StreamEvent)));
    const stop = () => void unsubscribe?.().catch(() => {});
    const replay = await this.replay(owner, lastEventId, res, headers);
    if (!replay) return stop();
    startSse(res, headers);
    const seen = new Set<string>();
    let ended = false;
    const write = (event: StreamEvent) => {
      if (ended) return;
      if ("end" in event || event.data === END) {
        ended = true;
        stop();
        return res.end();
      }
      if (seen.has(event.id)) return;
      seen.add(event.id);
      res.write(sseEvent(event.data, event.id));
    };
    for (const event of replay.events) write(event);
    for (const event of live.splice(0)) write(event);
    follow = write;
    res.onClose(stop);
  }

  /** The events after `lastEventId`, or the error already answered (unknown id: 400; evicted: 410). */
  async replay(owner: string, lastEventId: string, res: Reply, headers: Record<string, string>): Promise<Replay | undefined> {
    const replay = await this.events.replayAfter(owner, lastEventId);
    if (!replay) writeError(res, refuse.badRequest(`Last-Event-ID ${JSON.stringify(lastEventId)} names no stream of this session`), headers);
    else if (replay.truncated)
      writeError(res, refuse.gone(`events after Last-Event-ID ${JSON.stringify(lastEventId)} are no longer kept (the event store's bounds); reconnect without Last-Event-ID`), headers);
    else return replay;
    return undefined;
  }
}

/**
 * The in-memory event store for endpoints of one process sharing sessions (the default with
 * `sessions` alone), answering asynchronously as a store other instances share does, so that the
 * shared path is the same for both.
 */
export function sharedMemoryEvents(): EventStore {
  const store = new InMemoryEventStore();
  return {
    append: async (owner, streamId, data) => store.append(owner, streamId, data),
    primingId: (streamId) => store.primingId(streamId),
    replayAfter: async (owner, lastEventId) => store.replayAfter(owner, lastEventId),
    forget: async (owner) => store.forget(owner),
  };
}
