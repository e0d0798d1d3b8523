import { ErrorCode, RpcError } from "../jsonrpc/errors.js";
import type { Notification } from "../jsonrpc/messages.js";
import type { RequestOptions } from "../jsonrpc/peer.js";
import type { Transport } from "../jsonrpc/transport.js";
import type { ExtensionModule, RevisionTypes } from "../contract.js";
import { ClientSession, type ClientHandlers, type ValidationMode } from "../session/client-session.js";
import { declaredExtension, loadExtension, type LoadedExtension } from "../session/extensions.js";
import { META } from "../session/meta.js";
import { revisionName, type Era, type MethodDescriptor, type Revision, type RevisionRef } from "../session/revisions.js";
import { paramHeaders, scanHeaderAnnotations, type HeaderDeclaration } from "../shared/param-headers.js";
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
} from "../shared/types.js";
import { stderrLogger, type Logger } from "../util/logger.js";
import { shallowCopy } from "../util/shallow-copy.js";
import type { Hook } from "../shared/hooks.js";
import { installedHooks } from "../telemetry/traffic-log.js";
import { ResponseCache, type CacheOptions } from "./cache.js";
import { createdTask, followTask, type FollowOptions, type TaskChannel } from "../extensions/tasks/client.js";
import { TASKS_EXTENSION } from "../extensions/tasks/protocol.js";
import { HttpStatusError } from "../transports/http/status-error.js";

export type { ClientHandlers, ValidationMode };

/**
 * What `McpClient.connect` takes: the client's name and version, the revision to speak, validation,
 * handlers for the server's requests, and listeners.
 */
export interface ClientOptions {
  readonly name: string;
  readonly version: string;
  /**
   * The revision to speak. "auto" (the default): probe 2026-07-28 with server/discover, and fall
   * back to initialize at the latest session-era revision. A session-era revision is offered at
   * initialize, and the server may answer with another one we also speak. A stateless one is sent
   * in every request's `_meta`. Either way, -32022 with `data.supported` is retried once with a
   * version from that list. A revision is a pinned one's name, or a module generated into one's
   * own project (`mcp-codegen generate --out`).
   */
  readonly revision?: RevisionRef | "auto";
  /** Declared capabilities; those of `handlers` are added where the revision defines them. */
  readonly capabilities?: Record<string, unknown>;
  /**
   * Extensions this client speaks (SEP-2133), as generated modules: each is declared under
   * `capabilities.extensions` (at initialize, or in every request's `_meta`), with the settings
   * `capabilities.extensions[id]` gives it, else `{}`; `requestExtension` calls their methods.
   */
  readonly extensions?: readonly ExtensionModule[];
  readonly handlers?: ClientHandlers;
  /**
   * Tasks (default on): 2026-07-28, declare the io.modelcontextprotocol/tasks extension in every
   * request; both eras, when a server answers with a task, follow it (polling at its interval,
   * answering its questions with `handlers`) and return the request's own result.
   */
  readonly tasks?: boolean;
  /** Default timeout of each request (default 60 s). */
  readonly requestTimeoutMs?: number;
  /**
   * How many of the server's requests (sampling, elicitation, roots) run at once (default 1024):
   * one more is answered -32603 at once, without calling its handler.
   */
  readonly maxConcurrentRequests?: number;
  /**
   * How long `connect` may take in all, era probes included (default 30 s), each probe getting its
   * share: a server that answers nothing fails fast. Raise it for a server slow to start.
   */
  readonly connectTimeoutMs?: number;
  /** Results and server-to-client requests against the revision's schema (default "strict"). */
  readonly validate?: ValidationMode;
  /**
   * Keeps list, read and discover results as long as their `ttlMs` says (2026-07-28), private ones
   * under this client's partition (default on; `false` turns it off).
   */
  readonly cache?: boolean | CacheOptions;
  /** Re-lists every page when the server says a list changed, and hands over the new list. */
  readonly onListChanged?: {
    /** The new tool list, after notifications/tools/list_changed. */
    readonly tools?: (tools: Tool[]) => void;
    /** The new prompt list, after notifications/prompts/list_changed. */
    readonly prompts?: (prompts: Prompt[]) => void;
    /** The new resource list, after notifications/resources/list_changed. */
    readonly resources?: (resources: Resource[]) => void;
  };
  readonly logger?: Logger;
  /**
   * Interceptors around every request and notification this client sends and receives, the first
   * outermost (shared/hooks.ts): to time, trace (`otel()` from @mcp-codegen/runtime/otel), audit,
   * refuse or answer from a cache. A call's cached result (`cache`) is answered before them.
   */
  readonly hooks?: readonly Hook[];
  /**
   * One line per request and notification through `logger` at "info" (direction, method, id,
   * target, duration, outcome; never params, headers or tokens): default on when MCP_DEBUG is set.
   */
  readonly logTraffic?: boolean;
}

