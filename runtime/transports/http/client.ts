import { encodeHeaderValue } from "../../shared/header-value.js";
import type { RequestId } from "../../jsonrpc/messages.js";
import { TransportClosedError } from "../closed-error.js";
import type { Receiver, SendOptions, Transport, TransportFacts } from "../../jsonrpc/transport.js";
import { metaVersion, NAMED_BY } from "./headers.js";
import { Cancel, fetchExchange, MAX_ANSWER_CHARS, nodeExchange, type Answer, type Exchange } from "./exchange.js";
import { SseParser } from "./sse-parser.js";
import { HttpStatusError } from "./status-error.js";
import { within } from "../../util/within.js";

export interface HttpClientTransportOptions {
  /** Extra headers on every request (Authorization, ...). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Session era: open the GET stream once initialized, for messages not tied to a request (default true). */
  readonly openStream?: boolean;
  /** How many times a broken SSE stream is resumed with Last-Event-ID before giving up (default 5). */
  readonly maxReconnects?: number;
  /** Wait before resuming, unless the server's `retry` field says otherwise (default 1000 ms). */
  readonly reconnectDelayMs?: number;
  /**
   * The fetch to use. Default: on Node, node:http with a keep-alive agent of the transport's own
   * (several times cheaper per request than Node's fetch); elsewhere the global fetch.
   */
  readonly fetch?: typeof fetch;
  /**
   * OAuth for this server, e.g. an AuthorizationCodeProvider from `@mcp-codegen/runtime/auth`:
   * it wraps the fetch to attach tokens, sign in on 401 and step up on 403.
   */
  readonly authProvider?: {
    /** Wraps `base` so that its requests carry a token. */
    fetch(base: typeof fetch): typeof fetch;
  };
}


/**
 * The client side of Streamable HTTP, over fetch, for both eras: our Transport, for McpClient.
 *
 * Every message is a POST. The answer is read as JSON or as an SSE stream; each message in it
 * goes to the receiver. Session era: the Mcp-Session-Id of the initialize response is sent back
 * on every request, with MCP-Protocol-Version once negotiated; after notifications/initialized a
 * GET stream carries what the server sends on its own; a stream that breaks before its response
 * is resumed with Last-Event-ID; `close` ends the session with DELETE. Stateless era (a request
 * whose `_meta` names its version): MCP-Protocol-Version, Mcp-Method and Mcp-Name mirror the
 * body, and cancelling a request (notifications/cancelled from the peer) aborts its POST instead
 * of sending anything: closing the stream is how 2026-07-28 cancels.
 *
 * An HTTP error whose body is a JSON-RPC error reaches the receiver as that error (with the
 * request's id when the server could not read it), so the request fails with the server's code.
 * 401, 403, and 404 to a message sent in a session fail its `send` with an {@link HttpStatusError}
 * instead, which keeps the status; after such a 404 the session id is forgotten, so that the next
 * initialize goes without one (2025-03-26 and later, "Session Management").
 */
export class HttpClientTransport implements Transport {
  private receiver: Receiver | undefined;
  private sessionId: string | undefined;
  /** The session a 404 ended, until a new one begins: a message meant for it fails here as that 404 did. */
  private lostSession: { readonly id: string; readonly error: string } | undefined;
  private protocolVersion: string | undefined;
  private initializeId: RequestId | undefined;
  private isClosed = false;
  private retryMs: number;
  /** The session whose GET stream is open (or reconnecting). */
  private streamSession: string | undefined;
  private readonly controllers = new Set<Cancel>();
  /** Stateless era: in-flight POSTs by request id, to abort on cancellation. */
  private readonly statelessInFlight = new Map<RequestId, Cancel>();
  private readonly http: Exchange;
  private readonly url: URL;

  constructor(
    url: string | URL,
    private readonly options: HttpClientTransportOptions = {},
  ) {
    this.url = new URL(url);
    const base = options.fetch ?? globalThis.fetch;
    this.http = (options.fetch === undefined && !options.authProvider && nodeExchange(this.url)) || fetchExchange(this.url, options.authProvider ? options.authProvider.fetch(base) : base);
    this.retryMs = options.reconnectDelayMs ?? 1000;
  }

  /** The session id the server issued (session era). */
  get session(): string | undefined {
    return this.sessionId;
  }

  get facts(): TransportFacts {
    const port = this.url.port === "" ? (this.url.protocol === "https:" ? 443 : 80) : Number(this.url.port);
    return { network: "tcp", sessionId: this.sessionId, serverAddress: this.url.hostname, serverPort: port };
  }

