import type { ServerHandlers as SessionEraHandlers } from "../../generated/2025-11-25/handlers.js";
import type { ServerHandlers as StatelessHandlers } from "../../generated/2026-07-28/handlers.js";
import { LOG_LEVELS, type Handler, type LogLevelName, type RequestContext } from "../dispatch/context.js";
import { createDispatcher, handlerTable, type AsWritten } from "../dispatch/router.js";
import { ErrorCode, RpcError } from "../jsonrpc/errors.js";
import { InputRequiredCodec, type InputRequiredOptions } from "../session/input-required.js";
import { ALL_REVISIONS, isRevision, type Revision } from "../session/revisions.js";
import { ServerSession, type ServerCore } from "../session/server-session.js";
import type { Transport } from "../transports/transport.js";
import { stderrLogger, type Logger } from "../util/logger.js";
import { complete, type Completers } from "./completion.js";
import { SchemaCompiler } from "./json-schema.js";
import { Paginator } from "./pagination.js";
import { PromptRegistry, type PromptDefinition, type PromptHandler } from "./prompts.js";
import {
  ResourceRegistry,
  type ResourceDefinition,
  type ResourceHandler,
  type ResourceTemplateDefinition,
  type ResourceTemplateHandler,
} from "./resources.js";
import { Subscriptions, type ListKind } from "./subscriptions.js";
import type { ObjectSchema, ToolArguments } from "./schema-types.js";
import { ToolRegistry, type ToolDefinition, type ToolHandler, type ToolResult } from "./tools.js";
import type { Implementation } from "./types.js";

export interface ServerOptions {
  readonly name: string;
  readonly version: string;
  /** More of the server's identity (title, description, icons, websiteUrl). */
  readonly info?: Omit<Implementation, "name" | "version">;
  /** The revisions this server speaks. Default: every generated revision, both eras. */
  readonly revisions?: readonly string[];
  /** Natural-language guidance for the client's model. */
  readonly instructions?: string;
  /** Check every result against the revision's schema before sending it (default true). */
  readonly validateResults?: boolean;
  /** Items per page of tools/list, prompts/list, resources/list and resources/templates/list (default 100). */
  readonly pageSize?: number;
  /** Stateless era: caching hints for list, read and discover results (default: 0 ms, private). */
  readonly cache?: { readonly ttlMs?: number; readonly scope?: "public" | "private" };
  /** Stateless era: how requestState is signed and how long it lives. */
  readonly inputRequired?: InputRequiredOptions;
  /** Timeout of the requests handlers send the client: elicitation, sampling, roots (default 5 minutes). */
  readonly clientRequestTimeoutMs?: number;
  /** A client notification the runtime does not consume itself, e.g. notifications/roots/list_changed. */
  readonly onNotification?: (method: string, params: Record<string, unknown>, session: ServerSession) => void;
  /** Where the runtime reports what it cannot answer (default: stderr). */
  readonly logger?: Logger;
}

/** Something that accepts connections (Streamable HTTP) rather than being one. */
export interface Endpoint {
  listen(accept: (transport: Transport) => ServerSession): Promise<void>;
  close(): Promise<void>;
}

export interface PromptOptions {
  /** Suggests values for arguments, by argument name (completion/complete). */
  readonly complete?: Completers;
}

export interface ResourceTemplateOptions {
  /** Suggests values for template variables, by variable name (completion/complete). */
  readonly complete?: Completers;
}

/**
 * The requests the server answers, typed by the generated handler interfaces: those of
 * 2025-11-25 (where runtime/server/types.ts takes its types from) but initialize, which the
 * session answers, and tasks, which are not offered; plus the stateless-only methods of
 * 2026-07-28, with the fields the dispatcher completes left optional. A handler returning the
 * wrong shape does not compile.
 */
export type RuntimeHandlers = Pick<SessionEraHandlers<RequestContext>, Exclude<keyof SessionEraHandlers, "initialize" | `tasks/${string}`>> & {
  [M in "server/discover" | "subscriptions/listen"]: AsWritten<StatelessHandlers<RequestContext>[M]>;
};

/** The registries read params as plain records: the dispatcher has validated them against the request's revision. */
const fields = (params: object): Record<string, unknown> => params as Record<string, unknown>;

export function createServer(options: ServerOptions): McpServer {
  return new McpServer(options);
}

/**
 * An MCP server, written once for every revision: register tools, resources and prompts, then
 * `listen` on a transport. Each connection gets a {@link ServerSession}, which serves it in
 * whichever era the client speaks, through the same handlers.
 */
export class McpServer {
  readonly revisions: readonly Revision[];
  private readonly logger: Logger;
  private readonly tools: ToolRegistry;
  private readonly resources = new ResourceRegistry();
  private readonly prompts = new PromptRegistry();
  private readonly sessions = new Set<ServerSession>();
  private readonly endpoints = new Set<Endpoint>();
  private readonly subscriptions: Subscriptions;
  private readonly paginator: Paginator;
  private readonly core: ServerCore;

