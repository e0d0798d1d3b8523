import type { FrameProblem, MessageContext, Receiver, SendOptions, Transport, TransportFacts } from "./transport.js";
import { stderrLogger, type Logger } from "../util/logger.js";
import { isThenable } from "../util/thenable.js";
import { Deadlines } from "./deadlines.js";
import { MAX_NESTING_DEPTH, nestingTooDeep } from "./depth.js";
import { frameEnds } from "./frame-ends.js";
import { ErrorCode, HandlerFault, RpcError } from "./errors.js";
import {
  classify,
  errorResponse,
  invalidity,
  isRequestId,
  jsonText,
  type ErrorResponse,
  type Message,
  type Notification,
  type Request,
  type RequestId,
  type ResultResponse,
} from "./messages.js";

/** What the layer above the peer does with inbound traffic. */
export interface PeerHandler {
  /** Answer a request: return (or resolve) its result, or throw an {@link RpcError}. */
  request(request: Request, inbound: InboundRequest): unknown;
  /** Notifications never get a reply; a throw here is logged. */
  notification(notification: Notification, context: MessageContext | undefined): void;
  /** Whether an array of messages (a JSON-RPC batch) is acceptable now. Default: never. */
  acceptsBatch?(): boolean;
  /** The connection ended; `error` says why when it was not asked to. */
  closed?(error?: Error): void;
}

export interface PeerOptions {
  readonly logger?: Logger;
  /** Default timeout of outbound requests, in milliseconds. */
  readonly requestTimeoutMs?: number;
  /**
   * Tells the other side to stop working on a request of ours that timed out or was aborted
   * (MCP: notifications/cancelled). Not called for requests that got their answer.
   */
  readonly cancel?: (id: RequestId, method: string, reason: string) => void;
  /** Called after each frame that is not JSON-RPC is counted (see `strays`). */
  readonly onStray?: (strays: Strays) => void;
  /** How many of the other side's requests run at once (default {@link DEFAULT_MAX_CONCURRENT_REQUESTS}); one more is refused. */
  readonly maxConcurrentRequests?: number;
}

/**
 * How many of the other side's requests a connection runs at once by default: 1024. Past it a
 * request is answered -32603 at once, so a flood (a million sampling requests from a server, a
 * million calls from a client) costs a refusal each, not a handler each, held in memory.
 */
export const DEFAULT_MAX_CONCURRENT_REQUESTS = 1024;

/** Options of one JSON-RPC request: abort signal, timeout, progress. */
export interface RequestOptions {
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  readonly relatedRequestId?: RequestId;
  /** Learns the id the request is sent with, before it is sent (to match what the other side tags with it). */
  readonly onId?: (id: RequestId) => void;
  /** Transport headers for this request (see SendOptions.headers). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Inbound frames that were not JSON-RPC messages (not JSON, or JSON of another shape): how many, and the start of the first and of the last. */
export interface Strays {
  readonly count: number;
  readonly first: string;
  readonly last: string;
  /** Why the last is not JSON, when it is not (the parser's message). */
  readonly why?: string;
}

/** How a duplicate id's refusal is sent: it answers the message being delivered (SendOptions.refusal). */
const REFUSAL: SendOptions = { refusal: true };

/** Where the answers to inbound messages go: straight out, or into a batch's array. */
interface Sink {
  answer(response: Message, options?: SendOptions): void;
  /** The message needs no answer (a notification, a response, a cancelled request). */
  none(): void;
}

/** One inbound request being answered. */
export class InboundRequest {
  private controller?: AbortController;
  /** Set when the other side cancelled it: no response will be sent. */
  cancelled = false;
  /** How its response is to be sent (SendOptions.apart), when the layer above says so. */
  replyOptions: SendOptions | undefined;

  constructor(
    readonly id: RequestId,
    readonly method: string,
    readonly context: MessageContext | undefined,
    /** @internal */ readonly sink: Sink,
  ) {}

  /** Aborted on cancellation and when the connection closes. Created on first use: most handlers never look. */
  get signal(): AbortSignal {
    return (this.controller ??= new AbortController()).signal;
  }

