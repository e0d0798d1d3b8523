import { ErrorCode, RpcError } from "../jsonrpc/errors.js";
import { isRequestId, type Notification, type Request, type RequestId } from "../jsonrpc/messages.js";
import { Peer, type InboundRequest, type RequestOptions } from "../jsonrpc/peer.js";
import type { MessageContext, SendOptions, Transport, TransportFacts } from "../jsonrpc/transport.js";
import type { Logger } from "../util/logger.js";
import { HookExchange, reportClosed, runHooks, sendThroughHooks, type Hook } from "../shared/hooks.js";
import type { SessionRecord } from "../stores/session-store.js";
import { isThenable } from "../util/thenable.js";
import { META, metaOf } from "./meta.js";
import { eraOf, isRevision, loadRevision, revisionModule, startRevision, type Revision, type RevisionFeatures, type LoadedRevision } from "./revisions.js";
import { checkRequest, checkResult, clientRequest } from "./validate.js";

/** Who is calling, as they declared it: at initialize (session era) or in each request's `_meta` (stateless). */
export interface ClientIdentity {
  readonly info?: { readonly name: string; readonly version: string; readonly [key: string]: unknown };
  readonly capabilities: Readonly<Record<string, unknown>>;
}

/** Everything the layer above needs to serve one request: which revision, for whom, on which connection. */
export interface RequestScope {
  readonly module: LoadedRevision;
  readonly client: ClientIdentity;
  readonly session: ServerSession;
}

/** What a server gives each of its sessions. */
export interface ServerCore {
  readonly info: { readonly name: string; readonly version: string; readonly [key: string]: unknown };
  readonly instructions?: string;
  /** Supported revisions, oldest first. */
  readonly revisions: readonly Revision[];
  capabilities(revision: Revision): Record<string, unknown>;
  /** Serves a request once the session has chosen its revision (the dispatcher). */
  dispatch(request: Request, inbound: InboundRequest, scope: RequestScope): unknown;
  /** A client notification the session itself does not consume (roots/list_changed, ...). */
  notification?(method: string, params: Record<string, unknown>, session: ServerSession): void;
  closed?(session: ServerSession): void;
  readonly logger: Logger;
  /** PeerOptions.maxConcurrentRequests. */
  readonly maxConcurrentRequests?: number;
  /** Around every message in and out (shared/hooks.ts); empty: none of that machinery runs. */
  readonly hooks: readonly Hook[];
}

/** Session era: what `initialize` settled for this connection. */
interface Negotiated {
  /** The start-up view until a method other than initialize comes; then every validator. */
  module: LoadedRevision;
  readonly client: ClientIdentity;
  /** What the initialize result declared: what this client may be sent. */
  readonly capabilities: Readonly<Record<string, unknown>>;
  initialized: boolean;
}

/**
 * One connection of a server, in both eras. `initialize` puts the connection in the session era
 * at the negotiated revision; a request whose `_meta` names a protocol version is served
 * statelessly at that version. Either way the request then goes to the same dispatcher.
 */
export class ServerSession {
  private readonly peer: Peer;
  private negotiated: Negotiated | undefined;
  /** Session era: settles once an initialize whose revision had to be loaded is answered. */
  private initializing: Promise<void> | undefined;
  /** Session era: the level set by logging/setLevel; nothing below it is sent. */
  logLevel: string | undefined;
  /** Session era: URIs this client subscribed to with resources/subscribe. */
  readonly subscriptions = new Set<string>();
  /** With hooks: when the connection started (performance.now()), and the revision its last stateless request named. */
  private readonly openedAt: number;
  private statelessRevision: string | undefined;

