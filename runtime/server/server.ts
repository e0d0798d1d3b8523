import { LOG_LEVELS, type Handler, type LogLevelName, type RequestContext } from "../dispatch/context.js";
import { createDispatcher, type ExtensionMethod } from "../dispatch/router.js";
import type { ExtensionModule, RevisionTypes } from "../contract.js";
import { InputRequiredCodec, type InputRequiredOptions } from "../session/input-required.js";
import {
  ALL_REVISIONS,
  definedByAnyRevision,
  eraOf,
  featuresOf,
  hasCoreTasks,
  isRevision,
  revisionModule,
  revisionName,
  startRevision,
  type Revision,
  type RevisionRef,
} from "../session/revisions.js";
import { checkServerNotification } from "../session/validate.js";
import { ServerSession, type ServerCore } from "../session/server-session.js";
import { CoreTasks } from "../extensions/tasks/core-tasks.js";
import { TASKS_EXTENSION } from "../extensions/tasks/protocol.js";
import { TaskManager, type TasksOptions } from "../extensions/tasks/task-manager.js";
import { loadTasksExtension, tasksExtensionMethods } from "../extensions/tasks/tasks-extension.js";
import type { Transport } from "../jsonrpc/transport.js";
import type { Endpoint } from "../transports/endpoint.js";
import { stderrLogger, type Logger } from "../util/logger.js";
import type { Hook } from "../shared/hooks.js";
import { installedHooks } from "../telemetry/traffic-log.js";
import { Sealer, type Secret } from "../util/sealed.js";
import type { Completers } from "./completion.js";
import { loadExtension, type LoadedExtension } from "../session/extensions.js";
import { extensionMethod, generatedMethod, type MethodSchemas } from "./extensions.js";
import { SchemaCompiler, type CompiledToolValidators, type SchemaEngine } from "../shared/json-schema.js";
import { runtimeMethods, type MethodsHost } from "./methods.js";
import { Paginator } from "./pagination.js";
import { PromptRegistry, type PromptArguments, type PromptDefinition, type PromptHandler } from "./prompts.js";
import {
  ResourceRegistry,
  type ResourceDefinition,
  type ResourceHandler,
  type ResourceLister,
  type ResourceTemplateDefinition,
  type ResourceTemplateHandler,
} from "./resources.js";
import type { TemplateVariables } from "../shared/uri-template.js";
import type { ServedContext, ServedMethod, ServedNotifyArgs, ServedParams, ServedResult, ServedTypes } from "./served.js";
import { SkillCatalog, type SkillFiles, type SkillOptions } from "../extensions/skills/server.js";
import { Subscriptions, type ListKind } from "./subscriptions.js";
import type { ToolArguments } from "./schema-types.js";
import { ToolRegistry, type ToolDefinition, type ToolHandler, type ToolResult, type ToolSchema } from "./tools.js";
import type { InferOutput, StandardSchemaV1 } from "../shared/standard-schema.js";
import type { Implementation } from "../shared/types.js";

export interface ServerOptions<
  Revisions extends readonly RevisionRef[] = readonly RevisionRef[],
  Extensions extends readonly ExtensionModule[] = readonly ExtensionModule[],
