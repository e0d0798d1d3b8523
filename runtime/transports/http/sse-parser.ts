/** One Server-Sent Event, as the WHATWG event-stream format defines it. */
export interface SseEvent {
  readonly id?: string;
  readonly event: string;
  readonly data: string;
}

/**
 * An incremental text/event-stream parser: feed it text as it arrives; it calls `onEvent` for
 * each complete event and `onRetry` for each retry field. Events with no data (priming events)
 * are reported too: their id matters for resumption.
 */
export class SseParser {
  private buffer = "";
  /** Where the buffer may hold a line break not yet seen: the text before it has none (no rescanning: a long line stays linear). */
  private scanned = 0;
  private data: string[] = [];
  private dataChars = 0;
  private id: string | undefined;
  private event = "";
  private sawField = false;
  /** An event grew past `limit`: the rest of the stream is not read (`overflowed` tells the reader). */
  overflowed = false;

  constructor(
    private readonly onEvent: (event: SseEvent) => void,
    private readonly onRetry: (ms: number) => void = () => {},
    /** The most characters one event (its lines and data) may hold. */
    private readonly limit = Number.POSITIVE_INFINITY,
  ) {}

  push(text: string): void {
    if (this.overflowed) return;
    this.buffer += text;
    if (this.buffer.length + this.dataChars > this.limit) {
      this.overflowed = true;
      this.buffer = "";
      this.reset();
      return;
    }
    let start = 0;
    for (;;) {
      const from = Math.max(start, this.scanned);
      const lf = this.buffer.indexOf("\n", from);
      const cr = this.buffer.indexOf("\r", from);
      let end: number;
      let next: number;
      if (cr >= 0 && (lf < 0 || cr < lf)) {
        // A lone CR at the very end may be the first half of CRLF: wait for more.
        if (cr === this.buffer.length - 1) break;
        end = cr;
        next = this.buffer[cr + 1] === "\n" ? cr + 2 : cr + 1;
      } else if (lf >= 0) {
        end = lf;
        next = lf + 1;
      } else break;
      this.line(this.buffer.slice(start, end));
      start = next;
      if (this.overflowed) return;
    }
    this.buffer = this.buffer.slice(start);
    // All of it was searched; a CR left last may start a CRLF: looked at again.
    this.scanned = Math.max(0, this.buffer.length - 1);
  }

  /** The stream ended: an event without its blank line is dropped, as the format says. */
  end(): void {
    this.buffer = "";
    this.scanned = 0;
    this.reset();
  }

  private line(line: string): void {
    if (line === "") {
      if (this.sawField) this.onEvent({ id: this.id, event: this.event || "message", data: this.data.join("\n") });
      this.reset();
      return;
    }
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    this.sawField = true;
    switch (field) {
      case "data":
        this.data.push(value);
        this.dataChars += value.length + 1;
        if (this.dataChars > this.limit) this.overflowed = true;
        break;
      case "id":
        if (!value.includes("\0")) this.id = value;
        break;
      case "event":
        this.event = value;
        break;
      case "retry":
        if (/^\d+$/.test(value)) this.onRetry(Number(value));
        break;
    }
  }

  private reset(): void {
    this.data = [];
    this.dataChars = 0;
    this.id = undefined;
    this.event = "";
    this.sawField = false;
  }
}
