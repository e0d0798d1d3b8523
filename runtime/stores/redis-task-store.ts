import { isExpired, type TaskRecord } from "./task-store.js";
import type { RedisConnection } from "./redis-connection.js";
import type { TaskStore } from "./task-store.js";

/**
 * Tasks in Redis, so that any instance answers tasks/get, tasks/update and tasks/cancel, and the
 * instance running a task hears of answers and cancellation. A hash per task (the record as JSON
 * and a version); a change is compare-and-set on the version in a script, retried when another
 * writer came first, and published on the task's channel with the new record. Redis expires the
 * key at createdAt + ttlMs.
 */
export class RedisTaskStore implements TaskStore {
  private readonly watchers = new Map<string, Set<(task: TaskRecord) => void>>();

  constructor(
    private readonly redis: RedisConnection,
    private readonly prefix = "mcp:",
  ) {}

  async create(task: TaskRecord): Promise<void> {
    await this.redis.commands.sendCommand(["EVAL", CREATE, "1", this.key(task.taskId), JSON.stringify(task), expiry(task)]);
  }

  /** The task's record, if it exists and has not expired. */
  async get(taskId: string): Promise<TaskRecord | undefined> {
    return (await this.read(taskId))?.task;
  }

  async update(taskId: string, change: (task: TaskRecord) => TaskRecord | undefined): Promise<TaskRecord | undefined> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const current = await this.read(taskId);
      if (!current) return undefined;
      const next = change(current.task);
      if (!next || next === current.task) return current.task;
      const json = JSON.stringify(next);
      const written = await this.redis.commands.sendCommand(["EVAL", SET_IF_VERSION, "1", this.key(taskId), current.version, json, this.channel(taskId)]);
      if (Number(written) === 1) return next;
    }
    throw new Error(`task ${taskId}: ${MAX_ATTEMPTS} concurrent writers in a row won; giving up this change`);
  }

  /**
   * Subscribes to the task's channel (once per task per store). Once the subscription is active,
   * the listener also gets the record as it is then: a change published before it would
   * otherwise be missed.
   */
  watch(taskId: string, listener: (task: TaskRecord) => void): () => void {
    let set = this.watchers.get(taskId);
    if (!set) {
      this.watchers.set(taskId, (set = new Set()));
      const channel = this.channel(taskId);
      void this.redis
        .subscriber()
        .then((subscriber) => subscriber.subscribe(channel, (message) => this.deliver(taskId, JSON.parse(message) as TaskRecord)))
        .then(() => this.get(taskId))
        .then((task) => task && this.deliver(taskId, task))
        .catch(() => {});
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size > 0 || this.watchers.get(taskId) !== set) return;
      this.watchers.delete(taskId);
      void this.redis
        .subscriber()
        .then((subscriber) => subscriber.unsubscribe(this.channel(taskId)))
        .catch(() => {});
    };
  }

  private deliver(taskId: string, task: TaskRecord): void {
    for (const listener of [...(this.watchers.get(taskId) ?? [])]) listener(task);
  }

  private async read(taskId: string): Promise<{ task: TaskRecord; version: string } | undefined> {
    const [json, version] = (await this.redis.commands.sendCommand(["HMGET", this.key(taskId), "json", "v"])) as [string | null, string | null];
    if (json === null || version === null) return undefined;
    const task = JSON.parse(json) as TaskRecord;
    return isExpired(task) ? undefined : { task, version };
  }

  private key(taskId: string): string {
    return `${this.prefix}task:${taskId}`;
  }

  private channel(taskId: string): string {
    return `${this.prefix}task-changed:${taskId}`;
  }
}

/** Compare-and-set attempts before an update gives up (each lost one means another writer succeeded). */
const MAX_ATTEMPTS = 50;

/** Milliseconds since the epoch at which Redis drops the task, or "" for a task without a ttl. */
function expiry(task: TaskRecord): string {
  return task.ttlMs === null ? "" : String(Date.parse(task.createdAt) + task.ttlMs);
}

/** KEYS: task hash. ARGV: record JSON, expiry (ms since the epoch, or ""). */
const CREATE = `
redis.call('HSET', KEYS[1], 'json', ARGV[1], 'v', '1')
if ARGV[2] ~= '' then redis.call('PEXPIREAT', KEYS[1], ARGV[2]) end
return 1`;

/** KEYS: task hash. ARGV: expected version, new record JSON, channel. The key keeps its expiry. */
const SET_IF_VERSION = `
if redis.call('HGET', KEYS[1], 'v') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'json', ARGV[2], 'v', tostring(tonumber(ARGV[1]) + 1))
redis.call('PUBLISH', ARGV[3], ARGV[2])
return 1`;
