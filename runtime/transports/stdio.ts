import type { Readable, Writable } from "node:stream";
import { TransportClosedError } from "./closed-error.js";
import { jsonText } from "../jsonrpc/messages.js";
import { NdjsonDecoder } from "./ndjson-decoder.js";
import { DEFAULT_MAX_BUFFERED_BYTES, DEFAULT_MAX_MESSAGE_BYTES, DEFAULT_STUCK_TIMEOUT_MS, type Receiver, type SendOptions, type Transport, type TransportFacts } from "../jsonrpc/transport.js";

/**
 * Sends of one turn leave together, in writes of at most this many messages. One write for the
 * whole turn makes the two processes take turns (one sends a burst, the other answers it); small
 * batches let the other side start on the first messages while the rest are still being written.
 * With 16 calls in flight, batches of 4 measured 2x the throughput of one write per turn, and
 * 1.4x that of a write per message.
 */
const BATCH = 4;

/** Options of the stdio transport: message size, buffering and the grace period at end of input. */
export interface StdioTransportOptions {
  /** The largest inbound message, in bytes, line terminator excluded. Default 128 MiB. */
  readonly maxMessageBytes?: number;
  /**
   * Destroy the input stream on close instead of only pausing it. The process's own stdin needs
   * this: a paused stdin pipe still keeps the process alive.
   */
  readonly destroyInputOnClose?: boolean;
  /**
   * At input EOF (`printf '...' | node server.js`), how long requests already received may take to
   * be answered before the transport closes anyway. Default 5 s.
   */
  readonly endGraceMs?: number;
  /**
   * Once the input has ended and everything is flushed (or the grace period is over), exit the
   * process, so that a hung handler cannot keep it alive. {@link stdio} sets it: a stdio server
   * lives as long as its input. Default false.
   */
  readonly exitAfterEnd?: boolean;
  /**
   * Backpressure: once this many bytes wait to be written (the other side is not reading), stop
   * reading its messages until they drain. Nothing is dropped; the other side's writes block on
   * the full pipe instead of our memory growing. Sends resolve once the output drains, so a
   * handler that awaits `ctx.progress` waits for the reader. Default 4 MiB.
   */
  readonly maxBufferedBytes?: number;
  /**
   * How long the output may stay over `maxBufferedBytes` before the other side counts as stuck:
   * the transport then closes with an error (handlers aborted, the output destroyed). Only sends
   * that nobody awaited get it there. Default 30 s.
   */
  readonly stuckTimeoutMs?: number;
}



/** How long in-flight requests may still be answered after input EOF: 5 s. */
export const DEFAULT_END_GRACE_MS = 5_000;

/**
 * MCP's stdio framing over any pair of streams: newline-delimited UTF-8 JSON, one message a line.
 *
 * `input` carries the other side's messages, `output` ours and nothing else (logs belong on stderr).
 * The transport does not own the streams beyond reading and ending them; {@link stdio} and
 * `spawnStdio` (stdio-child.ts) build it for the process's own stdio and for a child's.
 *
 * Lifecycle: input EOF (or a stream error) reports `closed()` once, with the error if any, and ends
 * the output; `close()` stops reading, ends the output once everything queued is written, then
 * reports `closed()`. After either, `send` rejects with {@link TransportClosedError}.
 */
const PIPE: TransportFacts = Object.freeze({ network: "pipe" });

