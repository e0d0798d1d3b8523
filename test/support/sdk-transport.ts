/**
 * Adapters between our Transport (start(receiver)/send/close) and the official SDK's
 * (start/send/close + onmessage/onclose/onerror), so that either side's peer runs on either side's
 * in-memory pipe: our McpClient over the SDK's InMemoryTransport, the SDK's McpServer over our
 * createMemoryPair.
 */
import type { Transport as SdkTransport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { Receiver, SendOptions, Transport } from "../../runtime/jsonrpc/transport.js";

/** An SDK transport, seen by our runtime. */
export class FromSdkTransport implements Transport {
  private receiver: Receiver | undefined;
  private closedReported = false;
  /** What the SDK transport reported through onerror (our contract has no such channel). */
  readonly errors: Error[] = [];

  constructor(private readonly inner: SdkTransport) {}

  start(receiver: Receiver): void {
    if (this.receiver) throw new Error("FromSdkTransport.start called twice");
    this.receiver = receiver;
    // The SDK's InMemoryTransport calls onmessage from inside the other side's send(); our
    // contract says a receiver is never called from inside send, so delivery is deferred (in order).
    this.inner.onmessage = (message: JSONRPCMessage) => queueMicrotask(() => receiver.message(message));
    this.inner.onerror = (error: Error) => this.errors.push(error);
    this.inner.onclose = () => queueMicrotask(() => this.reportClosed(undefined));
    this.inner.start().catch((error: Error) => this.reportClosed(error));
  }

  send(message: unknown, options?: SendOptions): Promise<void> {
    const sdkOptions: TransportSendOptions | undefined = options?.relatedRequestId === undefined ? undefined : { relatedRequestId: options.relatedRequestId };
    return this.inner.send(message as JSONRPCMessage, sdkOptions);
  }

  async close(): Promise<void> {
    await this.inner.close();
    // The SDK's InMemoryTransport reports onclose more than once; ours reports closed() once.
    await new Promise<void>((resolve) => queueMicrotask(resolve));
    this.reportClosed(undefined);
  }

  private reportClosed(error: Error | undefined): void {
    if (this.closedReported || !this.receiver) return;
    this.closedReported = true;
    this.receiver.closed(error);
  }
}

/** One of our transports, seen by the SDK. */
export class ToSdkTransport implements SdkTransport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  constructor(private readonly inner: Transport) {}

  start(): Promise<void> {
    this.inner.start({
      message: (value) => this.onmessage?.(value as JSONRPCMessage),
      malformed: (problem) =>
        this.onerror?.(new Error(problem.kind === "parse" ? `parse error: ${problem.message}` : `message of ${problem.bytes} bytes over ${problem.limit}`)),
      closed: (error) => {
        if (error) this.onerror?.(error);
        this.onclose?.();
      },
    });
    return Promise.resolve();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options?.relatedRequestId === undefined ? undefined : { relatedRequestId: options.relatedRequestId });
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
