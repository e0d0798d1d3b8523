import type { EventStore, Replay } from "./event-store.js";
import type { RedisCommands } from "./redis-connection.js";

/** Options of `RedisEventStore`: its key prefix, and its bounds in bytes per stream and in age. */
export interface RedisEventStoreOptions {
  /** Key prefix (default "mcp:"). */
  readonly prefix?: string;
  /** The most event data one stream keeps, in bytes; the oldest events go first (default 1 MiB). */
  readonly maxBytesPerStream?: number;
  /** How long an event is kept, and an idle stream with it (default 10 minutes). */
  readonly maxAgeMs?: number;
}

/**
 * Events in Redis Streams, one stream per SSE stream (`XADD`), bounded by bytes and by age. Each
 * append runs as one Lua script, so every instance sees the same bounds: it adds the event, then
 * deletes from the oldest while the stream holds more than `maxBytesPerStream` bytes of data or
 * its oldest event is older than `maxAgeMs` (a Stream id starts with its time in ms), and keeps
 * the id of the last event it evicted so that a resumption from before it is reported as
 * truncated. A replay leaves out events past the age bound too. Every key of a stream expires a
 * minute after the age bound has passed for its last event (a grace that keeps the eviction
 * record). The total across streams is Redis's `maxmemory` to bound.
 *
 * Event ids are `<streamId>_<Stream entry id>`; the priming id is `<streamId>_0-0`.
 */
export class RedisEventStore implements EventStore {
  private readonly prefix: string;
  private readonly maxBytes: number;
  private readonly maxAgeMs: number;

  constructor(
    private readonly redis: RedisCommands,
    options: RedisEventStoreOptions = {},
  ) {
    this.prefix = options.prefix ?? "mcp:";
    this.maxBytes = options.maxBytesPerStream ?? 1024 * 1024;
    this.maxAgeMs = options.maxAgeMs ?? 10 * 60_000;
    if (!(this.maxBytes >= 1) || !(this.maxAgeMs >= 1)) throw new RangeError("an event store's bounds must be positive");
  }

  async append(owner: string, streamId: string, data: string): Promise<string> {
    const entry = await this.redis.sendCommand([
      "EVAL",
      APPEND,
      "5",
      ...this.keys(streamId),
      this.ownerStreams(owner),
      data,
      String(this.maxBytes),
      String(this.maxAgeMs),
      owner,
      String(this.maxAgeMs + EXPIRY_GRACE_MS),
    ]);
    if (typeof entry !== "string") throw new Error(`the stream ${streamId} belongs to another session`);
    return `${streamId}_${entry}`;
  }

  primingId(streamId: string): string {
    return `${streamId}_0-0`;
  }

  async replayAfter(owner: string, lastEventId: string): Promise<Replay | undefined> {
    const cut = lastEventId.lastIndexOf("_");
    const entry = lastEventId.slice(cut + 1);
    if (cut <= 0 || !/^\d{1,15}-\d{1,15}$/.test(entry)) return undefined;
    const streamId = lastEventId.slice(0, cut);
    const reply = (await this.redis.sendCommand(["EVAL", REPLAY, "4", ...this.keys(streamId), owner, entry, String(this.maxAgeMs)])) as [number, number, [string, string[]][]] | null;
    if (!reply) return entry === "0-0" ? { streamId, events: [], truncated: false } : undefined;
    const [known, truncated, entries] = reply;
    if (!known) return undefined;
    return {
      streamId,
      truncated: truncated === 1,
      events: entries.map(([id, fields]) => ({ id: `${streamId}_${id}`, data: fields[1]! })),
    };
  }

  async forget(owner: string): Promise<void> {
    await this.redis.sendCommand(["EVAL", FORGET, "1", this.ownerStreams(owner), this.prefix]);
  }

  /** The stream, its byte count, its owner, the last evicted id. (One Redis or a primary with replicas, not Redis Cluster: an append also touches the owner's set.) */
  private keys(streamId: string): string[] {
    const base = `${this.prefix}{${streamId}}`;
    return [`${base}:events`, `${base}:bytes`, `${base}:owner`, `${base}:evicted`];
  }

  private ownerStreams(owner: string): string {
    return `${this.prefix}owner:${owner}:streams`;
  }
}

const EXPIRY_GRACE_MS = 60_000;

// KEYS: events, bytes, owner, evicted, the owner's set of streams. ARGV: data, maxBytes, maxAgeMs, owner, key ttl.
// Returns the new entry id, or false when the stream belongs to another owner.
const APPEND = `
local owner = redis.call('GET', KEYS[3])
if owner and owner ~= ARGV[4] then return false end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local id = redis.call('XADD', KEYS[1], '*', 'd', ARGV[1])
local total = redis.call('INCRBY', KEYS[2], string.len(ARGV[1]))
local cutoff = now - tonumber(ARGV[3])
while true do
  local head = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', 1)[1]
  if not head or head[1] == id then break end
  local ms = tonumber(string.match(head[1], '^(%d+)'))
  if total <= tonumber(ARGV[2]) and ms >= cutoff then break end
  redis.call('XDEL', KEYS[1], head[1])
  redis.call('SET', KEYS[4], head[1])
  total = redis.call('DECRBY', KEYS[2], string.len(head[2][2]))
end
redis.call('SET', KEYS[3], ARGV[4])
redis.call('SADD', KEYS[5], KEYS[1])
for i = 1, 5 do redis.call('PEXPIRE', KEYS[i], ARGV[5]) end
return id
`;

// KEYS: events, bytes, owner, evicted. ARGV: owner, the last entry id the client has, maxAgeMs.
// Returns nil for an unknown stream, else {owned, truncated, entries after the id within the age bound}.
const REPLAY = `
local owner = redis.call('GET', KEYS[3])
if not owner then return nil end
if owner ~= ARGV[1] then return {0, 0, {}} end
local function after(a, b)
  local am, as = string.match(a, '^(%d+)-(%d+)$')
  local bm, bs = string.match(b, '^(%d+)-(%d+)$')
  am, as, bm, bs = tonumber(am), tonumber(as), tonumber(bm), tonumber(bs)
  return am > bm or (am == bm and as > bs)
end
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)[1]
if ARGV[2] ~= '0-0' and (not last or after(ARGV[2], last[1])) then return {0, 0, {}} end
local evicted = redis.call('GET', KEYS[4])
local truncated = 0
if evicted and after(evicted, ARGV[2]) then truncated = 1 end
local time = redis.call('TIME')
local cutoff = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000) - tonumber(ARGV[3])
local entries = {}
for _, entry in ipairs(redis.call('XRANGE', KEYS[1], '(' .. ARGV[2], '+')) do
  if tonumber(string.match(entry[1], '^(%d+)')) >= cutoff then table.insert(entries, entry) else truncated = 1 end
end
return {1, truncated, entries}
`;

// KEYS: the owner's set of streams. ARGV: the prefix. Deletes every key of each stream, then the set.
const FORGET = `
for _, events in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local base = string.sub(events, 1, string.len(events) - string.len(':events'))
  redis.call('DEL', events, base .. ':bytes', base .. ':owner', base .. ':evicted')
end
redis.call('DEL', KEYS[1])
return 1
`;
