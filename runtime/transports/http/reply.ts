import type { Logger } from "../../util/logger.js";

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
}

/** Bounds on what waits to be written to one streamed answer (issue 13: a reader that stops reading). */
export interface BackpressureOptions {
  /**
   * Bytes a stream may hold that its client has not read yet before the endpoint considers it
   * stuck. Default 4 MiB.
   */
  readonly maxBufferedBytes?: number;
  /**
   * How long a stream may stay over `maxBufferedBytes` before its connection is closed (with a
   * log line). What it could not deliver stays in the event store, for a client that resumes.
   * Default 30 s.
   */
  readonly stuckTimeoutMs?: number;
}

export const DEFAULT_MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
export const DEFAULT_STUCK_TIMEOUT_MS = 30_000;

const UTF8 = new TextEncoder();

/**
 * A Reply that becomes a web `Response`: `response` resolves as soon as the answer starts (a whole
 * body, or a ReadableStream for SSE). The stream closes when the client cancels it (the platform
 * calls `cancel`) or `signal` aborts.
 */
export class WebReply implements Reply {
  readonly response: Promise<Response>;
  private settle!: (response: Response) => void;
  private controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  private isStarted = false;
  private isEnded = false;
  private readonly listeners = new Set<() => void>();
  private stuckSince: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly what: string,
    private readonly limits: BackpressureOptions,
    private readonly logger: Logger,
    signal?: AbortSignal,
  ) {
    this.response = new Promise((resolve) => (this.settle = resolve));
    signal?.addEventListener("abort", () => this.closed(), { once: true });
  }

  get started(): boolean {
    return this.isStarted;
  }

  get ended(): boolean {
    return this.isEnded;
  }

  /** Bytes enqueued that the client has not read. */
  get bufferedBytes(): number {
    return this.controller ? Math.max(0, -(this.controller.desiredSize ?? 0)) : 0;
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
        pull: () => this.drained(),
        cancel: () => this.closed(),
      },
      // desiredSize then reads minus the bytes queued, which is what `bufferedBytes` reports.
      { highWaterMark: 0, size: (chunk) => chunk.byteLength },
    );
    this.settle(new Response(body, { status: 200, headers }));
  }

  write(text: string): void {
    if (this.isEnded || !this.controller) return;
    this.controller.enqueue(UTF8.encode(text));
    if (this.stuckSince === undefined && this.bufferedBytes > (this.limits.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES)) {
      const timeoutMs = this.limits.stuckTimeoutMs ?? DEFAULT_STUCK_TIMEOUT_MS;
      this.stuckSince = setTimeout(() => this.disconnectIfStuck(), timeoutMs);
    }
  }

  end(): void {
    if (this.isEnded) return;
    if (!this.isStarted) return this.send(202, {});
    try {
      this.controller?.close();
    } catch {
      // already closed by a cancel
    }
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

  private drained(): void {
    if (this.bufferedBytes <= (this.limits.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES)) {
      clearTimeout(this.stuckSince);
      this.stuckSince = undefined;
    }
  }

  private disconnectIfStuck(): void {
    this.stuckSince = undefined;
    if (this.isEnded) return;
    const limit = this.limits.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
    if (this.bufferedBytes <= limit) return;
    this.logger("warn", `${this.what}: the client read nothing for ${this.limits.stuckTimeoutMs ?? DEFAULT_STUCK_TIMEOUT_MS} ms with ${this.bufferedBytes} bytes waiting (limit ${limit}); disconnected`);
    try {
      this.controller?.error(new Error("disconnected: the client stopped reading"));
    } catch {
      // already closed
    }
    this.closed();
  }

  private closed(): void {
    if (this.isEnded) return;
    this.isEnded = true;
    clearTimeout(this.stuckSince);
    const listeners = [...this.listeners];
    this.listeners.clear();
    for (const listener of listeners) listener();
  }
}
