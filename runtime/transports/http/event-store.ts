/**
 * Session era, resumability: the SSE events sent on each stream, kept so that a client that lost
 * its connection can reconnect with Last-Event-ID and receive what it missed.
 *
 * Bounded: at most `maxEvents` events in all; the oldest go first. Event ids are
 * `<streamId>_<sequence>`: the stream is read back from the id, and a stream belongs to one owner
 * (a session), so one session can never replay another's events.
 */
export interface EventStore {
  /** Stores one event's data (a JSON text) and returns its id. */
  append(owner: string, streamId: string, data: string): string;
  /** The id of a stream's priming event: an id with no data, so a client can resume from the very start. */
  primingId(streamId: string): string;
  /**
   * The events after `lastEventId` on its stream, when that stream belongs to `owner`; undefined
   * when the id is unknown or foreign. Events already evicted are missing from the list.
   */
  replayAfter(owner: string, lastEventId: string): { readonly streamId: string; readonly events: readonly StoredEvent[] } | undefined;
  /** Forgets an owner's streams (its session ended). */
  forget(owner: string): void;
}

export interface StoredEvent {
  readonly id: string;
  readonly data: string;
}

interface StreamLog {
  readonly owner: string;
  next: number;
  readonly events: (StoredEvent & { readonly seq: number })[];
}

/** The default bound of {@link InMemoryEventStore}. */
export const DEFAULT_MAX_EVENTS = 10_000;

export class InMemoryEventStore implements EventStore {
  private readonly streams = new Map<string, StreamLog>();
  /** Stream ids in the order their events were appended, for eviction; `order[head]` is the oldest. */
  private order: string[] = [];
  private head = 0;
  private size = 0;

  constructor(private readonly maxEvents: number = DEFAULT_MAX_EVENTS) {
    if (!(maxEvents >= 1)) throw new RangeError("an event store must hold at least one event");
  }

  get eventCount(): number {
    return this.size;
  }

  append(owner: string, streamId: string, data: string): string {
    let log = this.streams.get(streamId);
    if (!log) this.streams.set(streamId, (log = { owner, next: 1, events: [] }));
    const seq = log.next++;
    const id = `${streamId}_${seq}`;
    log.events.push({ id, data, seq });
    this.order.push(streamId);
    this.size++;
    while (this.size > this.maxEvents) this.evictOldest();
    return id;
  }

  primingId(streamId: string): string {
    return `${streamId}_0`;
  }

  replayAfter(owner: string, lastEventId: string) {
    const cut = lastEventId.lastIndexOf("_");
    if (cut <= 0) return undefined;
    const streamId = lastEventId.slice(0, cut);
    const seqText = lastEventId.slice(cut + 1);
    if (!/^\d{1,15}$/.test(seqText)) return undefined;
    const seq = Number(seqText);
    const log = this.streams.get(streamId);
    if (!log) return seq === 0 ? { streamId, events: [] } : undefined;
    if (log.owner !== owner || seq >= log.next) return undefined;
    return { streamId, events: log.events.filter((event) => event.seq > seq).map(({ id, data }) => ({ id, data })) };
  }

  forget(owner: string): void {
    for (const [streamId, log] of this.streams)
      if (log.owner === owner) {
        this.size -= log.events.length;
        this.streams.delete(streamId);
      }
    // Ids of forgotten streams stay in `order`; eviction skips them.
    if (this.size === 0) {
      this.order = [];
      this.head = 0;
    }
  }

  private evictOldest(): void {
    while (this.head < this.order.length) {
      const streamId = this.order[this.head++]!;
      const log = this.streams.get(streamId);
      if (!log || log.events.length === 0) continue;
      log.events.shift();
      this.size--;
      break;
    }
    if (this.head > 1024 && this.head * 2 > this.order.length) {
      this.order = this.order.slice(this.head);
      this.head = 0;
    }
  }
}
