import type { Handler } from "../dispatch/context.js";
import type { RouteOptions } from "../dispatch/router.js";
import { ErrorCode, RpcError } from "../jsonrpc/errors.js";
import { ALL_REVISIONS, isRevision, type Revision } from "../session/revisions.js";
import { ServerSession, type ServerCore } from "../session/server-session.js";
import type { Transport } from "../transports/transport.js";
import { stderrLogger, type Logger } from "../util/logger.js";
import { SchemaCompiler } from "./json-schema.js";
import { PromptRegistry, type PromptDefinition, type PromptHandler } from "./prompts.js";
import {
  ResourceRegistry,
  type ResourceDefinition,
  type ResourceHandler,
  type ResourceTemplateDefinition,
  type ResourceTemplateHandler,
} from "./resources.js";
import { ToolRegistry, type ToolDefinition, type ToolHandler } from "./tools.js";
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
  /** Stateless era: caching hints for list, read and discover results (default: 0 ms, private). */
  readonly cache?: { readonly ttlMs?: number; readonly scope?: "public" | "private" };
  /** Where the runtime reports what it cannot answer (default: stderr). */
  readonly logger?: Logger;
}

/** Something that accepts connections (Streamable HTTP) rather than being one. */
export interface Endpoint {
  listen(accept: (transport: Transport) => ServerSession): Promise<void>;
  close(): Promise<void>;
}

export function createServer(options: ServerOptions): McpServer {
  return new McpServer(options);
}

/**
 * An MCP server, written once for every revision: register tools, resources and prompts, then
 * `listen` on a transport. Each connection gets a {@link ServerSession}, which serves it in
 * whichever era the client speaks.
 */
export class McpServer {
  readonly revisions: readonly Revision[];
  private readonly logger: Logger;
  private readonly tools: ToolRegistry;
  private readonly resources = new ResourceRegistry();
  private readonly prompts = new PromptRegistry();
  private readonly sessions = new Set<ServerSession>();
  private readonly endpoints = new Set<Endpoint>();
  private readonly core: ServerCore;

  constructor(private readonly options: ServerOptions) {
    this.logger = options.logger ?? stderrLogger;
    this.tools = new ToolRegistry(new SchemaCompiler(this.logger));
    const requested = options.revisions ?? ALL_REVISIONS;
    for (const revision of requested)
      if (!isRevision(revision)) throw new Error(`unknown MCP revision ${revision} (generated: ${ALL_REVISIONS.join(", ")})`);
    this.revisions = ALL_REVISIONS.filter((r) => requested.includes(r));
    if (this.revisions.length === 0) throw new Error("a server needs at least one revision");

    const info = { ...options.info, name: options.name, version: options.version };
    const route: RouteOptions = {
      validateResults: options.validateResults ?? true,
      serverInfo: info,
      cache: { ttlMs: options.cache?.ttlMs ?? 0, scope: options.cache?.scope ?? "private" },
    };
    this.core = {
      info,
      instructions: options.instructions,
      revisions: this.revisions,
      handlers: this.handlers(),
      capabilities: () => this.capabilities(),
      route,
      logger: this.logger,
      closed: (session) => this.sessions.delete(session),
    };
  }

  /** Declares a tool. `args` arrive validated against `inputSchema`. */
  tool<Args = Record<string, unknown>>(definition: ToolDefinition, handler: ToolHandler<Args>): this {
    this.tools.register(definition, handler);
    return this;
  }

  resource(definition: ResourceDefinition, handler: ResourceHandler): this {
    this.resources.register(definition, handler);
    return this;
  }

  resourceTemplate(definition: ResourceTemplateDefinition, handler: ResourceTemplateHandler): this {
    this.resources.registerTemplate(definition, handler);
    return this;
  }

  prompt<Args = Record<string, string>>(definition: PromptDefinition, handler: PromptHandler<Args>): this {
    this.prompts.register(definition, handler);
    return this;
  }

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
    await Promise.all([...this.endpoints].map((endpoint) => endpoint.close()));
    await Promise.all([...this.sessions].map((session) => session.close()));
  }

  /** Declared from what is registered. */
  capabilities(): Record<string, unknown> {
    const capabilities: Record<string, unknown> = {};
    if (this.tools.size > 0) capabilities.tools = {};
    if (this.resources.size > 0) capabilities.resources = {};
    if (this.prompts.size > 0) capabilities.prompts = {};
    return capabilities;
  }

  private handlers(): ReadonlyMap<string, Handler> {
    // Looked up per request, so registrations after `listen` are served too.
    const whenAny = (registry: { size: number }, handler: Handler): Handler => (params, context) => {
      if (registry.size === 0) throw methodNotImplemented(context.method);
      return handler(params, context);
    };
    return new Map<string, Handler>([
      ["tools/list", whenAny(this.tools, () => ({ tools: this.tools.list() }))],
      ["tools/call", whenAny(this.tools, (params, context) => this.tools.call(params, context))],
      ["resources/list", whenAny(this.resources, () => ({ resources: this.resources.list() }))],
      ["resources/templates/list", whenAny(this.resources, () => ({ resourceTemplates: this.resources.listTemplates() }))],
      ["resources/read", whenAny(this.resources, (params, context) => this.resources.read(params.uri as string, context))],
      ["prompts/list", whenAny(this.prompts, () => ({ prompts: this.prompts.list() }))],
      ["prompts/get", whenAny(this.prompts, (params, context) => this.prompts.render(params, context))],
    ]);
  }
}

function methodNotImplemented(method: string): RpcError {
  return new RpcError(ErrorCode.MethodNotFound, `Method not found: this server offers no ${method.split("/")[0]}`);
}