  constructor(
    transport: Transport,
    private readonly core: ServerCore,
  ) {
    const hooked = core.hooks.length > 0;
    this.openedAt = hooked ? performance.now() : 0;
    this.peer = new Peer(
      transport,
      {
        request: hooked ? (request, inbound) => this.hookedServe(request, inbound) : (request, inbound) => this.serve(request, inbound),
        notification: hooked ? (notification, context) => this.hookedReceive(notification, context) : (notification, context) => this.receive(notification, context),
        acceptsBatch: () => this.negotiated?.module.batches ?? false,
        closed: hooked ? (error) => this.hookedClose(error) : () => this.core.closed?.(this),
      },
      {
        logger: core.logger,
        maxConcurrentRequests: core.maxConcurrentRequests,
        cancel: (id, method, reason) => {
          if (method !== "initialize") void this.notify("notifications/cancelled", { requestId: id, reason }).catch(() => {});
        },
      },
    );
  }

  /** Session era: the negotiated revision, once initialize has been answered. */
  get revision(): Revision | undefined {
    return this.negotiated?.module.revision;
  }

  /** Session era: what the runtime does differently in the negotiated revision (SSE priming...), once negotiated. */
  get features(): RevisionFeatures | undefined {
    return this.negotiated?.module.features;
  }

  get client(): ClientIdentity | undefined {
    return this.negotiated?.client;
  }

  /** Session era: the server capabilities declared at initialize (list_changed goes only where listChanged was). */
  get serverCapabilities(): Readonly<Record<string, unknown>> | undefined {
    return this.negotiated?.capabilities;
  }

  get closed(): boolean {
    return this.peer.closed;
  }

  /** What the transport tells about the connection (network, session id). */
  get facts(): TransportFacts | undefined {
    return this.peer.facts;
  }

  /** Streamable HTTP, session era: the Mcp-Session-Id; undefined over stdio and in memory, and in the stateless era. */
  get sessionId(): string | undefined {
    return this.peer.facts?.sessionId;
  }

  /** Whether the client may read several of our messages at once (stdio). */
  get coalesces(): boolean {
    return this.peer.coalesces;
  }

  /** A request to the client (sampling, roots, elicitation, ping). */
  request(method: string, params: Record<string, unknown> | undefined, options?: RequestOptions): Promise<unknown> {
    if (this.core.hooks.length === 0) return this.peer.request(method, params, options);
    return sendThroughHooks(this.core.hooks, this.exchange("outgoing", "request", method, params, undefined, undefined, undefined), this.peer, options);
  }

  /** Sends a notification to this session's client. */
  notify(method: string, params?: Record<string, unknown>, options?: SendOptions): Promise<void> {
    if (this.core.hooks.length === 0) return this.peer.notify(method, params, options);
    return sendThroughHooks(this.core.hooks, this.exchange("outgoing", "notification", method, params, undefined, undefined, undefined), this.peer, options).then(() => undefined);
  }

  /** Ends a request without answering it (a subscriptions/listen stream the client closed). */
  abandon(id: RequestId, reason: string): void {
    this.peer.cancelInbound(id, reason);
  }

  /** Ends the session and closes its transport. */
  close(): Promise<void> {
    return this.peer.close();
  }

  /**
   * Session era, many instances: takes on a session that another instance initialized (its
   * record in a shared session store), as if this connection had negotiated it; called again
   * with a fresher record, it updates the level and subscriptions other instances changed.
   */
  adopt(state: SessionRecord): void | Promise<void> {
    this.logLevel = state.logLevel;
    this.subscriptions.clear();
    for (const uri of state.subscriptions) this.subscriptions.add(uri);
    if (this.negotiated || this.initializing) return this.initializing;
    const revision = state.revision;
    if (!isRevision(revision) || eraOf(revision) !== "session" || !this.core.revisions.includes(revision))
      throw new Error(`a shared session was negotiated at ${revision}, which this instance does not serve`);
    const settle = (module: LoadedRevision) => {
      const client = { info: state.clientInfo as ClientIdentity["info"], capabilities: state.clientCapabilities };
      this.negotiated = { module, client, capabilities: this.core.capabilities(revision), initialized: true };
    };
    const module = revisionModule(revision);
    if (module) return settle(module);
    this.initializing = loadRevision(revision).then(settle).finally(() => (this.initializing = undefined));
    return this.initializing;
  }

