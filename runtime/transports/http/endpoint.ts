import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { ErrorCode } from "../../jsonrpc/errors.js";
import type { RequestId } from "../../jsonrpc/messages.js";
import { eraOf, isRevision } from "../../session/revisions.js";
import { stderrLogger, type Logger } from "../../util/logger.js";
import type { AuthInfo, EndpointAuth } from "../auth-info.js";
import type { MessageContext, Transport } from "../transport.js";
import { authenticateNode, writeResponse } from "./auth-bridge.js";
import { DEFAULT_MAX_BODY_BYTES, parseJson, readBody } from "./body.js";
import { HttpError, refuse, writeError } from "./errors.js";
import { InMemoryEventStore, type EventStore } from "./event-store.js";
import { checkStatelessHeaders, HEADER, metaVersion } from "./headers.js";
import { checkGet, checkPost, header, type Accepts } from "./negotiation.js";
import { checkHostAndOrigin, corsHeaders, preflightHeaders, type SecurityOptions } from "./security.js";
import { HttpSession, newSessionId, type SessionSettings } from "./session.js";
import { StatelessExchange } from "./stateless.js";

export interface HttpOptions extends SecurityOptions {
  /** The port to bind (`http()` only); 0 picks a free one, read it back from `port` or `url`. */
  readonly port?: number;
  /** The address to bind (`http()` only). Default 127.0.0.1: only this machine can connect. */
  readonly host?: string;
  /** The MCP endpoint's path; other paths get 404. Default "/mcp" for `http()`; a mounted handler checks no path unless given one. */
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
   * store of the last 10,000 events; false turns resumability (and priming events) off.
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
  /** OAuth: every request at the MCP path is authenticated (e.g. runtime/auth's bearerAuth); handlers see `ctx.auth`. */
  readonly auth?: EndpointAuth;
}

/** A Node `(req, res)` request listener, for express, fastify or a server of your own. A body already parsed (express.json()) may be passed as the third argument. */
export type HttpRequestHandler = (req: IncomingMessage, res: ServerResponse, parsedBody?: unknown) => void;

/** What `accept` returns: the server's session for a transport. Only its negotiated revision is read. */
type Accepted = { readonly revision?: string };
type Accept = (transport: Transport) => Accepted;

/**
 * MCP's Streamable HTTP transport, server side, for both eras, on node:http alone.
 *
 * `http(options)` binds its own server: `await server.listen(http({ port: 3000 }))`.
 * `httpHandler(server, options)` returns a `(req, res)` listener to mount in another framework.
 *
 * One endpoint path; POST carries client messages, GET opens the session's server-to-client
 * stream, DELETE ends a session. A POST with an `initialize` request starts a session (its
 * Mcp-Session-Id comes back on the response); a POST whose request carries 2026-07-28 `_meta`
 * (or whose MCP-Protocol-Version header names a stateless revision) is served on its own,
 * without a session.
 */
