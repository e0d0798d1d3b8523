import { ErrorCode } from "../../jsonrpc/errors.js";
import { isRequestId, type RequestId } from "../../jsonrpc/messages.js";
import { stderrLogger, type Logger } from "../../util/logger.js";
import type { Era } from "../../contract.js";
import type { MessageContext } from "../../jsonrpc/transport.js";
import type { SessionRecord } from "../../stores/session-store.js";
import type { Accepted, Endpoint, Listener } from "../endpoint.js";
import type { AuthInfo, AuthOptions } from "../auth-info.js";
import { DEFAULT_MAX_BODY_BYTES, parseJson } from "./body.js";
import { HttpError, refuse, writeError } from "./errors.js";
import type { EventStore } from "../../stores/event-store.js";
import { InMemoryEventStore } from "./event-store.js";
import { checkStatelessHeaders, HEADER, metaVersion } from "./headers.js";
import { webIncoming, type Incoming } from "./incoming.js";
import { checkGet, checkPost, type Accepts } from "./negotiation.js";
import { waitUntilOf, WebReply, type BackpressureOptions, type PlatformContext, type Reply } from "./reply.js";
import { checkHostAndOrigin, corsHeaders, preflightHeaders, type SecurityOptions } from "./security.js";
import { newSessionId } from "./ids.js";
import { HttpSession, type SessionSettings } from "./session.js";
import { SharedSessions, type SharingOptions } from "./sessions.js";
import { CHANNELS } from "../../stores/event-bus.js";
import { StatelessExchange } from "./stateless.js";

/** The endpoint's options, on every platform (fetchHandler, and the node:http adapter). */
export interface EndpointOptions extends SecurityOptions, AuthOptions, BackpressureOptions, SharingOptions {
  /** The MCP endpoint's path; other paths get 404. Default: none checked (`http()` defaults to "/mcp"). */
  readonly path?: string;
  /** The largest request body in bytes (413 beyond). Default 4 MiB. */
  readonly maxBodyBytes?: number;
  /**
   * "auto" (default): a POST is answered with JSON unless the server must send something before
   * the response (progress, logs, a request to the client), then with SSE. "sse": always SSE when
   * the client accepts it.
   */
  readonly responseMode?: "auto" | "sse";
  /**
   * Session era: where SSE events are kept for resumption (Last-Event-ID). Default: an in-memory
   * store (see InMemoryEventStore for its bounds); false turns resumability (and priming events) off.
   */
  readonly eventStore?: EventStore | false;
  /** The SSE `retry` hint, in ms, sent with each stream's priming event. Default 1000. */
  readonly retryMs?: number;
  /** Session era: the most sessions at once; beyond, initialize gets 503. Default 10,000. */
  readonly maxSessions?: number;
  /**
   * Session era: a session with no request, no answer in progress and no open GET stream for this
   * long is ended, as if the client had sent DELETE (its id then gets 404). Default 30 minutes;
   * Infinity keeps sessions until DELETE.
   */
  readonly sessionIdleTimeoutMs?: number;
  readonly logger?: Logger;
}

/**
 * MCP's Streamable HTTP transport, server side, for both eras, on Web APIs alone: it reads an
 * `Incoming` request and writes a `Reply`. `fetchHandler` (a web `Request` in, a
 * `Response` out) and the node:http adapter (`http()`, `httpHandler`) are thin shells over it.
 *
 * One endpoint path; POST carries client messages, GET opens the session's server-to-client
 * stream, DELETE ends a session. A POST with an `initialize` request starts a session (its
 * Mcp-Session-Id comes back on the response); a POST whose request carries 2026-07-28 `_meta`
 * (or whose MCP-Protocol-Version header names a stateless revision) is served on its own,
 * without a session.
 */