export class StdioTransport implements Transport {
  readonly coalesces = true;
  readonly facts: TransportFacts = PIPE;
  private readonly decoder: NdjsonDecoder;
  private receiver: Receiver | undefined;
  private reading = false;
  private isClosed = false;
  private closing: Promise<void> | undefined;
  /** Sends of this turn gathered so far into one write. */
  private corked = 0;
  /** One shared wait for 'drain', so 16 blocked sends add one listener, not 16. */
  private drain: Promise<void> | undefined;
  private readonly maxBufferedBytes: number;
  /** Reading is paused until the output drains (backpressure). */
  private throttled = false;
  /** Set while throttled: cuts a reader that stays stuck off. */
  private stuck: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly options: StdioTransportOptions = {},
  ) {
    // `reading` is checked per frame: a receiver may close the transport halfway through a chunk.
    this.decoder = new NdjsonDecoder(
      {
        message: (value) => {
          if (this.reading) this.receiver!.message(value);
        },
        malformed: (problem) => {
          if (this.reading) this.receiver!.malformed(problem);
        },
      },
      options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
    );
    // Listening from the start, and for good: an unhandled EPIPE (reader gone) would crash the process.
    output.on("error", this.onOutputError);
    // At least the stream's own mark, so that crossing ours implies a 'drain' to come.
    this.maxBufferedBytes = Math.max(options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES, output.writableHighWaterMark);
  }

  start(receiver: Receiver): void {
    if (this.receiver) throw new Error("StdioTransport.start called twice");
    this.receiver = receiver;
    if (this.isClosed) {
      queueMicrotask(() => receiver.closed());
      return;
    }
    this.reading = true;
    this.input.on("data", this.onData);
    this.input.on("end", this.onEnd);
    this.input.on("close", this.onInputClose);
    // Kept after close too, like the output's: a late error must not crash the process.
    this.input.on("error", this.onInputError);
  }

  send(message: unknown, options?: SendOptions): Promise<void> {
    if (this.isClosed || this.closing || !this.output.writable) return Promise.reject(new TransportClosedError());
    let text: string;
    try {
      text = jsonText(message);
    } catch (error) {
      return Promise.reject(error);
    }
    if (options?.alone) return this.writeAlone(encodeLine(text));
    if (options?.apart) return this.writeAlone(encodeLine(text, APART_BYTES));
    if (this.corked === 0) {
      this.output.cork();
      process.nextTick(this.uncork);
    }
    const accepted = this.output.write(encodeLine(text));
    if (++this.corked === BATCH) this.uncork();
    if (accepted) return RESOLVED;
    if (!this.throttled && this.output.writableLength >= this.maxBufferedBytes) this.throttle();
    return (this.drain ??= this.waitForDrain());
  }

  close(): Promise<void> {
    return (this.closing ??= this.shutDown());
  }

  /** Bytes accepted but not yet written out. */
  get bufferedBytes(): number {
    return this.output.writableLength;
  }

  /** Whether reading is paused until the output drains. */
  get readingPaused(): boolean {
    return this.throttled;
  }

  /** Backpressure: no new messages until what waits has been written. */
  private throttle(): void {
    this.throttled = true;
    this.input.pause();
    this.output.once("drain", this.unthrottle);
    const timeoutMs = this.options.stuckTimeoutMs ?? DEFAULT_STUCK_TIMEOUT_MS;
    // Unref'd: waiting on a reader must not keep the process alive by itself.
    if (Number.isFinite(timeoutMs)) (this.stuck = setTimeout(this.cutOff, timeoutMs)).unref?.();
  }

  private readonly unthrottle = (): void => {
    this.throttled = false;
    clearTimeout(this.stuck);
    if (this.reading) this.input.resume();
  };

  private readonly cutOff = (): void => {
    if (this.isClosed) return;
    const waiting = this.output.writableLength;
    this.stopReading();
    this.finish(new TransportClosedError(`the other side read nothing for ${this.options.stuckTimeoutMs ?? DEFAULT_STUCK_TIMEOUT_MS} ms with ${waiting} bytes waiting (limit ${this.maxBufferedBytes}); disconnected`));
    this.output.destroy();
  };

  /** What this turn gathered goes first, in its own write; then `line`, resolved once written. */
  private writeAlone(line: Buffer): Promise<void> {
    this.uncork();
    const written = new Promise<void>((resolve, reject) => this.output.write(line, (error) => (error ? reject(error) : resolve())));
    if (!this.throttled && this.output.writableLength >= this.maxBufferedBytes) this.throttle();
    return written;
  }

  private async shutDown(): Promise<void> {
    this.stopReading();
    const error = await endAndFlush(this.output);
    this.finish(error);
  }

  private waitForDrain(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const settle = (error?: Error) => {
        this.output.off("drain", onFlushed);
        this.output.off("finish", onFlushed);
        this.output.off("close", onClose);
        this.output.off("error", settle);
        this.drain = undefined;
        if (error) reject(error);
        else resolve();
      };
      // Drained, or ended and flushed: what was accepted went out.
      const onFlushed = () => settle();
      const onClose = () => settle(this.output.writableFinished ? undefined : new TransportClosedError("the output closed"));
      this.output.on("drain", onFlushed);
      this.output.on("finish", onFlushed);
      this.output.on("close", onClose);
      this.output.on("error", settle);
    });
  }

  private readonly uncork = (): void => {
    if (this.corked === 0) return;
    this.corked = 0;
    this.output.uncork();
  };

  private readonly onData = (chunk: Buffer | string): void => {
    // Buffers unless someone set an encoding on the stream; decode bytes either way.
    this.decoder.push(typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk);
  };

  private readonly onEnd = (): void => {
    this.decoder.end();
    this.stopReading();
    const owed = this.receiver!.ended?.(this.options.endGraceMs ?? DEFAULT_END_GRACE_MS);
    let closed: Promise<void>;
    if (owed) closed = owed.then(() => this.close());
    else {
      this.output.end();
      this.finish();
      closed = endAndFlush(this.output).then(() => {});
    }
    // Unconditional: a hung handler's timers must not keep the process alive past the grace period.
    if (this.options.exitAfterEnd) void closed.then(() => setImmediate(() => process.exit()));
  };

  private readonly onInputError = (error: Error): void => {
    if (!this.reading) return;
    this.stopReading();
    this.output.end();
    this.finish(error);
  };

  /** Destroyed without 'end' or 'error': the other side is gone all the same. */
  private readonly onInputClose = (): void => {
    if (!this.reading) return;
    this.stopReading();
    this.output.end();
    this.finish(new TransportClosedError("the input closed before its end"));
  };

  private readonly onOutputError = (error: Error): void => {
    if (this.isClosed) return;
    this.stopReading();
    this.finish(error);
  };

  private stopReading(): void {
    if (!this.reading) return;
    this.reading = false;
    this.input.off("data", this.onData);
    this.input.off("end", this.onEnd);
    this.input.off("close", this.onInputClose);
    if (this.options.destroyInputOnClose) this.input.destroy();
    else this.input.pause();
  }

  /** Report `closed()` once, whatever ended the transport first. */
  private finish(error?: Error): void {
    if (this.isClosed) return;
    this.isClosed = true;
    clearTimeout(this.stuck);
    this.receiver?.closed(error);
  }
}

