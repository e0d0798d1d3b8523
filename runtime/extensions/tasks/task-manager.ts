import type { HandlerContext, RequestContext, TaskContext, TaskLauncher, TaskOptions } from "../../dispatch/context.js";
import { ExtensionResult } from "../../dispatch/router.js";
import { ErrorCode, RpcError } from "../../jsonrpc/errors.js";
import { hasCoreTasks, revisionModule } from "../../session/revisions.js";
import { reported, summarize } from "../../session/validate.js";
import type { LoadedExtension } from "../../session/extensions.js";
import { isTerminal, MemoryTaskStore, type TaskRecord, type TaskStore } from "../../stores/task-store.js";
import type { Logger } from "../../util/logger.js";
import { createdTaskView } from "./views.js";
import { declaresTasksExtension, TASKS_EXTENSION } from "./protocol.js";
import { InlineTaskContext, RunningTaskContext } from "./task-context.js";

export interface TasksOptions {
  /** Where tasks live (default: this process's memory). Instances behind one load balancer share one. */
  readonly store?: TaskStore;
  /** How long a task is kept from its creation, unless `ctx.task` says otherwise (default: one hour); null: no limit. */
  readonly ttlMs?: number | null;
  /** How often clients should poll tasks/get (default: 500 ms). */
  readonly pollIntervalMs?: number;
}

const DEFAULT_TTL_MS = 60 * 60_000;
const DEFAULT_POLL_INTERVAL_MS = 500;

/** Called when a task this instance runs is created and whenever its status changes (2025-11-25: tasks/list, status notifications). */
export type TaskObserver = (task: TaskRecord, origin: HandlerContext) => void;

/**
 * The task engine, behind `ctx.task`: creates a task (durably, before the CreateTaskResult goes
 * out), runs the work, records its outcome, and carries answers (tasks/update) and cancellation
 * (tasks/cancel) from the store to the work, whichever instance received them.
 */
export class TaskManager implements TaskLauncher {
  readonly store: TaskStore;
  private readonly ttlMs: number | null;
  private readonly pollIntervalMs: number;

  constructor(
    options: TasksOptions,
    private readonly logger: Logger,
    /** The tasks extension's generated module (2026-07-28), loaded on first use: tasks-extension.ts's loader. */
    private readonly tasksExtension: () => Promise<LoadedExtension>,
    private readonly observe?: TaskObserver,
  ) {
    this.store = options.store ?? new MemoryTaskStore();
    this.ttlMs = options.ttlMs === undefined ? DEFAULT_TTL_MS : options.ttlMs;
    this.pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  }

  /** Only tools/call is task-augmented (both eras); the client says it can take a task per request. */
  canCreate(context: HandlerContext): boolean {
    if (context.method !== "tools/call") return false;
    if (context.era === "stateless") return declaresTasksExtension(context.client.capabilities);
    const augmentation = context.params.task;
    return hasCoreTasks(context.revision) && typeof augmentation === "object" && augmentation !== null;
  }

  async launch<R>(context: HandlerContext, work: (task: TaskContext) => R | Promise<R>, options: TaskOptions): Promise<R> {
    if (!this.canCreate(context)) {
      if (options.required) throw taskRequired(context);
      return work(new InlineTaskContext(context));
    }
    const now = new Date().toISOString();
    const record: TaskRecord = {
      // Web Crypto (Node, Bun, Deno, workerd): 122 random bits.
      taskId: crypto.randomUUID(),
      status: "working",
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: this.ttlFor(context, options),
      pollIntervalMs: options.pollIntervalMs ?? this.pollIntervalMs,
      ...(options.statusMessage === undefined ? {} : { statusMessage: options.statusMessage }),
      ...(ownerOf(context) === undefined ? {} : { owner: ownerOf(context) }),
    };
    const created = createdTaskView(context.era, record);
    await checkCreated(context, created, this.tasksExtension);
    await this.store.create(record);
    this.observe?.(record, context);
    this.run(record, context, work);
    return new ExtensionResult(created) as unknown as R;
  }

  /** The task, if `context` may see it; otherwise -32602, the same as for an id that never existed (no existence leak). */
  async find(taskId: string, context: HandlerContext): Promise<TaskRecord> {
    const task = await this.store.get(taskId);
    if (!task || !mayAccess(task, context)) throw taskNotFound(taskId);
    return task;
  }

  /** Cancels a task that is not over yet; the instance running it stops the work. Returns the task as it is now. */
  async cancel(taskId: string, context: HandlerContext): Promise<TaskRecord> {
    await this.find(taskId, context);
    const task = await this.store.update(taskId, (current) =>
      isTerminal(current) ? undefined : { ...withoutInput(current), status: "cancelled", statusMessage: "Cancelled by the client", lastUpdatedAt: new Date().toISOString() },
    );
    if (!task) throw taskNotFound(taskId);
    return task;
  }

