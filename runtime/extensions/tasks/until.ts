import type { TaskRecord, TaskStore } from "../../stores/task-store.js";

/**
 * Waits for a task to reach a state `decide` accepts (it returns a value) or refuses (it throws),
 * watching the store, so a change written by any instance counts. Rejects when the task is gone
 * (expired) with `gone()`, or when `signal` aborts.
 */
export function until<T>(store: TaskStore, taskId: string, signal: AbortSignal, decide: (task: TaskRecord) => T | undefined, gone: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      unwatch();
      signal.removeEventListener("abort", aborted);
      outcome();
    };
    const check = (task: TaskRecord | undefined) => {
      if (settled) return;
      if (!task) return finish(() => reject(gone()));
      try {
        const value = decide(task);
        if (value !== undefined) finish(() => resolve(value));
      } catch (error) {
        finish(() => reject(error));
      }
    };
    const aborted = () => finish(() => reject(signal.reason));
    const unwatch = store.watch(taskId, check);
    if (signal.aborted) return aborted();
    signal.addEventListener("abort", aborted, { once: true });
    // The state may already be there: written before the watch began.
    store.get(taskId).then(check, (error: unknown) => finish(() => reject(error)));
  });
}
