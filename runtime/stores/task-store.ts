import { isExpired, type TaskRecord } from "../tasks/task.js";

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