  constructor(options: ServerOptions) {
    this.logger = options.logger ?? stderrLogger;
    this.tools = new ToolRegistry(new SchemaCompiler(this.logger), this.logger);
    this.paginator = new Paginator(options.pageSize ?? 100);
    const requested = options.revisions ?? ALL_REVISIONS;
    for (const revision of requested)
      if (!isRevision(revision)) throw new Error(`unknown MCP revision ${revision} (generated: ${ALL_REVISIONS.join(", ")})`);
    this.revisions = ALL_REVISIONS.filter((r) => requested.includes(r));
    if (this.revisions.length === 0) throw new Error("a server needs at least one revision");
    this.subscriptions = new Subscriptions(() => this.sessions, (kind) => this.registry(kind).size > 0, this.logger);

    const info = { ...options.info, name: options.name, version: options.version };
    this.core = {
      info,
      instructions: options.instructions,
      revisions: this.revisions,
      capabilities: () => this.capabilities(),
      dispatch: createDispatcher(this.handlers(), {
        validateResults: options.validateResults ?? true,
        serverInfo: info,
        cache: { ttlMs: options.cache?.ttlMs ?? 0, scope: options.cache?.scope ?? "private" },
        input: new InputRequiredCodec(options.inputRequired),
        clientRequestTimeoutMs: options.clientRequestTimeoutMs ?? 5 * 60_000,
        logger: this.logger,
      }),
      notification: options.onNotification,
      closed: (session) => this.sessions.delete(session),
      logger: this.logger,
    };
  }

  // -- registration ---------------------------------------------------------------------------------

  /**
   * Declares a tool. `args` arrive validated against `inputSchema`, typed from it when it is
   * written inline or `as const` (runtime/server/schema-types.ts); with an `outputSchema`, the
   * result's structuredContent is typed from that. Or give the type: `tool<MyArgs>(...)`.
   */
  tool<const Input extends ObjectSchema>(
    definition: ToolDefinition & { readonly inputSchema: Input; readonly outputSchema?: undefined },
    handler: ToolHandler<ToolArguments<Input>>,
  ): this;
  tool<const Input extends ObjectSchema, const Output extends ObjectSchema>(
    definition: ToolDefinition & { readonly inputSchema: Input; readonly outputSchema: Output },
    handler: ToolHandler<ToolArguments<Input>, ToolResult<Output>>,
  ): this;
  // Only with the type given: otherwise a handler the inferred forms refuse would land here unchecked.
  tool<Args = never>(
    definition: ToolDefinition,
    handler: ToolHandler<NoInfer<Args>> & ([Args] extends [never] ? "give the argument type: server.tool<MyArgs>(...)" : unknown),
  ): this;
  tool(definition: ToolDefinition, handler: ToolHandler<never>): this {
    this.tools.register(definition, handler);
    return this.changed("tools");
  }

  resource(definition: ResourceDefinition, handler: ResourceHandler): this {
    this.resources.register(definition, handler);
    return this.changed("resources");
  }

  resourceTemplate(definition: ResourceTemplateDefinition, handler: ResourceTemplateHandler, options: ResourceTemplateOptions = {}): this {
    this.resources.registerTemplate(definition, handler, options.complete);
    return this.changed("resources");
  }

  prompt<Args = Record<string, string>>(definition: PromptDefinition, handler: PromptHandler<Args>, options: PromptOptions = {}): this {
    this.prompts.register(definition, handler, options.complete);
    return this.changed("prompts");
  }

  removeTool(name: string): boolean {
    return this.tools.remove(name) && !!this.changed("tools");
  }

  /** Removes a resource by URI, or a resource template by its uriTemplate. */
  removeResource(uriOrTemplate: string): boolean {
    return this.resources.remove(uriOrTemplate) && !!this.changed("resources");
  }

  removePrompt(name: string): boolean {
    return this.prompts.remove(name) && !!this.changed("prompts");
  }

  // -- telling clients ----------------------------------------------------------------------------------

  /** notifications/tools/list_changed to every session, and to stateless listeners that asked. Registration calls it for you. */
  notifyToolsChanged(): void {
    this.subscriptions.listChanged("tools");
  }

  notifyPromptsChanged(): void {
    this.subscriptions.listChanged("prompts");
  }

  notifyResourcesChanged(): void {
    this.subscriptions.listChanged("resources");
  }

  /** notifications/resources/updated, only to the sessions and listeners subscribed to `uri`. */
  notifyResourceUpdated(uri: string): void {
    this.subscriptions.resourceUpdated(uri);
  }

