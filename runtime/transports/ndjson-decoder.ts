import { DEFAULT_MAX_MESSAGE_BYTES, type FrameProblem } from "../jsonrpc/transport.js";

/** Where decoded frames go. A {@link Receiver} is one. */
export interface FrameSink {
  message(value: unknown): void;
  malformed(problem: FrameProblem): void;
}

/** How much of a line that is not JSON a "parse" problem quotes, and how much of each end of an oversized one is kept. */
const EXCERPT_CHARS = 200;
/** 4 bytes at most per character: enough for EXCERPT_CHARS whole characters. */
const EXCERPT_BYTES = EXCERPT_CHARS * 4;
const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;

/**
 * Newline-delimited UTF-8 JSON, bytes in, values out, in linear time.
 *
 * Each chunk is scanned once for '\n', and only from where the previous scan stopped. The pieces
 * of an unfinished line wait in an array and are joined once, when its '\n' arrives, then decoded
 * once: a line costs one copy and one decode whatever the chunk size. (Appending every chunk to
 * one growing buffer, as the official SDK does, copies the line again on every chunk: quadratic.)
 *
 * Joining bytes before decoding also makes a multi-byte character split across chunks a
 * non-issue, and '\n' (0x0A) never occurs inside a multi-byte UTF-8 sequence.
 *
 * Per line: a leading byte order mark and a trailing '\r' are dropped (CRLF), a blank line is skipped, bad JSON is reported as
 * a "parse" problem, and a line longer than `maxMessageBytes` (terminator excluded) is not kept:
 * its bytes are counted and dropped up to its '\n', then reported once as "oversized" with its full
 * size and its first and last 200 characters. In every case the next line decodes normally. Invalid UTF-8 becomes U+FFFD, as with
 * TextDecoder: refusing it would turn one bad byte in a log string into a lost response.
 */
export class NdjsonDecoder {
  /** Pieces of the current line, none of them holding a '\n'. */
  private pieces: Buffer[] = [];
  private pieceBytes = 0;
  /** The current line is over the limit: its bytes are counted, not kept. */
  private discarding = false;
  private discardedBytes = 0;
  private discardedEndsWithCarriageReturn = false;
  /** The first and the latest bytes of the line being discarded (FrameProblem's head and tail). */
  private discardedEnds: LineEnds | undefined;
  /** The input ended: a line decoded now had no '\n'. */
  private ending = false;

  constructor(
    private readonly sink: FrameSink,
    readonly maxMessageBytes: number = DEFAULT_MAX_MESSAGE_BYTES,
  ) {
    if (!(maxMessageBytes >= 0)) throw new RangeError(`maxMessageBytes must be >= 0, got ${maxMessageBytes}`);
  }

  /** Bytes held for the line in progress: at most `maxMessageBytes + 1`, since an oversized line is counted, not kept. */
  get bufferedBytes(): number {
    return this.pieceBytes;
  }

