import type { RedisCommands } from "./redis-connection.js";
import type { SessionRecord, SessionStore } from "./session-store.js";

/**
 * Sessions in Redis: a hash per session (revision, client info and capabilities as JSON, log
 * level, a version every change bumps) and a set of its subscriptions, so that a subscribe on one
 * instance and an unsubscribe on another are each one atomic change. Both keys expire together
 * (`touch` extends them).
 */
export class RedisSessionStore implements SessionStore {
  constructor(
    private readonly redis: RedisCommands,
    private readonly prefix = "mcp:",
  ) {}

  async create(sessionId: string, record: Omit<SessionRecord, "logLevel" | "subscriptions">, ttlMs: number): Promise<void> {
    const [hash, subscriptions] = this.keys(sessionId);
    const fields = ["revision", record.revision, "clientInfo", JSON.stringify(record.clientInfo), "clientCapabilities", JSON.stringify(record.clientCapabilities)];
    if (record.principal) fields.push("principal", record.principal);
    await this.redis.sendCommand(["EVAL", CREATE, "2", hash, subscriptions, String(ttlMs), ...fields]);
  }

  async get(sessionId: string): Promise<SessionRecord | undefined> {
    const [hash, subscriptions] = this.keys(sessionId);
    const [fields, uris] = (await this.redis.sendCommand(["EVAL", GET, "2", hash, subscriptions])) as [string[], string[]];
    if (fields.length === 0) return undefined;
    const record: Record<string, string> = {};
    for (let i = 0; i < fields.length; i += 2) record[fields[i]!] = fields[i + 1]!;
    return {
      revision: record.revision!,
      clientInfo: JSON.parse(record.clientInfo!),
      clientCapabilities: JSON.parse(record.clientCapabilities!),
      ...(record.logLevel === undefined ? {} : { logLevel: record.logLevel }),
      ...(record.principal === undefined ? {} : { principal: record.principal }),
      subscriptions: uris.sort(),
      version: Number(record.version ?? 0),
    };
  }

  async touchVersion(sessionId: string, ttlMs: number): Promise<number | undefined> {
    const version = await this.redis.sendCommand(["EVAL", TOUCH_VERSION, "2", ...this.keys(sessionId), String(ttlMs)]);
    return version === null || version === undefined ? undefined : Number(version);
  }

  touch(sessionId: string, ttlMs: number): Promise<boolean> {
    return this.change(sessionId, "touch", String(ttlMs));
  }

  /** Records the session's logging/setLevel; false when the session is unknown. */
  setLogLevel(sessionId: string, level: string): Promise<boolean> {
    return this.change(sessionId, "level", level);
  }

  subscribe(sessionId: string, uri: string): Promise<boolean> {
    return this.change(sessionId, "subscribe", uri);
  }

  /** Drops a resources/subscribe; false when the session is unknown. */
  unsubscribe(sessionId: string, uri: string): Promise<boolean> {
    return this.change(sessionId, "unsubscribe", uri);
  }

  /** Forgets the session. */
  async delete(sessionId: string): Promise<void> {
    await this.redis.sendCommand(["DEL", ...this.keys(sessionId)]);
  }

  /** One change to a live session, atomically: false (and nothing written) when the session is gone. */
  private async change(sessionId: string, what: string, value: string): Promise<boolean> {
    return (await this.redis.sendCommand(["EVAL", CHANGE, "2", ...this.keys(sessionId), what, value])) === 1;
  }

  private keys(sessionId: string): [string, string] {
    const base = `${this.prefix}session:{${sessionId}}`;
    return [base, `${base}:subscriptions`];
  }
}

// KEYS: hash, subscriptions. ARGV: ttlMs, field, value, ...
const CREATE = `
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1
`;

// KEYS: hash, subscriptions.
const GET = `return {redis.call('HGETALL', KEYS[1]), redis.call('SMEMBERS', KEYS[2])}`;

// KEYS: hash, subscriptions. ARGV: ttlMs. The version (0 before any change), or nil when the session is gone.
const TOUCH_VERSION = `
if redis.call('PEXPIRE', KEYS[1], ARGV[1]) == 0 then return false end
if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('PEXPIRE', KEYS[2], ARGV[1]) end
return tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
`;

// KEYS: hash, subscriptions. ARGV: what, value. The subscription set takes the hash's expiry.
const CHANGE = `
local ttl = redis.call('PTTL', KEYS[1])
if ttl == -2 then return 0 end
local what, value = ARGV[1], ARGV[2]
if what == 'touch' then
  ttl = tonumber(value)
  redis.call('PEXPIRE', KEYS[1], ttl)
elseif what == 'level' then
  redis.call('HSET', KEYS[1], 'logLevel', value)
  redis.call('HINCRBY', KEYS[1], 'version', 1)
elseif what == 'subscribe' then
  redis.call('SADD', KEYS[2], value)
  redis.call('HINCRBY', KEYS[1], 'version', 1)
elseif what == 'unsubscribe' then
  redis.call('SREM', KEYS[2], value)
  redis.call('HINCRBY', KEYS[1], 'version', 1)
end
if ttl > 0 and redis.call('EXISTS', KEYS[2]) == 1 then redis.call('PEXPIRE', KEYS[2], ttl) end
return 1
`;
