import { ErrorCode, RpcError } from "../jsonrpc/errors.js";
import type { Request, RequestId } from "../jsonrpc/messages.js";
import type { InboundRequest } from "../jsonrpc/peer.js";
import { InputExchange, type InputRequiredCodec } from "../session/input-required.js";
import { META, metaOf } from "../session/meta.js";
import { definedByAnyRevision, type Era, type MethodDescriptor, type PinnedRevision, type Revision, type RevisionTypesByName } from "../session/revisions.js";
import type { ClientIdentity, RequestScope, ServerSession } from "../session/server-session.js";
import type { AuthInfo } from "../transports/auth-info.js";
import type { MessageContext } from "../jsonrpc/transport.js";
import type { Logger } from "../util/logger.js";
import { checkServerNotification, reported, summarize } from "../session/validate.js";

export type { ClientIdentity };

/** RFC 5424 severities, least severe first: MCP's LoggingLevel. */
export const LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;
/** An MCP log level (RFC 5424's severities), from debug to emergency. */
export type LogLevelName = (typeof LOG_LEVELS)[number];

type ServerNotificationsOf<T> = T extends { readonly ServerNotifications: infer N } ? N : never;
type NotificationParams<T, M extends string> = T extends unknown ? (M extends keyof ServerNotificationsOf<T> ? ServerNotificationsOf<T>[M] : never) : never;

/**
 * The params of `notify(method, ...)` under the revisions' method maps `T`: for a method they
 * define, its params in them (optional where they are); for any other method (a vendor's,
 * `notifications/acme/...`), any object or none.
 */
export type NotifyArgs<T, M extends string> = [NotificationParams<T, M>] extends [never]
  ? [params?: Record<string, unknown>]
  : undefined extends NotificationParams<T, M>
    ? [params?: NonNullable<NotificationParams<T, M>>]
    : [params: NotificationParams<T, M>];

/**
 * What the client answers `ctx.elicit`/`sample`/`listRoots` (`M`) with under the revisions' method
 * maps `T`: its primary result in one of them (not a task: these are never asked as one; held at run
 * time to the request's own); any object where none
 * defines `M`. Their params stay any object: a schema declared apart widens its `type` to string.
 */
export type AskResult<
  T,
  M extends string,
  R = T extends { readonly ServerRequests: infer S } ? (M extends keyof S ? (S[M] extends { readonly handlerResult: infer H } ? H : never) : never) : never,
> = [R] extends [never] ? Record<string, unknown> : R;

/** The method maps of every pinned revision: what `ctx.notify` is typed by (checked at run time against the request's own). */
export type PinnedTypes = RevisionTypesByName[PinnedRevision];

/**
 * What a handler knows about the request it answers, and what it can do for the client meanwhile.
 * `Types`: the method maps `notify` is typed by; a server's handlers get those of the revisions it
 * serves, any other code those of every pinned revision.
 */