> {
  readonly name: string;
  readonly version: string;
  /** More of the server's identity (title, description, icons, websiteUrl). */
  readonly info?: Omit<Implementation, "name" | "version">;
  /**
   * The revisions this server speaks, by name (pinned with the runtime) or as modules generated
   * into one's own project (`mcp-codegen generate --out`). Handlers are typed by them. Default:
   * every pinned revision, both eras.
   */
  readonly revisions?: Revisions;
  /**
   * Extensions to serve (SEP-2133), as modules generated from their schemas (generated/extensions/,
   * or `mcp-codegen generate --extension`), each declared with empty settings; `useExtension`
   * declares one with settings. Their methods' handlers are typed by them (`server.handle`).
   */
  readonly extensions?: Extensions;
  /** Natural-language guidance for the client's model. */
  readonly instructions?: string;
  /** Check every result against the revision's schema before sending it (default true). */
  readonly validateResults?: boolean;
  /**
   * The key of every token this server seals and reads back (pagination cursors, requestState):
   * one, or several for rotation (sealed with the first, accepted from any). Default: random per
   * process, so tokens die with it. Instances behind one load balancer must share it.
   */
  readonly secret?: Secret;
  /** Items per page of tools/list, prompts/list, resources/list and resources/templates/list (default 100). */
  readonly pageSize?: number;
  /** Stateless era: caching hints for list, read and discover results (default: 0 ms, private). */
  readonly cache?: { readonly ttlMs?: number; readonly scope?: "public" | "private" };
  /** Stateless era: how long a requestState lives. */
  readonly inputRequired?: InputRequiredOptions;
  /** Timeout of the requests handlers send the client: elicitation, sampling, roots (default 5 minutes). */
  readonly clientRequestTimeoutMs?: number;
  /**
   * How many requests of one connection (a stdio client, an HTTP session) run at once (default
   * 1024): one more is answered -32603 at once, without calling its handler. A cancelled request
   * counts until its handler returns. Stateless HTTP requests are each a connection of their own.
   */
  readonly maxConcurrentRequests?: number;
  /** A client notification the runtime does not consume itself, e.g. notifications/roots/list_changed. */
  readonly onNotification?: (method: string, params: Record<string, unknown>, session: ServerSession) => void;
  /** Where the runtime reports what it cannot answer (default: stderr). */
  readonly logger?: Logger;
  /**
   * Interceptors around every request and notification this server receives and sends, the first
   * outermost (shared/hooks.ts): to time, trace (`otel()` from @mcp-codegen/runtime/otel), audit,
   * refuse or answer from a cache. None by default, at no cost.
   */
  readonly hooks?: readonly Hook[];
  /**
   * One line per request and notification through `logger` at "info" (direction, method, id,
   * target, duration, outcome; never params, headers or tokens): default on when MCP_DEBUG is set.
   */
  readonly logTraffic?: boolean;
  /**
   * Whether a request may see a tool, prompt or resource in lists (default: all), e.g.
   * `(kind, name, ctx) => auth.allows(ctx.auth, kind, name)` with runtime/auth's bearerAuth.
   */
  readonly visible?: (kind: "tools" | "prompts" | "resources", name: string, context: RequestContext) => boolean;
  /**
   * Tasks (`ctx.task` in a tool that declares `execution.taskSupport`): where they are kept, how
   * long, and how often clients should poll. Served as the io.modelcontextprotocol/tasks extension
   * (2026-07-28) and as 2025-11-25's experimental tasks.
   */
  readonly tasks?: TasksOptions;
  /** How tool schemas are checked: "auto" and "interpreter" (default: our compiler, every platform), or "ajv" (opt-in; needs ajv installed). */
  readonly toolSchemaEngine?: SchemaEngine;
  /**
   * `format` in tool schemas: "annotation" (default, as JSON Schema 2020-12 says) or "assert"
   * (email, date, date-time, time, uuid, uri, ipv4, ipv6, hostname, byte, uri-template are
   * checked; docs/validators.md, "Formats"). `generate --tools --assert-formats` is the same at build time.
   */
  readonly toolSchemaFormats?: "annotation" | "assert";
  /** Documents tool schemas may `$ref` by URI (`{ "https://example.com/defs.json": {...} }`); nothing is ever fetched. */
  readonly toolSchemaRemotes?: Readonly<Record<string, unknown>>;
  /**
   * Tool validators compiled at build time (`mcp-codegen generate --tools mcp.server.json --out
   * <dir>`, its `toolValidators`): a tool registered with the very schema they were compiled from
   * is checked by them, with no engine and no code generation at run time; any other falls back
   * to `toolSchemaEngine`.
   */
  readonly toolValidators?: CompiledToolValidators;
  /**
   * Fill the `default`s of a tool's JSON Schema inputSchema into the arguments a client left out,
   * before they are checked (default false: JSON Schema makes `default` an annotation, so the
   * handler sees what the client sent). Properties only, descending into objects that are
   * present, as ajv's useDefaults (runtime/shared/schema-defaults.ts). A Standard Schema applies
   * its own defaults (zod's `.default()`) always.
   */
  readonly applyDefaults?: boolean;
}