/** Options of one request: abort signal, timeout, progress, and how a task is followed. */
export interface CallOptions extends RequestOptions, FollowOptions {
  /** 2025-11-25: task-augment this tools/call (`params.task`), with the ttl to ask for. */
  readonly task?: { readonly ttl?: number };
  /** Asks for progress notifications on this request. */
  readonly onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /** Stateless era: ask for log messages at or above this level on this request. */
  readonly logLevel?: string;
  /** Ask the server even if a fresh result is cached (the answer still refreshes the cache). */
  readonly fresh?: boolean;
  /** A method the revision does not define (an extension): the JSON Schema its result must match. */
  readonly resultSchema?: Record<string, unknown>;
}

/** Options of a list request: those of any request, and `all` to walk every page. */
export interface ListOptions extends CallOptions {
  /** Start from this page. */
  readonly cursor?: string;
  /** Walk every page and return them as one (no nextCursor). */
  readonly all?: boolean;
}

/** Called with a notification's params. */
export type NotificationListener = (params: Record<string, unknown>) => void;

/** A page of a list, with the cursor of the next one. */
export interface Page<T> {
  readonly items: T[];
  readonly nextCursor?: string;
}

/** An open subscriptions/listen stream (stateless era). */
export interface Subscription {
  /** The filter the server honoured (its acknowledgement). */
  readonly acknowledged: Promise<Record<string, unknown>>;
  /** Why the stream ended: the reason given to `close`, the server ending it, or the error that broke it. */
  readonly closed: Promise<string>;
  /** Ends the stream (HTTP: closes it; otherwise notifications/cancelled with `reason`). */
  close(reason?: string): void;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
/** Stateless era: how many times one call may come back asking for input before we give up. */
const MAX_INPUT_ROUNDS = 16;
/** `all: true` stops after this many pages: a server that never stops paginating cannot hold us. */
const MAX_PAGES = 1000;
const LIST_CHANGED: Readonly<Record<string, { readonly methods: readonly string[]; readonly list?: "tools" | "prompts" | "resources" }>> = {
  "notifications/tools/list_changed": { methods: ["tools/list"], list: "tools" },
  "notifications/prompts/list_changed": { methods: ["prompts/list"], list: "prompts" },
  "notifications/resources/list_changed": { methods: ["resources/list", "resources/templates/list"], list: "resources" },
};

/**
 * An MCP client for either era, on the same JSON-RPC peer as the server. `connect` finds the era
 * (discover, else initialize), then every result is checked against that revision's generated
 * validators; questions from the server reach `handlers` in both eras (as requests, or inside an
 * InputRequiredResult that the client answers and retries).
 */
export class McpClient {
  private readonly session: ClientSession;
  private readonly listeners = new Map<string, Set<NotificationListener>>();
  private readonly progress = new Map<string | number, NonNullable<CallOptions["onProgress"]>>();
  private readonly logger: Logger;
  private readonly cache: ResponseCache | undefined;
  /** 2026-07-28: the `x-mcp-header` declarations of each listed tool, by name. */
  private readonly toolHeaders = new Map<string, readonly HeaderDeclaration[]>();
  private nextProgressToken = 1;
  /**
   * Streamable HTTP: the 404 that lost our session, and the new session being started (shared by
   * the calls that met it); kept when that failed, so that the next call tries again first.
   */
  private lost: { readonly error: HttpStatusError; renewing?: Promise<void> } | undefined;
  /** What the session holds that a new one must be told again (session era): the resources subscribed to, the log level. */
  private readonly held: { readonly subscribed: Set<string>; logLevel?: string } = { subscribed: new Set() };