export interface RequestContext<Types = PinnedTypes> {
  /** Aborted when the client cancels the request, the connection closes, or the handler will be replayed. */
  readonly signal: AbortSignal;
  /** The revision this request is served under: negotiated, or from its `_meta`. */
  readonly revision: Revision;
  /** "session" (initialize, up to 2025-11-25) or "stateless" (2026-07-28): what the revision's protocol is built on. */
  readonly era: Era;
  /** The JSON-RPC id of the request, as the client sent it. */
  readonly requestId: RequestId;
  /** The request's method, e.g. "tools/call". */
  readonly method: string;
  /** Who sent it: the client's name, version and capabilities (negotiated, or from the request's `_meta`). */
  readonly client: ClientIdentity;
  /** The request's `params._meta`, as sent. */
  readonly meta: Readonly<Record<string, unknown>> | undefined;
  /** The connection the request came in on (its log level, subscriptions, revision). */
  readonly session: ServerSession;
  /**
   * Streamable HTTP, session era: the session's Mcp-Session-Id (the key for per-session state).
   * Undefined over stdio and in memory (one connection is one session) and in the stateless era.
   */
  readonly sessionId: string | undefined;
  /** Transport-level facts of the message that carried this request: over HTTP, `headers`. */
  readonly transport: MessageContext | undefined;
  /** The verified access token of this request, when the HTTP endpoint has `auth` (runtime/auth). */
  readonly auth: AuthInfo | undefined;
  /**
   * Reports progress, when the request asked for it (a progressToken); otherwise does nothing.
   * Values must increase; nothing is sent once the response is. Resolves once the client's stream
   * has room for more (backpressure, docs/transports.md); await it in a loop. Never rejects.
   */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /**
   * A log message for the client. Session era: when at or above the level set by
   * logging/setLevel. Stateless era: only when the request's `_meta` asked for logs, at or above
   * that level, on this request's stream. Resolves once the stream has room, like `progress`.
   */
  log(level: LogLevelName, data: unknown, logger?: string): Promise<void>;
  /**
   * Sends the client a notification of any method, tied to this request (over HTTP, on its
   * stream): one the revisions define, with their params (checked against the request's
   * revision: a wrong one throws, naming the method and the field), or a vendor's own
   * (`notifications/acme/...`), as given; one that only other revisions define is not sent (the
   * request's client would not know it), as with `server.notify`. Resolves once sent; a closed connection is logged at
   * debug, not thrown. Stateless era: only while the request is open (its stream ends with the
   * response).
   */
  notify<M extends string>(method: M, ...params: NotifyArgs<Types, M>): Promise<void>;
  /** Asks the user, through the client (elicitation/create). */
  elicit(params: Record<string, unknown>, options?: AskOptions): Promise<AskResult<Types, "elicitation/create">>;
  /** Asks the client's model (sampling/createMessage). */
  sample(params: Record<string, unknown>, options?: AskOptions): Promise<AskResult<Types, "sampling/createMessage">>;
  /** Asks the client for its roots (roots/list). */
  listRoots(options?: AskOptions): Promise<AskResult<Types, "roots/list">>;
  /**
   * Whether this request may be answered with a task: 2026-07-28, when the request's client
   * capabilities declare the io.modelcontextprotocol/tasks extension; 2025-11-25, when the
   * request is task-augmented (`params.task`). Only tools/call, and only for a tool that declares
   * `execution.taskSupport`.
   */
  readonly canCreateTask: boolean;
  /**
   * Finishes the request later, as a task (runtime/tasks): the client gets a CreateTaskResult
   * now, and `work`'s result (or the JSON-RPC error it throws) through tasks/get. Return what it
   * returns: `return ctx.task(async (task) => ...)`. When the client cannot take a task
   * ({@link canCreateTask}), `work` runs at once and its result is the answer, or, with
   * `required`, the request fails (-32021 in 2026-07-28, -32601 in 2025-11-25).
   */
  task<R>(work: (task: TaskContext<Types>) => R | Promise<R>, options?: TaskOptions): Promise<R>;
}

/** What a task's work can do: a request context whose questions park the task in input_required. */
export interface TaskContext<Types = PinnedTypes> extends RequestContext<Types> {
  /** The task's id; undefined when the work runs inline because the client cannot take a task. */
  readonly taskId: string | undefined;
  /** Replaces the task's statusMessage (tasks/get shows it). */
  status(message: string): Promise<void>;
}

/** Options of `ctx.task`: how long the task lives, how often the client should poll, whether a task is required, its first status message. */
export interface TaskOptions {
  /** How long the task is kept from its creation (default: ServerOptions.tasks.ttlMs); null: until the server restarts. */
  readonly ttlMs?: number | null;
  /** How often the client should poll (default: ServerOptions.tasks.pollIntervalMs). */
  readonly pollIntervalMs?: number;
  /** Refuse a client that cannot take a task instead of running the work inline. */
  readonly required?: boolean;
  /** The task's first statusMessage. */
  readonly statusMessage?: string;
}

/** How the context starts tasks: implemented by runtime/tasks, above this layer. */
export interface TaskLauncher {
  canCreate(context: HandlerContext): boolean;
  launch<R>(context: HandlerContext, work: (task: TaskContext) => R | Promise<R>, options: TaskOptions): Promise<R>;
}

/** Options of a question a handler asks the client (`ctx.elicit`, `ctx.sample`, `ctx.listRoots`): the key that names its answer across replays. */
export interface AskOptions {
  /**
   * Stateless era: the question's key in the InputRequiredResult's `inputRequests` (and so in the
   * retry's `inputResponses`). Default: input-1, input-2, ... in the order the handler asks.
   */
  readonly key?: string;
}