export class HttpEndpoint {
  private accept: Accept | undefined;
  private server: Server | undefined;
  private readonly sessions = new Map<string, HttpSession>();
  private readonly sessionOf = new WeakMap<object, HttpSession>();
  private readonly exchanges = new Set<StatelessExchange>();
  private readonly store: EventStore | undefined;
  private readonly logger: Logger;
  private readonly path: string | undefined;
  private isClosed = false;
  private sweeper: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly options: HttpOptions,
    private readonly bind: boolean,
  ) {
    this.logger = options.logger ?? stderrLogger;
    this.store = options.eventStore === false ? undefined : (options.eventStore ?? new InMemoryEventStore());
    this.path = options.path ?? (bind ? "/mcp" : undefined);
  }

  /** The bound port (`http()` only, once listening). */
  get port(): number {
    const address = this.server?.address() as AddressInfo | null | undefined;
    if (!address) throw new Error("the endpoint is not listening");
    return address.port;
  }

  /** The endpoint's URL, e.g. http://127.0.0.1:41231/mcp (`http()` only, once listening). */
  get url(): string {
    const host = this.options.host ?? "127.0.0.1";
    return `http://${host.includes(":") ? `[${host}]` : host}:${this.port}${this.path ?? "/"}`;
  }

  /** Called by `McpServer.listen`. Binds when this endpoint owns its server; resolves once bound. */
  async listen(accept: Accept): Promise<void> {
    if (this.accept) throw new Error("this HTTP endpoint is already listening");
    this.accept = accept;
    const idle = this.options.sessionIdleTimeoutMs ?? 30 * 60_000;
    if (Number.isFinite(idle)) {
      this.sweeper = setInterval(() => this.endIdleSessions(idle), Math.max(10, Math.min(idle / 2, 60_000)));
      this.sweeper.unref();
    }
    if (!this.bind) return;
    const server = createServer(this.handle);
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.options.port ?? 0, this.options.host ?? "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
  }

  async close(): Promise<void> {
    this.isClosed = true;
    clearInterval(this.sweeper);
    await Promise.all([...this.sessions.values()].map((session) => session.close()));
    for (const exchange of this.exchanges) void exchange.close();
    const server = this.server;
    if (server) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    }
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

  /** The request listener. */
  readonly handle: HttpRequestHandler = (req, res, parsedBody) => {
    this.serve(req, res, parsedBody).catch((error: unknown) => {
      this.logger("error", `HTTP ${req.method} ${req.url} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      writeError(res, new HttpError(500, ErrorCode.InternalError, "Internal error"));
    });
  };

  private async serve(req: IncomingMessage, res: ServerResponse, parsedBody: unknown): Promise<void> {
    const cors = corsHeaders(req, this.options);
    const fail = (error: HttpError) => {
      // Unread request bytes would otherwise be taken for the next request on this connection.
      if (!req.complete) res.setHeader("Connection", "close");
      writeError(res, error, cors);
    };
    const isMcpPath = this.path === undefined || (req.url ?? "/").split("?")[0] === this.path;
    const forbidden = checkHostAndOrigin(req, this.options);
    let auth: AuthInfo | undefined;
    if (this.options.auth) {
      if (forbidden) return fail(forbidden);
      const outcome = await authenticateNode(this.options.auth, req, res, isMcpPath, cors);
      if (outcome === "answered") return;
      auth = outcome;
    }
    if (!isMcpPath) return fail(refuse.notFound(`the MCP endpoint is ${this.path}`));
    if (forbidden) return fail(forbidden);
    if (!this.accept || this.isClosed) return fail(new HttpError(503, -32000, "Service Unavailable: the server is not listening"));

    switch (req.method) {
      case "POST":
        return this.post(req, res, parsedBody, cors, fail, auth);
      case "GET":
        return this.get(req, res, cors, fail);
      case "DELETE":
        return this.delete(req, res, cors, fail);
      case "OPTIONS": {
        const preflight = preflightHeaders(req, this.options);
        if (Object.keys(preflight).length === 0) return fail(refuse.methodNotAllowed("GET, POST, DELETE"));
        res.writeHead(204, preflight);
        res.end();
        return;
      }
      default:
        return fail(refuse.methodNotAllowed("GET, POST, DELETE"));
    }
  }

  private async post(req: IncomingMessage, res: ServerResponse, parsedBody: unknown, cors: Record<string, string>, fail: (error: HttpError) => void, auth?: AuthInfo) {
    const accepts = checkPost(req);
    if (accepts instanceof HttpError) return fail(accepts);
    let body = parsedBody;
    if (body === undefined) {
      const bytes = await readBody(req, this.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
      if (bytes instanceof HttpError) return fail(bytes);
      try {
        body = parseJson(bytes);
      } catch (error) {
        return fail(error as HttpError);
      }
    }
    if (typeof body !== "object" || body === null) return fail(refuse.invalid("the body must be a JSON-RPC message (an object) or a batch (an array)"));
    const refused = auth && this.options.auth?.authorize?.(auth, body);
    if (refused) return writeResponse(res, refused, cors);
    const context: MessageContext = auth ? { headers: req.headers, auth } : { headers: req.headers };

    const sessionId = header(req, HEADER.sessionId);
    if (sessionId !== undefined) {
      const session = this.sessions.get(sessionId);
      if (!session) return fail(refuse.notFound("no such session (it ended, or never existed); start a new one with initialize"));
      const version = this.checkSessionVersion(req);
      if (version) return fail(version);
      session.post(res, body, accepts, context, cors);
      return;
    }

    if (this.isStateless(req, body)) {
      if (Array.isArray(body)) return fail(refuse.invalid("2026-07-28 has no batches: send one message per POST"));
      const mismatch = checkStatelessHeaders(req, body as Record<string, unknown>);
      if (mismatch) return fail(mismatch);
      const exchange = new StatelessExchange(res, body, context, accepts, this.options.responseMode === "sse", cors);
      this.exchanges.add(exchange);
      res.once("close", () => this.exchanges.delete(exchange));
      this.accept!(exchange);
      return;
    }

    if (!Array.isArray(body) && (body as { method?: unknown }).method === "initialize") return this.initialize(res, body, accepts, context, cors, fail);
    if (Array.isArray(body) && body.some((m) => (m as { method?: unknown } | null)?.method === "initialize"))
      return fail(refuse.invalid("initialize must be sent alone, not in a batch"));
    fail(refuse.badRequest("the Mcp-Session-Id header is required: start a session with initialize, or send 2026-07-28 requests with their _meta"));
  }

  private initialize(res: ServerResponse, body: object, accepts: Accepts, context: MessageContext, cors: Record<string, string>, fail: (error: HttpError) => void) {
    if (this.sessions.size >= (this.options.maxSessions ?? 10_000)) return fail(new HttpError(503, -32000, "Service Unavailable: too many sessions"));
    let accepted: Accepted | undefined;
    const settings: SessionSettings = {
      store: this.store,
      retryMs: this.options.retryMs ?? 1000,
      sseFirst: this.options.responseMode === "sse",
      logger: this.logger,
      // Clients before 2025-11-25 may not expect an event without data.
      prime: () => (accepted?.revision ?? "") >= "2025-11-25",
    };
    const session = new HttpSession(newSessionId(), settings, (ended) => this.sessions.delete(ended.id));
    this.sessions.set(session.id, session);
    accepted = this.accept!(session);
    this.sessionOf.set(accepted, session);
    session.post(res, body, accepts, context, { ...cors, "Mcp-Session-Id": session.id }, true);
  }

  private get(req: IncomingMessage, res: ServerResponse, cors: Record<string, string>, fail: (error: HttpError) => void) {
    const sessionId = header(req, HEADER.sessionId);
    if (sessionId === undefined) {
      if (this.statelessVersion(req)) return fail(refuse.methodNotAllowed("POST (2026-07-28 has no GET stream; use subscriptions/listen)"));
      return fail(refuse.badRequest("the Mcp-Session-Id header is required"));
    }
    const session = this.sessions.get(sessionId);
    if (!session) return fail(refuse.notFound("no such session"));
    const notAcceptable = checkGet(req);
    if (notAcceptable) return fail(notAcceptable);
    const version = this.checkSessionVersion(req);
    if (version) return fail(version);
    session.get(res, header(req, HEADER.lastEventId), cors);
  }

  private async delete(req: IncomingMessage, res: ServerResponse, cors: Record<string, string>, fail: (error: HttpError) => void) {
    const sessionId = header(req, HEADER.sessionId);
    if (sessionId === undefined) return fail(refuse.badRequest("the Mcp-Session-Id header is required"));
    const session = this.sessions.get(sessionId);
    if (!session) return fail(refuse.notFound("no such session"));
    const version = this.checkSessionVersion(req);
    if (version) return fail(version);
    await session.close();
    res.writeHead(200, cors);
    res.end();
  }

  private endIdleSessions(idleMs: number): void {
    const cutoff = Date.now() - idleMs;
    for (const session of this.sessions.values()) if (!session.busy && session.lastActive < cutoff) void session.close();
  }

  /** Session era: MCP-Protocol-Version, when present, must name a session-era revision (missing means 2025-03-26). */
  private checkSessionVersion(req: IncomingMessage): HttpError | undefined {
    const version = header(req, HEADER.protocolVersion);
    if (version === undefined) return undefined;
    if (isRevision(version) && eraOf(version) === "session") return undefined;
    return refuse.badRequest(`unsupported MCP-Protocol-Version ${JSON.stringify(version)} for a session`);
  }

  private statelessVersion(req: IncomingMessage): boolean {
    const version = header(req, HEADER.protocolVersion);
    return version !== undefined && isRevision(version) && eraOf(version) === "stateless";
  }

  /** A request that names its protocol version in `_meta`, or a POST whose header names a stateless revision. */
  private isStateless(req: IncomingMessage, body: object): boolean {
    if (!Array.isArray(body) && metaVersion(body) !== undefined) return true;
    return this.statelessVersion(req);
  }
}

/** Streamable HTTP on a server of its own: `await server.listen(http({ port: 3000 }))`. */
export function http(options: HttpOptions = {}): HttpEndpoint {
  return new HttpEndpoint(options, true);
}

/**
 * Streamable HTTP as a `(req, res)` listener for a server you run: express, fastify, node:http.
 * `server` is an McpServer; the returned handler has its endpoint as `handler.endpoint`.
 */
export function httpHandler(
  server: { listen(target: { listen(accept: Accept): Promise<void>; close(): Promise<void> }): Promise<void> },
  options: Omit<HttpOptions, "port" | "host"> = {},
): HttpRequestHandler & { readonly endpoint: HttpEndpoint } {
  const endpoint = new HttpEndpoint(options, false);
  server.listen(endpoint).catch((error: Error) => (options.logger ?? stderrLogger)("error", `the HTTP handler could not start: ${error.message}`));
  return Object.assign((req: IncomingMessage, res: ServerResponse, parsedBody?: unknown) => endpoint.handle(req, res, parsedBody), { endpoint });
}