  private constructor(
    transport: Transport,
    private readonly options: ClientOptions,
  ) {
    this.logger = options.logger ?? stderrLogger;
    this.cache = options.cache === false ? undefined : new ResponseCache(options.cache === true ? {} : options.cache);
    this.session = new ClientSession(
      transport,
      {
        name: options.name,
        version: options.version,
        capabilities: options.capabilities,
        handlers: options.handlers,
        extensions: (options.extensions ?? []).map((extension) => loadExtension(extension).id),
        // 2026-07-28: the tasks extension in every request, unless tasks are off.
        statelessExtensions: options.tasks === false ? [] : [TASKS_EXTENSION],
        requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_TIMEOUT_MS,
        maxConcurrentRequests: options.maxConcurrentRequests,
        connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
        validate: options.validate ?? "strict",
        logger: this.logger,
        hooks: installedHooks(options.hooks, options.logTraffic, options.logger),
      },
      (notification) => this.deliver(notification),
    );
  }

  /**
   * Connects over `transport`: negotiates the era and the revision (`options.revision`, "auto" by
   * default) and returns a client ready for requests.
   */
  static async connect(transport: Transport, options: ClientOptions): Promise<McpClient> {
    const client = newClient(transport, options);
    try {
      await client.open(options.revision === undefined || options.revision === "auto" ? "auto" : revisionName(options.revision));
    } catch (error) {
      await client.close();
      throw error;
    }
    return client;
  }

  get revision(): Revision {
    return this.session.module.revision;
  }

  get era(): Era {
    return this.session.era;
  }

  get serverInfo(): Implementation {
    return this.session.serverInfo;
  }

  get serverCapabilities(): ServerCapabilities {
    return this.session.serverCapabilities;
  }

  get instructions(): string | undefined {
    return this.session.instructions;
  }

  /** The settings the server declared for an extension (`capabilities.extensions[id]`), or undefined when it did not declare it. */
  serverExtension(id: string): Record<string, unknown> | undefined {
    return declaredExtension(this.session.serverCapabilities as Record<string, unknown>, id);
  }

  /**
   * A request of an extension the server declared, typed by its generated module, the result
   * checked by the module's validators (as a revision's are, by `validate`).
   */
  requestExtension<T extends RevisionTypes, M extends Extract<keyof T["ClientRequests"], string>>(
    module: ExtensionModule<T>,
    method: M,
    params: ExtensionParams<T, M>,
    options: CallOptions = {},
  ): Promise<ExtensionResult<T, M>> {
    const extension = loadExtension(module);
    const descriptor = extension.methods.get(method);
    if (descriptor?.kind !== "request" || !descriptor.senders.includes("client"))
      return Promise.reject(new Error(`${method} is not a client request of the extension ${extension.id}`));
    if (this.serverExtension(extension.id) === undefined)
      return Promise.reject(new Error(`the server did not declare the extension ${extension.id}: it may not be used (SEP-2133)`));
    return this.send<ExtensionResult<T, M>>(method, params as Record<string, unknown>, options, true, extension);
  }

  // -- typed calls ----------------------------------------------------------------------------------

  /** Sends ping; resolves when the server answers. */
  ping(options?: CallOptions): Promise<Record<string, unknown>> {
    return this.request("ping", {}, options);
  }

  /** Stateless era: server/discover again (answered from the cache while its ttlMs lasts). */
  discover(options?: CallOptions): Promise<Record<string, unknown>> {
    return this.request("server/discover", {}, options);
  }

  /** One page (a cursor, or `{ cursor }`), or every page (`{ all: true }`). Tools with invalid `x-mcp-header` annotations are left out. */
  async listTools(cursor?: string | ListOptions, options?: CallOptions): Promise<Page<Tool>> {
    const page = await this.list<Tool>("tools/list", "tools", cursor, options);
    return { ...page, items: this.admitTools(page.items) };
  }

