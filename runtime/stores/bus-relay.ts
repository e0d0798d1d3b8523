import { ErrorCode, RpcError } from "../jsonrpc/errors.js";
import { nonce } from "../util/sealed.js";
import { CHANNELS, type EventBus } from "./event-bus.js";

/** A notification or a server-to-client request for one session, as it travels on the bus. */
export type RelayedMessage =
  | { readonly kind: "notification"; readonly method: string; readonly params?: Record<string, unknown> }
  | { readonly kind: "request"; readonly id: string; readonly replyTo: string; readonly method: string; readonly params?: Record<string, unknown> };

type Reply = { readonly id: string; readonly result?: unknown; readonly error?: { code: number; message: string; data?: unknown } };

/** What the instance holding a session's stream does with what other instances send it. */
export interface SessionEndpoint {
  notification(method: string, params: Record<string, unknown> | undefined): void;
  request(method: string, params: Record<string, unknown> | undefined): Promise<unknown>;
}

/**
 * Carries notifications and server-to-client requests (elicitation, sampling, roots) to the
 * instance that holds a session's open stream, and the answers back, over an {@link EventBus}.
 * The instance holding the stream `serve`s the session; any instance can `notify` it or `request`
 * from it.
 */
export class BusRelay {
  private readonly pending = new Map<string, { resolve: (value: unknown) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }>();
  private replies: Promise<() => Promise<void>> | undefined;

  constructor(
    private readonly bus: EventBus,
    readonly instanceId: string = nonce(),
  ) {}

  /** This instance holds `sessionId`'s stream: what others send the session goes to `endpoint` until the returned function is called. */
  serve(sessionId: string, endpoint: SessionEndpoint): Promise<() => Promise<void>> {
    return this.bus.subscribe(CHANNELS.session(sessionId), (message) => {
      const relayed = message as RelayedMessage;
      if (relayed.kind === "notification") return endpoint.notification(relayed.method, relayed.params);
      if (relayed.kind !== "request") return;
      endpoint.request(relayed.method, relayed.params).then(
        (result) => this.bus.publish(relayed.replyTo, { id: relayed.id, result } satisfies Reply),
        (error: unknown) => {
          const { code, message, data } = error instanceof RpcError ? error : { code: ErrorCode.InternalError, message: String((error as Error)?.message ?? error), data: undefined };
          return this.bus.publish(relayed.replyTo, { id: relayed.id, error: { code, message, data } } satisfies Reply);
        },
      );
    });
  }

  /** Sends a notification to the session's stream; false when no instance holds it. */
  async notify(sessionId: string, method: string, params?: Record<string, unknown>): Promise<boolean> {
    return (await this.bus.publish(CHANNELS.session(sessionId), { kind: "notification", method, params } satisfies RelayedMessage)) > 0;
  }

  /** Asks the client of `sessionId` through the instance holding its stream; rejects at once when none does, and after `timeoutMs`. */
  async request(sessionId: string, method: string, params: Record<string, unknown> | undefined, timeoutMs: number): Promise<unknown> {
    const replyTo = CHANNELS.replies(this.instanceId);
    await (this.replies ??= this.bus.subscribe(replyTo, (message) => this.settle(message as Reply)));
    const id = nonce();
    const answer = new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new RpcError(ErrorCode.InternalError, `${method} for session ${sessionId} was not answered within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
    });
    const receivers = await this.bus.publish(CHANNELS.session(sessionId), { kind: "request", id, replyTo, method, params } satisfies RelayedMessage);
    if (receivers === 0) this.settle({ id, error: { code: ErrorCode.InternalError, message: `no instance holds a stream of session ${sessionId}` } });
    return answer;
  }

  /** Stops listening for answers; requests still waiting are rejected. */
  async close(): Promise<void> {
    for (const id of [...this.pending.keys()]) this.settle({ id, error: { code: ErrorCode.InternalError, message: "the relay closed" } });
    const unsubscribe = this.replies;
    this.replies = undefined;
    if (unsubscribe) await (await unsubscribe)();
  }

  private settle(reply: Reply): void {
    const waiting = this.pending.get(reply.id);
    if (!waiting) return;
    this.pending.delete(reply.id);
    clearTimeout(waiting.timer);
    if (reply.error) waiting.reject(new RpcError(reply.error.code, reply.error.message, reply.error.data));
    else waiting.resolve(reply.result);
  }
}
