import { ErrorCode, RpcError } from "../jsonrpc/errors.js";
import type { Notification, Request } from "../jsonrpc/messages.js";
import { Peer, type RequestOptions } from "../jsonrpc/peer.js";
import { META } from "../session/meta.js";
import { ALL_REVISIONS, eraOf, isRevision, loadRevision, revisionName, type LoadedRevision, type Revision, type RevisionRef } from "../session/revisions.js";
import { checkRequest, reported, resultCandidates, summarize } from "../session/validate.js";
import type { Transport } from "../transports/transport.js";
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

/** How the client answers what a server asks, in either era. Each one declares its capability. */
export interface ClientHandlers {
  /** elicitation/create: ask the user. */
  readonly elicitation?: (params: Record<string, unknown>) => Record<string, unknown> | Promise<Record<string, unknown>>;
  /** sampling/createMessage: ask the model. */
  readonly sampling?: (params: Record<string, unknown>) => Record<string, unknown> | Promise<Record<string, unknown>>;
  /** roots/list. */
  readonly roots?: () => Record<string, unknown> | Promise<Record<string, unknown>>;
}

export interface ClientOptions {
  readonly name: string;
  readonly version: string;
  /**
   * The revision to speak. Session era: offered at initialize, and the server may answer with
   * another one we also speak. Stateless era: sent in every request's `_meta`.
   * A pinned revision's name, or a module generated into one's own project
   * (`mcp-codegen generate --out`). Default: the latest session-era revision.
   */
  readonly revision?: RevisionRef;
  /** Declared capabilities; those of `handlers` are added. */
  readonly capabilities?: Record<string, unknown>;
  readonly handlers?: ClientHandlers;
  /** Default timeout of each request (default 60 s). */
  readonly requestTimeoutMs?: number;
  /** Check every result against the revision's schema (default true). */
  readonly validateResults?: boolean;
  readonly logger?: Logger;
}

export interface CallOptions extends RequestOptions {
  /** Asks for progress notifications on this request. */
  readonly onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /** Stateless era: ask for log messages at or above this level on this request. */
  readonly logLevel?: string;
}

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
  /** Ends the stream (notifications/cancelled). */
  close(): void;
}

const DEFAULT_TIMEOUT_MS = 60_000;
/** Stateless era: how many times one call may come back asking for input before we give up. */
const MAX_INPUT_ROUNDS = 16;
const ANSWERS: Record<string, keyof ClientHandlers> = {
  "elicitation/create": "elicitation",
  "sampling/createMessage": "sampling",
  "roots/list": "roots",
};

/**
 * An MCP client for either era, on the same JSON-RPC peer as the server. `connect` initializes
 * (session era) or discovers (stateless era). Every result is checked against the revision's
 * generated validators; questions from the server reach `handlers` in both eras (as requests,
 * or inside an InputRequiredResult that the client answers and retries).
 */
export class McpClient {
  private readonly peer: Peer;
  private readonly listeners = new Map<string, Set<NotificationListener>>();
  private readonly progress = new Map<string | number, NonNullable<CallOptions["onProgress"]>>();
  private readonly logger: Logger;
  private readonly capabilities: Record<string, unknown>;
  private module!: LoadedRevision;
  private info: Implementation = { name: "", version: "" };
  private serverCaps: ServerCapabilities = {};
  private serverInstructions: string | undefined;
  private nextProgressToken = 1;

  private constructor(
    transport: Transport,
    private readonly options: ClientOptions,
  ) {
    this.logger = options.logger ?? stderrLogger;
    this.capabilities = { ...options.capabilities };
    for (const [, name] of Object.entries(ANSWERS)) if (options.handlers?.[name]) this.capabilities[name] ??= {};
    this.peer = new Peer(
      transport,
      { request: (request) => this.answer(request), notification: (notification) => this.deliver(notification) },
      {
        logger: this.logger,
        requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_TIMEOUT_MS,
        cancel: (id, method, reason) => {
          if (method !== "initialize") void this.notify("notifications/cancelled", { requestId: id, reason }).catch(() => {});
        },
      },
    );
  }