  /** Calls a tool with `args`. A tool that runs as a task is followed to its result (see `FollowOptions`). */
  callTool(name: string, args: Record<string, unknown> = {}, options?: CallOptions): Promise<CallToolResult> {
    const call = () => {
      const declarations = this.era === "stateless" ? this.toolHeaders.get(name) : undefined;
      // Options are copied only to add headers: most calls have none to add.
      const sent = declarations ? { ...options, headers: { ...options?.headers, ...paramHeaders(declarations, args) } } : options;
      const params: Record<string, unknown> = { name, arguments: args };
      if (options?.task && this.era === "session") params.task = options.task;
      return this.request<CallToolResult>("tools/call", params, sent);
    };
    // SEP-2243: -32020 means our idea of the tool's headers is stale: list the tools again, retry once.
    return call().catch(async (error: unknown) => {
      if (!(error instanceof RpcError) || error.code !== ErrorCode.HeaderMismatch || this.era !== "stateless") throw error;
      await this.listTools({ all: true, fresh: true });
      return call();
    });
  }

  /** Lists resources: one page from `cursor`, or every page with `{ all: true }`. */
  listResources(cursor?: string | ListOptions, options?: CallOptions): Promise<Page<Resource>> {
    return this.list<Resource>("resources/list", "resources", cursor, options);
  }

  /** Lists resource templates: one page from `cursor`, or every page with `{ all: true }`. */
  listResourceTemplates(cursor?: string | ListOptions, options?: CallOptions): Promise<Page<ResourceTemplate>> {
    return this.list<ResourceTemplate>("resources/templates/list", "resourceTemplates", cursor, options);
  }

  /** Reads the resource at `uri`. */
  readResource(uri: string, options?: CallOptions): Promise<ReadResourceResult> {
    return this.request<ReadResourceResult>("resources/read", { uri }, options);
  }

  /** Asks for notifications/resources/updated when the resource at `uri` changes (session era). */
  subscribeResource(uri: string, options?: CallOptions): Promise<Record<string, unknown>> {
    return this.request("resources/subscribe", { uri }, options).then((result) => (this.held.subscribed.add(uri), result));
  }

  /** Stops the notifications `subscribeResource` asked for. */
  unsubscribeResource(uri: string, options?: CallOptions): Promise<Record<string, unknown>> {
    this.held.subscribed.delete(uri);
    return this.request("resources/unsubscribe", { uri }, options);
  }

  /** Lists prompts: one page from `cursor`, or every page with `{ all: true }`. */
  listPrompts(cursor?: string | ListOptions, options?: CallOptions): Promise<Page<Prompt>> {
    return this.list<Prompt>("prompts/list", "prompts", cursor, options);
  }

  /** Gets a prompt's messages for `args`. */
  getPrompt(name: string, args: Record<string, string> = {}, options?: CallOptions): Promise<GetPromptResult> {
    return this.request<GetPromptResult>("prompts/get", { name, arguments: args }, options);
  }

  /** Asks the server to complete a prompt argument or a template variable (completion/complete). */
  complete(
    ref: { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string },
    argument: { name: string; value: string },
    chosen?: Record<string, string>,
    options?: CallOptions,
  ): Promise<Record<string, unknown>> {
    const params: Record<string, unknown> = { ref, argument };
    if (chosen) params.context = { arguments: chosen };
    return this.request("completion/complete", params, options);
  }

  /** Session era: the least severe log level the server should send. */
  setLoggingLevel(level: string, options?: CallOptions): Promise<Record<string, unknown>> {
    return this.request("logging/setLevel", { level }, options).then((result) => ((this.held.logLevel = level), result));
  }

  /** Stateless era: opens a subscriptions/listen stream; its notifications reach `on` listeners. */
  listen(filter: Record<string, unknown>): Subscription {
    const controller = new AbortController();
    let id: string | number | undefined;
    const stream = this.request("subscriptions/listen", { notifications: filter }, { signal: controller.signal, timeoutMs: Infinity, onId: (sent) => (id = sent) });
    const acknowledged = new Promise<Record<string, unknown>>((resolve, reject) => {
      // Every message of a stream carries its subscriptionId: the id of the listen request.
      const stop = this.on("notifications/subscriptions/acknowledged", (params) => {
        if ((params._meta as Record<string, unknown> | undefined)?.[META.subscriptionId] !== id) return;
        stop();
        resolve(params.notifications as Record<string, unknown>);
      });
      stream.then(
        () => {
          stop();
          reject(new Error("the server ended the subscription before acknowledging it"));
        },
        (error: unknown) => {
          stop();
          reject(error);
        },
      );
    });
    acknowledged.catch(() => {});
    const closed = stream.then(
      () => "the server ended the subscription",
      (error: unknown) => (controller.signal.aborted ? `closed by the client: ${String(controller.signal.reason)}` : `the subscription failed: ${(error as Error).message}`),
    );
    return { acknowledged, closed, close: (reason = "no reason given") => controller.abort(reason) };
  }

