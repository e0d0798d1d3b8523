import type { EventStore, Replay, StoredEvent } from "../../stores/event-store.js";

/** The bounds of {@link InMemoryEventStore}; each default is below. */
export interface EventStoreLimits {
  /** Events in all. Default 10,000. */
  readonly maxEvents?: number;
  /** Bytes of event data (UTF-16 code units, as held in memory) per session. Default 4 MiB. */
  readonly maxBytesPerSession?: number;
  /** Bytes of event data in all. Default 64 MiB. */
  readonly maxBytes?: number;
  /** How long an event is kept, in ms. Default 5 minutes. */
  readonly maxAgeMs?: number;
}

export const DEFAULT_MAX_EVENTS = 10_000;
export const DEFAULT_EVENT_STORE_LIMITS: Required<EventStoreLimits> = {
  maxEvents: DEFAULT_MAX_EVENTS,
  maxBytesPerSession: 4 * 1024 * 1024,
  maxBytes: 64 * 1024 * 1024,
  maxAgeMs: 5 * 60_000,
};

interface Kept extends StoredEvent {
  /** Emptied once the event is dropped: `order` may still reference it until it is compacted. */
  data: string;
  readonly seq: number;
  readonly at: number;
  readonly streamId: string;
  /** Dropped for its owner's bound, or its owner forgotten: eviction skips it. */
  gone?: boolean;
}

interface StreamLog {
  readonly owner: string;
  next: number;
  /** The sequence number of the first event still kept (or `next` when none is). */
  firstKept: number;
  readonly events: Kept[];
}

/**
 * The event store of one process (the endpoint's default), answering at once. Bounded (see
 * `EventStoreLimits`): in events, in bytes per session and in all, and in age; the oldest go
 * first. Event ids are `<streamId>_<sequence>`: the stream is read back from the id.
 */
export class InMemoryEventStore implements EventStore {
  private readonly streams = new Map<string, StreamLog>();
  /** Every kept event, oldest first; `order[head]` is the oldest not yet evicted or forgotten. */
  private order: Kept[] = [];
  private head = 0;
  private size = 0;
  private bytes = 0;
  private readonly bytesByOwner = new Map<string, number>();
  private readonly limits: Required<EventStoreLimits>;

  /** `limits`: the bounds, or (as before) just the most events. */
  constructor(limits: EventStoreLimits | number = {}, private readonly now: () => number = Date.now) {
    this.limits = { ...DEFAULT_EVENT_STORE_LIMITS, ...(typeof limits === "number" ? { maxEvents: limits } : limits) };
    if (!(this.limits.maxEvents >= 1)) throw new RangeError("an event store must hold at least one event");
  }

  get eventCount(): number {
    return this.size;
  }

  get byteCount(): number {
    return this.bytes;
  }

  append(owner: string, streamId: string, data: string): string {
    let log = this.streams.get(streamId);
    if (!log) this.streams.set(streamId, (log = { owner, next: 1, firstKept: 1, events: [] }));
    const seq = log.next++;
    const id = `${streamId}_${seq}`;
    const event: Kept = { id, data, seq, at: this.now(), streamId };
    log.events.push(event);
    this.order.push(event);
    this.size++;
    this.bytes += data.length;
    this.bytesByOwner.set(owner, (this.bytesByOwner.get(owner) ?? 0) + data.length);
    this.evict(owner);
    return id;
  }

  primingId(streamId: string): string {
    return `${streamId}_0`;
  }

  replayAfter(owner: string, lastEventId: string): Replay | undefined {
    const cut = lastEventId.lastIndexOf("_");
    if (cut <= 0) return undefined;
    const streamId = lastEventId.slice(0, cut);
    const seqText = lastEventId.slice(cut + 1);
    if (!/^\d{1,15}$/.test(seqText)) return undefined;
    const seq = Number(seqText);
    this.evict(undefined);
    const log = this.streams.get(streamId);
    if (!log) return seq === 0 ? { streamId, events: [], truncated: false } : undefined;
    if (log.owner !== owner || seq >= log.next) return undefined;
    const events = log.events.filter((event) => event.seq > seq).map(({ id, data }) => ({ id, data }));
    // Events after that id were evicted (a bound): the replay would have a gap.
    return { streamId, events, truncated: seq + 1 < log.firstKept };
  }

  forget(owner: string): void {
    for (const [streamId, log] of this.streams)
      if (log.owner === owner) {
        this.size -= log.events.length;
        for (const event of log.events) this.release(event);
        this.streams.delete(streamId);
      }
    this.bytesByOwner.delete(owner);
    // Forgotten events stay in `order`; eviction skips them.
    if (this.size === 0) {
      this.order = [];
      this.head = 0;
    }
  }

  /** Drops the oldest events until every bound holds; `owner`'s own oldest first when it is over its share. */
  private evict(owner: string | undefined): void {
    const { maxEvents, maxBytes, maxBytesPerSession, maxAgeMs } = this.limits;
    const cutoff = this.now() - maxAgeMs;
    for (;;) {
      const oldest = this.peekOldest();
      if (!oldest) break;
      if (this.size > maxEvents || this.bytes > maxBytes || oldest.at < cutoff) this.drop(oldest);
      else break;
    }
    if (owner === undefined) return;
    while ((this.bytesByOwner.get(owner) ?? 0) > maxBytesPerSession) {
      let victim: Kept | undefined;
      for (const log of this.streams.values()) {
        const first = log.events[0];
        if (log.owner === owner && first && (!victim || first.at < victim.at)) victim = first;
      }
      if (!victim) break;
      this.drop(victim);
    }
  }

  private peekOldest(): Kept | undefined {
    while (this.head < this.order.length) {
      const event = this.order[this.head]!;
      if (!event.gone) return event;
      this.head++;
    }
    this.compact();
    return undefined;
  }

  /** Drops `event`, the first kept event of its stream. */
  private drop(event: Kept): void {
    const log = this.streams.get(event.streamId)!;
    log.events.shift();
    log.firstKept = log.events[0]?.seq ?? log.next;
    this.size--;
    this.bytesByOwner.set(log.owner, (this.bytesByOwner.get(log.owner) ?? 0) - event.data.length);
    this.release(event);
    if (this.order[this.head] === event) this.head++;
    this.compact();
  }

  /** Marks `event` gone for eviction to skip, and lets its data go. */
  private release(event: Kept): void {
    this.bytes -= event.data.length;
    event.gone = true;
    event.data = "";
  }

  private compact(): void {
    if (this.head > 1024 && this.head * 2 > this.order.length) {
      this.order = this.order.slice(this.head);
      this.head = 0;
    }
  }
}