export class StreamableHttpEndpoint implements Endpoint {
  private listener: Listener | undefined;
  private readonly sessions = new Map<string, HttpSession>();
  private readonly sessionOf = new WeakMap<object, HttpSession>();
  private readonly exchanges = new Set<StatelessExchange>();
  private readonly store: EventStore | undefined;
  /** Many instances (options.sessions): the shared stores and the bus. */
  private readonly shared: SharedSessions | undefined;
  private readonly adopted = new WeakMap<HttpSession, Accepted>();
  /** Many instances: the record each replica last took on. */
  private readonly lastRecord = new WeakMap<HttpSession, SessionRecord>();
  /** Many instances: sessions being taken on from the store, so that concurrent requests make one replica. */
  private readonly adopting = new Map<string, Promise<HttpSession | undefined>>();
  private readonly path: string | undefined;
  private isClosed = false;
  /** The session-era MCP-Protocol-Version last found valid: clients send the same one on every request. */
  private lastSessionVersion: string | undefined;
  private sweeper: ReturnType<typeof setInterval> | undefined;
  protected readonly logger: Logger;
  /** Paths served before the MCP path check: the application's, then authorization's (RFC 9728 metadata). */
  private readonly routes: readonly ((request: Request) => Promise<Response | undefined>)[];

  constructor(protected readonly options: EndpointOptions) {
    this.logger = options.logger ?? stderrLogger;
    this.store = options.eventStore === false ? undefined : (options.eventStore ?? new InMemoryEventStore());
    this.path = options.path;
    this.routes = [options.routes, options.auth?.routes?.bind(options.auth)].filter((routes) => routes !== undefined);
    const idle = options.sessionIdleTimeoutMs ?? 30 * 60_000;
    // A session kept "until DELETE" still needs a bound in a shared store: a week.
    if (options.sessions) this.shared = new SharedSessions({ ...options, sessions: options.sessions }, Number.isFinite(idle) ? idle : 7 * 24 * 3_600_000, this.logger);
  }

  /** Called by `McpServer.listen`. */
  async listen(listener: Listener): Promise<void> {
    if (this.listener) throw new Error("this HTTP endpoint is already listening");
    this.listener = listener;
    if (this.shared) await this.shared.bus.subscribe(CHANNELS.notifications, (event) => listener.announced(event));
  }

  /** Many instances: a server-wide notification (list_changed, resources/updated, a log message) to every instance, this one included. */
  announce(event: unknown): boolean {
    if (!this.shared) return false;
    this.shared.bus.publish(CHANNELS.notifications, event).catch((error: Error) => this.logger("error", `a server-wide notification was lost: ${error.message}`));
    return true;
  }

  /** Closes every session and open stream. */
  async close(): Promise<void> {
    this.isClosed = true;
    clearInterval(this.sweeper);
    await Promise.all([...this.sessions.values()].map((session) => session.close()));
    for (const exchange of this.exchanges) void exchange.close();
  }

  /** A web Request in, its Response out: the whole endpoint for fetch-style platforms (a Worker passes its ExecutionContext, for `waitUntil`). */
  readonly fetch = (request: Request, context?: PlatformContext): Promise<Response> => {
    const waitUntil = waitUntilOf(context);
    const reply = new WebReply(`${request.method} ${request.url}`, this.options, this.logger, request.signal, waitUntil);
    this.handle(webIncoming(request, waitUntil), reply);
    return reply.response;
  };