  /**
   * Any request, by method: those of the revision, and extension methods (`skills/list`...),
   * whose result is checked against `options.resultSchema` when one is given. Stateless era:
   * `_meta` gets the protocol version, capabilities and client info, and an InputRequiredResult
   * is answered with `handlers` and retried. A result without `resultType` is complete.
   */
  request<R = Record<string, unknown>>(method: string, params: Record<string, unknown> = {}, options: CallOptions = {}): Promise<R> {
    return this.send<R>(method, params, options, true);
  }

  /**
   * `extension`: a method of that extension module, described and checked by it. `mayRenew`: a
   * 404 to the session starts a new one and sends the request again, once (false while negotiating).
   */
  private async send<R>(
    method: string,
    params: Record<string, unknown>,
    options: CallOptions,
    mayRetryVersion: boolean,
    extension?: LoadedExtension,
    mayRenew = true,
  ): Promise<R> {
    if (mayRenew && this.lost) {
      await this.renew(method);
      mayRenew = false;
    }
    const descriptor = (extension ?? this.session.module).methods.get(method);
    if (descriptor && (descriptor.kind !== "request" || !descriptor.senders.includes("client")))
      throw new RpcError(ErrorCode.MethodNotFound, `${method} is not a client request in MCP ${this.revision}`);
    const cacheable = descriptor?.cacheable === true && this.cache !== undefined && this.era === "stateless";
    if (cacheable && !options.fresh) {
      const cached = this.cache!.get(method, params);
      if (cached) return cached as R;
    }
    const { onProgress } = options;
    const token = onProgress ? this.nextProgressToken++ : undefined;
    if (token !== undefined) this.progress.set(token, onProgress!);
    const sent = this.session.withMeta(params, token, options.logLevel);
    // The schema engine (ajv, or an interpreter where code generation is forbidden) may load asynchronously.
    if (!descriptor && options.resultSchema) await this.session.loadSchemas();
    try {
      const result = await this.session.request(method, sent, options);
      const done = await this.received<R>(method, descriptor, sent, result as Record<string, unknown>, options, 0, extension);
      if (cacheable) this.cache!.put(method, params, done as Record<string, unknown>);
      return done;
    } catch (error) {
      // A 404 to a request in a session: the server never processed it, so it is sent again in a new session.
      if (mayRenew && error instanceof HttpStatusError && error.sessionLost) {
        await this.renew(method, error);
        return this.send<R>(method, params, options, mayRetryVersion, extension, false);
      }
      // SEP-2575: -32022 names the versions the server speaks: switch to one, once.
      const other = mayRetryVersion ? this.session.supportedVersion(error) : undefined;
      if (other === undefined) throw error;
      await this.open(other, false);
      return this.send<R>(method, params, options, false, extension);
    } finally {
      if (token !== undefined) this.progress.delete(token);
    }
  }

  /** Checks a result; an InputRequiredResult (stateless era) is answered with `handlers` and the call retried. */
  private received<R>(
    method: string,
    descriptor: MethodDescriptor | undefined,
    sent: Record<string, unknown>,
    answered: Record<string, unknown>,
    options: CallOptions,
    round: number,
    extension?: LoadedExtension,
  ): R | Promise<R> {
    // 2026-07-28: "a client MUST treat a result without resultType as complete".
    let result = answered;
    if (this.era === "stateless" && isObject(answered) && answered.resultType === undefined) (result = shallowCopy(answered)).resultType = "complete";
    const task = this.options.tasks === false || !isObject(result) ? undefined : createdTask(this.era, result);
    // 2025-11-25 defines CreateTaskResult (checked as a tools/call result); the extension's is checked as it is followed.
    if (this.era === "session" || !task) this.session.checkResult(method, descriptor, result, options.resultSchema, extension ?? this.session.module);
    if (task) return followTask(this.tasks, task, options) as Promise<R>;
    if (result.resultType !== "input_required") return result as R;
    if (round >= MAX_INPUT_ROUNDS) throw new Error(`${method} still asks for input after ${MAX_INPUT_ROUNDS} rounds`);
    return this.session.answerInputs(result.inputRequests).then((inputResponses) => {
      const retry: Record<string, unknown> = { ...sent, inputResponses };
      if (result.requestState !== undefined) retry.requestState = result.requestState;
      else delete retry.requestState;
      return this.session
        .request(method, retry, options)
        .then((next) => this.received<R>(method, descriptor, retry, next as Record<string, unknown>, options, round + 1, extension));
    });
  }

