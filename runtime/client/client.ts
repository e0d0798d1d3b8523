import { reported, summarize } from "../dispatch/issues.js";
import { clientRequest } from "../dispatch/router.js";
import { ErrorCode, RpcError } from "../jsonrpc/errors.js";
import type { Notification, Request } from "../jsonrpc/messages.js";
import { Peer, type InboundRequest, type PeerHandler, type RequestOptions } from "../jsonrpc/peer.js";
import { META } from "../session/meta.js";
import { ALL_REVISIONS, revisionModule, type Revision, type RevisionModule } from "../session/revisions.js";
import type { MessageContext, Transport } from "../transports/transport.js";
import { stderrLogger, type Logger } from "../util/logger.js";
import type {
  CallToolResult,
  GetPromptResult,
  Implementation,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  ServerCapabilities,
  Tool,
} from "../server/types.js";

export interface ClientOptions {
  readonly name: string;
  readonly version: string;
  /**
   * The revision to speak. Session era: offered at initialize, and the server may answer with
   * another one we also speak. Stateless era: sent in every request's `_meta`.
   * Default: the latest session-era revision.
   */
  readonly revision?: Revision;
  readonly capabilities?: Record<string, unknown>;
  /** Default timeout of each request (default 60 s). */
  readonly requestTimeoutMs?: number;
  /** Check every result against the revision's schema (default true). */
  readonly validateResults?: boolean;
  readonly logger?: Logger;
}

export type NotificationListener = (params: Record<string, unknown>) => void;

/** A page of a list, with the cursor of the next one. */
export interface Page<T> {
  readonly items: T[];
  readonly nextCursor?: string;
}

const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * An MCP client for either era, on the same JSON-RPC peer as the server. `connect` initializes
 * (session era) or discovers (stateless era); the typed calls then check every result against
 * the revision's generated validators.
 */
export class McpClient {
  private readonly peer: Peer;
  private readonly listeners = new Map<string, Set<NotificationListener>>();
  private readonly logger: Logger;
  private module!: RevisionModule;
  private info!: Implementation;
  private serverCaps: ServerCapabilities = {};
  private serverInstructions: string | undefined;

  private constructor(
    transport: Transport,
    private readonly options: ClientOptions,
  ) {
    this.logger = options.logger ?? stderrLogger;
    const handler: PeerHandler = {
      request: (request, inbound) => this.answer(request, inbound),
      notification: (notification, context) => this.deliver(notification, context),
    };
    this.peer = new Peer(transport, handler, {
      logger: this.logger,
      requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_TIMEOUT_MS,
      cancel: (id, method, reason) => {
        if (method !== "initialize") void this.notify("notifications/cancelled", { requestId: id, reason }).catch(() => {});
      },
    });
  }

  static async connect(transport: Transport, options: ClientOptions): Promise<McpClient> {
    const client = new McpClient(transport, options);
    try {
      await client.open(options.revision ?? latestSessionRevision());
    } catch (error) {
      await client.close();
      throw error;
    }
    return client;
  }

  get revision(): Revision {
    return this.module.revision;
  }

  get serverInfo(): Implementation {
    return this.info;
  }

  get serverCapabilities(): ServerCapabilities {
    return this.serverCaps;
  }

  get instructions(): string | undefined {
    return this.serverInstructions;
  }

  // -- typed calls ----------------------------------------------------------------------------------

  ping(options?: RequestOptions): Promise<Record<string, unknown>> {
    return this.request("ping", {}, options);
  }

  async listTools(cursor?: string, options?: RequestOptions): Promise<Page<Tool>> {
    const result = await this.request("tools/list", cursor === undefined ? {} : { cursor }, options);
    return { items: result.tools as Tool[], nextCursor: result.nextCursor as string | undefined };
  }

  callTool(name: string, args: Record<string, unknown> = {}, options?: RequestOptions): Promise<CallToolResult> {
    return this.request<CallToolResult>("tools/call", { name, arguments: args }, options);
  }

  async listResources(cursor?: string, options?: RequestOptions): Promise<Page<Resource>> {
    const result = await this.request("resources/list", cursor === undefined ? {} : { cursor }, options);
    return { items: result.resources as Resource[], nextCursor: result.nextCursor as string | undefined };
  }

  async listResourceTemplates(cursor?: string, options?: RequestOptions): Promise<Page<ResourceTemplate>> {
    const result = await this.request("resources/templates/list", cursor === undefined ? {} : { cursor }, options);
    return { items: result.resourceTemplates as ResourceTemplate[], nextCursor: result.nextCursor as string | undefined };
  }