  start(receiver: Receiver): void {
    if (this.receiver) throw new Error("HttpClientTransport.start called twice");
    this.receiver = receiver;
  }

  async send(message: unknown, options?: SendOptions): Promise<void> {
    if (this.isClosed) throw new TransportClosedError();
    const m = message as { id?: RequestId; method?: string; params?: Record<string, unknown> };
    if (m.method === "notifications/cancelled") {
      const target = this.statelessInFlight.get(m.params?.requestId as RequestId);
      if (target) {
        target.abort();
        return;
      }
    }
    const isRequest = typeof m.method === "string" && m.id !== undefined;
    if (m.method === "initialize") this.initializeId = m.id;
    const headers: Record<string, string> = {
      ...this.options.headers,
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
    };
    const version = metaVersion(message);
    const stateless = typeof version === "string";
    if (stateless) {
      headers["MCP-Protocol-Version"] = version;
      headers["Mcp-Method"] = m.method!;
      const param = NAMED_BY[m.method!];
      const named = param === undefined ? undefined : m.params?.[param];
      if (typeof named === "string") headers["Mcp-Name"] = encodeHeaderValue(named);
      Object.assign(headers, options?.headers);
    } else if (m.method !== "initialize") {
      // A call that started before its caller learned of the 404: not sent without a session (a 400), but failed as the 404 was, so that it too renews.
      if (this.sessionId === undefined && this.lostSession) throw HttpStatusError.of(404, this.lostSession.error, undefined, this.lostSession.id);
      // initialize starts a session: it never carries one.
      if (this.protocolVersion) headers["MCP-Protocol-Version"] = this.protocolVersion;
      if (this.sessionId) headers["Mcp-Session-Id"] = this.sessionId;
    }
    const sentSession = headers["Mcp-Session-Id"];

    const controller = this.controller();
    if (stateless && isRequest) this.statelessInFlight.set(m.id!, controller);
    let response: Answer;
    try {
      response = await this.http.send("POST", headers, JSON.stringify(message), controller);
    } catch (error) {
      this.release(controller, m.id);
      if (controller.aborted && !this.isClosed) return; // cancelled by us: nothing to report
      throw error;
    }
    const { status } = response;
    if (status === 401 || status === 403 || (status === 404 && sentSession !== undefined)) {
      this.release(controller, m.id);
      const text = await response.text().catch(() => "");
      // A notification's 404 leaves the session id: the next request meets the 404 too, and its caller starts the new session.
      if (status === 404 && isRequest && sentSession !== undefined && this.sessionId === sentSession) {
        // "The client MUST start a new session by sending a new InitializeRequest without a session ID attached."
        this.sessionId = undefined;
        this.protocolVersion = undefined;
        this.lostSession = { id: sentSession, error: text };
      }
      throw HttpStatusError.of(status, text, response.header("www-authenticate") ?? undefined, status === 404 ? sentSession : undefined);
    }
    const sessionId = response.header("mcp-session-id");
    // Streamable HTTP: a session id is visible ASCII (0x21 to 0x7E); bounded here, as it goes back on every request.
    if (sessionId && !stateless && !SESSION_ID.test(sessionId)) {
      this.release(controller, m.id);
      await response.discard();
      throw new Error(`the server's Mcp-Session-Id is not 1 to ${MAX_SESSION_ID} visible ASCII characters (0x21 to 0x7E): refused`);
    }
    if (sessionId && !stateless) {
      this.sessionId = sessionId;
      this.lostSession = undefined;
    }
    const ok = status >= 200 && status < 300;
    if (response.status === 202 || (ok && !isRequest && response.header("content-length") === "0")) {
      this.release(controller, m.id);
      await response.discard();
      // Waits (bounded) until the server has the GET stream: a server that sends on it only once it
      // is open (the SDKs drop what has no stream) would otherwise lose a request sent right after connect.
      if (m.method === "notifications/initialized" && this.options.openStream !== false) await within(STREAM_OPEN_WAIT_MS, this.openStream());
      return;
    }
    if (!isRequest && !ok) {
      this.release(controller, m.id);
      const text = await response.text().catch(() => "");
      throw new Error(`the server refused ${m.method ?? "a message"}: HTTP ${response.status} ${text.slice(0, 200)}`);
    }
    // Read the answer in the background: send() resolves once the server has taken the message.
    void this.consume(response, isRequest ? m.id : undefined, !stateless)
      .catch(() => {})
      .finally(() => this.release(controller, m.id));
  }