  /** Sends a notification to the server. */
  notify(method: string, params?: Record<string, unknown>): Promise<void> {
    return this.session.notify(method, params);
  }

  // -- tasks ----------------------------------------------------------------------------------------

  /** A task's state: tasks/get (2026-07-28: with its result, error or questions inlined). */
  getTask(taskId: string, options?: CallOptions): Promise<Record<string, unknown>> {
    return this.request("tasks/get", { taskId }, options);
  }

  /** Asks the server to cancel a task (it may finish anyway). */
  cancelTask(taskId: string, options?: CallOptions): Promise<Record<string, unknown>> {
    return this.request("tasks/cancel", { taskId }, options);
  }

  /**
   * Follows a task by id to the result of the request that started it, as a call does: to resume
   * after a reconnect or a restart (keep the id from `onTask`). Any client of the server (and of
   * the same principal) may; the id is the handle.
   */
  async awaitTask<R = CallToolResult>(taskId: string, options: FollowOptions = {}): Promise<R> {
    return (await followTask(this.tasks, await this.getTask(taskId, { signal: options.signal }), options)) as R;
  }

  private get tasks(): TaskChannel {
    return {
      era: this.era,
      request: (method, params, options) => this.request(method, params, options),
      answerInputs: (requests) => this.session.answerInputs(requests),
    };
  }