  /** A log message to every session-era client whose level admits it (stateless clients get logs only on their requests). */
  log(level: LogLevelName, data: unknown, logger?: string): void {
    for (const session of this.sessions) {
      if (session.revision === undefined || session.closed) continue;
      if (session.logLevel !== undefined && LOG_LEVELS.indexOf(level) < LOG_LEVELS.indexOf(session.logLevel as LogLevelName)) continue;
      session
        .notify("notifications/message", logger === undefined ? { level, data } : { level, data, logger })
        .catch((error: Error) => this.logger("debug", `log message not delivered: ${error.message}`));
    }
  }

  // -- connections ------------------------------------------------------------------------------------

  /** Serves one connection. */
  connect(transport: Transport): ServerSession {
    const session = new ServerSession(transport, this.core);
    this.sessions.add(session);
    return session;
  }

  /** Serves a transport (one connection) or an endpoint (many). */
  async listen(target: Transport | Endpoint): Promise<void> {
    if ("listen" in target) {
      this.endpoints.add(target);
      await target.listen((transport) => this.connect(transport));
    } else this.connect(target);
  }

  async close(): Promise<void> {
    this.subscriptions.close();
    // Each open subscriptions/listen stream now ends with its result, which reaches the transport
    // a few microtasks later (dispatcher, then peer): let those go out before the connections close.
    await new Promise((resolve) => setImmediate(resolve));
    await Promise.all([...this.endpoints].map((endpoint) => endpoint.close()));
    await Promise.all([...this.sessions].map((session) => session.close()));
  }

  /** Declared from what is registered; list changes are always announced. */
  capabilities(): Record<string, unknown> {
    const capabilities: Record<string, unknown> = { logging: {} };
    if (this.tools.size > 0) capabilities.tools = { listChanged: true };
    if (this.resources.size > 0) capabilities.resources = { subscribe: true, listChanged: true };
    if (this.prompts.size > 0) capabilities.prompts = { listChanged: true };
    if (this.prompts.hasCompleters || this.resources.hasCompleters) capabilities.completions = {};
    return capabilities;
  }

  private registry(kind: ListKind): { size: number } {
    return kind === "tools" ? this.tools : kind === "prompts" ? this.prompts : this.resources;
  }

  private changed(kind: ListKind): this {
    if (this.sessions.size > 0) this.subscriptions.listChanged(kind);
    return this;
  }

  private handlers(): ReadonlyMap<string, Handler> {
    // Looked up per request, so registrations after `listen` are served too.
    const offering =
      <P, R>(kind: ListKind, handler: (params: P, context: RequestContext) => R) =>
      (params: P, context: RequestContext): R => {
        if (this.registry(kind).size === 0) throw new RpcError(ErrorCode.MethodNotFound, `Method not found: this server offers no ${kind}`);
        return handler(params, context);
      };
    const page = <K extends string, T>(list: string, items: readonly T[], key: K, cursor: unknown) => {
      const { items: slice, nextCursor } = this.paginator.page(list, items, cursor);
      return (nextCursor === undefined ? { [key]: slice } : { [key]: slice, nextCursor }) as Record<K, T[]> & { nextCursor?: string };
    };
    const subscriptions = this.subscriptions;
    const handlers: RuntimeHandlers = {
      "server/discover": () => this.discover(),
      // Session era, after initialize (the session answers the ping before it itself).
      ping: () => ({}),
      "logging/setLevel": (params, context) => ((context.session.logLevel = params.level), {}),
      "tools/list": offering("tools", (params) => page("tools", this.tools.list(), "tools", params.cursor)),
      "tools/call": offering("tools", (params, context) => this.tools.call(fields(params), context)),
      "resources/list": offering("resources", (params) => page("resources", this.resources.list(), "resources", params.cursor)),
      "resources/templates/list": offering("resources", (params) =>
        page("templates", this.resources.listTemplates(), "resourceTemplates", params.cursor),
      ),
      "resources/read": offering("resources", (params, context) => this.resources.read(params.uri, context)),
      "resources/subscribe": offering("resources", (params, context) => subscriptions.subscribe(fields(params), context)),
      "resources/unsubscribe": offering("resources", (params, context) => subscriptions.unsubscribe(fields(params), context)),
      "subscriptions/listen": (params, context) => subscriptions.listen(fields(params), context),
      "prompts/list": offering("prompts", (params) => page("prompts", this.prompts.list(), "prompts", params.cursor)),
      "prompts/get": offering("prompts", (params, context) => this.prompts.render(fields(params), context)),
      "completion/complete": (params, context) => {
        if (!("completions" in this.capabilities())) throw new RpcError(ErrorCode.MethodNotFound, "Method not found: this server offers no completions");
        return complete(fields(params), context, {
          prompt: (name) => this.prompts.get(name),
          template: (uriTemplate) => this.resources.template(uriTemplate),
        });
      },
    };
    return handlerTable(handlers);
  }

  private discover(): ReturnType<RuntimeHandlers["server/discover"]> {
    const result = { supportedVersions: [...this.revisions].reverse(), capabilities: this.capabilities() };
    return this.core.instructions === undefined ? result : { ...result, instructions: this.core.instructions };
  }
}