  // -- inbound ----------------------------------------------------------------------------------

  private hookedServe(request: Request, inbound: InboundRequest): unknown {
    const seen = this.exchange("incoming", "request", request.method, request.params, request.id, inbound.context, inbound);
    return runHooks(this.core.hooks, seen, () => this.serve(seen.params === request.params ? request : { ...request, params: seen.params }, inbound));
  }

  private hookedClose(error: Error | undefined): void {
    this.core.closed?.(this);
    const revision = this.negotiated?.module.revision ?? this.statelessRevision;
    reportClosed(this.core.hooks, {
      side: "server",
      revision,
      era: this.negotiated ? "session" : revision === undefined ? undefined : "stateless",
      transport: this.peer.facts,
      durationMs: performance.now() - this.openedAt,
      error,
    });
  }

  private hookedReceive(notification: Notification, context: MessageContext | undefined): void {
    const seen = this.exchange("incoming", "notification", notification.method, notification.params, undefined, context, undefined);
    runHooks(this.core.hooks, seen, () => this.receive(notification, context)).catch((error: unknown) =>
      this.core.logger("warn", `notification ${notification.method} refused by a hook: ${error instanceof Error ? error.message : String(error)}`),
    );
  }

  /** What the hooks see of a message on this connection. */
  private exchange(
    direction: "incoming" | "outgoing",
    kind: "request" | "notification",
    method: string,
    params: Record<string, unknown> | undefined,
    id: RequestId | undefined,
    context: MessageContext | undefined,
    signal: { readonly signal: AbortSignal } | undefined,
  ): HookExchange {
    const stated = metaOf(params)?.[META.protocolVersion];
    const revision = this.negotiated?.module.revision ?? (typeof stated === "string" ? stated : undefined);
    if (!this.negotiated && revision !== undefined) this.statelessRevision = revision;
    return new HookExchange("server", direction, kind, method, params, id, revision, this.peer.facts, context, signal);
  }

  private serve(request: Request, inbound: InboundRequest): unknown {
    const { method } = request;
    // Requests that arrive while initialize is being answered are served once it is.
    if (this.initializing) return this.initializing.then(() => this.serve(request, inbound));
    if (this.negotiated) {
      if (method === "initialize") throw new RpcError(ErrorCode.InvalidRequest, "Invalid Request: this session is already initialized");
      if (!this.negotiated.module.complete) return this.completeRevision().then(() => this.serve(request, inbound));
      return this.core.dispatch(request, inbound, { module: this.negotiated.module, client: this.negotiated.client, session: this });
    }
    // The era, decided once per message: by the transport when it could (Streamable HTTP, from the
    // session id and headers: MessageContext.era); else (stdio, memory) a request that names its
    // protocol version in _meta is stateless, whatever its method: a stateless `initialize` is a
    // method that does not exist (-32601), not a session's start.
    const meta = metaOf(request.params);
    const era = inbound.context?.era ?? (meta?.[META.protocolVersion] !== undefined ? "stateless" : "session");
    if (era === "stateless") return this.serveStateless(request, inbound, meta);
    if (method === "initialize") {
      const answer = this.initialize(request);
      if (isThenable(answer)) {
        const settled = Promise.resolve(answer).then(
          () => undefined,
          () => undefined,
        );
        this.initializing = settled.then(() => {
          this.initializing = undefined;
        });
      }
      return answer;
    }
    if (method === "ping" && this.sessionRevisions().length > 0) return {};
    throw this.notInitialized(method);
  }

  private receive(notification: Notification, _context: MessageContext | undefined): void {
    const params = notification.params ?? {};
    switch (notification.method) {
      case "notifications/initialized":
        if (this.negotiated) this.negotiated.initialized = true;
        return;
      case "notifications/cancelled":
        if (isRequestId(params.requestId))
          this.peer.cancelInbound(params.requestId, String(params.reason ?? "cancelled by the client"));
        return;
      default:
        this.core.notification?.(notification.method, params, this);
    }
  }