  abort(reason: string): void {
    (this.controller ??= new AbortController()).abort(new DOMException(reason, "AbortError"));
  }
}

interface Pending {
  readonly method: string;
  readonly timeoutMs?: number;
  readonly resolve: (result: unknown) => void;
  readonly reject: (error: Error) => void;
  readonly signal?: AbortSignal;
  readonly onAbort?: () => void;
}

/**
 * One side of a JSON-RPC 2.0 connection over a {@link Transport}: classifies what arrives,
 * answers every request exactly once (or not at all once cancelled), correlates the responses
 * to its own requests, and times them out. It knows nothing of MCP beyond the `cancel` hook.
 */
export class Peer {
  private readonly pending = new Map<RequestId, Pending>();
  private readonly inbound = new Map<RequestId, InboundRequest>();
  private readonly deadlines = new Deadlines<RequestId>((id) => this.timedOut(id));
  private readonly direct: Sink = { answer: (response, options) => this.reply(response, options), none: () => {} };
  private nextId = 1;
  /** Why the connection closed (undefined: closed without an error); read only once closed. */
  private closedBy: Error | undefined;
  /** Built when first needed: most peers close with nothing pending, and an Error with its stack costs (a stateless exchange closes after every call). */
  private closedErrorValue: RpcError | undefined;
  private isClosed = false;
  /** The other side's input ended: nothing more will arrive, answers still go out. */
  private inputEnded: Error | undefined;
  /** Called when the last inbound request is answered after the input ended. */
  private onIdle: (() => void) | undefined;
  private readonly logger: Logger;
  private strayFrames: Strays | undefined;
  private readonly maxConcurrent: number;
  /** Handlers of the other side's requests still running, cancelled ones included: what maxConcurrentRequests bounds. */
  private running = 0;
  /** Requests refused for maxConcurrentRequests, logged at the first, then at ten times as many. */
  private refusedBusy = 0;
  private nextBusyLog = 1;

  constructor(
    private readonly transport: Transport,
    private readonly handler: PeerHandler,
    private readonly options: PeerOptions = {},
  ) {
    this.logger = options.logger ?? stderrLogger;
    this.maxConcurrent = options.maxConcurrentRequests ?? DEFAULT_MAX_CONCURRENT_REQUESTS;
    if (!(this.maxConcurrent >= 1)) throw new RangeError(`maxConcurrentRequests must be at least 1, got ${options.maxConcurrentRequests}`);
    const receiver: Receiver = {
      message: (value, context) => this.receive(value, context),
      malformed: (problem) => this.malformed(problem),
      closed: (error) => this.onClosed(error),
      ended: (graceMs) => this.onEnded(graceMs),
    };
    transport.start(receiver);
  }

  get closed(): boolean {
    return this.isClosed;
  }

  /** What the transport tells about the connection (Transport.facts). */
  get facts(): TransportFacts | undefined {
    return this.transport.facts;
  }

  /** What arrived that was not JSON-RPC (a server's banner or log lines on its stdout), if anything. */
  get strays(): Strays | undefined {
    return this.strayFrames;
  }

  /** Whether the other side may read several of our messages at once (Transport.coalesces). */
  get coalesces(): boolean {
    return this.transport.coalesces === true;
  }

  /** Sends a request and resolves with its result, or rejects with the {@link RpcError} it got. */
  request(method: string, params: Record<string, unknown> | undefined, options: RequestOptions = {}): Promise<unknown> {
    if (this.isClosed) return Promise.reject(this.closedError);
    if (this.inputEnded) return Promise.reject(this.inputEnded);
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(abortError(signal, method));
    const id = this.nextId++;
    options.onId?.(id);
    const message: Request = params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params };
    return new Promise<unknown>((resolve, reject) => {
      let onAbort: (() => void) | undefined;
      if (signal) {
        onAbort = () => this.giveUp(id, abortError(signal, method));
        signal.addEventListener("abort", onAbort, { once: true });
      }
      const timeoutMs = options.timeoutMs ?? this.options.requestTimeoutMs;
      this.pending.set(id, { method, timeoutMs, resolve, reject, signal, onAbort });
      if (timeoutMs !== undefined && Number.isFinite(timeoutMs)) this.deadlines.add(id, timeoutMs);
      this.transport
        .send(message, sendOptions(options))
        .catch((error: Error) => this.settle(id)?.reject(error));
    });
  }

