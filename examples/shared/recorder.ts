/**
 * Transports that remember every message they carry, both ways: for the examples' transcripts and
 * for tests that check what went over the wire. One wraps the official SDK's client transport,
 * the other any transport of our runtime.
 */
import type { Transport as SdkTransport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage, MessageExtraInfo } from "@modelcontextprotocol/sdk/types.js";
import type { Receiver, SendOptions, Transport } from "../../runtime/index.js";

export interface Exchanged {
  /** "->" client to server, "<-" server to client. */
  readonly direction: "->" | "<-";
  readonly message: unknown;
}

/** A log of exchanged messages that can print itself. */
export class Transcript {
  readonly messages: Exchanged[] = [];

  add(direction: Exchanged["direction"], message: unknown): void {
    this.messages.push({ direction, message: structuredClone(message) });
  }

  /** One line per message, long strings shortened so that a transcript stays readable. */
  format(maxString = 160): string {
    return this.messages.map(({ direction, message }) => `${direction} ${JSON.stringify(message, shorten(maxString))}`).join("\n");
  }
}

function shorten(max: number): (key: string, value: unknown) => unknown {
  return (_key, value) => (typeof value === "string" && value.length > max ? `${value.slice(0, max)}... (${value.length} chars)` : value);
}

/** The SDK client's transport, recorded. */
export class RecordingSdkTransport implements SdkTransport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  /** The protocol version the SDK client negotiated, once it has. */
  protocolVersion: string | undefined;

  constructor(
    readonly inner: SdkTransport,
    readonly transcript = new Transcript(),
  ) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  start(): Promise<void> {
    this.inner.onmessage = (message, extra) => {
      this.transcript.add("<-", message);
      this.onmessage?.(message, extra);
    };
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onclose = () => this.onclose?.();
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.transcript.add("->", message);
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
    this.inner.setProtocolVersion?.(version);
  }
}

/** One of our runtime's transports (the client side of it), recorded. */
export function recording(inner: Transport, transcript: Transcript): Transport {
  return {
    start: (receiver: Receiver) =>
      inner.start({
        message: (value, context) => {
          transcript.add("<-", value);
          receiver.message(value, context);
        },
        malformed: (problem) => receiver.malformed(problem),
        closed: (error) => receiver.closed(error),
      }),
    send: (message: unknown, options?: SendOptions) => {
      transcript.add("->", message);
      return inner.send(message, options);
    },
    close: () => inner.close(),
  };
}
