/**
 * A task as the runtime keeps it (runtime/stores/task-store.ts), in one shape for both eras; the
 * wire of each era is a view of it (tasks-extension.ts for 2026-07-28 with the
 * io.modelcontextprotocol/tasks extension, core-tasks.ts for 2025-11-25's experimental tasks).
 */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** A question the work asked the client, surfaced in `inputRequests` (2026-07-28). */
export interface TaskInputRequest {
  readonly method: string;
  readonly params: Record<string, unknown>;
}

export interface TaskRecord {
  /** Unguessable (128 random bits): the id is the client's only handle on the task. */
  readonly taskId: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  /** ISO 8601. */
  readonly createdAt: string;
  readonly lastUpdatedAt: string;
  /** Kept this long from createdAt; null: no limit. */
  readonly ttlMs: number | null;
  readonly pollIntervalMs?: number;
  /** completed: the request's result (a CallToolResult, isError included). */
  readonly result?: Record<string, unknown>;
  /** failed: the JSON-RPC error the request ended with. */
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
  /** input_required: the questions still unanswered, by key (unique over the task's life). */
  readonly inputRequests?: Readonly<Record<string, TaskInputRequest>>;
  /** Answers tasks/update delivered that the work has not taken yet, by key. */
  readonly inputResponses?: Readonly<Record<string, unknown>>;
  /** Who may see the task: the access token's principal, or the session that made it (see owner.ts). */
  readonly owner?: string;
}

export const TERMINAL: ReadonlySet<TaskStatus> = new Set(["completed", "failed", "cancelled"]);

export function isTerminal(task: TaskRecord): boolean {
  return TERMINAL.has(task.status);
}

/** Whether the task has outlived its ttl at `now` (ms since the epoch). */
export function isExpired(task: TaskRecord, now = Date.now()): boolean {
  return task.ttlMs !== null && Date.parse(task.createdAt) + task.ttlMs <= now;
}

/** Whether a request's client capabilities declare the tasks extension (2026-07-28, per request). */
export function declaresTasksExtension(capabilities: Readonly<Record<string, unknown>>): boolean {
  const extensions = capabilities.extensions;
  return typeof extensions === "object" && extensions !== null && (extensions as Record<string, unknown>)[TASKS_EXTENSION] !== undefined;
}