  /** Decode what `chunk` completes, and keep the rest for later. The sink is called synchronously. */
  push(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(NEWLINE, start);
      if (newline === -1) break;
      this.endLine(chunk, start, newline);
      start = newline + 1;
    }
    if (start < chunk.length) this.keep(chunk, start);
  }

  /** The input ended: a last line without its '\n' still counts (a peer may omit the final newline). */
  end(): void {
    this.ending = true;
    if (this.discarding || this.pieceBytes > 0) this.endLine(Buffer.alloc(0), 0, 0);
  }

  private keep(chunk: Buffer, start: number): void {
    const length = chunk.length - start;
    if (this.discarding) {
      this.discardedBytes += length;
      this.discardedEndsWithCarriageReturn = chunk[chunk.length - 1] === CARRIAGE_RETURN;
      this.discardedEnds!.add(chunk.subarray(start));
      return;
    }
    // One byte of slack: the line may yet end in "\r\n", and the '\r' does not count.
    if (this.pieceBytes + length > this.maxMessageBytes + 1) {
      this.pieces.push(chunk.subarray(start));
      this.discarding = true;
      this.discardedBytes = this.pieceBytes + length;
      this.discardedEndsWithCarriageReturn = chunk[chunk.length - 1] === CARRIAGE_RETURN;
      this.discardedEnds = new LineEnds(this.pieces);
      this.pieces = [];
      this.pieceBytes = 0;
      return;
    }
    this.pieces.push(start === 0 ? chunk : chunk.subarray(start));
    this.pieceBytes += length;
  }

  /** The line whose last piece is chunk[start, end) is complete. */
  private endLine(chunk: Buffer, start: number, end: number): void {
    const tail = end - start;
    const lastByte = tail > 0 ? chunk[end - 1] : this.discarding ? undefined : this.pieces.at(-1)?.at(-1);
    const endsWithCarriageReturn = this.discarding && tail === 0 ? this.discardedEndsWithCarriageReturn : lastByte === CARRIAGE_RETURN;
    const bytes = (this.discarding ? this.discardedBytes : this.pieceBytes) + tail - (endsWithCarriageReturn ? 1 : 0);
    if (this.discarding || bytes > this.maxMessageBytes) {
      // Checked before joining, so an oversized line is never copied.
      const ends = this.discardedEnds ?? new LineEnds(this.pieces);
      ends.add(chunk.subarray(start, end));
      this.discarding = false;
      this.discardedBytes = 0;
      this.discardedEnds = undefined;
      this.pieces = [];
      this.pieceBytes = 0;
      this.sink.malformed({ kind: "oversized", bytes, limit: this.maxMessageBytes, ...ends.texts() });
      return;
    }
    let line: Buffer;
    if (this.pieces.length === 0) {
      line = chunk.subarray(start, end);
    } else {
      this.pieces.push(chunk.subarray(start, end));
      line = Buffer.concat(this.pieces, this.pieceBytes + tail);
      this.pieces = [];
      this.pieceBytes = 0;
    }
    // A byte order mark before a JSON text is ignored (RFC 8259 section 8.1), as HTTP's TextDecoder does (body.ts).
    const from = bytes >= 3 && line[0] === 0xef && line[1] === 0xbb && line[2] === 0xbf ? 3 : 0;
    if (isBlank(line, from, bytes)) return;
    let value: unknown;
    try {
      value = JSON.parse(line.toString("utf8", from, bytes));
    } catch (error) {
      const excerpt = line.toString("utf8", 0, Math.min(bytes, EXCERPT_BYTES)).slice(0, EXCERPT_CHARS);
      // A line cut short by the end of the input: the writer died or closed in the middle of a message.
      const message = this.ending ? `the input ended in the middle of a line of ${bytes} bytes (${(error as Error).message})` : (error as Error).message;
      this.sink.malformed({ kind: "parse", message, excerpt });
      return;
    }
    // Outside the try: a throwing sink is its own bug, not a parse error.
    this.sink.message(value);
  }
}

/**
 * The first and the last EXCERPT_BYTES of a line that is not kept, as its pieces pass: bounded
 * memory, and a bounded copy per piece (a large piece gives a copy of its end, so the chunk it
 * came from is not kept alive; small ones are compacted once they hold twice what is kept).
 */
class LineEnds {
  private head = Buffer.alloc(0);
  private tail: Buffer[] = [];
  private tailBytes = 0;

  constructor(pieces: readonly Buffer[]) {
    for (const piece of pieces) this.add(piece);
  }

  add(piece: Buffer): void {
    if (this.head.length < EXCERPT_BYTES) this.head = Buffer.concat([this.head, piece.subarray(0, EXCERPT_BYTES - this.head.length)]);
    this.tail.push(piece.length > EXCERPT_BYTES ? Buffer.from(piece.subarray(piece.length - EXCERPT_BYTES)) : piece);
    this.tailBytes += Math.min(piece.length, EXCERPT_BYTES);
    if (this.tailBytes > 2 * EXCERPT_BYTES) {
      this.tail = [this.last()];
      this.tailBytes = EXCERPT_BYTES;
    }
  }

  /** The first and the last EXCERPT_CHARS characters, a '\r' of CRLF and other trailing blanks left out. */
  texts(): { head: string; tail: string } {
    return { head: this.head.toString("utf8").slice(0, EXCERPT_CHARS).trimEnd(), tail: this.last().toString("utf8").trimEnd().slice(-EXCERPT_CHARS) };
  }

  private last(): Buffer {
    const joined = Buffer.concat(this.tail);
    return Buffer.from(joined.subarray(Math.max(0, joined.length - EXCERPT_BYTES)));
  }
}

/** Only spaces and tabs (a '\r' was already dropped). Stops at the first other byte, so it is O(1) for JSON. */
function isBlank(line: Buffer, from: number, length: number): boolean {
  for (let i = from; i < length; i++) {
    const byte = line[i];
    if (byte !== SPACE && byte !== TAB) return false;
  }
  return true;
}
