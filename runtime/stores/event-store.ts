/**
 * Session era, resumability across instances: the SSE events sent on each stream, kept so that a
 * client that lost its connection can reconnect with Last-Event-ID, to any instance, and receive
 * what it missed. The async form of runtime/transports/http/event-store.ts's contract (which the
 * HTTP endpoint implements in memory today); a stream belongs to one owner (a session), so one
 * session can never replay another's events.
 */
export interface EventStore {
  /** Stores one event's data (a JSON text) and returns its id. */
  append(owner: string, streamId: string, data: string): Promise<string>;
  /** The id of a stream's priming event: an id with no data, so a client can resume from the very start. */
  primingId(streamId: string): string;
  /** The events after `lastEventId` on its stream, when that stream belongs to `owner`; undefined when the id is unknown or foreign. */
  replayAfter(owner: string, lastEventId: string): Promise<Replay | undefined>;
  /** Forgets an owner's streams (its session ended). */
  forget(owner: string): Promise<void>;
}

export interface StoredEvent {
  readonly id: string;
  readonly data: string;
}

export interface Replay {
  readonly streamId: string;
  readonly events: readonly StoredEvent[];
  /** Some events after `lastEventId` were evicted (the store's byte or age bound): the client cannot have everything it missed. */
  readonly truncated: boolean;
}