  notify(method: string, params?: Record<string, unknown>, options?: SendOptions): Promise<void> {
    const message: Notification = params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params };
    return this.send(message, options);
  }

  /** The other side cancelled an inbound request: abort its handler and never answer it. Unknown ids are ignored. */
  cancelInbound(id: RequestId, reason = "cancelled"): boolean {
    const inbound = this.inbound.get(id);
    if (!inbound) return false;
    inbound.cancelled = true;
    this.inbound.delete(id);
    inbound.abort(reason);
    inbound.sink.none();
    this.transport.unanswered?.(id);
    this.checkIdle();
    return true;
  }

  close(): Promise<void> {
    return this.transport.close();
  }

  send(message: Message | Message[], options?: SendOptions): Promise<void> {
    if (this.isClosed) return Promise.reject(this.closedError);
    return this.transport.send(message, options);
  }

  // -- inbound ----------------------------------------------------------------------------------

  private receive(value: unknown, context: MessageContext | undefined): void {
    const deep = nestingTooDeep(value);
    if (deep !== undefined) return this.tooDeep(value, deep);
    if (Array.isArray(value)) this.receiveBatch(value, context);
    else this.receiveOne(value, context, this.direct);
  }

  private receiveBatch(values: unknown[], context: MessageContext | undefined): void {
    if (!(this.handler.acceptsBatch?.() ?? false)) {
      this.reply(errorResponse(null, ErrorCode.InvalidRequest, "Invalid Request: JSON-RPC batches are not part of the MCP revision this connection speaks"));
      return;
    }
    if (values.length === 0) {
      this.reply(errorResponse(null, ErrorCode.InvalidRequest, "Invalid Request: an empty batch"));
      return;
    }
    const responses: Message[] = [];
    let outstanding = values.length;
    const one = () => {
      if (--outstanding === 0 && responses.length > 0) this.reply(responses);
    };
    const batch: Sink = {
      answer: (response) => {
        responses.push(response);
        one();
      },
      none: one,
    };
    for (const value of values) this.receiveOne(value, context, batch);
  }

  private receiveOne(value: unknown, context: MessageContext | undefined, sink: Sink): void {
    switch (classify(value)) {
      case "request":
        this.receiveRequest(value as Request, context, sink);
        return;
      case "notification":
        try {
          this.handler.notification(value as Notification, context);
        } catch (error) {
          this.logger("error", `notification ${(value as Notification).method} failed: ${describe(error)}`);
        }
        sink.none();
        return;
      case "response":
      case "error":
        this.receiveResponse(value as ResultResponse | ErrorResponse);
        sink.none();
        return;
      case "invalid": {
        this.stray(excerpt(value, STRAY_CHARS));
        const { id, reason } = invalidity(value);
        // A response is never answered (JSON-RPC 2.0 §5): a bad one settles our request, if it names one, and is logged;
        // answering it would let two peers trade error responses for ever.
        if (looksLikeResponse(value)) {
          const pending = isRequestId((value as { id?: unknown }).id) ? this.settle((value as { id: RequestId }).id) : undefined;
          if (pending) pending.reject(new RpcError(ErrorCode.InvalidRequest, `the answer to ${pending.method} is not a JSON-RPC response: ${reason}`));
          else this.logger("warn", `dropped an invalid response: ${reason}`);
          sink.none();
          return;
        }
        sink.answer(errorResponse(id, ErrorCode.InvalidRequest, `Invalid Request: ${reason}`));
      }
    }
  }

  private receiveRequest(request: Request, context: MessageContext | undefined, sink: Sink): void {
    const { id } = request;
    if (this.inbound.has(id)) {
      sink.answer(errorResponse(id, ErrorCode.InvalidRequest, `Invalid Request: request id ${JSON.stringify(id)} is already in flight`), REFUSAL);
      return;
    }
    if (this.running >= this.maxConcurrent) return this.busy(request, sink);
    const inbound = new InboundRequest(id, request.method, context, sink);
    this.inbound.set(id, inbound);
    this.running++;
    let outcome: unknown;
    try {
      outcome = this.handler.request(request, inbound);
    } catch (error) {
      this.failed(inbound, error);
      return;
    }
    if (isThenable(outcome))
      outcome.then(
        (result) => this.succeeded(inbound, result),
        (error) => this.failed(inbound, error),
      );
    else this.succeeded(inbound, outcome);
  }

  /** One request more than maxConcurrentRequests: refused now, its handler never called. */
  private busy(request: Request, sink: Sink): void {
    const why = `${this.maxConcurrent} requests of yours are running (cancelled ones until their handlers stop), the most this side runs at once (maxConcurrentRequests); send it again once one is answered`;
    if (++this.refusedBusy === this.nextBusyLog) {
      this.nextBusyLog *= 10;
      this.logger("warn", `refused ${request.method} (${this.refusedBusy} so far): ${this.maxConcurrent} requests are running (maxConcurrentRequests)`);
    }
    sink.answer(errorResponse(request.id, ErrorCode.InternalError, `Internal error: ${why}`, { maxConcurrentRequests: this.maxConcurrent }));
  }

  private succeeded(inbound: InboundRequest, result: unknown): void {
    this.running--;
    if (this.finish(inbound)) inbound.sink.answer({ jsonrpc: "2.0", id: inbound.id, result: result as Record<string, unknown> }, inbound.replyOptions);
    this.checkIdle();
  }

  private failed(inbound: InboundRequest, error: unknown): void {
    this.running--;
    if (this.finish(inbound)) inbound.sink.answer(toErrorResponse(inbound.id, error, inbound.method, this.logger), inbound.replyOptions);
    this.checkIdle();
  }

  /**
   * The other side's input ended (EOF on a pipe): requests already received are still answered,
   * for up to `graceMs`; then each one left is aborted and answered -32603, so that none goes
   * unanswered. Our own requests can no longer get an answer: they fail now.
   */
  private onEnded(graceMs: number): Promise<void> {
    this.inputEnded = new RpcError(ErrorCode.InternalError, "the other side's input ended");
    for (const id of [...this.pending.keys()]) this.settle(id)?.reject(this.inputEnded);
    if (this.inbound.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        for (const inbound of [...this.inbound.values()]) {
          this.inbound.delete(inbound.id);
          inbound.cancelled = true;
          inbound.abort("the input ended and the grace period is over");
          inbound.sink.answer(
            errorResponse(inbound.id, ErrorCode.InternalError, `Internal error: ${inbound.method} did not finish within ${graceMs} ms of the input's end`),
          );
        }
        resolve();
      }, graceMs);
      this.onIdle = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private checkIdle(): void {
    if (this.onIdle && this.inbound.size === 0) {
      const idle = this.onIdle;
      this.onIdle = undefined;
      idle();
    }
  }

  /** Removes a finished request; false when it was cancelled or the connection closed meanwhile (already counted as answered). */
  private finish(inbound: InboundRequest): boolean {
    if (inbound.cancelled || this.inbound.get(inbound.id) !== inbound) return false;
    this.inbound.delete(inbound.id);
    if (!this.isClosed) return true;
    inbound.sink.none();
    return false;
  }

  private receiveResponse(message: ResultResponse | ErrorResponse): void {
    if (message.id === null) {
      const { error } = message as ErrorResponse;
      this.logger("warn", `the other side could not process a message of ours: ${error.code} ${error.message}`);
      return;
    }
    const pending = this.settle(message.id);
    if (!pending) {
      this.logger("warn", `ignored a response to unknown request id ${JSON.stringify(message.id)}`);
      return;
    }
    if ("error" in message && message.error !== undefined) pending.reject(RpcError.from(message.error));
    else pending.resolve((message as ResultResponse).result);
  }

  /**
   * A message nested deeper than {@link MAX_NESTING_DEPTH}: refused before anything walks it. A
   * request gets -32600 with its id; a response settles our request with that error; a
   * notification cannot be answered, so it is logged.
   */
  private tooDeep(value: unknown, path: string): void {
    const why = `Invalid Request: the message nests deeper than ${MAX_NESTING_DEPTH} levels at ${path}`;
    const data = { maxDepth: MAX_NESTING_DEPTH, path };
    const kind = classify(value);
    const message = value as Record<string, unknown>;
    if (kind === "request") return this.reply(errorResponse(message.id as RequestId, ErrorCode.InvalidRequest, why, data));
    if (kind === "response" || kind === "error") {
      const pending = message.id === null ? undefined : this.settle(message.id as RequestId);
      if (pending) return pending.reject(new RpcError(ErrorCode.InvalidRequest, `the answer to ${pending.method}: ${why}`, data));
      return this.logger("warn", `dropped a response: ${why}`);
    }
    if (kind === "notification") return this.logger("warn", `dropped notification ${String(message.method)}: ${why}`);
    this.reply(errorResponse(null, ErrorCode.InvalidRequest, why, data));
  }

  /** Counts a frame that is not JSON-RPC; the first and the last are kept, cut to STRAY_CHARS (a peer lives long: a 4 MiB message must not). */
  private stray(text: string, why?: string): void {
    const last = text.slice(0, STRAY_CHARS);
    this.strayFrames = { count: (this.strayFrames?.count ?? 0) + 1, first: this.strayFrames?.first ?? last, last, ...(why !== undefined && { why }) };
    this.options.onStray?.(this.strayFrames);
  }

  private malformed(problem: FrameProblem): void {
    if (problem.kind === "parse") {
      this.stray(problem.excerpt ?? problem.message, problem.message);
      this.reply(errorResponse(null, ErrorCode.ParseError, `Parse error: ${problem.message}`));
    } else {
      this.oversized(problem);
    }
  }

  /**
   * A frame over the size limit: none of it was kept, but its ends usually name it
   * (frame-ends.ts). A request is refused with its id and an answer fails the request it was for,
   * where either can be told; anything else is refused with id null. Each is logged.
   */
  private oversized({ bytes, limit, head = "", tail = "" }: Extract<FrameProblem, { kind: "oversized" }>): void {
    const why = `a message of ${bytes} bytes exceeds the limit of ${limit} bytes`;
    const data = { bytes, limit };
    const members = frameEnds(head, tail);
    const id = members.get("id");
    const method = members.get("method");
    // An answer only where its ends say so: ids run independently each way, so a request's id may be one of ours too.
    if (method === undefined && isRequestId(id) && (members.has("result") || members.has("error"))) {
      const pending = this.settle(id);
      if (pending) return pending.reject(new RpcError(ErrorCode.InvalidRequest, `the answer to ${pending.method}: ${why} (maxMessageBytes)`, data));
      // A response is never answered (JSON-RPC 2.0 §5).
      return this.logger("warn", `dropped a response to unknown request id ${JSON.stringify(id)}: ${why} (maxMessageBytes)`);
    }
    const named = typeof method === "string" ? `${method}${isRequestId(id) ? ` (id ${JSON.stringify(id)})` : ""}` : "a message";
    this.logger("warn", `refused ${named}: ${why} (maxMessageBytes)`);
    this.reply(errorResponse(typeof method === "string" && isRequestId(id) ? id : null, ErrorCode.InvalidRequest, `Invalid Request: ${why}`, data));
  }

  private reply(response: Message | Message[], options?: SendOptions): void {
    if (this.isClosed) return;
    this.transport.send(response, options).catch((error: Error) => {
      // A result JSON has no text for (a BigInt, a cycle): its request is still answered, with an error.
      const sendable = answerable(response);
      if (sendable === undefined) return this.logger("warn", `could not send a response: ${error.message}`);
      this.logger("error", `a handler's result is not JSON (${error.message}); its request is answered with ${ErrorCode.InternalError}`);
      this.transport.send(sendable, options).catch((again: Error) => this.logger("warn", `could not send a response: ${again.message}`));
    });
  }

  // -- outbound bookkeeping -----------------------------------------------------------------------

  private settle(id: RequestId): Pending | undefined {
    const pending = this.pending.get(id);
    if (!pending) return undefined;
    this.pending.delete(id);
    this.deadlines.delete(id);
    if (pending.onAbort) pending.signal!.removeEventListener("abort", pending.onAbort);
    return pending;
  }

  private timedOut(id: RequestId): void {
    const pending = this.pending.get(id);
    if (pending)
      this.giveUp(id, new RpcError(ErrorCode.RequestTimeout, `${pending.method} timed out after ${pending.timeoutMs} ms`, { timeout: pending.timeoutMs }));
  }

  /** Our request timed out or was aborted: reject it and tell the other side to stop. */
  private giveUp(id: RequestId, error: Error): void {
    const pending = this.settle(id);
    if (!pending) return;
    pending.reject(error);
    if (!this.isClosed) this.options.cancel?.(id, pending.method, error.message);
  }

  private get closedError(): RpcError {
    return (this.closedErrorValue ??= new RpcError(ErrorCode.InternalError, `connection closed${this.closedBy ? `: ${this.closedBy.message}` : ""}`));
  }

  private onClosed(error?: Error): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.closedBy = error;
    this.deadlines.clear();
    for (const id of [...this.pending.keys()]) this.settle(id)?.reject(this.closedError);
    for (const inbound of this.inbound.values()) {
      inbound.cancelled = true;
      inbound.abort("connection closed");
    }
    this.inbound.clear();
    this.handler.closed?.(error);
  }
}

