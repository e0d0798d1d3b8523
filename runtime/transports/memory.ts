import { TransportClosedError } from "./closed-error.js";
import type { Receiver, SendOptions, Transport } from "../jsonrpc/transport.js";

/**
 * Two transports wired to each other in this process: what one sends, the other receives. For
 * tests, benchmarks, and a client and server living side by side.
 *
 * Messages pass as the values themselves: no JSON, no copy. That is the point (speed), and the
 * cost: a sender must not mutate a message after sending it.
 */
export function createMemoryPair(): [MemoryTransport, MemoryTransport] {
  return MemoryTransport.linkedPair();
}

/**
 * One end of {@link createMemoryPair}.
 *
 * Delivery is in order and always asynchronous: `send` only queues the value on the other end,
 * which delivers its whole queue in one microtask. So a send never re-enters a receiver, and a
 * burst of sends costs one microtask, not one each. Messages sent before the other end is
 * started wait for its `start`.
 *
 * Closing either end closes both: sends reject from then on, what was already sent is still
 * delivered, and then each receiver's `closed()` is called once.
 */
export class MemoryTransport implements Transport {
  private other!: MemoryTransport;
  private receiver: Receiver | undefined;
  /** Messages for our receiver; `inbox[next]` is the first not yet delivered. */
  private inbox: unknown[] = [];
  private next = 0;
  private flushScheduled = false;
  private accepting = true;
  private inputEnded = false;
  private closedReported = false;
  private closing: Promise<void> | undefined;
  private resolveClosing: (() => void) | undefined;

  private constructor() {}

  /** Two transports linked to each other, as `createMemoryPair` returns them. */
  static linkedPair(): [MemoryTransport, MemoryTransport] {
    // `this`, not the class's name: esbuild would emit a class that names itself as `class _MemoryTransport`.
    const a = new this();
    const b = new this();
    a.other = b;
    b.other = a;
    return [a, b];
  }

  start(receiver: Receiver): void {
    if (this.receiver) throw new Error("MemoryTransport.start called twice");
    this.receiver = receiver;
    this.scheduleFlush();
  }

  send(message: unknown, _options?: SendOptions): Promise<void> {
    if (!this.accepting) return Promise.reject(new TransportClosedError());
    this.other.enqueue(message);
    return RESOLVED;
  }

  close(): Promise<void> {
    if (!this.closing) {
      this.closing = new Promise((resolve) => (this.resolveClosing = resolve));
      this.endInput();
      this.other.endInput();
      // Otherwise the flush resolves it, right after `closed()`.
      if (!this.receiver || this.closedReported) this.resolveClosing?.();
    }
    return this.closing;
  }

  private enqueue(message: unknown): void {
    this.inbox.push(message);
    this.scheduleFlush();
  }

  /** No more sends either way; `closed()` follows what is already queued. */
  private endInput(): void {
    this.accepting = false;
    this.inputEnded = true;
    this.scheduleFlush();
  }

  private scheduleFlush(): void {
    if (this.flushScheduled || !this.receiver) return;
    this.flushScheduled = true;
    queueMicrotask(this.flush);
  }

  private readonly flush = (): void => {
    this.flushScheduled = false;
    const receiver = this.receiver!;
    try {
      // inbox.length is read each time: a receiver may make the other end send more meanwhile.
      while (this.next < this.inbox.length) {
        const message = this.inbox[this.next];
        this.inbox[this.next++] = undefined; // the receiver owns it now
        receiver.message(message);
      }
      this.inbox.length = 0;
      this.next = 0;
      if (this.inputEnded && !this.closedReported) {
        this.closedReported = true;
        receiver.closed();
        this.resolveClosing?.();
      }
    } finally {
      // Only when a receiver threw: deliver the rest later rather than never.
      if (this.next < this.inbox.length) this.scheduleFlush();
    }
  };
}

const RESOLVED: Promise<void> = Promise.resolve();