  readResource(uri: string, options?: RequestOptions): Promise<ReadResourceResult> {
    return this.request<ReadResourceResult>("resources/read", { uri }, options);
  }

  async listPrompts(cursor?: string, options?: RequestOptions): Promise<Page<Prompt>> {
    const result = await this.request("prompts/list", cursor === undefined ? {} : { cursor }, options);
    return { items: result.prompts as Prompt[], nextCursor: result.nextCursor as string | undefined };
  }

  getPrompt(name: string, args: Record<string, string> = {}, options?: RequestOptions): Promise<GetPromptResult> {
    return this.request<GetPromptResult>("prompts/get", { name, arguments: args }, options);
  }

  /**
   * Any request of the revision, by method. Stateless era: `_meta` gets the protocol version,
   * capabilities and client info. The result is checked against the revision's schema.
   */
  async request<R = Record<string, unknown>>(method: string, params: Record<string, unknown> = {}, options?: RequestOptions): Promise<R> {
    const descriptor = clientRequest(this.module, method);
    const result = await this.peer.request(method, this.withMeta(params), options);
    if (this.options.validateResults === false) return result as R;
    const results = descriptor.results ?? [];
    if (results.some((name) => this.module.validator(name).is(result))) return result as R;
    const issues = this.module.validator(results[0]!).check(result);
    throw new RpcError(ErrorCode.InternalError, `the server's ${method} result is not a valid ${results[0]} of MCP ${this.revision}: ${summarize(issues)}`, {
      issues: reported(issues),
      result,
    });
  }

  notify(method: string, params?: Record<string, unknown>): Promise<void> {
    return this.peer.notify(method, params);
  }

  /** Listens to a notification from the server; returns the function that stops listening. */
  on(method: string, listener: NotificationListener): () => void {
    let set = this.listeners.get(method);
    if (!set) this.listeners.set(method, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  close(): Promise<void> {
    return this.peer.close();
  }

  // -- from the server ------------------------------------------------------------------------------

  private answer(request: Request, _inbound: InboundRequest): unknown {
    if (request.method === "ping") return {};
    throw new RpcError(ErrorCode.MethodNotFound, `Method not found: this client does not handle ${request.method}`);
  }

  private deliver(notification: Notification, _context: MessageContext | undefined): void {
    const listeners = this.listeners.get(notification.method);
    if (!listeners) return;
    for (const listener of listeners) {
      try {
        listener(notification.params ?? {});
      } catch (error) {
        this.logger("error", `listener for ${notification.method} threw: ${(error as Error).message}`);
      }
    }
  }

  // -- opening ----------------------------------------------------------------------------------------

  private async open(revision: Revision): Promise<void> {
    const module = revisionModule(revision);
    if (!module) throw new Error(`unknown MCP revision ${revision} (generated: ${ALL_REVISIONS.join(", ")})`);
    this.module = module;
    const clientInfo = { name: this.options.name, version: this.options.version };
    if (module.era === "stateless") {
      const discovered = await this.request("server/discover");
      this.serverCaps = discovered.capabilities as ServerCapabilities;
      this.serverInstructions = discovered.instructions as string | undefined;
      this.info = ((discovered._meta as Record<string, unknown> | undefined)?.[META.serverInfo] as Implementation | undefined) ?? { name: "", version: "" };
      return;
    }
    const result = await this.request("initialize", {
      protocolVersion: revision,
      capabilities: this.options.capabilities ?? {},
      clientInfo,
    });
    const answered = result.protocolVersion as string;
    const negotiated = revisionModule(answered);
    if (!negotiated || negotiated.era !== "session")
      throw new Error(`the server answered initialize with protocol version ${answered}, which this client does not speak`);
    this.module = negotiated;
    this.serverCaps = result.capabilities as ServerCapabilities;
    this.info = result.serverInfo as Implementation;
    this.serverInstructions = result.instructions as string | undefined;
    await this.notify("notifications/initialized");
  }

  private withMeta(params: Record<string, unknown>): Record<string, unknown> {
    if (this.module.era !== "stateless") return params;
    const meta = (params._meta as Record<string, unknown> | undefined) ?? {};
    return {
      ...params,
      _meta: {
        ...meta,
        [META.protocolVersion]: this.module.revision,
        [META.clientCapabilities]: this.options.capabilities ?? {},
        [META.clientInfo]: { name: this.options.name, version: this.options.version },
      },
    };
  }
}

function latestSessionRevision(): Revision {
  return [...ALL_REVISIONS].reverse().find((r) => revisionModule(r)!.era === "session")!;
}
