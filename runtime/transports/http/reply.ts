import type { Logger } from "../../util/logger.js";
import { crossRequestPollMs } from "../../util/platform.js";
import { DEFAULT_MAX_BUFFERED_BYTES, DEFAULT_STUCK_TIMEOUT_MS } from "../../jsonrpc/transport.js";

/**
 * Where the endpoint writes one HTTP answer: a whole body at once, or a stream (SSE) written piece
 * by piece. Two implementations: {@link WebReply} builds a web `Response` (fetchHandler), and the
 * node:http adapter writes to a `ServerResponse`. Nothing above this interface knows which.
 */
export interface Reply {
  /** The status line is out: `send` and `open` are no longer possible. */
  readonly started: boolean;
  /** The answer is complete (or the connection is gone). */
  readonly ended: boolean;
  /** A whole answer. `body` undefined: no body. */
  send(status: number, headers: Readonly<Record<string, string>>, body?: string): void;
  /** Passes on a Response made elsewhere (an authorization hook's 401, a metadata route). */
  respond(response: Response): void;
  /** Starts a streamed answer (status 200 and these headers); `write` then adds to it. */
  open(headers: Readonly<Record<string, string>>): void;
  write(text: string): void;
  /** Ends a streamed answer (or a whole one never started: 202 with no body is the caller's to send). */
  end(): void;
  /** `listener` runs once when the connection closes, ended or not. Returns its removal. */
  onClose(listener: () => void): () => void;
  /**
   * Backpressure: undefined while the client has room (no more than `maxBufferedBytes` unread);
   * otherwise settles once it has, or once the connection is gone. Never rejects.
   */
  room(): Promise<void> | undefined;
  /** `listener` runs if the connection is cut off because the client stayed over `maxBufferedBytes` for `stuckTimeoutMs`, answer ended or not. */
  onCutOff(listener: () => void): void;
  /**
   * The request's work goes on after its answer ends (SEP-1699: the server closed the stream, the
   * tool still runs): where a platform stops a request's work with its response (Workers), keep it
   * running until `work` settles. Absent where work runs on regardless (node:http).
   */
  waitUntil?(work: Promise<unknown>): void;
}

/**
 * The platform's second argument to a fetch handler, when it has one: on Workers, `ctx`, whose
 * `waitUntil` keeps the isolate running work that outlives its response. Others pass objects
 * without it (Bun its server, Deno the connection's info) and are served the same.
 */
export type PlatformContext = object;

/** `context.waitUntil`, bound, when the platform gave one. */
export function waitUntilOf(context: PlatformContext | undefined): ((work: Promise<unknown>) => void) | undefined {
  const waitUntil = (context as { waitUntil?: unknown } | undefined)?.waitUntil;
  return typeof waitUntil === "function" ? (work) => waitUntil.call(context, work) : undefined;
}

/** Bounds on what waits to be written to one streamed answer (issue 13: a reader that stops reading). */
export interface BackpressureOptions {
  /**
   * Bytes a stream may hold that its client has not read yet. Past it, what sends on the stream
   * (`ctx.progress`, `ctx.log`, notifications) waits for room, and the client counts as stuck.
   * Default 4 MiB.
   */
  readonly maxBufferedBytes?: number;
  /**
   * How long a stream may stay over `maxBufferedBytes` before its connection is closed (with a
   * log line) and its session ended: its handlers are aborted and what it kept is forgotten.
   * Default 30 s.
   */
  readonly stuckTimeoutMs?: number;
}


const UTF8 = new TextEncoder();

/** See WebReply.nextWrite: the platform does not change while the process runs, so it is read once. */
const CROSS_REQUEST_POLL_MS = crossRequestPollMs();

/**
 * A Reply that becomes a web `Response`: `response` resolves as soon as the answer starts (a whole
 * body, or a ReadableStream for SSE). The stream closes when the client cancels it (the platform
 * calls `cancel`) or `signal` aborts.
 *
 * A streamed answer is pulled: what `write` adds waits here until the client's side reads, and is
 * enqueued from `pull`. So a message that another request produced (a list_changed for an open
 * listen stream) is enqueued in the context of the request that reads it, which is what workerd
 * requires of I/O objects, and `bufferedBytes` is exactly what the client has not taken.
 */
export class WebReply implements Reply {
  readonly response: Promise<Response>;
  private settle!: (response: Response) => void;
  private isStarted = false;
  private isEnded = false;
  private readonly listeners = new Set<() => void>();
  private stuck: ReturnType<typeof setTimeout> | undefined;
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private wake: (() => void) | undefined;
  private controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  /** The client went away (cancel, abort) or was disconnected: nothing is held for it any more. */
  private gone = false;
  /** Set when the stream must end in error (a stuck client is disconnected). */
  private failure: Error | undefined;
  /** What waits for room: settled once the client has taken what was pending, or is gone. */
  private roomMade: Promise<void> | undefined;
  private makeRoom: (() => void) | undefined;
  private readonly cutOffListeners: (() => void)[] = [];

