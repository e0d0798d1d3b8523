import { stderrLogger, type Logger } from "../util/logger.js";

/**
 * Messages between instances: what one instance learns (a resource changed, a list changed, a
 * handler asks the client something) reaches the instance that holds the client's open stream.
 * JSON values on named channels; delivery is at most once, to the instances subscribed at the time
 * (Redis pub/sub semantics), which is why `publish` says how many received it.
 */
export interface EventBus {
  /** Sends `message` to every current subscriber of `channel`, this instance's included; resolves with how many received it. */
  publish(channel: string, message: unknown): Promise<number>;
  /** Calls `listener` with each message published on `channel` from now on, until the returned function is called. */
  subscribe(channel: string, listener: (message: unknown) => void): Promise<() => Promise<void>>;
}

/** The channels the runtime uses. */
export const CHANNELS = {
  /** resources/updated and list_changed: every instance passes them to its own sessions. */
  notifications: "notifications",
  /** Notifications and server-to-client requests for one session, to the instance holding its stream. */
  session: (sessionId: string) => `session:${sessionId}`,
  /** A request's SSE stream, to the instance where its client resumed it while another produces it. */
  stream: (streamId: string) => `stream:${streamId}`,
  /** A client's answers that reached another instance, forwarded to the instance that asked. */
  replies: (instanceId: string) => `replies:${instanceId}`,
  /** A session's record changed or ended: every instance drops its cached copy, then says so on the changer's acks channel. */
  sessionChanged: "session-changed",
  /** Instances confirming to the one that changed a session that they dropped their copy. */
  acks: (instanceId: string) => `acks:${instanceId}`,
} as const;

/** Calls `listener`; what it throws is logged, not thrown into the bus's delivery (which would end the process). */
export function deliver(listener: (message: unknown) => void, message: unknown, channel: string, logger: Logger): void {
  try {
    listener(message);
  } catch (error) {
    logger("error", `a listener of ${channel} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  }
}

/** One process: the default. Messages are copied through JSON and delivered asynchronously, as Redis would. */
export class MemoryEventBus implements EventBus {
  private readonly listeners = new Map<string, Set<(message: unknown) => void>>();

  constructor(private readonly logger: Logger = stderrLogger) {}

  async publish(channel: string, message: unknown): Promise<number> {
    const listeners = [...(this.listeners.get(channel) ?? [])];
    const text = JSON.stringify(message);
    for (const listener of listeners) queueMicrotask(() => deliver(listener, JSON.parse(text), channel, this.logger));
    return listeners.length;
  }

  async subscribe(channel: string, listener: (message: unknown) => void): Promise<() => Promise<void>> {
    const own = (message: unknown) => listener(message); // a listener subscribed twice is two subscriptions
    let set = this.listeners.get(channel);
    if (!set) this.listeners.set(channel, (set = new Set()));
    set.add(own);
    return async () => {
      set.delete(own);
      if (set.size === 0) this.listeners.delete(channel);
    };
  }
}