  static async connect(transport: Transport, options: ClientOptions): Promise<McpClient> {
    const client = new McpClient(transport, options);
    try {
      await client.open(options.revision === undefined ? latestSessionRevision() : revisionName(options.revision));
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

  ping(options?: CallOptions): Promise<Record<string, unknown>> {
    return this.request("ping", {}, options);
  }

  async listTools(cursor?: string, options?: CallOptions): Promise<Page<Tool>> {
    const result = await this.request("tools/list", cursor === undefined ? {} : { cursor }, options);
    return { items: result.tools as Tool[], nextCursor: result.nextCursor as string | undefined };
  }

  callTool(name: string, args: Record<string, unknown> = {}, options?: CallOptions): Promise<CallToolResult> {
    return this.request<CallToolResult>("tools/call", { name, arguments: args }, options);
  }

  async listResources(cursor?: string, options?: CallOptions): Promise<Page<Resource>> {
    const result = await this.request("resources/list", cursor === undefined ? {} : { cursor }, options);
    return { items: result.resources as Resource[], nextCursor: result.nextCursor as string | undefined };
  }

  async listResourceTemplates(cursor?: string, options?: CallOptions): Promise<Page<ResourceTemplate>> {
    const result = await this.request("resources/templates/list", cursor === undefined ? {} : { cursor }, options);
    return { items: result.resourceTemplates as ResourceTemplate[], nextCursor: result.nextCursor as string | undefined };
  }

  readResource(uri: string, options?: CallOptions): Promise<ReadResourceResult> {
    return this.request<ReadResourceResult>("resources/read", { uri }, options);
  }

  subscribeResource(uri: string, options?: CallOptions): Promise<Record<string, unknown>> {
    return this.request("resources/subscribe", { uri }, options);
  }

  unsubscribeResource(uri: string, options?: CallOptions): Promise<Record<string, unknown>> {
    return this.request("resources/unsubscribe", { uri }, options);
  }

  async listPrompts(cursor?: string, options?: CallOptions): Promise<Page<Prompt>> {
    const result = await this.request("prompts/list", cursor === undefined ? {} : { cursor }, options);
    return { items: result.prompts as Prompt[], nextCursor: result.nextCursor as string | undefined };
  }

  getPrompt(name: string, args: Record<string, string> = {}, options?: CallOptions): Promise<GetPromptResult> {
    return this.request<GetPromptResult>("prompts/get", { name, arguments: args }, options);
  }

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
    return this.request("logging/setLevel", { level }, options);
  }

  /** Stateless era: opens a subscriptions/listen stream; its notifications reach `on` listeners. */
  listen(filter: Record<string, unknown>): Subscription {
    const controller = new AbortController();
    const acknowledged = new Promise<Record<string, unknown>>((resolve, reject) => {
      let id: string | number | undefined;
      // Every message of a stream carries its subscriptionId: the id of the listen request.
      const stop = this.on("notifications/subscriptions/acknowledged", (params) => {
        if ((params._meta as Record<string, unknown> | undefined)?.[META.subscriptionId] !== id) return;
        stop();
        resolve(params.notifications as Record<string, unknown>);
      });
      this.request("subscriptions/listen", { notifications: filter }, { signal: controller.signal, timeoutMs: Infinity, onId: (sent) => (id = sent) }).catch(
        (error) => {
          stop();
          reject(error);
        },
      );
    });
    acknowledged.catch(() => {});
    return { acknowledged, close: () => controller.abort(new Error("subscription closed by the client")) };
  }

  /**
   * Any request of the revision, by method. Stateless era: `_meta` gets the protocol version,
   * capabilities and client info, and an InputRequiredResult is answered with `handlers` and
   * retried. The result is checked against the revision's schema.
   */
  request<R = Record<string, unknown>>(method: string, params: Record<string, unknown> = {}, options: CallOptions = {}): Promise<R> {
    const descriptor = this.module.methods.get(method);
    if (!descriptor || descriptor.kind !== "request" || !descriptor.senders.includes("client"))
      return Promise.reject(new RpcError(ErrorCode.MethodNotFound, `${method} is not a client request in MCP ${this.revision}`));
    const { onProgress } = options;
    const token = onProgress ? this.nextProgressToken++ : undefined;
    if (token !== undefined) this.progress.set(token, onProgress!);
    const sent = this.withMeta(params, token, options.logLevel);
    const answered = this.peer
      .request(method, sent, options)
      .then((result) => this.received<R>(method, descriptor.results ?? [], sent, result as Record<string, unknown>, options, 0));
    return token === undefined ? answered : answered.finally(() => this.progress.delete(token));
  }

  /** Checks a result; an InputRequiredResult (stateless era) is answered with `handlers` and the call retried. */
  private received<R>(
    method: string,
    results: readonly string[],
    sent: Record<string, unknown>,
    result: Record<string, unknown>,
    options: CallOptions,
    round: number,
  ): R | Promise<R> {
    this.checkResult(method, results, result);
    if (result.resultType !== "input_required") return result as R;
    if (round >= MAX_INPUT_ROUNDS) throw new Error(`${method} still asks for input after ${MAX_INPUT_ROUNDS} rounds`);
    return this.answerInputs(result.inputRequests).then((inputResponses) => {
      const retry = { ...sent, inputResponses, requestState: result.requestState };
      return this.peer
        .request(method, retry, options)
        .then((next) => this.received<R>(method, results, retry, next as Record<string, unknown>, options, round + 1));
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

  /** Session era: a request from the server. */
  private async answer(request: Request): Promise<unknown> {
    if (request.method === "ping") return {};
    const descriptor = this.module?.methods.get(request.method);
    const handler = ANSWERS[request.method] ? this.options.handlers?.[ANSWERS[request.method]!] : undefined;
    if (!descriptor || !descriptor.senders.includes("server") || !handler)
      throw new RpcError(ErrorCode.MethodNotFound, `Method not found: this client does not handle ${request.method}`);
    checkRequest(this.module, descriptor, request);
    return (handler as (params: Record<string, unknown>) => unknown)(request.params ?? {});
  }

  /** Stateless era: the answers to an InputRequiredResult's questions, by key. */
  private async answerInputs(requests: unknown): Promise<Record<string, unknown>> {
    const entries = Object.entries((requests ?? {}) as Record<string, { method: string; params?: Record<string, unknown> }>);
    const answers = await Promise.all(
      entries.map(async ([key, { method, params }]) => {
        const name = ANSWERS[method];
        const handler = name ? this.options.handlers?.[name] : undefined;
        if (!handler) throw new RpcError(ErrorCode.MethodNotFound, `the server asked for ${method}, which this client does not handle`);
        return [key, await (handler as (params: Record<string, unknown>) => unknown)(params ?? {})] as const;
      }),
    );
    return Object.fromEntries(answers);
  }

  private deliver(notification: Notification): void {
    const params = notification.params ?? {};
    if (notification.method === "notifications/progress") {
      const listener = this.progress.get(params.progressToken as string | number);
      if (listener) this.safely(notification.method, () => listener(params as { progress: number; total?: number; message?: string }));
    }
    for (const listener of this.listeners.get(notification.method) ?? []) this.safely(notification.method, () => listener(params));
  }

  private safely(method: string, run: () => void): void {
    try {
      run();
    } catch (error) {
      this.logger("error", `listener for ${method} threw: ${(error as Error).message}`);
    }
  }

  // -- opening and checking ---------------------------------------------------------------------------

  private async open(revision: Revision): Promise<void> {
    if (!isRevision(revision)) throw new Error(`unknown MCP revision ${revision} (generated: ${ALL_REVISIONS.join(", ")})`);
    const module = await loadRevision(revision);
    this.module = module;
    if (module.era === "stateless") {
      const discovered = await this.request("server/discover");
      this.serverCaps = discovered.capabilities as ServerCapabilities;
      this.serverInstructions = discovered.instructions as string | undefined;
      const meta = discovered._meta as Record<string, unknown> | undefined;
      if (meta?.[META.serverInfo]) this.info = meta[META.serverInfo] as Implementation;
      return;
    }
    const result = await this.request("initialize", {
      protocolVersion: revision,
      capabilities: this.capabilities,
      clientInfo: { name: this.options.name, version: this.options.version },
    });
    const answered = result.protocolVersion as string;
    if (!isRevision(answered) || eraOf(answered) !== "session")
      throw new Error(`the server answered initialize with protocol version ${answered}, which this client does not speak`);
    this.module = await loadRevision(answered);
    this.serverCaps = result.capabilities as ServerCapabilities;
    this.info = result.serverInfo as Implementation;
    this.serverInstructions = result.instructions as string | undefined;
    await this.notify("notifications/initialized");
  }

  private checkResult(method: string, results: readonly string[], result: unknown): void {
    if (this.options.validateResults === false) return;
    const candidates = resultCandidates(results, result);
    if (candidates.some((name) => this.module.validator(name).is(result))) return;
    const issues = this.module.validator(candidates[0]!).check(result);
    throw new RpcError(ErrorCode.InternalError, `the server's ${method} result is not a valid ${candidates[0]} of MCP ${this.revision}: ${summarize(issues)}`, {
      issues: reported(issues),
      result,
    });
  }

  private withMeta(params: Record<string, unknown>, progressToken: number | undefined, logLevel: string | undefined): Record<string, unknown> {
    const stateless = this.module.era === "stateless";
    if (!stateless && progressToken === undefined) return params;
    const meta: Record<string, unknown> = { ...(params._meta as Record<string, unknown> | undefined) };
    if (progressToken !== undefined) meta.progressToken = progressToken;
    if (stateless) {
      meta[META.protocolVersion] = this.module.revision;
      meta[META.clientCapabilities] = this.capabilities;
      meta[META.clientInfo] = { name: this.options.name, version: this.options.version };
      if (logLevel !== undefined) meta[META.logLevel] = logLevel;
    }
    return { ...params, _meta: meta };
  }
}

function latestSessionRevision(): Revision {
  return [...ALL_REVISIONS].reverse().find((r) => eraOf(r) === "session")!;
}
