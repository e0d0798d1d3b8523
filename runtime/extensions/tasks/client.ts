import { ErrorCode, RpcError } from "../../jsonrpc/errors.js";
import type { Era } from "../../session/revisions.js";

/** What following a task needs of the client. */
export interface TaskChannel {
  readonly era: Era;
  request(method: string, params: Record<string, unknown>, options: { signal?: AbortSignal; timeoutMs?: number }): Promise<Record<string, unknown>>;
  /** The client's `handlers`' answers to a task's inputRequests, by key. */
  answerInputs(requests: Record<string, unknown>): Promise<Record<string, unknown>>;
}

/** How the client follows a tool call that became a task: a callback with the task's id, and a signal that cancels it. */
export interface FollowOptions {
  /** Learns the task's id as soon as it is known: keep it to resume after a restart (`McpClient.awaitTask`). */
  readonly onTask?: (taskId: string) => void;
  /** Aborting stops following and cancels the task (tasks/cancel). */
  readonly signal?: AbortSignal;
}

/** When the server gives no pollIntervalMs. */
const DEFAULT_POLL_INTERVAL_MS = 1_000;

/** A task-augmented answer: 2026-07-28 `resultType: "task"`; 2025-11-25 `{ task }` in place of the result. */
export function createdTask(era: Era, result: Record<string, unknown>): Record<string, unknown> | undefined {
  if (era === "stateless") return result.resultType === "task" ? result : undefined;
  const task = result.task;
  return typeof task === "object" && task !== null && !("content" in result) ? (task as Record<string, unknown>) : undefined;
}

/**
 * Follows a task to its outcome: polls tasks/get no faster than the task's polling interval,
 * answers its inputRequests once each through the client's handlers (tasks/update, 2026-07-28;
 * 2025-11-25: questions come as requests, on tasks/result once input_required), and returns the
 * request's result: the inlined result (2026-07-28) or tasks/result's (2025-11-25). A failed task
 * throws its JSON-RPC error; a cancelled or expired one throws too. Bounded by the task's ttl.
 */
export async function followTask(channel: TaskChannel, task: Record<string, unknown>, options: FollowOptions = {}): Promise<Record<string, unknown>> {
  const taskId = task.taskId;
  if (typeof taskId !== "string") throw new RpcError(ErrorCode.InternalError, "the server answered a task without a taskId");
  options.onTask?.(taskId);
  const { signal } = options;
  const answered = new Set<string>();
  try {
    for (let current = task; ; current = await channel.request("tasks/get", { taskId }, { signal })) {
      const status = current.status;
      if (status === "completed" || status === "failed") return await outcome(channel, taskId, current, signal);
      if (status === "cancelled") throw new RpcError(ErrorCode.InvalidRequest, `task ${taskId} was cancelled${typeof current.statusMessage === "string" ? `: ${current.statusMessage}` : ""}`, { taskId });
      if (status === "input_required" && channel.era === "stateless") await answer(channel, taskId, current.inputRequests, answered, signal);
      if (expired(current)) throw new RpcError(ErrorCode.InvalidRequest, `task ${taskId} outlived its ttl without finishing`, { taskId });
      // 2025-11-25 "Input Required Status": the requestor SHOULD call tasks/result, on which the
      // server may deliver the task's questions (the handlers answer them); it answers once the
      // task is over, so it waits as long as the task may live, not a request's timeout.
      if (status === "input_required" && channel.era === "session") return await channel.request("tasks/result", { taskId }, { signal, timeoutMs: remaining(current) });
      await sleep(interval(channel.era, current), signal);
    }
  } catch (error) {
    if (signal?.aborted) await channel.request("tasks/cancel", { taskId }, {}).catch(() => {});
    throw error;
  }
}

async function outcome(channel: TaskChannel, taskId: string, task: Record<string, unknown>, signal: AbortSignal | undefined): Promise<Record<string, unknown>> {
  if (channel.era !== "stateless") return channel.request("tasks/result", { taskId }, { signal });
  if (task.status === "failed") {
    const error = task.error as { code?: unknown; message?: unknown; data?: unknown } | undefined;
    throw new RpcError(typeof error?.code === "number" ? error.code : ErrorCode.InternalError, typeof error?.message === "string" ? error.message : `task ${taskId} failed`, error?.data);
  }
  const result = task.result;
  if (typeof result !== "object" || result === null) throw new RpcError(ErrorCode.InternalError, `task ${taskId} completed without a result`);
  return { ...(result as Record<string, unknown>), resultType: "complete" };
}

/** Answers the questions not answered yet (the extension: deduplicate keys across polls). */
async function answer(channel: TaskChannel, taskId: string, requests: unknown, answered: Set<string>, signal: AbortSignal | undefined): Promise<void> {
  const fresh = Object.fromEntries(Object.entries((requests ?? {}) as Record<string, unknown>).filter(([key]) => !answered.has(key)));
  if (Object.keys(fresh).length === 0) return;
  const inputResponses = await channel.answerInputs(fresh);
  await channel.request("tasks/update", { taskId, inputResponses }, { signal });
  for (const key of Object.keys(fresh)) answered.add(key);
}

function interval(era: Era, task: Record<string, unknown>): number {
  const ms = era === "stateless" ? task.pollIntervalMs : task.pollInterval;
  return typeof ms === "number" && ms > 0 ? ms : DEFAULT_POLL_INTERVAL_MS;
}

function expired(task: Record<string, unknown>): boolean {
  return remaining(task) < 0;
}

/** How long the task may still live (ms), from its ttl; unbounded without one. */
function remaining(task: Record<string, unknown>): number {
  const ttl = task.ttlMs ?? task.ttl;
  return typeof ttl === "number" && typeof task.createdAt === "string" ? Date.parse(task.createdAt) + ttl - Date.now() : Infinity;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => (signal?.removeEventListener("abort", aborted), resolve()), ms);
    const aborted = () => (clearTimeout(timer), reject(signal!.reason));
    signal?.addEventListener("abort", aborted, { once: true });
  });
}