  async close(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    for (const controller of this.controllers) controller.abort();
    if (this.sessionId) {
      const headers: Record<string, string> = { ...this.options.headers, "Mcp-Session-Id": this.sessionId };
      if (this.protocolVersion) headers["MCP-Protocol-Version"] = this.protocolVersion;
      await this.http
        .send("DELETE", headers, undefined, Cancel.after(5000))
        .then((r) => r.discard())
        .catch(() => {});
    }
    this.http.close();
    this.receiver?.closed();
  }

  // -- reading answers ------------------------------------------------------------------------

  /** One POST's answer: JSON, SSE, or an HTTP error. `requestId`: the request it answers, if any. */
  private async consume(response: Answer, requestId: RequestId | undefined, resumable: boolean): Promise<void> {
    const type = response.header("content-type") ?? "";
    if (type.includes("text/event-stream")) {
      const outcome = await this.readStream(response, requestId);
      if (!outcome.answered && requestId !== undefined && resumable && outcome.lastEventId !== undefined && !this.isClosed)
        await this.resume(outcome.lastEventId, requestId);
      return;
    }
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      // Too long, or cut short: the request it answers is answered with why, not left to time out.
      if (requestId !== undefined) this.fail(requestId, `HTTP ${response.status}: ${(error as Error).message}`);
      return;
    }
    let value: unknown;
    try {
      value = text === "" ? undefined : JSON.parse(text);
    } catch {
      value = undefined;
    }
    if (value !== undefined && isJsonRpc(value)) {
      this.deliver(withId(value, requestId));
      return;
    }
    if (requestId !== undefined)
      this.fail(requestId, `HTTP ${response.status}: ${text.slice(0, 200) || response.statusText}`);
  }

  /** Reads an SSE answer; says whether the response to `requestId` came, and the last event id. */
  private async readStream(response: Answer, requestId: RequestId | undefined): Promise<{ answered: boolean; delivered: number; lastEventId?: string }> {
    let answered = false;
    let delivered = 0;
    let lastEventId: string | undefined;
    const parser = new SseParser(
      (event) => {
        if (event.id !== undefined) lastEventId = event.id;
        if (event.data === "" || event.event !== "message") return;
        let value: unknown;
        try {
          value = JSON.parse(event.data);
        } catch {
          return; // not ours to report: the stream goes on
        }
        if (requestId !== undefined && answers(value, requestId)) answered = true;
        delivered++;
        this.deliver(value);
      },
      // At least MIN_RETRY_MS: a server's `retry: 0` must not make reconnecting a busy loop.
      (ms) => (this.retryMs = Math.max(ms, MIN_RETRY_MS)),
      MAX_ANSWER_CHARS,
    );
    // Aborted or broken, the read just ends: the caller decides whether to resume.
    await response.read((text) => (parser.push(text), answered || parser.overflowed));
    parser.end();
    if (parser.overflowed && requestId !== undefined && !answered) {
      // Its answer would have been in the event that grew too long: the request is answered with why.
      this.fail(requestId, `an event of the answer's stream exceeds ${MAX_ANSWER_CHARS} characters: not read further`);
      answered = true;
    }
    return { answered, delivered, lastEventId };
  }

  /** Resumes a broken stream with GET + Last-Event-ID until `requestId` is answered, a bounded number of times. */
  private async resume(lastEventId: string, requestId: RequestId | undefined): Promise<void> {
    let last = lastEventId;
    for (let attempt = 0; attempt < (this.options.maxReconnects ?? 5) && !this.isClosed; attempt++) {
      await delay(this.retryMs);
      if (this.isClosed) return;
      const controller = this.controller();
      try {
        const response = await this.http.send("GET", this.streamHeaders(last), undefined, controller);
        if (response.status < 200 || response.status >= 300 || !(response.header("content-type") ?? "").includes("text/event-stream")) {
          await response.discard();
          return;
        }
        const outcome = await this.readStream(response, requestId);
        if (outcome.answered) return;
        if (outcome.lastEventId !== undefined) last = outcome.lastEventId;
      } catch {
        // try again, within the bound
      } finally {
        this.release(controller);
      }
    }
  }

  /**
   * Session era: the GET stream for messages not tied to a request; resumed while its session lasts.
   * Resolves once the first GET is answered (open, or refused) or has failed.
   */
  private openStream(): Promise<void> {
    const session = this.sessionId;
    if (!session || this.streamSession === session) return Promise.resolve();
    this.streamSession = session;
    let answered!: () => void;
    const firstAnswer = new Promise<void>((resolve) => (answered = resolve));
    void (async () => {
      let last: string | undefined;
      for (let attempt = 0; attempt <= (this.options.maxReconnects ?? 5) && !this.isClosed && this.sessionId === session; attempt++) {
        if (attempt > 0) await delay(this.retryMs);
        if (this.isClosed || this.sessionId !== session) return;
        const controller = this.controller();
        try {
          const response = await this.http.send("GET", this.streamHeaders(last), undefined, controller);
          answered();
          if (response.status < 200 || response.status >= 300) {
            await response.discard();
            return; // 405: the server offers no GET stream
          }
          const outcome = await this.readStream(response, undefined);
          if (outcome.lastEventId !== undefined) last = outcome.lastEventId;
          // A stream that carried messages starts the count again; one that only opened and ended counts as a failed attempt.
          if (outcome.delivered > 0) attempt = 0;
        } catch {
          answered(); // a GET that failed is answered too: connect goes on without it
          // reconnect, within the bound
        } finally {
          this.release(controller);
        }
      }
    })().finally(() => {
      answered();
      if (this.streamSession === session) this.streamSession = undefined;
    });
    return firstAnswer;
  }

  private streamHeaders(lastEventId: string | undefined): Record<string, string> {
    const headers: Record<string, string> = { ...this.options.headers, Accept: "text/event-stream" };
    if (this.sessionId) headers["Mcp-Session-Id"] = this.sessionId;
    if (this.protocolVersion) headers["MCP-Protocol-Version"] = this.protocolVersion;
    if (lastEventId !== undefined) headers["Last-Event-ID"] = lastEventId;
    return headers;
  }

  /** Answers our request `requestId` with an error of the transport (-32000): its answer could not be read. */
  private fail(requestId: RequestId, message: string): void {
    this.deliver({ jsonrpc: "2.0", id: requestId, error: { code: -32000, message } });
  }

  private deliver(value: unknown): void {
    if (this.isClosed || !this.receiver) return;
    const result = (value as { id?: unknown; result?: { protocolVersion?: unknown } }).result;
    if (this.initializeId !== undefined && (value as { id?: unknown }).id === this.initializeId && typeof result?.protocolVersion === "string") {
      this.protocolVersion = result.protocolVersion;
      this.initializeId = undefined;
    }
    this.receiver.message(value);
  }

  private controller(): Cancel {
    const controller = new Cancel();
    this.controllers.add(controller);
    return controller;
  }

  private release(controller: Cancel, id?: RequestId): void {
    this.controllers.delete(controller);
    if (id !== undefined && this.statelessInFlight.get(id) === controller) this.statelessInFlight.delete(id);
  }
}