/** A server-wide notification, as it travels between instances. */
type Announcement =
  | { readonly kind: "list_changed"; readonly list: ListKind }
  | { readonly kind: "resources/updated"; readonly uri: string }
  | { readonly kind: "log"; readonly level: LogLevelName; readonly data: unknown; readonly logger?: string }
  | { readonly kind: "notification"; readonly method: string; readonly params?: Record<string, unknown> };

export interface PromptOptions {
  /** Suggests values for arguments, by argument name (completion/complete). */
  readonly complete?: Completers;
}

export interface ResourceTemplateOptions {
  /** Suggests values for template variables, by variable name (completion/complete). */
  readonly complete?: Completers;
  /** The template's resources now: resources/list shows them after the static ones, paged with them. */
  readonly list?: ResourceLister;
}

/** Something that accepts connections (Streamable HTTP) rather than being one: transports/endpoint.ts. */
export type { Endpoint };

export function createServer<const Revisions extends readonly RevisionRef[] = readonly Revision[], const Extensions extends readonly ExtensionModule[] = []>(
  options: ServerOptions<Revisions, Extensions>,
): McpServer<ServedTypes<Revisions[number]> | ExtensionTypes<Extensions[number]>> {
  return new McpServer(options);
}

/** The method maps of an extension module. */
export type ExtensionTypes<E> = E extends ExtensionModule<infer T> ? T : never;

/** A handler for `server.handle`: the params of any served revision with the method, a result valid in all of them. */
export type MethodHandler<Types extends RevisionTypes, M extends string> = (
  params: ServedParams<Types, M>,
  context: ServedContext<Types>,
) => ServedResult<Types, M> | Promise<ServedResult<Types, M>>;

/**
 * An MCP server, written once for every revision: register tools, resources and prompts, then
 * `listen` on a transport. Each connection gets a {@link ServerSession}, which serves it in
 * whichever era the client speaks, through the same handlers.
 */
