import type { RequestId } from "../jsonrpc/messages.js";
import type { Peer, RequestOptions } from "../jsonrpc/peer.js";
import type { MessageContext, SendOptions, TransportFacts } from "../jsonrpc/transport.js";

/**
 * One message a hook sees: a request or a notification, incoming or outgoing, on a server or a
 * client. The same object goes down the whole chain and back, so a hook may leave notes on it for
 * the hooks after it (`exchange.notes`).
 */
export interface Exchange {
  /** Who runs the hook: the server (`createServer({ hooks })`) or the client (`McpClient.connect(t, { hooks })`). */
  readonly side: "server" | "client";
  /** Incoming: the other side sent it and this side serves it. Outgoing: this side sends it. */
  readonly direction: "incoming" | "outgoing";
  readonly kind: "request" | "notification";
  readonly method: string;
  /**
   * The params as received, or as they will be sent. An outgoing hook may replace them before
   * calling `next` (a copy: never mutate what the caller passed), e.g. to add `_meta` keys.
   */
  params: Record<string, unknown> | undefined;
  /** The JSON-RPC id: an incoming request's at once; an outgoing request's once it is sent (undefined for notifications). */
  id: RequestId | undefined;
  /** The protocol revision the message is exchanged under, when known (negotiated, or the request's `_meta`). */
  readonly revision: string | undefined;
  /** The connection, as its transport describes it: stdio ("pipe") or HTTP ("tcp"), the HTTP session id, the server's address. */
  readonly transport: TransportFacts | undefined;
  /** Incoming: what the transport said of the message (over HTTP, `headers` and `auth`). */
  readonly context: MessageContext | undefined;
  /** Incoming requests: aborted when the other side cancels or the connection closes. */
  readonly signal: AbortSignal | undefined;
  /** When the runtime first saw the message (`performance.now()`, ms). */
  readonly startedAt: number;
  /** Free for hooks: what one hook records for another (a span, a cache key). */
  readonly notes: Map<string | symbol, unknown>;
}

/**
 * Carries the message on: the hooks after this one, then the runtime (the handler, or the
 * transport for an outgoing message). Resolves with the result (a request) or undefined (a
 * notification); rejects with the error the request failed with (an RpcError for a JSON-RPC
 * error). Call it at most once.
 */
export type Next = () => Promise<unknown>;

/**
 * An interceptor around each request and notification, in both directions, on the server and the
 * client. Hooks run in the order given, each around the ones after it (the first is the
 * outermost). A hook returns (or resolves to) what the request answers:
 * - `return next()` passes the message on unchanged; `const result = await next()` observes the
 *   result, and a try/catch around it the error, with the time since `exchange.startedAt`;
 * - returning a value without calling `next` answers the request without the handler (a cache);
 * - throwing refuses it (a denial): throw an `RpcError` for a JSON-RPC error with its code, any
 *   other error becomes -32603. For an outgoing request, the caller gets that error.
 *
 * A notification's hook result is ignored; an incoming notification a hook refuses is dropped and
 * logged. Hooks may be async; the handler runs inside the call to `next`, so context set around
 * it (AsyncLocalStorage, OpenTelemetry's context) reaches it.
 */
export interface Hook {
  (exchange: Exchange, next: Next): unknown;
  /**
   * Optional: called once when a connection this hook watched closes (a session-era session, a
   * stateless exchange, a client's connection), e.g. to record how long sessions last. Must not throw.
   */
  readonly closed?: (connection: ClosedConnection) => void;
}

/** A connection that closed, as {@link Hook.closed} gets it. */
export interface ClosedConnection {
  readonly side: "server" | "client";
  /** The revision it settled on: negotiated at initialize (session era), else the last request's (stateless era); undefined if none. */
  readonly revision: string | undefined;
  readonly era: "session" | "stateless" | undefined;
  readonly transport: TransportFacts | undefined;
  /** From the connection's start to its close, in ms. */
  readonly durationMs: number;
  /** Why it closed, when it was not asked to. */
  readonly error: Error | undefined;
}

/** Tells every hook that watches connections that one closed. */
export function reportClosed(hooks: readonly Hook[], connection: ClosedConnection): void {
  for (const hook of hooks) hook.closed?.(connection);
}

/** Runs `last` inside `hooks`, the first outermost. Only called when there are hooks: without any, the runtime skips all this. */
export function runHooks(hooks: readonly Hook[], exchange: Exchange, last: () => unknown): Promise<unknown> {
  return step(hooks, exchange, last, 0);
}

// Promise.resolve, not a Promise constructor per step: a native promise passes through as it is,
// without the extra turns of resolving one promise with another (bench/runtime.ts cost of a hook).
function step(hooks: readonly Hook[], exchange: Exchange, last: () => unknown, index: number): Promise<unknown> {
  try {
    if (index === hooks.length) return Promise.resolve(last());
    let called = false;
    const next: Next = () => {
      if (called) return Promise.reject(new Error(`a hook called next() twice for ${exchange.method}`));
      called = true;
      return step(hooks, exchange, last, index + 1);
    };
    return Promise.resolve(hooks[index]!(exchange, next));
  } catch (error) {
    return Promise.reject(error);
  }
}

/** An outgoing request or notification through the hooks, sent by `peer` with the params they leave; a request's id is set on `seen` once it has one. */
export function sendThroughHooks(hooks: readonly Hook[], seen: HookExchange, peer: Peer, options?: RequestOptions & SendOptions): Promise<unknown> {
  if (seen.kind === "notification") return runHooks(hooks, seen, () => peer.notify(seen.method, seen.params, options)).then(() => undefined);
  return runHooks(hooks, seen, () =>
    peer.request(seen.method, seen.params, {
      ...options,
      onId: (id) => {
        seen.id = id;
        options?.onId?.(id);
      },
    }),
  );
}

/** What the sessions hand the hooks: one class, so every exchange has the same shape. */
export class HookExchange implements Exchange {
  readonly startedAt = performance.now();
  private noted: Map<string | symbol, unknown> | undefined;

  constructor(
    readonly side: "server" | "client",
    readonly direction: "incoming" | "outgoing",
    readonly kind: "request" | "notification",
    readonly method: string,
    public params: Record<string, unknown> | undefined,
    public id: RequestId | undefined,
    readonly revision: string | undefined,
    readonly transport: TransportFacts | undefined,
    readonly context: MessageContext | undefined,
    /** An incoming request's: looked up only when a hook asks (an AbortSignal costs more than the rest of the exchange). */
    private readonly signalOf: { readonly signal: AbortSignal } | undefined,
  ) {}

  get signal(): AbortSignal | undefined {
    return this.signalOf?.signal;
  }

  get notes(): Map<string | symbol, unknown> {
    return (this.noted ??= new Map());
  }
}