function isJsonRpc(value: unknown): boolean {
  return (typeof value === "object" && value !== null && (value as { jsonrpc?: unknown }).jsonrpc === "2.0") || Array.isArray(value);
}

/** An error the server could not tie to a request (id null) is the answer to the one we sent. */
function withId(value: unknown, requestId: RequestId | undefined): unknown {
  const m = value as { id?: unknown; error?: unknown };
  if (requestId !== undefined && m.error !== undefined && m.id === null) return { ...m, id: requestId };
  return value;
}

function answers(value: unknown, id: RequestId): boolean {
  const items = Array.isArray(value) ? value : [value];
  return items.some((item) => {
    const m = item as { id?: unknown; method?: unknown; result?: unknown; error?: unknown } | null;
    return m !== null && typeof m === "object" && m.method === undefined && m.id === id && (m.result !== undefined || m.error !== undefined);
  });
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.min(Math.max(ms, 0), 30_000)));
}

/**
 * How long connecting waits for the GET stream's first answer. A server that sends its headers
 * only with its first event would otherwise hold connect until then.
 */
const STREAM_OPEN_WAIT_MS = 2_000;

/** The shortest wait before reconnecting a stream, whatever `retry` the server sends. */
const MIN_RETRY_MS = 100;

/** The longest Mcp-Session-Id accepted from a server (it is sent back with every request). */
const MAX_SESSION_ID = 1024;
const SESSION_ID = new RegExp(`^[\\x21-\\x7e]{1,${MAX_SESSION_ID}}$`);