// `McpServer` with no argument is a server of any revisions, which code that only connects or
// closes servers can take whatever a server serves; createServer gives each its precise type.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export class McpServer<Types extends RevisionTypes = any> {
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
  private readonly schemas: SchemaCompiler;
  /** Built-in handlers, then what `handle` adds. */
  private readonly table: Map<string, Handler>;
  private readonly extensions = new Map<string, ExtensionMethod>();
  /** The extensions served (`useExtension`), by identifier, with the settings declared for each. */
  private readonly served = new Map<string, { readonly extension: LoadedExtension; readonly settings: Record<string, unknown> }>();
  private readonly tasks: TaskManager;
  private readonly coreTasks: CoreTasks;

  constructor(options: ServerOptions) {
    this.logger = options.logger ?? stderrLogger;
    this.schemas = new SchemaCompiler(this.logger, options.toolSchemaEngine, {
      ...(options.toolSchemaFormats && { formats: options.toolSchemaFormats }),
      ...(options.toolSchemaRemotes && { remotes: options.toolSchemaRemotes }),
    });
    this.tools = new ToolRegistry(this.schemas, this.logger, options.toolValidators, options.applyDefaults);
    const sealer = new Sealer(options.secret);
    this.paginator = new Paginator(options.pageSize ?? 100, sealer);
    const requested = (options.revisions ?? ALL_REVISIONS).map(revisionName);
    for (const revision of requested)
      if (!isRevision(revision)) throw new Error(`unknown MCP revision ${revision} (pinned: ${ALL_REVISIONS.join(", ")}; pass a generated module to serve another)`);
    // Protocol versions are dates: sorting them as text puts them oldest first.
    this.revisions = [...new Set(requested)].sort();
    if (this.revisions.length === 0) throw new Error("a server needs at least one revision");
    this.tasks = new TaskManager(options.tasks ?? {}, this.logger, loadTasksExtension, (task, origin) => this.coreTasks.observe(task, origin));
    this.coreTasks = new CoreTasks(this.tasks, this.logger);
    for (const [method, served] of tasksExtensionMethods(this.tasks)) this.extensions.set(method, served);
    this.subscriptions = new Subscriptions(() => this.sessions, (kind) => this.registry(kind).offered, this.logger, this.tasks);

    const info = { ...options.info, name: options.name, version: options.version };
    this.core = {
      info,
      instructions: options.instructions,
      revisions: this.revisions,
      capabilities: (revision) => this.capabilities(revision),
      dispatch: createDispatcher((this.table = new Map(runtimeMethods(this.methodsHost(options)))), {
        validateResults: options.validateResults ?? true,
        serverInfo: info,
        cache: { ttlMs: options.cache?.ttlMs ?? 0, scope: options.cache?.scope ?? "private" },
        input: new InputRequiredCodec(sealer, options.inputRequired),
        clientRequestTimeoutMs: options.clientRequestTimeoutMs ?? 5 * 60_000,
        logger: this.logger,
        extensions: this.extensions,
        tasks: this.tasks,
      }),
      notification: options.onNotification,
      closed: (session) => this.sessions.delete(session),
      logger: this.logger,
      maxConcurrentRequests: options.maxConcurrentRequests,
      hooks: installedHooks(options.hooks, options.logTraffic, options.logger),
    };
    for (const module of options.extensions ?? []) this.useExtension(module);
  }

  /**
   * Serves an extension (SEP-2133) from its generated module: declares it under
   * `capabilities.extensions[id]` with `settings` (initialize in the session era, server/discover
   * in 2026-07-28), and serves its methods with the handlers `handle` registers, each request and
   * result checked by the module's generated validators (also those `handle` took before).
   */
  useExtension<E extends RevisionTypes>(module: ExtensionModule<E>, settings: Record<string, unknown> = {}): McpServer<Types | E> {
    const extension = loadExtension(module);
    const known = this.served.get(extension.id);
    if (known && known.extension.module !== module) throw new Error(`the extension ${extension.id} is already served by another module`);
    this.served.set(extension.id, { extension, settings });
    // A handler `handle` took before the extension was known is the extension's now, checked by its module.
    for (const method of this.userMethods) {
      const handler = this.table.get(method);
      if (handler && this.extensionOf(method) === extension) {
        this.table.delete(method);
        this.extensions.set(method, generatedMethod(extension, method, handler));
      }
    }
    return this as McpServer<Types | E>;
  }

  // -- registration ---------------------------------------------------------------------------------

  /**
   * Declares a tool. `args` arrive validated against `inputSchema`: a JSON Schema, typed from it
   * when it is written inline or `as const` (runtime/server/schema-types.ts), or a Standard Schema
   * (zod 4, valibot, arktype...), whose library validates them and whose output type (defaults
   * and transforms applied) they have. With an `outputSchema`, the result's structuredContent is
   * typed from that. Or give the type: `tool<MyArgs>(...)`. The result must be valid in every
   * served revision (runtime/server/served.ts).
   */
  // One signature, not overloads: a handler that does not fit is reported at the handler (its
  // return, naming the field), not as "no overload matches" at the call. `Args` only when given:
  // NoInfer keeps a handler's own parameter type from choosing it, so the schema's type holds.
  tool<Args = never, const Input extends ToolSchema = ToolSchema, const Output extends ToolSchema | undefined = undefined>(
    // Omit, not an intersection: `ToolSchema & Input` is too deep for tsc with arktype's types.
    definition: Omit<ToolDefinition, "inputSchema" | "outputSchema"> & { readonly inputSchema: Input; readonly outputSchema?: Output | ToolSchema },
    handler: ToolHandler<
      [NoInfer<Args>] extends [never] ? ([Input] extends [StandardSchemaV1] ? InferOutput<Input> : ToolArguments<Input>) : NoInfer<Args>,
      ToolResult<[Output] extends [never] ? undefined : Output, ServedResult<Types, "tools/call">>,
      ServedContext<Types>
    >,
  ): this;
  tool(definition: ToolDefinition, handler: ToolHandler<never, unknown, never>): this {
    this.tools.register(definition, handler as ToolHandler<never, unknown>);
    return this.changed("tools");
  }

  /** Serves a resource at an exact URI: `handler` answers resources/read for it. */
  resource(definition: ResourceDefinition, handler: ResourceHandler): this {
    this.resources.register(definition, handler);
    return this.changed("resources");
  }

  /**
   * Serves the resources an RFC 6570 URI template matches, tried in registration order after the
   * exact URIs; `options.complete` completes its variables.
   */
  resourceTemplate<const Definition extends ResourceTemplateDefinition>(
    definition: Definition,
    handler: ResourceTemplateHandler<TemplateVariables<Definition["uriTemplate"]>>,
    options: ResourceTemplateOptions = {},
  ): this {
    this.resources.registerTemplate(definition, handler as ResourceTemplateHandler, options.complete, options.list);
    return this.changed("resources");
  }

  /**
   * Serves a prompt: `handler` answers prompts/get with its arguments; a missing required argument
   * is refused with -32602. `options.complete` completes the arguments.
   */
  prompt<Args = never, const Definition extends PromptDefinition = PromptDefinition>(
    definition: Definition,
    handler: PromptHandler<[Args] extends [never] ? PromptArguments<Definition> : Args>,
    options: PromptOptions = {},
  ): this {
    this.prompts.register(definition, handler, options.complete);
    return this.changed("prompts");
  }

  /**
   * Serves a request method of the served revisions that the server API does not cover (a
   * method a new revision adds, say), typed by their method maps: params are validated against
   * the request's revision before the handler runs, and the result after. A method of an
   * extension served with `useExtension` is typed and checked by its generated module; any other
   * method no served revision defines needs the JSON Schemas of its params and result.
   */
  handle<M extends ServedMethod<Types>>(method: M, handler: MethodHandler<Types, M>): this;
  handle(method: string, handler: (params: Record<string, unknown>, context: RequestContext) => unknown, schemas: MethodSchemas): this;
  handle(method: string, handler: (params: never, context: never) => unknown, schemas?: MethodSchemas): this {
    const extension = schemas ? undefined : this.extensionOf(method);
    // A served extension's method replaces the runtime's own answer where it gives one (the tasks
    // extension's tasks/*, runtime/extensions/tasks). Core tasks/* (a revision whose schema has
    // them) are the runtime's only where such a revision is served.
    const runtimeOwn = this.table.has(method) && !(method.startsWith("tasks/") && !this.revisions.some((r) => featuresOf(r).coreTasks));
    if (runtimeOwn && !this.userMethods.has(method) && !extension)
      throw new Error(`${method} is served by the runtime itself; use the server API (tool, resource, prompt...) to shape its answers`);
    this.userMethods.add(method);
    const served = handler as Handler;
    if (extension) this.extensions.set(method, generatedMethod(extension, method, served));
    else if (schemas) this.extensions.set(method, extensionMethod(method, served, schemas, this.schemas));
    else this.table.set(method, served);
    return this;
  }
  private readonly userMethods = new Set<string>();

  /**
   * Declares an extension (SEP-2133) under `capabilities.extensions`, with its settings (`{}`
   * for none). Its methods are served with `handle`.
   */
  extension(id: string, settings: Record<string, unknown> = {}): this {
    this.declaredExtensions.set(id, settings);
    return this;
  }
  private readonly declaredExtensions = new Map<string, Record<string, unknown>>();

  /**
   * Serves a skill (SEP-2640, the io.modelcontextprotocol/skills extension) at
   * `skill://<path>/`: `files` by path relative to the skill's root, SKILL.md among them, whose
   * frontmatter `name` is the path's last segment. Each file becomes a resource; skills/list,
   * skills/get and resources/directory/read answer for them (runtime/extensions/skills/server.ts).
   */
  skill(path: string, files: SkillFiles, options?: SkillOptions): this {
    (this.skills ??= new SkillCatalog(this, this.paginator)).add(path, files, options);
    return this;
  }
  private skills?: SkillCatalog;

  /** The served extension whose client requests include `method`. */
  private extensionOf(method: string): LoadedExtension | undefined {
    for (const { extension } of this.served.values()) {
      const descriptor = extension.methods.get(method);
      if (descriptor?.kind === "request" && descriptor.senders.includes("client")) return extension;
    }
    return undefined;
  }

  /** Removes a tool; true when there was one. Sessions told `listChanged` are notified. */
  removeTool(name: string): boolean {
    return this.tools.remove(name) && !!this.changed("tools");
  }

  /** Removes a resource by URI, or a resource template by its uriTemplate. */
  removeResource(uriOrTemplate: string): boolean {
    return this.resources.remove(uriOrTemplate) && !!this.changed("resources");
  }

  /** Removes a prompt; true when there was one. Sessions told `listChanged` are notified. */
  removePrompt(name: string): boolean {
    return this.prompts.remove(name) && !!this.changed("prompts");
  }

  // -- telling clients ----------------------------------------------------------------------------------

  /** notifications/tools/list_changed to every session, and to stateless listeners that asked. Registration calls it for you. */
  // These four reach the clients of every instance when the endpoint shares a bus (many instances).
  notifyToolsChanged(): void {
    this.announce({ kind: "list_changed", list: "tools" });
  }

  /**
   * Sends notifications/prompts/list_changed to every session told `listChanged`, and to stateless
   * listen streams that asked.
   */
  notifyPromptsChanged(): void {
    this.announce({ kind: "list_changed", list: "prompts" });
  }

  /**
   * Sends notifications/resources/list_changed to every session told `listChanged`, and to
   * stateless listen streams that asked.
   */
  notifyResourcesChanged(): void {
    this.announce({ kind: "list_changed", list: "resources" });
  }

  /** notifications/resources/updated, only to the sessions and listeners subscribed to `uri`. */
  notifyResourceUpdated(uri: string): void {
    this.announce({ kind: "resources/updated", uri });
  }

  /** A log message to every session-era client whose level admits it (stateless clients get logs only on their requests). */
  log(level: LogLevelName, data: unknown, logger?: string): void {
    this.announce(logger === undefined ? { kind: "log", level, data } : { kind: "log", level, data, logger });
  }

  /**
   * A notification of any method to every session-era client (on every instance, when an
   * endpoint shares a bus): one the served revisions define, with their params, goes to the
   * sessions whose revision defines it, checked against it (a wrong one throws here, naming the
   * method and the field); a vendor's own method (`notifications/acme/...`) goes to all, as given.
   * Stateless clients get notifications only on their requests (`ctx.notify`) and on
   * subscriptions/listen streams. For logs use `log`, which honours each session's level.
   */
  notify<M extends string>(method: M, ...params: ServedNotifyArgs<Types, M>): void;
  notify(method: string, params?: Record<string, unknown>): void {
    // Checked here, against each served revision that defines it, so a wrong call fails at the caller.
    for (const revision of this.revisions) {
      const module = revisionModule(revision);
      if (module && module.era === "session") checkServerNotification(module, method, params);
    }
    this.announce(params === undefined ? { kind: "notification", method } : { kind: "notification", method, params });
  }

  /** To every instance when an endpoint shares a bus (each delivers it to its own clients), else to this one's. */
  private announce(event: Announcement): void {
    for (const endpoint of this.endpoints) if (endpoint.announce?.(event)) return;
    this.announced(event);
  }

  private readonly announced = (event: Announcement): void => {
    if (event.kind === "list_changed") this.subscriptions.listChanged(event.list);
    else if (event.kind === "resources/updated") this.subscriptions.resourceUpdated(event.uri);
    else if (event.kind === "notification") this.notifyLocally(event.method, event.params);
    else this.logLocally(event.level, event.data, event.logger);
  };

  private notifyLocally(method: string, params: Record<string, unknown> | undefined): void {
    const definedAnywhere = definedByAnyRevision(method);
    for (const session of this.sessions) {
      const module = session.revision === undefined ? undefined : revisionModule(session.revision);
      if (!module || module.era !== "session" || session.closed) continue;
      // A method some revision defines reaches only the clients whose revision has it.
      let defined: boolean;
      try {
        defined = checkServerNotification(module, method, params);
      } catch (error) {
        // Announced by another instance, whose revisions were not these.
        this.logger("warn", `${method} not sent to a ${module.revision} session: ${(error as Error).message}`);
        continue;
      }
      if (!defined && definedAnywhere) continue;
      session.notify(method, params, { everySession: true }).catch((error: Error) => this.logger("debug", `${method} not delivered: ${error.message}`));
    }
  }

  private logLocally(level: LogLevelName, data: unknown, logger?: string): void {
    for (const session of this.sessions) {
      if (session.revision === undefined || session.closed) continue;
      if (session.logLevel !== undefined && LOG_LEVELS.indexOf(level) < LOG_LEVELS.indexOf(session.logLevel as LogLevelName)) continue;
      session
        .notify("notifications/message", logger === undefined ? { level, data } : { level, data, logger }, { everySession: true })
        .catch((error: Error) => this.logger("debug", `log message not delivered: ${error.message}`));
    }
  }

  // -- connections ------------------------------------------------------------------------------------

  /** Serves one connection. */
  connect(transport: Transport): ServerSession {
    if (!this.prefetched) this.prefetch();
    const session = new ServerSession(transport, this.core);
    this.sessions.add(session);
    return session;
  }

  private prefetched = false;

  /**
   * The revision a client asking for our latest is answered with (the latest session-era one
   * served, else the latest) starts loading with the first connection, not when its initialize
   * arrives: its files are read while the process is still starting (a stdio server's first answer
   * came 0.6 ms sooner on a quiet machine, 6 ms on a loaded one; docs/decisions.md, "Start-up"). A
   * failure is the first request's to report.
   */
  private prefetch(): void {
    this.prefetched = true;
    const revision = [...this.revisions].reverse().find((r) => eraOf(r) === "session") ?? this.revisions[this.revisions.length - 1]!;
    const started = startRevision(revision);
    if (started instanceof Promise) started.catch(() => {});
  }

  /** Serves a transport (one connection) or an endpoint (many). */
  async listen(target: Transport | Endpoint): Promise<void> {
    if ("listen" in target) {
      this.endpoints.add(target);
      await target.listen({
        accept: (transport) => this.connect(transport),
        eraOf: (version) => (isRevision(version) ? eraOf(version) : undefined),
        announced: this.announced as (event: unknown) => void,
      });
    } else this.connect(target);
  }

  /** Stops serving: ends the listen streams, closes every endpoint `listen` started and every session. */
  async close(): Promise<void> {
    this.subscriptions.close();
    // Each open subscriptions/listen stream now ends with its result, which reaches the transport
    // a few microtasks later (dispatcher, then peer): let those go out before the connections close.
    await new Promise((resolve) => setImmediate(resolve));
    await Promise.all([...this.endpoints].map((endpoint) => endpoint.close()));
    await Promise.all([...this.sessions].map((session) => session.close()));
  }

  /**
   * Declared from what is registered; list changes are always announced. Tasks, when a tool
   * declares `execution.taskSupport`: 2025-11-25's `tasks` capability, or the tasks extension from
   * 2026-07-28 on (`revision` says which; without it, as of the latest served revision).
   */
  capabilities(revision: Revision = this.revisions[this.revisions.length - 1]!): Record<string, unknown> {
    const capabilities: Record<string, unknown> = { logging: {} };
    if (this.tools.hasTaskTools) {
      if (eraOf(revision) === "stateless") capabilities.extensions = { [TASKS_EXTENSION]: {} };
      else if (hasCoreTasks(revision)) capabilities.tasks = { list: {}, cancel: {}, requests: { tools: { call: {} } } };
    }
    if (this.tools.offered) capabilities.tools = { listChanged: true };
    if (this.resources.offered) capabilities.resources = { subscribe: true, listChanged: true };
    if (this.prompts.offered) capabilities.prompts = { listChanged: true };
    if (this.prompts.hasCompleters || this.resources.hasCompleters) capabilities.completions = {};
    const extensions = {
      ...(capabilities.extensions as Record<string, unknown> | undefined),
      ...Object.fromEntries(this.declaredExtensions),
      ...Object.fromEntries([...this.served].map(([id, { settings }]) => [id, settings])),
    };
    if (Object.keys(extensions).length > 0) capabilities.extensions = extensions;
    return capabilities;
  }

  private registry(kind: ListKind): { readonly offered: boolean } {
    return kind === "tools" ? this.tools : kind === "prompts" ? this.prompts : this.resources;
  }

  /** What the runtime's own methods (methods.ts) read of this server. */
  private methodsHost(options: ServerOptions): MethodsHost {
    const { tools, resources, prompts, subscriptions, coreTasks, paginator, revisions } = this;
    return { revisions, instructions: options.instructions, tools, resources, prompts, subscriptions, coreTasks, paginator, visible: options.visible, capabilities: (revision) => this.capabilities(revision) };
  }

  private changed(kind: ListKind): this {
    if (this.sessions.size > 0) this.subscriptions.listChanged(kind);
    return this;
  }
}
