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
  private data: string[] = [];
  private id: string | undefined;
  private event = "";
  private sawField = false;

  constructor(
    private readonly onEvent: (event: SseEvent) => void,
    private readonly onRetry: (ms: number) => void = () => {},
  ) {}

  push(text: string): void {
    this.buffer += text;
    let start = 0;
    for (;;) {
      const lf = this.buffer.indexOf("\n", start);
      const cr = this.buffer.indexOf("\r", start);
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
    }
    this.buffer = this.buffer.slice(start);
  }

  /** The stream ended: an event without its blank line is dropped, as the format says. */
  end(): void {
    this.buffer = "";
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
    this.id = undefined;
    this.event = "";
    this.sawField = false;
  }
}
