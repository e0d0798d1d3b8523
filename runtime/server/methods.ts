import type { LatestSessionServerHandlers as SessionEraHandlers, LatestStatelessServerHandlers as StatelessHandlers } from "../../generated/registry.js";
import type { Handler, HandlerContext, RequestContext } from "../dispatch/context.js";
import { handlerTable, type AsWritten } from "../dispatch/router.js";
import { ErrorCode, RpcError } from "../jsonrpc/errors.js";
import type { Revision } from "../session/revisions.js";
import type { CoreTasks } from "../extensions/tasks/core-tasks.js";
import { complete } from "./completion.js";
import type { Paginator } from "./pagination.js";
import type { PromptRegistry } from "./prompts.js";
import type { ResourceDefinition, ResourceRegistry } from "./resources.js";
import type { ListKind, Subscriptions } from "./subscriptions.js";
import type { ToolRegistry } from "./tools.js";

/**
 * The requests the server answers, typed by the generated handler interfaces the registry names:
 * those of the latest session-era revision (where runtime/shared/types.ts takes its types from)
 * but initialize, which the session answers; plus the stateless-only methods of the latest
 * stateless-era revision, with the fields the dispatcher completes left optional. A handler
 * returning the wrong shape does not compile.
 */
export type RuntimeHandlers = Pick<SessionEraHandlers<RequestContext>, Exclude<keyof SessionEraHandlers, "initialize">> & {
  [M in "server/discover" | "subscriptions/listen"]: AsWritten<StatelessHandlers<RequestContext>[M]>;
};

/** What the runtime's own methods read of the server (server.ts): its registries and declarations, not the server. */
export interface MethodsHost {
  /** Served revisions, oldest first. */
  readonly revisions: readonly Revision[];
  readonly instructions: string | undefined;
  readonly tools: Pick<ToolRegistry, "offered" | "hasTaskTools" | "list" | "call">;
  readonly resources: Pick<ResourceRegistry, "offered" | "list" | "listTemplates" | "read" | "template">;
  readonly prompts: Pick<PromptRegistry, "offered" | "list" | "render" | "get">;
  readonly subscriptions: Pick<Subscriptions, "subscribe" | "unsubscribe" | "listen">;
  readonly coreTasks: Pick<CoreTasks, "get" | "result" | "cancel" | "list">;
  readonly paginator: Pick<Paginator, "page">;
  /** ServerOptions.visible: whether a request may see an item in lists. */
  readonly visible: ((kind: ListKind, name: string, context: RequestContext) => boolean) | undefined;
  /** As declared to a client of `revision` (the latest served without it). */
  capabilities(revision?: Revision): Record<string, unknown>;
}

/** The registries read params as plain records: the dispatcher has validated them against the request's revision. */
const fields = (params: object): Record<string, unknown> => params as Record<string, unknown>;

/**
 * The methods the runtime answers itself, from what is registered with the server: lists and
 * calls of tools, resources and prompts, subscriptions, core tasks (2025-11-25), completion,
 * logging level, ping and server/discover. initialize is the session's (session/server-session.ts).
 * test/runtime/server/methods.test.ts holds the table to the client requests of the served revisions.
 */
export function runtimeMethods(host: MethodsHost): ReadonlyMap<string, Handler> {
  // Looked up per request, so registrations after `listen` are served too.
  const offering =
    <P, R>(kind: ListKind, handler: (params: P, context: RequestContext) => R) =>
    (params: P, context: RequestContext): R => {
      if (!host[kind].offered) throw new RpcError(ErrorCode.MethodNotFound, `Method not found: this server offers no ${kind}`);
      return handler(params, context);
    };
  const offeringTasks =
    <P, R>(handler: (params: P, context: RequestContext) => R) =>
    (params: P, context: RequestContext): R => {
      if (!host.tools.hasTaskTools) throw new RpcError(ErrorCode.MethodNotFound, "Method not found: this server offers no tasks");
      return handler(params, context);
    };
  const page = <K extends string, T>(list: string, items: readonly T[], key: K, cursor: unknown) => {
    const { items: slice, nextCursor } = host.paginator.page(list, items, cursor);
    return (nextCursor === undefined ? { [key]: slice } : { [key]: slice, nextCursor }) as Record<K, T[]> & { nextCursor?: string };
  };
  /** The items of a list this request may see (ServerOptions.visible). */
  const visible = <T>(kind: ListKind, items: T[], name: (item: T) => string, context: RequestContext): T[] => {
    const allows = host.visible;
    return allows ? items.filter((item) => allows(kind, name(item), context)) : items;
  };
  const { tools, resources, prompts, subscriptions, coreTasks } = host;
  const handlers: RuntimeHandlers = {
    "server/discover": (_params, context) => {
      const result = { supportedVersions: [...host.revisions].reverse(), capabilities: host.capabilities(context.revision) };
      return host.instructions === undefined ? result : { ...result, instructions: host.instructions };
    },
    // Session era, after initialize (the session answers the ping before it itself).
    ping: () => ({}),
    "logging/setLevel": (params, context) => ((context.session.logLevel = params.level), {}),
    "tools/list": offering("tools", (params, context) => page("tools", visible("tools", tools.list(), (t) => t.name, context), "tools", params.cursor)),
    "tools/call": offering("tools", (params, context) => tools.call(fields(params), context)),
    "resources/list": offering("resources", (params, context) => {
      const listed = resources.list(context);
      const paged = (items: ResourceDefinition[]) => page("resources", visible("resources", items, (r) => r.uri, context), "resources", params.cursor);
      return Array.isArray(listed) ? paged(listed) : listed.then(paged);
    }),
    "resources/templates/list": offering("resources", (params) => page("templates", resources.listTemplates(), "resourceTemplates", params.cursor)),
    "resources/read": offering("resources", (params, context) => resources.read(params.uri, context)),
    "resources/subscribe": offering("resources", (params, context) => subscriptions.subscribe(fields(params), context)),
    "resources/unsubscribe": offering("resources", (params, context) => subscriptions.unsubscribe(fields(params), context)),
    "subscriptions/listen": (params, context) => subscriptions.listen(fields(params), context),
    "prompts/list": offering("prompts", (params, context) => page("prompts", visible("prompts", prompts.list(), (p) => p.name, context), "prompts", params.cursor)),
    "prompts/get": offering("prompts", (params, context) => prompts.render(fields(params), context)),
    "tasks/get": offeringTasks((params, context) => coreTasks.get(params, context as HandlerContext)),
    "tasks/result": offeringTasks((params, context) => coreTasks.result(params, context as HandlerContext)),
    "tasks/cancel": offeringTasks((params, context) => coreTasks.cancel(params, context as HandlerContext)),
    "tasks/list": offeringTasks((params, context) => coreTasks.list(context as HandlerContext, (tasks) => page("tasks", tasks, "tasks", params.cursor))),
    "completion/complete": (params, context) => {
      if (!("completions" in host.capabilities())) throw new RpcError(ErrorCode.MethodNotFound, "Method not found: this server offers no completions");
      return complete(fields(params), context, {
        prompt: (name) => prompts.get(name),
        template: (uriTemplate) => resources.template(uriTemplate),
      });
    },
  };
  return handlerTable(handlers);
}
