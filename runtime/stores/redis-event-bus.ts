import { stderrLogger, type Logger } from "../util/logger.js";
import { deliver, type EventBus } from "./event-bus.js";
import type { RedisConnection } from "./redis-connection.js";

/**
 * The event bus on Redis pub/sub: `PUBLISH` on the command connection (its reply is the number of
 * subscribed connections, i.e. instances), one `SUBSCRIBE` per channel on the pub/sub connection
 * however many local listeners it has.
 */
export class RedisEventBus implements EventBus {
  private readonly listeners = new Map<string, Set<(message: unknown) => void>>();

  constructor(
    private readonly redis: RedisConnection,
    private readonly prefix = "mcp:",
    private readonly logger: Logger = stderrLogger,
  ) {}

  async publish(channel: string, message: unknown): Promise<number> {
    return Number(await this.redis.commands.sendCommand(["PUBLISH", this.prefix + channel, JSON.stringify(message)]));
  }

  async subscribe(channel: string, listener: (message: unknown) => void): Promise<() => Promise<void>> {
    const own = (message: unknown) => listener(message);
    let set = this.listeners.get(channel);
    if (!set) {
      this.listeners.set(channel, (set = new Set()));
      const local = set;
      await (await this.redis.subscriber()).subscribe(this.prefix + channel, (text) => {
        let message: unknown;
        try {
          message = JSON.parse(text);
        } catch {
          return; // not ours: every message this bus publishes is JSON
        }
        for (const each of [...local]) deliver(each, message, channel, this.logger);
      });
    }
    set.add(own);
    return async () => {
      set.delete(own);
      if (set.size > 0 || this.listeners.get(channel) !== set) return;
      this.listeners.delete(channel);
      await (await this.redis.subscriber()).unsubscribe(this.prefix + channel);
    };
  }
}
