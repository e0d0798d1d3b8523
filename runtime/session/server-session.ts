import { createContext, type ClientIdentity, type Handler, type RequestContext } from "../dispatch/context.js";
import { checkRequest, clientRequest, finishResult, route, type RouteOptions } from "../dispatch/router.js";
import { ErrorCode, RpcError } from "../jsonrpc/errors.js";
import type { Notification, Request } from "../jsonrpc/messages.js";
import { Peer, type InboundRequest, type PeerHandler } from "../jsonrpc/peer.js";
import type { MessageContext, Transport } from "../transports/transport.js";
import type { Logger } from "../util/logger.js";
import { META, metaOf } from "./meta.js";
import { revisionModule, type Revision, type RevisionModule } from "./revisions.js";

/** What a server gives each of its sessions. */
export interface ServerCore {
  readonly info: { readonly name: string; readonly version: string; readonly [key: string]: unknown };
  readonly instructions?: string;
  /** Supported revisions, oldest first. */
  readonly revisions: readonly Revision[];
  readonly handlers: ReadonlyMap<string, Handler>;
  capabilities(revision: Revision): Record<string, unknown>;
  readonly route: RouteOptions;
  readonly logger: Logger;
  /** A notification the session itself does not consume (roots/list_changed, ...). */
  notification?(method: string, params: Record<string, unknown>, session: ServerSession): void;
  closed?(session: ServerSession): void;
}

/** Session era: what `initialize` settled for this connection. */
interface Negotiated {
  readonly module: RevisionModule;
  readonly client: ClientIdentity;
  initialized: boolean;
}

/**
 * One connection of a server, for both eras. `initialize` selects the session era for the
 * connection, with the negotiated revision; a request whose `_meta` names a protocol version is
 * served statelessly under that version. Either way the request reaches the same handlers.
 */
export class ServerSession implements PeerHandler {
  readonly peer: Peer;
  private negotiated: Negotiated | undefined;

  constructor(
    transport: Transport,
    private readonly core: ServerCore,
  ) {
    this.peer = new Peer(transport, this, {
      logger: core.logger,
      cancel: (id, method, reason) => {
        if (method !== "initialize") void this.peer.notify("notifications/cancelled", { requestId: id, reason }).catch(() => {});
      },
    });
  }

  /** The negotiated revision (session era), once initialized. */
  get revision(): Revision | undefined {
    return this.negotiated?.module.revision;
  }

  get client(): ClientIdentity | undefined {
    return this.negotiated?.client;
  }

  request(request: Request, inbound: InboundRequest): unknown {
    const { method } = request;
    if (this.negotiated) {
      if (method === "initialize") throw new RpcError(ErrorCode.InvalidRequest, "Invalid Request: this session is already initialized");
      return this.serve(this.negotiated.module, request, inbound, this.negotiated.client);
    }
    if (method === "initialize") return this.initialize(request);
    const meta = metaOf(request.params);
    if (meta?.[META.protocolVersion] !== undefined) return this.serveStateless(request, inbound, meta);
    if (method === "ping" && this.sessionRevisions().length > 0) return {};
    throw this.notInitialized(method);
  }

  notification(notification: Notification, _context: MessageContext | undefined): void {
    const params = notification.params ?? {};
    switch (notification.method) {
      case "notifications/initialized":
        if (this.negotiated) this.negotiated.initialized = true;
        return;
      case "notifications/cancelled":
        if (params.requestId !== undefined) this.peer.cancelInbound(params.requestId as string | number, String(params.reason ?? "cancelled by the client"));
        return;
      default:
        this.core.notification?.(notification.method, params, this);
    }
  }

  acceptsBatch(): boolean {
    return this.negotiated?.module.batches ?? false;
  }

  closed(): void {
    this.core.closed?.(this);
  }

  close(): Promise<void> {
    return this.peer.close();
  }

  // -- the two eras -----------------------------------------------------------------------------

  private initialize(request: Request): unknown {
    const supported = this.sessionRevisions();
    if (supported.length === 0)
      throw new RpcError(ErrorCode.MethodNotFound, `Method not found: this server speaks only ${this.core.revisions.join(", ")}, without initialize; send server/discover`);
    const requested = request.params?.protocolVersion;
    // Negotiation never fails: an unknown version is answered with our latest, and the client decides.
    const revision = supported.find((r) => r === requested) ?? supported[supported.length - 1]!;
    const module = revisionModule(revision)!;
    checkRequest(module, clientRequest(module, "initialize"), request);

    const params = request.params!;
    const client: ClientIdentity = {
      info: params.clientInfo as ClientIdentity["info"],
      capabilities: (params.capabilities as Record<string, unknown> | undefined) ?? {},
    };
    const result: Record<string, unknown> = {
      protocolVersion: revision,
      capabilities: this.core.capabilities(revision),
      serverInfo: this.core.info,
    };
    if (this.core.instructions !== undefined) result.instructions = this.core.instructions;
    const checked = finishResult(module, clientRequest(module, "initialize"), "initialize", result, this.core.route);
    this.negotiated = { module, client, initialized: false };
    return checked;
  }

  private serveStateless(request: Request, inbound: InboundRequest, meta: Record<string, unknown>): unknown {
    const requested = meta[META.protocolVersion];
    if (typeof requested !== "string")
      throw new RpcError(ErrorCode.InvalidParams, `Invalid params: _meta["${META.protocolVersion}"] must be a string`);
    const module = revisionModule(requested);
    if (!module || module.era !== "stateless" || !this.core.revisions.includes(module.revision))
      throw new RpcError(ErrorCode.UnsupportedProtocolVersion, `Unsupported protocol version: ${requested}`, {
        supported: [...this.core.revisions].reverse(),
        requested,
      });
    const client: ClientIdentity = {
      info: meta[META.clientInfo] as ClientIdentity["info"],
      capabilities: (meta[META.clientCapabilities] as Record<string, unknown> | undefined) ?? {},
    };
    return this.serve(module, request, inbound, client);
  }

  private serve(module: RevisionModule, request: Request, inbound: InboundRequest, client: ClientIdentity): unknown {
    const handler = this.lifecycle(request.method) ?? this.core.handlers.get(request.method);
    const context = (): RequestContext => createContext(inbound, module.revision, module.era, client, metaOf(request.params));
    return route(module, request, handler, context, this.core.route);
  }

  /** Methods the session answers itself, for whichever era has them. */
  private lifecycle(method: string): Handler | undefined {
    if (method === "ping") return PING;
    if (method === "server/discover") return this.discover;
    return undefined;
  }

  private readonly discover: Handler = (_params, context) => {
    const result: Record<string, unknown> = {
      supportedVersions: [...this.core.revisions].reverse(),
      capabilities: this.core.capabilities(context.revision),
    };
    if (this.core.instructions !== undefined) result.instructions = this.core.instructions;
    return result;
  };

  private sessionRevisions(): Revision[] {
    return this.core.revisions.filter((r) => revisionModule(r)!.era === "session");
  }

  private notInitialized(method: string): RpcError {
    const stateless = this.core.revisions.filter((r) => revisionModule(r)!.era === "stateless");
    if (stateless.length === 0)
      return new RpcError(ErrorCode.InvalidRequest, `Invalid Request: ${method} before initialize; the session must begin with initialize`);
    return new RpcError(
      ErrorCode.InvalidParams,
      `Invalid params: ${method} carries no _meta["${META.protocolVersion}"]` +
        (this.sessionRevisions().length > 0 ? " (stateless era), and the session did not begin with initialize (session era)" : ""),
    );
  }
}

const PING: Handler = () => ({});
