/**
 * Session era, resumability: the SSE events sent on each stream, kept so that a client that lost
 * its connection can reconnect with Last-Event-ID and receive what it missed; in this process
 * (InMemoryEventStore, the HTTP endpoint's default) or shared by instances (RedisEventStore), so
 * that any instance can resume a stream. A stream belongs to one owner (a session), so one session
 * can never replay another's events.
 *
 * A method may answer at once or with a promise, and callers take either: the in-memory store
 * answers at once, so an SSE event is written in the turn it is sent; a shared store answers once
 * stored, and the event is written once it has its id.
 */
export interface EventStore {
  /** Stores one event's data (a JSON text) and returns its id. */
  append(owner: string, streamId: string, data: string): string | Promise<string>;
  /** The id of a stream's priming event: an id with no data, so a client can resume from the very start. */
  primingId(streamId: string): string;
  /** The events after `lastEventId` on its stream, when that stream belongs to `owner`; undefined when the id is unknown or foreign. */
  replayAfter(owner: string, lastEventId: string): Replay | undefined | Promise<Replay | undefined>;
  /** Forgets an owner's streams (its session ended). */
  forget(owner: string): void | Promise<void>;
}
/** One SSE event an event store keeps: its id and its data. */
export interface StoredEvent {
  readonly id: string;
  readonly data: string;
}

/**
 * What a resumption replays: the stream the events belong to, the events after the client's
 * `Last-Event-ID`, and whether older ones were evicted.
 */
export interface Replay {
  readonly streamId: string;
  readonly events: readonly StoredEvent[];
  /** Some events after `lastEventId` were evicted (the store's byte or age bound): the client cannot have everything it missed. */
  readonly truncated: boolean;
}