  /** Serves one request on any platform; never throws (a failure is a 500). */
  handle(incoming: Incoming, reply: Reply): void {
    this.serve(incoming, reply).catch((error: unknown) => {
      this.logger("error", `HTTP ${incoming.method} ${incoming.path} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      writeError(reply, new HttpError(500, ErrorCode.InternalError, "Internal error"));
    });
  }

  /**
   * SEP-1699 polling, from a request's handler: ends the HTTP response that carries the request's
   * stream (after its priming event), so the client reconnects with Last-Event-ID and gets the rest
   * there. `session` is the handler's `context.session`. False when there is no such open stream
   * or resumability is off.
   */
  closeStream(session: object, requestId: RequestId): boolean {
    return this.sessionOf.get(session)?.closeRequestStream(requestId) ?? false;
  }

  /** Closes a session's GET stream connection, as a server does to make clients poll. */
  closeStandaloneStream(session: object): boolean {
    return this.sessionOf.get(session)?.closeStandaloneStream() ?? false;
  }

  /** How many sessions are open (session era). */
  get sessionCount(): number {
    return this.sessions.size;
  }

  private async serve(req: Incoming, res: Reply): Promise<void> {
    // Metadata paths (RFC 9728 protected resource metadata...) before the MCP path check.
    for (const routes of this.routes) {
      const routed = await routes(req.request());
      if (routed) return res.respond(routed);
    }
    const cors = corsHeaders(req, this.options);
    const fail = (error: HttpError) => writeError(res, error, cors);
    if (this.path !== undefined && req.path !== this.path) return fail(refuse.notFound(`the MCP endpoint is ${this.path}`));
    // A mounted handler serves any path it is given, but a well-known one is never MCP: one route
    // for /.well-known/oauth-protected-resource* gets the metadata and nothing else (RFC 8615).
    if (this.path === undefined && req.path.startsWith("/.well-known/")) return fail(refuse.notFound("no such metadata here; the MCP endpoint is where this handler is mounted"));
    const forbidden = checkHostAndOrigin(req, this.options);
    if (forbidden) return fail(forbidden);
    if (!this.listener || this.isClosed) return fail(new HttpError(503, -32000, "Service Unavailable: the server is not listening"));
    this.startSweeper();
    if (this.shared) await this.shared.listen((sessionId, message) => this.sessions.get(sessionId)?.deliver(message));

    if (req.method === "OPTIONS") {
      const preflight = preflightHeaders(req, this.options);
      if (Object.keys(preflight).length === 0) return fail(refuse.methodNotAllowed("GET, POST, DELETE"));
      return res.send(204, preflight);
    }
    let auth: AuthInfo | undefined;
    if (this.options.auth) {
      const verdict = await this.options.auth.authenticate(req.request());
      if (verdict instanceof Response) return res.respond(withCors(verdict, cors));
      auth = verdict;
    }
    switch (req.method) {
      case "POST":
        return this.post(req, res, auth, cors, fail);
      case "GET":
        return this.get(req, res, auth, cors, fail);
      case "DELETE":
        return this.delete(req, res, auth, cors, fail);
      default:
        return fail(refuse.methodNotAllowed("GET, POST, DELETE"));
    }
  }

  private async post(req: Incoming, res: Reply, auth: AuthInfo | undefined, cors: Record<string, string>, fail: (error: HttpError) => void) {
    const accepts = checkPost(req);
    if (accepts instanceof HttpError) return fail(accepts);
    let body = req.parsed;
    if (body === undefined) {
      const bytes = await req.body(this.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
      if (bytes instanceof HttpError) return fail(bytes);
      try {
        body = parseJson(bytes);
      } catch (error) {
        return fail(error as HttpError);
      }
    }
    if (typeof body !== "object" || body === null) return fail(refuse.invalid("the body must be a JSON-RPC message (an object) or a batch (an array)"));
    // Per-tool, per-prompt and per-resource scopes: 403 insufficient_scope before anything is dispatched.
    const refused = auth && this.options.auth?.authorize?.(auth, body);
    if (refused) return res.respond(refused);
    // Always the same four fields, in one shape: spreads of optional parts take V8's slow object-cloning path on every POST.
    // The era is decided here, once: the server session takes it from the context.
    const contextOf = (era: Era): MessageContext => ({ headers: req.headers(), auth, waitUntil: req.waitUntil, era });

    const sessionId = req.header(HEADER.sessionId);
    if (sessionId !== undefined) {
      const session = this.shared ? await this.findShared(sessionId, auth, this.shared) : this.findSession(sessionId, auth);
      if (!session) return fail(refuse.notFound("no such session (it ended, or never existed); start a new one with initialize"));
      const version = this.checkSessionVersion(req);
      if (version) return fail(version);
      session.post(res, body, accepts, contextOf("session"), cors);
      return;
    }

    if (this.isStateless(req, body)) {
      if (Array.isArray(body)) return fail(refuse.invalid("the stateless era has no batches: send one message per POST"));
      const mismatch = checkStatelessHeaders(req, body as Record<string, unknown>);
      if (mismatch) return fail(mismatch);
      const exchange = new StatelessExchange(res, body, contextOf("stateless"), accepts, this.options.responseMode === "sse", cors, (ended) => this.exchanges.delete(ended));
      this.exchanges.add(exchange);
      this.listener!.accept(exchange);
      return;
    }

    if (!Array.isArray(body) && (body as { method?: unknown }).method === "initialize") {
      // Without an id it is no request: no session may begin (its failure could not end it).
      const id = (body as { id?: unknown }).id;
      if (!isRequestId(id)) return fail(refuse.invalid("initialize must be a request: its id must be a string or an integer"));
      return this.initialize(res, body, accepts, contextOf("session"), auth, cors, fail);
    }
    if (Array.isArray(body) && body.some((m) => (m as { method?: unknown } | null)?.method === "initialize"))
      return fail(refuse.invalid("initialize must be sent alone, not in a batch"));
    fail(refuse.badRequest("the Mcp-Session-Id header is required: start a session with initialize, or send stateless-era requests with their _meta"));
  }

  private initialize(res: Reply, body: object, accepts: Accepts, context: MessageContext, auth: AuthInfo | undefined, cors: Record<string, string>, fail: (error: HttpError) => void) {
    if (this.sessions.size >= (this.options.maxSessions ?? 10_000)) return fail(new HttpError(503, -32000, "Service Unavailable: too many sessions"));
    let accepted: Accepted | undefined;
    const settings: SessionSettings = {
      store: this.store,
      retryMs: this.options.retryMs ?? 1000,
      sseFirst: this.options.responseMode === "sse",
      logger: this.logger,
      // Clients of revisions before SEP-1699 may not expect an event without data.
      prime: () => accepted?.features?.ssePriming ?? false,
    };
    const principal = principalOf(auth);
    const params = ((body as { params?: Record<string, unknown> }).params ?? {}) as Record<string, Record<string, unknown> | undefined>;
    const shared = this.shared;
    const sharedSettings: SessionSettings = {
      ...settings,
      shared,
      initialized: (result) =>
        shared!.create(session.id, {
          revision: String(result.protocolVersion),
          clientInfo: params.clientInfo ?? {},
          clientCapabilities: params.capabilities ?? {},
          ...(principal ? { principal } : {}),
        }),
    };
    const session = new HttpSession(newSessionId(), shared ? sharedSettings : settings, (ended) => this.sessions.delete(ended.id), principal);
    this.sessions.set(session.id, session);
    accepted = this.listener!.accept(session);
    this.sessionOf.set(accepted, session);
    this.adopted.set(session, accepted);
    session.post(res, body, accepts, context, { ...cors, "Mcp-Session-Id": session.id }, true);
  }

  private async get(req: Incoming, res: Reply, auth: AuthInfo | undefined, cors: Record<string, string>, fail: (error: HttpError) => void) {
    const sessionId = req.header(HEADER.sessionId);
    if (sessionId === undefined) {
      if (this.statelessVersion(req)) return fail(refuse.methodNotAllowed("POST (the stateless era has no GET stream; use subscriptions/listen)"));
      return fail(refuse.badRequest("the Mcp-Session-Id header is required"));
    }
    const session = this.shared ? await this.findShared(sessionId, auth, this.shared) : this.findSession(sessionId, auth);
    if (!session) return fail(refuse.notFound("no such session"));
    const notAcceptable = checkGet(req);
    if (notAcceptable) return fail(notAcceptable);
    const version = this.checkSessionVersion(req);
    if (version) return fail(version);
    await session.get(res, req.header(HEADER.lastEventId), cors);
  }

  private async delete(req: Incoming, res: Reply, auth: AuthInfo | undefined, cors: Record<string, string>, fail: (error: HttpError) => void) {
    const sessionId = req.header(HEADER.sessionId);
    if (sessionId === undefined) return fail(refuse.badRequest("the Mcp-Session-Id header is required"));
    const session = this.shared ? await this.findShared(sessionId, auth, this.shared) : this.findSession(sessionId, auth);
    if (!session) return fail(refuse.notFound("no such session"));
    const version = this.checkSessionVersion(req);
    if (version) return fail(version);
    await this.shared?.end(session.id);
    await session.close();
    res.send(200, cors);
  }

  /**
   * A session, when it exists and belongs to this caller: a session started with a token is bound
   * to its client and subject, and is "not found" for anyone else (MCP security best practices,
   * "Session hijacking").
   */
  private findSession(id: string, auth: AuthInfo | undefined): HttpSession | undefined {
    const session = this.sessions.get(id);
    return session && session.principal === principalOf(auth) ? session : undefined;
  }

  /**
   * Many instances: the session as the shared store has it, whichever instance initialized it. A
   * replica here takes it on the first time, and its level and subscriptions are refreshed on each
   * request; a session ended elsewhere (DELETE, expiry) ends here too.
   */
  private async findShared(id: string, auth: AuthInfo | undefined, shared: SharedSessions): Promise<HttpSession | undefined> {
    const record = await shared.load(id);
    let session = this.sessions.get(id);
    if (!record) {
      await session?.close();
      return undefined;
    }
    if ((record.principal ?? "") !== principalOf(auth)) return undefined;
    if (!session) {
      let adopting = this.adopting.get(id);
      if (!adopting) {
        this.adopting.set(id, (adopting = this.adopt(id, record, shared)));
        void adopting.finally(() => this.adopting.delete(id));
      }
      return adopting;
    }
    // A record served from the instance's cache is the same object until it changes: nothing to refresh.
    if (this.lastRecord.get(session) !== record) {
      this.lastRecord.set(session, record);
      await this.adopted.get(session)?.adopt?.(record);
    }
    return session;
  }

  private async adopt(id: string, record: SessionRecord, shared: SharedSessions): Promise<HttpSession | undefined> {
    if (this.sessions.size >= (this.options.maxSessions ?? 10_000)) return undefined;
    const settings: SessionSettings = {
      store: undefined,
      shared,
      retryMs: this.options.retryMs ?? 1000,
      sseFirst: this.options.responseMode === "sse",
      logger: this.logger,
      prime: () => accepted.features?.ssePriming ?? false,
    };
    const session = new HttpSession(id, settings, (ended) => this.sessions.delete(ended.id), record.principal ?? "");
    this.sessions.set(id, session);
    const accepted = this.listener!.accept(session);
    this.sessionOf.set(accepted, session);
    this.adopted.set(session, accepted);
    try {
      await accepted.adopt?.(record);
    } catch (error) {
      this.logger("error", `session ${id}: ${(error as Error).message}`);
      await session.close();
      return undefined;
    }
    return session;
  }

  /** The idle sweep starts with the first request: some platforms (workerd) forbid timers at start-up. */
  private startSweeper(): void {
    const idle = this.options.sessionIdleTimeoutMs ?? 30 * 60_000;
    if (this.sweeper !== undefined || !Number.isFinite(idle)) return;
    this.sweeper = setInterval(() => this.endIdleSessions(idle), Math.max(10, Math.min(idle / 2, 60_000)));
    (this.sweeper as { unref?: () => void }).unref?.();
  }

  private endIdleSessions(idleMs: number): void {
    const cutoff = Date.now() - idleMs;
    for (const session of this.sessions.values()) if (!session.busy && session.lastActive < cutoff) void session.close();
  }

  /** Session era: MCP-Protocol-Version, when present, must name a session-era revision (missing means 2025-03-26). */
  private checkSessionVersion(req: Incoming): HttpError | undefined {
    const version = req.header(HEADER.protocolVersion);
    if (version === undefined || version === this.lastSessionVersion) return undefined;
    if (this.listener!.eraOf(version) === "session") return void (this.lastSessionVersion = version);
    return refuse.badRequest(`unsupported MCP-Protocol-Version ${JSON.stringify(version)} for a session`);
  }

  private statelessVersion(req: Incoming): boolean {
    const version = req.header(HEADER.protocolVersion);
    return version !== undefined && this.listener!.eraOf(version) === "stateless";
  }

  /** A request that names its protocol version in `_meta`, or a POST whose header names a stateless revision. */
  private isStateless(req: Incoming, body: object): boolean {
    if (!Array.isArray(body) && metaVersion(body) !== undefined) return true;
    return this.statelessVersion(req);
  }
}

/** A refusal of `auth`, readable by an allowed page: CORS headers added (its challenge and DPoP nonce are exposed). */
function withCors(response: Response, cors: Record<string, string>): Response {
  if (Object.keys(cors).length === 0) return response;
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(cors)) headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** Who a session belongs to: its token's client and subject; "" without authorization. */
function principalOf(auth: AuthInfo | undefined): string {
  return auth ? JSON.stringify([auth.clientId ?? null, auth.subject ?? null]) : "";
}