/** A request handler: params in, result out; throw an RpcError to choose the error code. */
export type Handler = (params: Record<string, unknown>, context: RequestContext) => unknown;

export interface ContextOptions {
  readonly input: InputRequiredCodec;
  /** Timeout of the requests a handler sends the client (session era). */
  readonly clientRequestTimeoutMs: number;
  readonly logger: Logger;
  /** Starts tasks for `ctx.task`; without it, work always runs inline. */
  readonly tasks?: TaskLauncher;
}

/** Which client capability each question needs. */
export const ASKS = {
  "elicitation/create": "elicitation",
  "sampling/createMessage": "sampling",
  "roots/list": "roots",
} as const;

export type AskMethod = keyof typeof ASKS;

/** The questions a handler asks the client, written once: each context says how they travel (`ask`). */
export abstract class Asking {
  // The answer is held to the request's revision's definition (ask): typed as the pinned revisions' results.
  elicit(params: Record<string, unknown>, options?: AskOptions): Promise<AskResult<PinnedTypes, "elicitation/create">> {
    return this.ask("elicitation/create", params, options?.key) as Promise<AskResult<PinnedTypes, "elicitation/create">>;
  }

  sample(params: Record<string, unknown>, options?: AskOptions): Promise<AskResult<PinnedTypes, "sampling/createMessage">> {
    return this.ask("sampling/createMessage", params, options?.key) as Promise<AskResult<PinnedTypes, "sampling/createMessage">>;
  }

  listRoots(options?: AskOptions): Promise<AskResult<PinnedTypes, "roots/list">> {
    return this.ask("roots/list", {}, options?.key) as Promise<AskResult<PinnedTypes, "roots/list">>;
  }

  /** Sends the question and returns the client's answer, held to the revision's definition. */
  abstract ask(method: AskMethod, params: Record<string, unknown>, key?: string): Promise<Record<string, unknown>>;
}

export class HandlerContext extends Asking implements RequestContext {
  readonly meta: Readonly<Record<string, unknown>> | undefined;
  /** Stateless era, for methods that may answer InputRequiredResult: the answers this run can have. */
  readonly input: InputExchange | undefined;
  private lastProgress = -Infinity;
  /** Settles once the last progress notification has left (stdio: written on its own); the response waits for it. */
  progressSent: Promise<void> | undefined;
  private finished = false;

  constructor(
    private readonly inbound: InboundRequest,
    private readonly scope: RequestScope,
    private readonly request: Request,
    descriptor: MethodDescriptor,
    private readonly options: ContextOptions,
  ) {
    super();
    this.meta = metaOf(request.params);
    if (scope.module.era === "stateless" && descriptor.results?.includes("InputRequiredResult"))
      this.input = new InputExchange(options.input, scope.module, request.method, request.params ?? {});
  }

  get signal(): AbortSignal {
    return this.inbound.signal;
  }
  get revision(): Revision {
    return this.scope.module.revision;
  }
  get era(): Era {
    return this.scope.module.era;
  }
  get requestId(): RequestId {
    return this.inbound.id;
  }
  get method(): string {
    return this.inbound.method;
  }
  get client(): ClientIdentity {
    return this.scope.client;
  }
  get session(): ServerSession {
    return this.scope.session;
  }
  get sessionId(): string | undefined {
    return this.session.sessionId;
  }
  get transport(): MessageContext | undefined {
    return this.inbound.context;
  }
  get auth(): AuthInfo | undefined {
    return this.inbound.context?.auth;
  }

  progress(progress: number, total?: number, message?: string): Promise<void> {
    const token = this.meta?.progressToken;
    if (token === undefined || this.over) return RESOLVED;
    if (!(progress > this.lastProgress)) throw new RangeError(`progress must increase: ${progress} after ${this.lastProgress}`);
    this.lastProgress = progress;
    const params: Record<string, unknown> = { progressToken: token, progress };
    if (total !== undefined) params.total = total;
    if (message !== undefined) params.message = message;
    return (this.progressSent = this.send("notifications/progress", params, true));
  }

