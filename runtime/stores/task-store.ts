/**
 * A task as the runtime keeps it, in one shape for both eras; the wire of each era is a view of it
 * (tasks/tasks-extension.ts for 2026-07-28 with the io.modelcontextprotocol/tasks extension,
 * tasks/core-tasks.ts for 2025-11-25's experimental tasks).
 */
export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** A question the work asked the client, surfaced in `inputRequests` (2026-07-28). */
export interface TaskInputRequest {
  readonly method: string;
  readonly params: Record<string, unknown>;
}

/**
 * A task as the store keeps it: its status, result or error, the questions it waits on, its owner
 * and its lifetime.
 */
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


/**
 * Where tasks live, so that whichever instance a tasks/get, tasks/update or tasks/cancel reaches
 * can answer it, and the instance running the work hears about answers and cancellation. The
 * work's instance writes progress and the outcome; every instance may write answers and
 * cancellation. A store forgets a task once its ttlMs from createdAt has passed (the spec lets a
 * server purge it then), and never returns one past that.
 */
export interface TaskStore {
  /** Resolves once a `get` for the task would find it, on every instance (a CreateTaskResult must not come earlier). */
  create(task: TaskRecord): Promise<void>;
  /** The task's record, if it exists and has not expired. */
  get(taskId: string): Promise<TaskRecord | undefined>;
  /**
   * Read, change, write, as one step against concurrent writers (Redis: WATCH/MULTI or a
   * script). `change` returns the new record, or undefined to leave it as it is; the result is
   * what the store holds afterwards (undefined: no such task).
   */
  update(taskId: string, change: (task: TaskRecord) => TaskRecord | undefined): Promise<TaskRecord | undefined>;
  /** Calls `listener` with the record after every change written through any instance; returns the unsubscribe. */
  watch(taskId: string, listener: (task: TaskRecord) => void): () => void;
}

/** One process's tasks: the default, enough for a single instance. */
export class MemoryTaskStore implements TaskStore {
  private readonly tasks = new Map<string, TaskRecord>();
  private readonly listeners = new Map<string, Set<(task: TaskRecord) => void>>();

  create(task: TaskRecord): Promise<void> {
    this.sweep();
    this.tasks.set(task.taskId, task);
    return Promise.resolve();
  }

  get(taskId: string): Promise<TaskRecord | undefined> {
    return Promise.resolve(this.live(taskId));
  }

  update(taskId: string, change: (task: TaskRecord) => TaskRecord | undefined): Promise<TaskRecord | undefined> {
    const current = this.live(taskId);
    if (!current) return Promise.resolve(undefined);
    const next = change(current);
    if (!next || next === current) return Promise.resolve(current);
    this.tasks.set(taskId, next);
    for (const listener of this.listeners.get(taskId) ?? []) listener(next);
    return Promise.resolve(next);
  }

  watch(taskId: string, listener: (task: TaskRecord) => void): () => void {
    let set = this.listeners.get(taskId);
    if (!set) this.listeners.set(taskId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(taskId);
    };
  }

  private live(taskId: string): TaskRecord | undefined {
    const task = this.tasks.get(taskId);
    if (task && isExpired(task)) {
      this.tasks.delete(taskId);
      return undefined;
    }
    return task;
  }

  /** Forgets expired tasks, so memory is bounded by the tasks alive within their ttl. */
  private sweep(): void {
    const now = Date.now();
    for (const [taskId, task] of this.tasks) if (isExpired(task, now)) this.tasks.delete(taskId);
  }
}