/** The server side: this process's stdin and stdout. Nothing else may write to stdout. */
export function stdio(options: Omit<StdioTransportOptions, "destroyInputOnClose"> = {}): StdioTransport {
  return new StdioTransport(process.stdin, process.stdout, { exitAfterEnd: true, ...options, destroyInputOnClose: true });
}

const RESOLVED: Promise<void> = Promise.resolve();

/**
 * `text` and its '\n' as UTF-8 in one buffer. JSON.stringify escapes every newline inside
 * strings, so this '\n' is the line's only one. Encoding straight into a buffer of the exact size
 * spares `text + "\n"`, which V8 would flatten first: one more copy of a 64 MiB message.
 */
function encodeLine(text: string, indent = 0): Buffer {
  const length = Buffer.byteLength(text, "utf8");
  const line = Buffer.allocUnsafe(indent + length + 1); // fully overwritten below
  if (indent > 0) line.fill(0x20, 0, indent);
  line.write(text, indent, length, "utf8");
  line[indent + length] = 0x0a;
  return line;
}

/**
 * SendOptions.apart: the spaces before such a line (JSON allows them). Node reads a pipe 64 KiB at
 * a time (libuv's read size) and hands each read to 'data' on its own, so the end of the line
 * before and the end of this one never share a read: a reader handles them in two turns.
 */
const APART_BYTES = 64 * 1024;

/** End `output` and wait until what was written is flushed; the error when that failed. */
async function endAndFlush(output: Writable): Promise<Error | undefined> {
  if (!output.writableEnded) output.end();
  try {
    // A built-in loaded on use, not imported: runtime/index.ts stays free of node: imports, so a Worker can bundle it.
    const { finished } = (globalThis as unknown as { process: { getBuiltinModule(id: "node:stream/promises"): typeof import("node:stream/promises") } }).process.getBuiltinModule("node:stream/promises");
    await finished(output, { readable: false });
    return undefined;
  } catch (error) {
    return error as Error;
  }
}