  constructor(
    private readonly what: string,
    private readonly limits: BackpressureOptions,
    private readonly logger: Logger,
    signal?: AbortSignal,
    /** The platform's waitUntil (see Reply.waitUntil); without one, work runs on by itself. */
    readonly waitUntil?: (work: Promise<unknown>) => void,
  ) {
    this.response = new Promise((resolve) => (this.settle = resolve));
    signal?.addEventListener("abort", () => this.disconnected(), { once: true });
  }

  get started(): boolean {
    return this.isStarted;
  }

  get ended(): boolean {
    return this.isEnded;
  }

  /** Bytes written that the client has not read. */
  get bufferedBytes(): number {
    return this.pendingBytes;
  }

  onCutOff(listener: () => void): void {
    this.cutOffListeners.push(listener);
  }

  room(): Promise<void> | undefined {
    if (this.gone || this.pendingBytes <= (this.limits.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES)) return undefined;
    return (this.roomMade ??= new Promise((resolve) => (this.makeRoom = resolve)));
  }

  send(status: number, headers: Readonly<Record<string, string>>, body?: string): void {
    if (this.isStarted) return;
    this.isStarted = true;
    this.settle(new Response(body ?? null, { status, headers }));
    this.closed();
  }

  respond(response: Response): void {
    if (this.isStarted) return;
    this.isStarted = true;
    this.settle(response);
    this.closed();
  }

  open(headers: Readonly<Record<string, string>>): void {
    if (this.isStarted) return;
    this.isStarted = true;
    const body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => void (this.controller = controller),
        pull: (controller) => this.pull(controller),
        cancel: () => this.disconnected(),
      },
      { highWaterMark: 0 },
    );
    this.settle(new Response(body, { status: 200, headers }));
  }

  write(text: string): void {
    if (this.isEnded || !this.isStarted) return;
    const chunk = UTF8.encode(text);
    this.pending.push(chunk);
    this.pendingBytes += chunk.byteLength;
    this.wakeUp();
    const limit = this.limits.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
    if (this.stuck === undefined && this.pendingBytes > limit) {
      const timeoutMs = this.limits.stuckTimeoutMs ?? DEFAULT_STUCK_TIMEOUT_MS;
      this.stuck = setTimeout(() => {
        this.stuck = undefined;
        // Ended or not: bytes the client does not read are held all the same.
        if (this.gone || this.pendingBytes <= limit) return;
        this.logger("warn", `${this.what}: the client read nothing for ${timeoutMs} ms with ${this.pendingBytes} bytes waiting (limit ${limit}); disconnected`);
        this.failure = new Error("disconnected: the client stopped reading");
        try {
          this.controller?.error(this.failure);
        } catch {
          // already closed
        }
        this.disconnected();
        for (const listener of this.cutOffListeners.splice(0)) listener();
      }, timeoutMs);
    }
  }

  end(): void {
    if (this.isEnded) return;
    if (!this.isStarted) return this.send(202, {});
    // What is pending still goes out; then the stream closes (see pull).
    this.closed();
  }

  onClose(listener: () => void): () => void {
    if (this.isEnded) {
      queueMicrotask(listener);
      return () => {};
    }
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private async pull(controller: ReadableStreamDefaultController<Uint8Array>): Promise<void> {
    while (this.pending.length === 0 && !this.isEnded) await this.nextWrite();
    const chunks = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    clearTimeout(this.stuck);
    this.stuck = undefined;
    this.roomFreed();
    try {
      if (this.failure) return controller.error(this.failure);
      for (const chunk of chunks) controller.enqueue(chunk);
      if (this.isEnded) controller.close();
    } catch {
      // The client cancelled the stream meanwhile: nothing more to deliver.
    }
  }

  /**
   * Resolves at the next write or end; on workerd also after crossRequestPollMs, as a write made by
   * another request (a tool call that changes the tool list, for the listen stream) cannot wake it.
   */
  private nextWrite(): Promise<void> {
    return new Promise((resolve) => {
      const poll = CROSS_REQUEST_POLL_MS === undefined ? undefined : setTimeout(resolve, CROSS_REQUEST_POLL_MS);
      this.wake = () => {
        clearTimeout(poll);
        resolve();
      };
    });
  }

  private roomFreed(): void {
    const made = this.makeRoom;
    this.roomMade = this.makeRoom = undefined;
    made?.();
  }

  private wakeUp(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  /** The connection is gone: drop what waits, stop watching. */
  private disconnected(): void {
    this.gone = true;
    this.pending = [];
    this.pendingBytes = 0;
    clearTimeout(this.stuck);
    this.roomFreed();
    this.closed();
  }

  /** Our side is done (ended, or the connection gone); what is pending still goes out unless gone. */
  private closed(): void {
    if (this.isEnded) return;
    this.isEnded = true;
    this.wakeUp();
    const listeners = [...this.listeners];
    this.listeners.clear();
    for (const listener of listeners) listener();
  }
}
