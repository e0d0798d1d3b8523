import { ASKS, Asking, type AskMethod, type HandlerContext, type LogLevelName, type RequestContext, type TaskContext, type TaskOptions } from "../../dispatch/context.js";
import { ErrorCode, RpcError } from "../../jsonrpc/errors.js";
import { revisionModule } from "../../session/revisions.js";
import { summarize } from "../../session/validate.js";
import { isTerminal, type TaskStore } from "../../stores/task-store.js";
import { until } from "./until.js";

/** The facts of a request a task's work reads from the request that started it, as they are there. */
const FROM_REQUEST = ["revision", "era", "requestId", "method", "client", "meta", "session", "sessionId", "transport", "auth"] as const;
type RequestFacts = Pick<RequestContext, (typeof FROM_REQUEST)[number]>;

// The facts are forwarded to the origin's, one getter each, defined below the class.
interface FromRequest extends RequestFacts {}

/** What the work of a task sees of the request that started it. */
abstract class FromRequest extends Asking implements TaskContext {
  abstract readonly taskId: string | undefined;
  abstract readonly signal: AbortSignal;

  constructor(protected readonly origin: HandlerContext) {
    super();
  }

  /** A task is not a request to start another from. */
  get canCreateTask(): boolean {
    return false;
  }
  task<R>(work: (task: TaskContext) => R | Promise<R>, _options?: TaskOptions): Promise<R> {
    return Promise.resolve(work(this));
  }
  abstract progress(progress: number, total?: number, message?: string): void;
  abstract log(level: LogLevelName, data: unknown, logger?: string): void;
  /** As the request's own: session era, to the session; 2026-07-28, only while the request is open. */
  notify(method: string, params?: object): Promise<void> {
    return this.origin.notify(method, params);
  }
  abstract status(message: string): Promise<void>;
}

for (const key of FROM_REQUEST)
  Object.defineProperty(FromRequest.prototype, key, {
    get(this: FromRequest) {
      return this.origin[key];
    },
  });

/** The work of `ctx.task` run at once, for a client that cannot take a task: the request's own context. */
export class InlineTaskContext extends FromRequest {
  readonly taskId = undefined;

  get signal(): AbortSignal {
    return this.origin.signal;
  }
  progress(progress: number, total?: number, message?: string): void {
    this.origin.progress(progress, total, message);
  }
  log(level: LogLevelName, data: unknown, logger?: string): void {
    this.origin.log(level, data, logger);
  }
  ask(method: AskMethod, params: Record<string, unknown>, key?: string): Promise<Record<string, unknown>> {
    return this.origin.ask(method, params, key);
  }
  status(): Promise<void> {
    return Promise.resolve();
  }
}

/** 2025-11-25: the `_meta` key that ties a message to its task. */
const RELATED_TASK = "io.modelcontextprotocol/related-task";

/**
 * The work of a task running in the background. A question parks the task in input_required:
 * 2026-07-28, it is listed in tasks/get's `inputRequests` until a tasks/update answers it
 * (through the store, so any instance may receive the answer); 2025-11-25, it is sent to the
 * client as a request tied to the task (`_meta` related-task). No progress: the request it would
 * belong to has been answered.
 */
export class RunningTaskContext extends FromRequest {
  private asked = 0;
  private readonly keys = new Set<string>();

  constructor(
    origin: HandlerContext,
    readonly taskId: string,
    private readonly store: TaskStore,
    readonly signal: AbortSignal,
  ) {
    super(origin);
  }

  progress(): void {}

  log(level: LogLevelName, data: unknown, logger?: string): void {
    // 2026-07-28: logs belong to a request's stream, and the task's request has been answered.
    if (this.era === "session") this.origin.log(level, data, logger);
  }

  async status(message: string): Promise<void> {
    await this.store.update(this.taskId, (task) => (isTerminal(task) ? undefined : { ...task, statusMessage: message, lastUpdatedAt: new Date().toISOString() }));
  }

  async ask(method: AskMethod, params: Record<string, unknown>, key = `input-${++this.asked}`): Promise<Record<string, unknown>> {
    const capability = ASKS[method];
    if (this.client.capabilities[capability] === undefined)
      throw new RpcError(ErrorCode.MissingRequiredClientCapability, `Missing required client capability: ${capability} (for ${method})`, {
        requiredCapabilities: { [capability]: {} },
      });
    // The extension: a key is never reused over a task's life.
    if (this.keys.has(key)) throw new Error(`task ${this.taskId} already asked a question keyed ${JSON.stringify(key)}`);
    this.keys.add(key);
    this.signal.throwIfAborted();
    return this.era === "stateless" ? this.askThroughStore(key, { method, params }) : this.askThroughSession(method, params);
  }

  private async askThroughStore(key: string, request: { method: string; params: Record<string, unknown> }): Promise<Record<string, unknown>> {
    await this.store.update(this.taskId, (task) =>
      isTerminal(task)
        ? undefined
        : { ...task, status: "input_required", inputRequests: { ...task.inputRequests, [key]: request }, lastUpdatedAt: new Date().toISOString() },
    );
    const answer = await until(
      this.store,
      this.taskId,
      this.signal,
      (task) => {
        if (task.inputResponses && Object.prototype.hasOwnProperty.call(task.inputResponses, key)) return { value: task.inputResponses[key] };
        if (isTerminal(task)) throw new Error(`task ${this.taskId} is ${task.status}`);
        return undefined;
      },
      () => new Error(`task ${this.taskId} is gone (expired)`),
    );
    // Taken: the answer need not stay in the store.
    await this.store.update(this.taskId, (task) => {
      if (!task.inputResponses || !Object.prototype.hasOwnProperty.call(task.inputResponses, key)) return undefined;
      const { [key]: _taken, ...rest } = task.inputResponses;
      return { ...task, inputResponses: rest };
    });
    return answer.value as Record<string, unknown>;
  }

  private async askThroughSession(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const meta = { ...(params._meta as Record<string, unknown> | undefined), [RELATED_TASK]: { taskId: this.taskId } };
    await this.setStatus("input_required", "working");
    try {
      const result = await this.session.request(method, { ...params, _meta: meta }, { signal: this.signal });
      // The answer is the client's data: held to the revision's definition, as a request's own questions are.
      const module = revisionModule(this.revision);
      const expected = module?.methods.get(method)?.results?.[0];
      if (module && expected && !module.validator(expected).is(result))
        throw new RpcError(ErrorCode.InvalidParams, `the client answered ${method} with an invalid ${expected}: ${summarize(module.validator(expected).check(result))}`);
      return result as Record<string, unknown>;
    } finally {
      await this.setStatus("working", "input_required");
    }
  }

  private async setStatus(status: "working" | "input_required", from: "working" | "input_required"): Promise<void> {
    await this.store.update(this.taskId, (task) => (task.status !== from ? undefined : { ...task, status, lastUpdatedAt: new Date().toISOString() }));
  }
}
