import type { Era } from "../../session/revisions.js";
import type { TaskRecord } from "../../stores/task-store.js";

/**
 * The wire shapes of a stored task. 2026-07-28 (the tasks extension): flat, `ttlMs` and
 * `pollIntervalMs`, the outcome or the questions inlined. 2025-11-25: `ttl` and `pollInterval`,
 * the CreateTaskResult wraps the task in `task`, and the outcome comes from tasks/result.
 */
export function taskView(era: Era, task: TaskRecord): Record<string, unknown> {
  const view: Record<string, unknown> = { taskId: task.taskId, status: task.status };
  if (task.statusMessage !== undefined) view.statusMessage = task.statusMessage;
  view.createdAt = task.createdAt;
  view.lastUpdatedAt = task.lastUpdatedAt;
  if (era === "stateless") {
    view.ttlMs = task.ttlMs;
    if (task.pollIntervalMs !== undefined) view.pollIntervalMs = task.pollIntervalMs;
  } else {
    view.ttl = task.ttlMs;
    if (task.pollIntervalMs !== undefined) view.pollInterval = task.pollIntervalMs;
  }
  return view;
}

/** 2026-07-28 DetailedTask (tasks/get, notifications/tasks): the task with what its status carries. */
export function detailedTaskView(task: TaskRecord): Record<string, unknown> {
  const view = taskView("stateless", task);
  // The result "matches the result type of the original request" (tasks.md), and every 2026-07-28
  // Result carries resultType (schema.ts Result): a tool's result is stored without it.
  if (task.status === "completed" && task.result) view.result = { resultType: "complete", ...task.result };
  if (task.status === "failed" && task.error) view.error = task.error;
  if (task.status === "input_required") view.inputRequests = task.inputRequests ?? {};
  return view;
}

/** The answer to a task-augmented request: 2026-07-28 `Result & Task` with resultType "task"; 2025-11-25 `{ task }`. */
export function createdTaskView(era: Era, task: TaskRecord): Record<string, unknown> {
  return era === "stateless" ? { resultType: "task", ...taskView(era, task) } : { task: taskView(era, task) };
}
