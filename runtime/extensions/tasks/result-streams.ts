import type { RequestId } from "../../jsonrpc/messages.js";

/**
 * 2025-11-25, the tasks specification's "Input Required Status": a task's questions go to the
 * client as messages related to a tasks/result request for that task, so that Streamable HTTP
 * sends them on that request's stream (not the GET stream, which a client may not open). Here are
 * the tasks/result requests still waiting, per session and task.
 */
export class ResultStreams {
  private readonly waiting = new WeakMap<object, Map<string, Waiting>>();

  /** A tasks/result for `taskId` is waiting in `session` under `requestId`; call the returned function once it is answered. */
  open(session: object, taskId: string, requestId: RequestId): () => void {
    const entry = this.entry(session, taskId);
    entry.ids.push(requestId);
    for (const wake of entry.wakers.splice(0)) wake(requestId);
    return () => {
      const at = entry.ids.indexOf(requestId);
      if (at >= 0) entry.ids.splice(at, 1);
      if (entry.ids.length === 0 && entry.wakers.length === 0) this.waiting.get(session)?.delete(taskId);
    };
  }

  /**
   * The id of a tasks/result waiting for `taskId`. With `wait` (a transport with a stream per
   * request), resolves once one arrives, the client having seen input_required; rejects when
   * `signal` aborts (the task ended). Without, undefined when none is waiting.
   */
  related(session: object, taskId: string, signal: AbortSignal, wait: boolean): Promise<RequestId | undefined> {
    const current = this.waiting.get(session)?.get(taskId)?.ids.at(-1);
    if (current !== undefined || !wait) return Promise.resolve(current);
    signal.throwIfAborted();
    const entry = this.entry(session, taskId);
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        const at = entry.wakers.indexOf(wake);
        if (at >= 0) entry.wakers.splice(at, 1);
        reject(signal.reason);
      };
      const wake = (id: RequestId) => {
        signal.removeEventListener("abort", onAbort);
        resolve(id);
      };
      entry.wakers.push(wake);
      signal.addEventListener("abort", onAbort, { once: true });
    });
  }

  private entry(session: object, taskId: string): Waiting {
    let tasks = this.waiting.get(session);
    if (!tasks) this.waiting.set(session, (tasks = new Map()));
    let entry = tasks.get(taskId);
    if (!entry) tasks.set(taskId, (entry = { ids: [], wakers: [] }));
    return entry;
  }
}

interface Waiting {
  readonly ids: RequestId[];
  readonly wakers: ((id: RequestId) => void)[];
}
