import type { TaskRecord, TaskStore } from "../../stores/task-store.js";
import { crossRequestPollMs } from "../../util/platform.js";

/**
 * Waits for a task to reach a state `decide` accepts (it returns a value) or refuses (it throws),
 * watching the store, so a change written by any instance counts. Rejects when the task is gone
 * (expired) with `gone()`, or when `signal` aborts. On workerd it also re-reads the store every
 * crossRequestPollMs: the answer a tasks/update writes comes from another request's context.
 */
export function until<T>(store: TaskStore, taskId: string, signal: AbortSignal, decide: (task: TaskRecord) => T | undefined, gone: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    let recheck: ReturnType<typeof setInterval> | undefined;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      unwatch();
      clearInterval(recheck);
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
    const read = () => store.get(taskId).then(check, (error: unknown) => finish(() => reject(error)));
    const aborted = () => finish(() => reject(signal.reason));
    const unwatch = store.watch(taskId, check);
    if (signal.aborted) return aborted();
    signal.addEventListener("abort", aborted, { once: true });
    const pollMs = crossRequestPollMs();
    if (pollMs !== undefined) recheck = setInterval(read, pollMs);
    // The state may already be there: written before the watch began.
    void read();
  });
}