  /**
   * tasks/update: answers to questions the task still has outstanding, each checked against the
   * result type its question expects (-32602 naming the key); answers to keys that are not
   * outstanding are ignored, as the extension says a server should. Once none is left, the task
   * is working again.
   */
  async answer(taskId: string, responses: Record<string, unknown>, context: HandlerContext): Promise<void> {
    const task = await this.find(taskId, context);
    const module = revisionModule(context.revision);
    for (const [key, request] of Object.entries(task.inputRequests ?? {})) {
      if (!Object.prototype.hasOwnProperty.call(responses, key)) continue;
      const expected = module?.inputRequests.get(request.method)?.results?.[0];
      if (expected && !module!.validator(expected).is(responses[key]))
        throw new RpcError(ErrorCode.InvalidParams, `Invalid params: inputResponses["${key}"] is not a ${expected} (the answer to ${request.method})`, {
          path: `/params/inputResponses/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`,
        });
    }
    await this.store.update(taskId, (current) => {
      const outstanding = { ...current.inputRequests };
      const answers = { ...current.inputResponses };
      let taken = 0;
      for (const key of Object.keys(outstanding))
        if (Object.prototype.hasOwnProperty.call(responses, key)) {
          answers[key] = responses[key];
          delete outstanding[key];
          taken++;
        }
      if (taken === 0 || isTerminal(current)) return undefined;
      const waiting = Object.keys(outstanding).length > 0;
      const { inputRequests: _asked, ...rest } = current;
      return {
        ...rest,
        ...(waiting ? { inputRequests: outstanding } : {}),
        status: waiting ? "input_required" : "working",
        inputResponses: answers,
        lastUpdatedAt: new Date().toISOString(),
      };
    });
  }

  private ttlFor(context: HandlerContext, options: TaskOptions): number | null {
    const ttl = options.ttlMs === undefined ? this.ttlMs : options.ttlMs;
    // 2025-11-25: the client may ask for a ttl; the server decides, and keeps a task no longer than it would anyway.
    const requested = (context.params.task as { ttl?: unknown } | undefined)?.ttl;
    if (context.era === "session" && typeof requested === "number" && Number.isInteger(requested) && requested > 0) return ttl === null ? requested : Math.min(ttl, requested);
    return ttl;
  }

  /** Runs the work in the background, stopping it when the task ends otherwise (cancelled). */
  private run<R>(record: TaskRecord, origin: HandlerContext, work: (task: TaskContext) => R | Promise<R>): void {
    const controller = new AbortController();
    const task = new RunningTaskContext(origin, record.taskId, this.store, controller.signal);
    let lastStatus = record.status;
    const unwatch = this.store.watch(record.taskId, (current) => {
      if (current.status !== lastStatus) {
        lastStatus = current.status;
        this.observe?.(current, origin);
      }
      if (isTerminal(current)) {
        unwatch();
        controller.abort(new Error(`task ${record.taskId} is ${current.status}`));
      }
    });
    const settle = (change: (task: TaskRecord) => TaskRecord) =>
      this.store.update(record.taskId, (current) => (isTerminal(current) ? undefined : change(current)));
    const running = Promise.resolve()
      .then(() => work(task))
      .then(
        (result) => settle((current) => ({ ...withoutInput(current), status: "completed", result: result as Record<string, unknown>, lastUpdatedAt: new Date().toISOString() })),
        (error: unknown) => {
          const rpc = error instanceof RpcError ? error : new RpcError(ErrorCode.InternalError, error instanceof Error ? error.message : String(error));
          return settle((current) => ({ ...withoutInput(current), status: "failed", statusMessage: rpc.message, error: rpc.toJSON(), lastUpdatedAt: new Date().toISOString() }));
        },
      )
      .catch((error: Error) => this.logger("error", `task ${record.taskId}: its outcome could not be stored: ${error.message}`));
    // A Worker ends a request's work with its response unless told to wait (fetchHandler passes ctx.waitUntil).
    const waitUntil = origin.transport?.waitUntil;
    if (typeof waitUntil === "function") (waitUntil as (work: Promise<unknown>) => void)(running);
  }
}

function withoutInput(task: TaskRecord): TaskRecord {
  const { inputRequests: _requests, inputResponses: _responses, ...rest } = task;
  return rest;
}

/**
 * Who a task belongs to: the access token's client and subject when the endpoint verifies tokens
 * (the extension: auth checks on every task request). Without auth the unguessable id is the
 * only credential, as the extension allows.
 */
function ownerOf(context: HandlerContext): string | undefined {
  const auth = context.auth;
  return auth ? `auth:${auth.clientId ?? ""}:${auth.subject ?? ""}` : undefined;
}

function mayAccess(task: TaskRecord, context: HandlerContext): boolean {
  return task.owner === undefined || task.owner === ownerOf(context);
}

/** The CreateTaskResult against its generated definition (the extension's, or 2025-11-25's): invalid data is never sent. */
async function checkCreated(context: HandlerContext, created: Record<string, unknown>, tasksExtension: () => Promise<LoadedExtension>): Promise<void> {
  const validator = context.era === "stateless" ? (await tasksExtension()).validator("CreateTaskResult") : revisionModule(context.revision)?.validator("CreateTaskResult");
  if (!validator || validator.is(created)) return;
  const issues = validator.check(created);
  throw new RpcError(ErrorCode.InternalError, `the task's CreateTaskResult is invalid: ${summarize(issues)}`, { issues: reported(issues) });
}

/** -32602, for tasks/get (MUST), tasks/update and tasks/cancel (SHOULD): unknown, expired or not the caller's. */
export function taskNotFound(taskId: string): RpcError {
  return new RpcError(ErrorCode.InvalidParams, `Failed to retrieve task: no task ${JSON.stringify(taskId)} (unknown, or expired and purged)`, { taskId });
}

/** A client that cannot take a task asked for work that must run as one. */
export function taskRequired(context: Pick<RequestContext, "era" | "method">): RpcError {
  if (context.era === "stateless")
    return new RpcError(ErrorCode.MissingRequiredClientCapability, `Missing required client capability: extensions["${TASKS_EXTENSION}"] (${context.method} runs only as a task)`, {
      requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
    });
  // 2025-11-25, tools with taskSupport "required": a call that is not task-augmented gets -32601.
  return new RpcError(ErrorCode.MethodNotFound, `${context.method} must be task-augmented (params.task): this tool runs only as a task`);
}
