/**
 * Session era, any instance serves any request: what a session negotiated lives in a store all
 * instances share, not in the process that answered initialize. The in-memory store is the
 * default (one instance); RedisSessionStore shares it.
 */
export interface SessionRecord {
  /** The negotiated protocol revision. */
  readonly revision: string;
  readonly clientInfo: Readonly<Record<string, unknown>>;
  readonly clientCapabilities: Readonly<Record<string, unknown>>;
  /** logging/setLevel's level, when the client set one. */
  readonly logLevel?: string;
  /** Who started the session (their token's client and subject) when it was started with a token: no one else may use it. */
  readonly principal?: string;
  /** resources/subscribe's URIs, sorted. */
  readonly subscriptions: readonly string[];
  /** Bumped by every change to the session (level, subscriptions), where the store keeps one: see {@link SessionStore.touchVersion}. */
  readonly version?: number;
}

/** Where session-era sessions live, so that any instance can serve any session (see `RedisSessionStore`). */
export interface SessionStore {
  /** Records a new session (after initialize); it is forgotten `ttlMs` after its last {@link touch}. */
  create(sessionId: string, record: Omit<SessionRecord, "logLevel" | "subscriptions">, ttlMs: number): Promise<void>;
  /** The session, or undefined when it is unknown, deleted or expired. */
  get(sessionId: string): Promise<SessionRecord | undefined>;
  /** Keeps the session another `ttlMs`; false when it is gone. */
  touch(sessionId: string, ttlMs: number): Promise<boolean>;
  /**
   * Optional, for stores other processes share: {@link touch}, answering with the record's
   * version (undefined when the session is gone). With it, an instance keeps the records it serves
   * and only asks again when the version moved (SharedSessions).
   */
  touchVersion?(sessionId: string, ttlMs: number): Promise<number | undefined>;
  /** Records the session's logging/setLevel; false when the session is unknown. */
  setLogLevel(sessionId: string, level: string): Promise<boolean>;
  /** Adds or removes one subscription; each is one atomic change, so instances do not overwrite each other's. */
  subscribe(sessionId: string, uri: string): Promise<boolean>;
  /** Drops a resources/subscribe; false when the session is unknown. */
  unsubscribe(sessionId: string, uri: string): Promise<boolean>;
  /** Forgets the session. */
  delete(sessionId: string): Promise<void>;
}

interface MemorySession {
  record: Omit<SessionRecord, "subscriptions" | "version">;
  readonly subscriptions: Set<string>;
  version: number;
  expiresAt: number;
}

/** A session store in this process's memory (the default): sessions do not outlive it and are not shared. */
export class MemorySessionStore implements SessionStore {
  private readonly sessions = new Map<string, MemorySession>();

  async create(sessionId: string, record: Omit<SessionRecord, "logLevel" | "subscriptions">, ttlMs: number): Promise<void> {
    this.sessions.set(sessionId, { record: { ...record }, subscriptions: new Set(), version: 0, expiresAt: Date.now() + ttlMs });
  }

  async get(sessionId: string): Promise<SessionRecord | undefined> {
    const session = this.live(sessionId);
    return session && { ...session.record, subscriptions: [...session.subscriptions].sort(), version: session.version };
  }

  async touch(sessionId: string, ttlMs: number): Promise<boolean> {
    const session = this.live(sessionId);
    if (session) session.expiresAt = Date.now() + ttlMs;
    return session !== undefined;
  }

  async touchVersion(sessionId: string, ttlMs: number): Promise<number | undefined> {
    return (await this.touch(sessionId, ttlMs)) ? this.sessions.get(sessionId)!.version : undefined;
  }

  async setLogLevel(sessionId: string, level: string): Promise<boolean> {
    const session = this.changed(sessionId);
    if (session) session.record = { ...session.record, logLevel: level };
    return session !== undefined;
  }

  async subscribe(sessionId: string, uri: string): Promise<boolean> {
    return this.changed(sessionId)?.subscriptions.add(uri) !== undefined;
  }

  async unsubscribe(sessionId: string, uri: string): Promise<boolean> {
    const session = this.changed(sessionId);
    session?.subscriptions.delete(uri);
    return session !== undefined;
  }

  async delete(sessionId: string): Promise<void> {
    this.sessions.delete(sessionId);
  }

  /** A live session about to change: its version moves on. */
  private changed(sessionId: string): MemorySession | undefined {
    const session = this.live(sessionId);
    if (session) session.version++;
    return session;
  }

  private live(sessionId: string): MemorySession | undefined {
    const session = this.sessions.get(sessionId);
    if (session && session.expiresAt <= Date.now()) {
      this.sessions.delete(sessionId);
      return undefined;
    }
    return session;
  }
}
