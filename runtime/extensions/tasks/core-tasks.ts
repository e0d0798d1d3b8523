import type { LatestSessionTypes } from "../../../generated/registry.js";
import type { HandlerContext } from "../../dispatch/context.js";
import { ErrorCode, RpcError } from "../../jsonrpc/errors.js";
import { hasCoreTasks } from "../../session/revisions.js";
import type { ServerSession } from "../../session/server-session.js";
import type { Logger } from "../../util/logger.js";
import { isTerminal, type TaskRecord } from "../../stores/task-store.js";
import { taskNotFound, type TaskManager } from "./task-manager.js";
import { until } from "./until.js";
import { taskView } from "./views.js";

// 2025-11-25's experimental tasks: the latest session-era revision's types.
type Task = LatestSessionTypes.Task;
type GetTaskResult = LatestSessionTypes.GetTaskResult;
type ListTasksResult = LatestSessionTypes.ListTasksResult;
type CancelTaskResult = LatestSessionTypes.CancelTaskResult;

/** 2025-11-25: the `_meta` key that ties a message to its task. */
const RELATED_TASK = "io.modelcontextprotocol/related-task";

/**
 * 2025-11-25's experimental tasks, over the same engine: tasks/get, tasks/result (waits for the
 * outcome), tasks/cancel, tasks/list (the tasks this session created) and
 * notifications/tasks/status to the session that created the task. Params and results are held to
 * the revision's generated validators by the dispatcher, like any core method.
 */
export class CoreTasks {
  private readonly created = new WeakMap<ServerSession, string[]>();

  constructor(
    private readonly tasks: TaskManager,
    private readonly logger: Logger,
  ) {}

  /** The engine's observer: remembers each session's tasks and tells the session of status changes. */
  observe(task: TaskRecord, origin: HandlerContext): void {
    if (!hasCoreTasks(origin.revision)) return;
    const session = origin.session;
    const ids = this.created.get(session) ?? [];
    if (!ids.includes(task.taskId)) {
      ids.push(task.taskId);
      this.created.set(session, ids);
      return;
    }
    if (session.closed) return;
    session
      .notify("notifications/tasks/status", taskView("session", task))
      .catch((error: Error) => this.logger("debug", `notifications/tasks/status for ${task.taskId} not sent: ${error.message}`));
  }

  get(params: { taskId: string }, context: HandlerContext): Promise<GetTaskResult> {
    return this.tasks.find(params.taskId, context).then(sessionTask);
  }

  /** The request's own result once the task is over (completed), or its error (failed, cancelled). */
  async result(params: { taskId: string }, context: HandlerContext): Promise<Record<string, unknown>> {
    await this.tasks.find(params.taskId, context);
    const task = await until(this.tasks.store, params.taskId, context.signal, (current) => (isTerminal(current) ? current : undefined), () => taskNotFound(params.taskId));
    if (task.status === "failed" && task.error) throw RpcError.from(task.error);
    if (task.status !== "completed" || !task.result) throw new RpcError(ErrorCode.InvalidParams, `Task ${params.taskId} was ${task.status}: it has no result`, { taskId: params.taskId });
    const meta = { ...(task.result._meta as Record<string, unknown> | undefined), [RELATED_TASK]: { taskId: task.taskId } };
    return { ...task.result, _meta: meta };
  }

  async cancel(params: { taskId: string }, context: HandlerContext): Promise<CancelTaskResult> {
    const task = await this.tasks.find(params.taskId, context);
    // 2025-11-25: a task in a terminal status cannot be cancelled (-32602).
    if (isTerminal(task)) throw new RpcError(ErrorCode.InvalidParams, `Cannot cancel task ${params.taskId}: it is already ${task.status}`, { taskId: params.taskId });
    return sessionTask(await this.tasks.cancel(params.taskId, context));
  }

  async list(context: HandlerContext, page: (tasks: Task[]) => ListTasksResult): Promise<ListTasksResult> {
    const ids = this.created.get(context.session) ?? [];
    const found = await Promise.all(ids.map((taskId) => this.tasks.store.get(taskId)));
    return page(found.filter((task): task is TaskRecord => task !== undefined).map(sessionTask));
  }
}

/** 2025-11-25's Task, as views.ts builds it for the session era. */
function sessionTask(task: TaskRecord): Task & GetTaskResult & CancelTaskResult {
  return taskView("session", task) as unknown as Task & GetTaskResult & CancelTaskResult;
}
