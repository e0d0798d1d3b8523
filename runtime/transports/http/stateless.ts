import { isRequestId } from "../../jsonrpc/messages.js";
import { TransportClosedError } from "../closed-error.js";
import type { MessageContext, Receiver, SendOptions, Transport, TransportFacts } from "../../jsonrpc/transport.js";
import { statusOfResponse } from "./errors.js";
import type { Accepts } from "./negotiation.js";
import type { Reply } from "./reply.js";
import { ResponseStream } from "./stream.js";

/**
 * Stateless era (2026-07-28): one POST, one short-lived transport. The endpoint hands it to the
 * server (`accept`), which serves it with a ServerSession of its own; everything the server sends
 * goes on this POST's answer. Once the response is out the transport closes, and so does its
 * session. If the client closes the connection first, the transport closes with an error: the
 * peer aborts the handler's AbortSignal, which is how a stateless client cancels.
 */
const TCP: TransportFacts = Object.freeze({ network: "tcp" });

export class StatelessExchange implements Transport {
  private receiver: Receiver | undefined;
  private readonly stream: ResponseStream;
  private isClosed = false;
  readonly facts: TransportFacts = TCP;

  constructor(
    res: Reply,
    private readonly message: unknown,
    private readonly context: MessageContext,
    accepts: Accepts,
    sseFirst: boolean,
    headers: Record<string, string>,
    /** Called once when the exchange closes: answered, or the client went away. */
    private readonly ended: (exchange: StatelessExchange) => void,
  ) {
    // Only a request is answered: a response (or anything without a method) waits for nothing.
    const { id, method } = message as { id?: unknown; method?: unknown };
    const ids = typeof method === "string" && isRequestId(id) ? [id] : [];
    this.stream = new ResponseStream(
      // No event store here: the stream is never resumed, so its id is never used (a random one cost 1-3% of a call).
      "",
      res,
      ids,
      { json: accepts.json, sse: accepts.sse, sseFirst: accepts.sse && (accepts.preferSse || !accepts.json || sseFirst), headers, statusOf: statusOfResponse },
      {
        finished: () => this.shut(),
        disconnected: () => this.shut(new Error("the client closed the response stream")),
      },
    );
  }

  start(receiver: Receiver): void {
    if (this.receiver) throw new Error("StatelessExchange.start called twice");
    this.receiver = receiver;
    queueMicrotask(() => {
      if (this.isClosed) return;
      receiver.message(this.message, this.context);
      // A notification: nothing to answer.
      if (this.stream.requestIds.size === 0 && !this.stream.finished) this.stream.end();
    });
  }

  send(message: unknown, _options?: SendOptions): Promise<void> {
    if (this.isClosed) return Promise.reject(new TransportClosedError());
    // Only this request's messages exist here; a notification the client cannot take (no SSE) is dropped.
    // Backpressure: the sender waits for room; a client stuck past the bounds is cut off, which aborts the handler.
    try {
      return this.stream.write(message) ? (this.stream.room() ?? RESOLVED) : RESOLVED;
    } catch (error) {
      // A message JSON cannot carry: refused to the sender, which answers for it (jsonrpc/peer.ts).
      return Promise.reject(error);
    }
  }

  close(): Promise<void> {
    this.stream.end();
    this.shut();
    return RESOLVED;
  }

  private shut(error?: Error): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.ended(this);
    this.receiver?.closed(error);
  }
}

const RESOLVED: Promise<void> = Promise.resolve();
