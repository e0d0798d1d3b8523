import type { HandlerContext } from "../../dispatch/context.js";
import type { ExtensionMethod } from "../../dispatch/router.js";
import { EXTENSION_LOADERS } from "../../../generated/registry.js";
import { loadExtension, type LoadedExtension } from "../../session/extensions.js";
import { checkResult, isValidResult, reported, summarize } from "../../session/validate.js";
import { ErrorCode, RpcError } from "../../jsonrpc/errors.js";
import { declaresTasksExtension, TASKS_EXTENSION } from "./protocol.js";
import type { TaskManager } from "./task-manager.js";
import { detailedTaskView } from "./views.js";

/**
 * 2026-07-28 with the io.modelcontextprotocol/tasks extension: tasks/get, tasks/update and
 * tasks/cancel, served through the dispatcher's extension methods (methods no revision defines),
 * their params and results held to the extension's generated validators
 * (generated/extensions/tasks, loaded on the first tasks request). Each is refused with -32021 to
 * a request whose client capabilities do not declare the extension, and with -32602 for a task id
 * that is unknown, expired or another caller's.
 */
export function tasksExtensionMethods(tasks: TaskManager): ReadonlyMap<string, ExtensionMethod> {
  const method = (name: "tasks/get" | "tasks/update" | "tasks/cancel", serve: (params: Record<string, unknown>, context: HandlerContext) => Promise<Record<string, unknown>>): [string, ExtensionMethod] => {
    return [
      name,
      {
        handler: async (params, context) => {
          const module = await loadTasksExtension();
          negotiated(context as HandlerContext, name);
          const descriptor = module.methods.get(name)!;
          // tasks/update: answers are checked one by one against what their question expects, and
          // answers to keys that are not outstanding are ignored (the extension: a server SHOULD),
          // so only the map's shape is checked here.
          const checked = name === "tasks/update" && isObject(params.inputResponses) ? { ...params, inputResponses: {} } : params;
          const issues = module.validator(descriptor.params!).check(checked);
          if (issues.length > 0) throw new RpcError(ErrorCode.InvalidParams, `Invalid params for ${name}: ${summarize(issues)}`, { issues: reported(issues) });
          return serve(params, context as HandlerContext);
        },
        // Done by the handler, once the generated validators are loaded.
        checkParams() {},
        // The same result check as a core method's (session/validate.ts), once the module is loaded.
        checkResult(result) {
          const descriptor = loadedTasksExtension?.methods.get(name);
          if (loadedTasksExtension && descriptor && !isValidResult(loadedTasksExtension, descriptor, result)) checkResult(loadedTasksExtension, descriptor, name, result);
        },
      },
    ];
  };
  return new Map([
    method("tasks/get", async (params, context) => detailedTaskView(await tasks.find(params.taskId as string, context))),
    method("tasks/update", async (params, context) => {
      await tasks.answer(params.taskId as string, params.inputResponses as Record<string, unknown>, context);
      return {};
    }),
    method("tasks/cancel", async (params, context) => {
      // Idempotent: cancelling a task that is over is acknowledged the same way.
      await tasks.cancel(params.taskId as string, context);
      return {};
    }),
  ]);
}

/** The generated module of the extension, once loaded; see {@link loadTasksExtension}. */
let loadedTasksExtension: LoadedExtension | undefined;
let loadingTasksExtension: Promise<LoadedExtension> | undefined;

/** Loads generated/extensions/tasks on first use: a server that never sees a tasks request never pays for its validators. */
export function loadTasksExtension(): Promise<LoadedExtension> {
  return (loadingTasksExtension ??= EXTENSION_LOADERS[TASKS_EXTENSION]().then((module) => (loadedTasksExtension = loadExtension(module))));
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
  await loadTasksExtension();
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

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
