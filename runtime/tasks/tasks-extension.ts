import type { HandlerContext } from "../dispatch/context.js";
import type { ExtensionMethod } from "../dispatch/router.js";
import { ErrorCode, RpcError } from "../jsonrpc/errors.js";
import { declaresTasksExtension, TASKS_EXTENSION } from "./task.js";
import type { TaskManager } from "./task-manager.js";
import { detailedTaskView } from "./views.js";

/**
 * 2026-07-28 with the io.modelcontextprotocol/tasks extension: tasks/get, tasks/update and
 * tasks/cancel, served through the dispatcher's extension methods (methods no revision defines).
 * Each is refused with -32021 to a request whose client capabilities do not declare the extension,
 * and with -32602 for a task id that is unknown, expired or another caller's.
 */
export function tasksExtensionMethods(tasks: TaskManager): ReadonlyMap<string, ExtensionMethod> {
  const method = (name: string, fields: readonly (readonly [string, "string" | "object"])[], serve: (params: Record<string, unknown>, context: HandlerContext) => Promise<Record<string, unknown>>): [string, ExtensionMethod] => [
    name,
    {
      handler: (params, context) => serve(params, negotiated(context as HandlerContext, name)),
      checkParams(params) {
        for (const [field, type] of fields) {
          const value = (params as Record<string, unknown>)[field];
          const ok = type === "string" ? typeof value === "string" : typeof value === "object" && value !== null && !Array.isArray(value);
          if (!ok)
            throw new RpcError(ErrorCode.InvalidParams, `Invalid params for ${name}: /params/${field} must be ${type === "string" ? "a string" : "an object"}`, {
              path: `/params/${field}`,
            });
        }
      },
      // The results are built here, from the store's record, never from a handler's data.
      checkResult() {},
    },
  ];
  return new Map([
    method("tasks/get", [["taskId", "string"]], async (params, context) => detailedTaskView(await tasks.find(params.taskId as string, context))),
    method("tasks/update", [["taskId", "string"], ["inputResponses", "object"]], async (params, context) => {
      await tasks.answer(params.taskId as string, params.inputResponses as Record<string, unknown>, context);
      return {};
    }),
    method("tasks/cancel", [["taskId", "string"]], async (params, context) => {
      // Idempotent: cancelling a task that is over is acknowledged the same way.
      await tasks.cancel(params.taskId as string, context);
      return {};
    }),
  ]);
}

/** The context, once the request is known to have negotiated the extension. */
function negotiated(context: HandlerContext, method: string): HandlerContext {
  // Other session-era revisions do not have tasks; 2025-11-25's are core-tasks.ts's.
  if (context.era !== "stateless") throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${method} is not a client request in MCP ${context.revision}`);
  if (!declaresTasksExtension(context.client.capabilities))
    throw new RpcError(ErrorCode.MissingRequiredClientCapability, `Missing required client capability: extensions["${TASKS_EXTENSION}"] (for ${method})`, {
      requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
    });
  return context;
}

/**
 * subscriptions/listen with `notifications.taskIds` (the extension's status notifications): the
 * ids of tasks this request may see are honoured, and each change of one that shows in tasks/get
 * is sent as notifications/tasks carrying the whole DetailedTask, through the store (so a change
 * made on any instance). A request that did not negotiate the extension: -32021.
 */
export async function watchTasks(
  tasks: TaskManager,
  taskIds: unknown,
  context: HandlerContext,
  notify: (task: Record<string, unknown>) => void,
): Promise<{ readonly honoured: string[]; stop(): void }> {
  negotiated(context, "subscriptions/listen (notifications.taskIds)");
  if (!Array.isArray(taskIds) || !taskIds.every((id) => typeof id === "string"))
    throw new RpcError(ErrorCode.InvalidParams, "Invalid params for subscriptions/listen: /params/notifications/taskIds must be an array of strings", {
      path: "/params/notifications/taskIds",
    });
  const found = await Promise.all(taskIds.map((taskId: string) => tasks.find(taskId, context).then(() => taskId, () => undefined)));
  const honoured = [...new Set(found.filter((taskId): taskId is string => taskId !== undefined))];
  const stops = honoured.map((taskId) => {
    let last = "";
    return tasks.store.watch(taskId, (task) => {
      const view = detailedTaskView(task);
      const json = JSON.stringify(view);
      if (json === last) return;
      last = json;
      notify(view);
    });
  });
  return { honoured, stop: () => stops.forEach((stop) => stop()) };
}