function toErrorResponse(id: RequestId, error: unknown, method: string, logger: Logger): ErrorResponse {
  if (error instanceof HandlerFault) logger("error", error.message);
  if (error instanceof RpcError) return errorResponse(id, error.code, error.message, error.data);
  logger("error", `handler for ${method} threw: ${describe(error)}`);
  return errorResponse(id, ErrorCode.InternalError, `Internal error in ${method}: ${error instanceof Error ? error.message : String(error)}`);
}

/** Like fetch: an aborted request rejects with the signal's reason. */
function abortError(signal: AbortSignal, method: string): Error {
  return signal.reason instanceof Error ? signal.reason : new DOMException(`${method} was aborted`, "AbortError");
}


function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

function sendOptions({ relatedRequestId, headers }: RequestOptions): SendOptions | undefined {
  if (relatedRequestId === undefined && headers === undefined) return undefined;
  return { ...(relatedRequestId !== undefined && { relatedRequestId }), ...(headers !== undefined && { headers }) };
}

/**
 * `response` with each message JSON has no text for replaced by an Internal error for its id;
 * undefined when every message has one (the send failed for another reason).
 */
function answerable(response: Message | Message[]): Message | Message[] | undefined {
  let replaced = false;
  const mend = (message: Message): Message => {
    try {
      jsonText(message);
      return message;
    } catch (error) {
      replaced = true;
      const id = (message as { id?: RequestId | null }).id ?? null;
      return errorResponse(id, ErrorCode.InternalError, `Internal error: the result is not JSON (${(error as Error).message})`);
    }
  };
  const mended = Array.isArray(response) ? response.map(mend) : mend(response);
  return replaced ? mended : undefined;
}