  log(level: LogLevelName, data: unknown, logger?: string): Promise<void> {
    const stateless = this.era === "stateless";
    if (stateless && this.over) return RESOLVED;
    const threshold = stateless ? this.meta?.[META.logLevel] : this.session.logLevel;
    if (stateless && threshold === undefined) return RESOLVED;
    if (threshold !== undefined && LOG_LEVELS.indexOf(level) < LOG_LEVELS.indexOf(threshold as LogLevelName)) return RESOLVED;
    const params: Record<string, unknown> = { level, data };
    if (logger !== undefined) params.logger = logger;
    return this.send("notifications/message", params);
  }

  notify(method: string, params?: object): Promise<void> {
    const fields = params as Record<string, unknown> | undefined;
    // A method another revision defines means nothing to this one's client: not sent, as server.notify does.
    if (!checkServerNotification(this.scope.module, method, fields) && definedByAnyRevision(method)) {
      this.options.logger("debug", `${method} for request ${JSON.stringify(this.requestId)} not sent: MCP ${this.revision} does not define it`);
      return Promise.resolve();
    }
    if (this.era === "stateless" && this.over) {
      this.options.logger("debug", `${method} for request ${JSON.stringify(this.requestId)} not sent: MCP ${this.revision}'s notifications travel on their request's stream (stateless era), and it has ended`);
      return Promise.resolve();
    }
    return this.send(method, fields);
  }

  get canCreateTask(): boolean {
    return this.options.tasks?.canCreate(this) ?? false;
  }

  task<R>(work: (task: TaskContext) => R | Promise<R>, options: TaskOptions = {}): Promise<R> {
    const tasks = this.options.tasks;
    if (!tasks) throw new Error("this server does not run tasks");
    return tasks.launch(this, work, options);
  }

  /** The request's params, as sent (the task launcher reads `params.task`). */
  get params(): Readonly<Record<string, unknown>> {
    return this.request.params ?? {};
  }

  /** Answered, cancelled by the client, or abandoned for input: nothing more belongs to this request. */
  private get over(): boolean {
    return this.finished || this.inbound.cancelled;
  }

  /** The response is to start apart from the progress before it (SendOptions.apart). */
  answerApart(): void {
    this.inbound.replyOptions = APART;
  }

  /** The response is on its way: no progress after it. */
  done(): void {
    this.finished = true;
  }

  /** The handler will be replayed with the client's answers: stop this run. */
  abandon(): void {
    this.finished = true;
    this.inbound.abort("the request needs input from the client; the handler will run again with it");
  }

  async ask(method: AskMethod, params: Record<string, unknown>, key?: string): Promise<Record<string, unknown>> {
    const capability = ASKS[method];
    if (this.client.capabilities[capability] === undefined) {
      if (this.era === "stateless")
        throw new RpcError(ErrorCode.MissingRequiredClientCapability, `Missing required client capability: ${capability} (for ${method})`, {
          requiredCapabilities: { [capability]: {} },
        });
      throw new Error(`the client did not declare the ${capability} capability, so ${this.method} cannot send it ${method}`);
    }
    if (this.era === "stateless") {
      if (!this.input) throw new Error(`${this.method} cannot ask the client for input: only tools/call, prompts/get and resources/read can`);
      return (await this.input.ask({ method, params }, key)) as Record<string, unknown>;
    }
    const { module } = this.scope;
    const descriptor = module.methods.get(method);
    if (!descriptor?.senders.includes("server")) throw new Error(`MCP ${module.revision} has no ${method}`);
    const result = await this.session.request(method, params, {
      relatedRequestId: this.requestId,
      signal: this.signal,
      timeoutMs: this.options.clientRequestTimeoutMs,
    });
    const expected = descriptor.results ?? [];
    if (!expected.some((name) => module.validator(name).is(result))) {
      const issues = module.validator(expected[0]!).check(result);
      throw new RpcError(ErrorCode.InvalidParams, `the client answered ${method} with an invalid ${expected[0]}: ${summarize(issues)}`, {
        issues: reported(issues),
      });
    }
    return result as Record<string, unknown>;
  }

  private send(method: string, params: Record<string, unknown> | undefined, alone = false): Promise<void> {
    return this.session
      .notify(method, params, { relatedRequestId: this.requestId, alone })
      .catch((error: Error) => this.options.logger("debug", `${method} for request ${JSON.stringify(this.requestId)} not sent: ${error.message}`));
  }
}

const RESOLVED: Promise<void> = Promise.resolve();
const APART = { apart: true } as const;