  /** Listens to a notification from the server; returns the function that stops listening. */
  on(method: string, listener: NotificationListener): () => void {
    let set = this.listeners.get(method);
    if (!set) this.listeners.set(method, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  /** Closes the connection; requests still waiting are rejected. */
  close(): Promise<void> {
    return this.session.peer.close();
  }

  // -- lists ----------------------------------------------------------------------------------------

  private async list<T>(method: string, field: string, cursorOrOptions: string | ListOptions | undefined, more: CallOptions | undefined): Promise<Page<T>> {
    const options: ListOptions = typeof cursorOrOptions === "string" ? { ...more, cursor: cursorOrOptions } : { ...more, ...cursorOrOptions };
    const { cursor, all, ...callOptions } = options;
    const items: T[] = [];
    const seen = new Set<string>();
    let next = cursor;
    for (let pages = 0; ; pages++) {
      const result = await this.request(method, next === undefined ? {} : { cursor: next }, callOptions);
      const page = result[field];
      if (Array.isArray(page)) items.push(...(page as T[]));
      next = typeof result.nextCursor === "string" ? result.nextCursor : undefined;
      if (!all || next === undefined) return { items, nextCursor: next };
      if (seen.has(next)) throw new Error(`${method}: the server sent the cursor ${JSON.stringify(next)} twice`);
      if (pages + 1 >= MAX_PAGES) throw new Error(`${method}: more than ${MAX_PAGES} pages`);
      seen.add(next);
    }
  }

  /** SEP-2243: a client MUST exclude tools whose x-mcp-header annotations are invalid; remembers the valid ones' headers. */
  private admitTools(tools: Tool[]): Tool[] {
    if (this.era !== "stateless") return tools;
    return tools.filter((tool) => {
      const scan = scanHeaderAnnotations(tool.inputSchema);
      if (!scan.valid) {
        this.toolHeaders.delete(tool.name);
        this.logger("warn", `tool ${tool.name} is left out: ${scan.reason}`);
        return false;
      }
      if (scan.declarations.length > 0) this.toolHeaders.set(tool.name, scan.declarations);
      else this.toolHeaders.delete(tool.name);
      return true;
    });
  }

  // -- from the server ------------------------------------------------------------------------------

  private deliver(notification: Notification): void {
    const params = notification.params ?? {};
    if (notification.method === "notifications/progress") {
      const listener = this.progress.get(params.progressToken as string | number);
      if (listener) this.safely(notification.method, () => listener(params as { progress: number; total?: number; message?: string }));
    }
    this.invalidate(notification.method, params);
    for (const listener of this.listeners.get(notification.method) ?? []) this.safely(notification.method, () => listener(params));
  }

  /** A list changed, or a resource: evict what it makes stale, and re-list when asked to. */
  private invalidate(method: string, params: Record<string, unknown>): void {
    if (method === "notifications/resources/updated") this.cache?.evict("resources/read", (p) => p.uri === params.uri);
    const changed = LIST_CHANGED[method];
    if (!changed) return;
    for (const listMethod of changed.methods) this.cache?.evict(listMethod);
    const list = changed.list;
    const callback = list && this.options.onListChanged?.[list];
    if (!list || !callback) return;
    const listed = list === "tools" ? this.listTools({ all: true }) : list === "prompts" ? this.listPrompts({ all: true }) : this.listResources({ all: true });
    listed.then(
      (page) => this.safely(method, () => (callback as (items: unknown[]) => void)(page.items)),
      (error: Error) => this.logger("warn", `could not list ${list} again after ${method}: ${error.message}`),
    );
  }

  private safely(method: string, run: () => void): void {
    try {
      run();
    } catch (error) {
      this.logger("error", `listener for ${method} threw: ${(error as Error).message}`);
    }
  }

  // -- opening ------------------------------------------------------------------------------------------

  /** Negotiation (session/client-session.ts), its requests sent through this client's call path. */
  private open(wanted: Revision | "auto", mayRetryVersion = true): Promise<void> {
    return this.session.open(wanted, (method, params, options) => this.send<Record<string, unknown>>(method, params, options, false, undefined, false), mayRetryVersion);
  }

  /**
   * "When a client receives HTTP 404 in response to a request containing an Mcp-Session-Id, it
   * MUST start a new session by sending a new InitializeRequest without a session ID attached"
   * (2025-03-26 and later): initialize again at the negotiated revision, once for all the calls
   * that met the 404. A 404 of a session already replaced needs no new one.
   */
  private async renew(method: string, error?: HttpStatusError): Promise<void> {
    if (error && !this.lost) {
      const current = this.session.peer.facts?.sessionId;
      if (current !== undefined && current !== error.sessionId) return;
      this.lost = { error };
    }
    const lost = this.lost!;
    lost.renewing ??= this.open(this.revision, false).then(
      async () => {
        if (this.lost === lost) this.lost = undefined;
        // The new session is told what the lost one held: its log level, its subscriptions.
        const { logLevel, subscribed } = this.held;
        const again: Promise<unknown>[] = [...subscribed].map((uri) => this.request("resources/subscribe", { uri }));
        if (logLevel !== undefined) again.push(this.request("logging/setLevel", { level: logLevel }));
        await Promise.all(again);
      },
      (failure: unknown) => {
        lost.renewing = undefined;
        throw failure;
      },
    );
    try {
      await lost.renewing;
    } catch (failure) {
      const why = failure instanceof Error ? failure.message : String(failure);
      throw new Error(
        `${method} failed: the server no longer knows session ${lost.error.sessionId} (${lost.error.message}), and a new session could not be started: initialize at ${this.revision} failed (${why})`,
        { cause: failure },
      );
    }
  }
}

// Outside the class: esbuild emits a class that names itself in its body as `class _McpClient`, its constructor's name.
function newClient(transport: Transport, options: ClientOptions): McpClient {
  return new (McpClient as unknown as new (transport: Transport, options: ClientOptions) => McpClient)(transport, options);
}

/** What `requestExtension` sends for `M`: the params of the extension's request (`{}` for one that takes none). */
export type ExtensionParams<T extends RevisionTypes, M extends keyof T["ClientRequests"]> = T["ClientRequests"][M] extends { readonly params?: infer P }
  ? [NonNullable<P>] extends [never]
    ? Record<string, never>
    : NonNullable<P>
  : Record<string, never>;

/** What `requestExtension` resolves to for `M`: any result the extension's request may answer with. */
export type ExtensionResult<T extends RevisionTypes, M extends keyof T["ClientRequests"]> = T["ClientRequests"][M] extends { readonly result: infer R } ? R : never;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