  // -- the two eras -----------------------------------------------------------------------------

  private initialize(request: Request): unknown {
    const supported = this.sessionRevisions();
    if (supported.length === 0)
      throw new RpcError(
        ErrorCode.MethodNotFound,
        `Method not found: this server speaks only ${this.core.revisions.join(", ")}, which has no initialize; send server/discover`,
      );
    const requested = request.params?.protocolVersion;
    // Negotiation never fails: an unknown version is answered with our latest, and the client decides.
    const revision = supported.find((r) => r === requested) ?? supported[supported.length - 1]!;
    // Only the start-up validators: the rest loads with the first other method (completeRevision).
    const module = startRevision(revision);
    return isThenable(module) ? module.then((started) => this.negotiate(started, request)) : this.negotiate(module, request);
  }

  /** Session era: every validator of the negotiated revision, which initialize did without. */
  private completeRevision(): Promise<void> {
    const negotiated = this.negotiated!;
    return loadRevision(negotiated.module.revision).then((module) => {
      negotiated.module = module;
    });
  }

  private negotiate(module: LoadedRevision, request: Request): Record<string, unknown> {
    const { revision } = module;
    const descriptor = clientRequest(module, "initialize");
    checkRequest(module, descriptor, request);

    const params = request.params!;
    const capabilities = this.core.capabilities(revision);
    const result: Record<string, unknown> = {
      protocolVersion: revision,
      capabilities,
      serverInfo: this.core.info,
    };
    if (this.core.instructions !== undefined) result.instructions = this.core.instructions;
    checkResult(module, descriptor, "initialize", result);
    this.negotiated = {
      module,
      client: { info: params.clientInfo as ClientIdentity["info"], capabilities: (params.capabilities as Record<string, unknown>) ?? {} },
      capabilities,
      initialized: false,
    };
    return result;
  }

  private serveStateless(request: Request, inbound: InboundRequest, meta: Record<string, unknown> | undefined): unknown {
    // Stateless by the transport's headers, but the body names no version.
    if (meta?.[META.protocolVersion] === undefined) throw this.notInitialized(request.method);
    const requested = meta[META.protocolVersion];
    if (typeof requested !== "string")
      throw new RpcError(ErrorCode.InvalidParams, `Invalid params: _meta["${META.protocolVersion}"] must be a string`);
    if (!isRevision(requested) || eraOf(requested) !== "stateless" || !this.core.revisions.includes(requested))
      throw new RpcError(ErrorCode.UnsupportedProtocolVersion, `Unsupported protocol version: ${requested}`, {
        supported: [...this.core.revisions].reverse(),
        requested,
      });
    const client: ClientIdentity = {
      info: meta[META.clientInfo] as ClientIdentity["info"],
      capabilities: (meta[META.clientCapabilities] as Record<string, unknown> | undefined) ?? {},
    };
    const dispatch = (module: LoadedRevision) => this.core.dispatch(request, inbound, { module, client, session: this });
    const module = revisionModule(requested);
    if (module) return dispatch(module);
    // server/discover, the first message of a stateless client, needs only the start-up validators.
    if (request.method === "server/discover") {
      const started = startRevision(requested);
      return isThenable(started) ? started.then(dispatch) : dispatch(started);
    }
    return loadRevision(requested).then(dispatch);
  }

  private sessionRevisions(): Revision[] {
    return this.core.revisions.filter((r) => eraOf(r) === "session");
  }

  private notInitialized(method: string): RpcError {
    const stateless = this.core.revisions.some((r) => eraOf(r) === "stateless");
    if (!stateless)
      return new RpcError(ErrorCode.InvalidRequest, `Invalid Request: ${method} before initialize; the session must begin with initialize`);
    return new RpcError(
      ErrorCode.InvalidParams,
      `Invalid params: ${method} carries no _meta["${META.protocolVersion}"]` +
        (this.sessionRevisions().length > 0 ? " (stateless era), and the session did not begin with initialize (session era)" : ""),
    );
  }
}