/** How much of a frame that is not JSON-RPC a peer keeps (the client quotes less). */
const STRAY_CHARS = 200;

/**
 * The first `max` characters of `value`'s JSON text, made without the rest: a frame of the wrong
 * shape may be MiBs, and only its start is kept. Its depth is bounded (MAX_NESTING_DEPTH) before.
 */
function excerpt(value: unknown, max: number): string {
  let out = "";
  const write = (v: unknown): boolean => {
    if (typeof v === "string") out += JSON.stringify(v.length > max ? v.slice(0, max) : v);
    else if (v === null || typeof v !== "object") out += String(JSON.stringify(v) ?? null);
    else {
      const array = Array.isArray(v);
      out += array ? "[" : "{";
      let first = true;
      for (const key in v) {
        if (!Object.hasOwn(v, key)) continue;
        out += (first ? "" : ",") + (array ? "" : `${JSON.stringify(key)}:`);
        first = false;
        if (out.length >= max || !write((v as Record<string, unknown>)[key])) return false;
      }
      out += array ? "]" : "}";
    }
    return out.length < max;
  };
  write(value);
  return out.slice(0, max);
}

/** An object without a method but with a result or an error: meant as a response, however malformed. */
function looksLikeResponse(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const m = value as Record<string, unknown>;
  return m.method === undefined && ("result" in m || "error" in m);
}
