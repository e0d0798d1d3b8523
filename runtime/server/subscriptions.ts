import type { HandlerContext, RequestContext } from "../dispatch/context.js";
import type { RequestId } from "../jsonrpc/messages.js";
import { META } from "../session/meta.js";
import type { ServerSession } from "../session/server-session.js";
import type { TaskManager } from "../extensions/tasks/task-manager.js";
import { watchTasks } from "../extensions/tasks/tasks-extension.js";
import type { Logger } from "../util/logger.js";

export type ListKind = "tools" | "prompts" | "resources";

/** The notifications a stateless client opts in to on subscriptions/listen. */
export interface SubscriptionFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
  /** The tasks extension: status notifications of these tasks. */
  taskIds?: string[];
}

/**
 * How a subscriptions/listen stream ends: its result, tagged with the stream's id. A type
 * literal, not an interface, so that it assigns to the open SubscriptionsListenResult.
 */
export type ListenResult = {
  readonly _meta: { readonly [META.subscriptionId]: RequestId };
};

/** One open subscriptions/listen stream. */
interface Listener {
  readonly session: ServerSession;
  readonly id: RequestId;
  readonly filter: SubscriptionFilter;
  readonly end: (result: ListenResult) => void;
  /** Stops what the stream watches besides the server's own changes (tasks). */
  readonly stop?: () => void;
}

/**
 * Who hears about changes, in both eras. Session era: every initialized session hears of list
 * changes; resources/updated goes only to sessions that subscribed to the URI. Stateless era:
 * each subscriptions/listen stream hears exactly what it asked for and the server offers, every
 * message tagged with the stream's subscriptionId.
 */
export class Subscriptions {
  private readonly listeners = new Set<Listener>();

  constructor(
    private readonly sessions: () => Iterable<ServerSession>,
    private readonly offers: (kind: ListKind) => boolean,
    private readonly logger: Logger,
    private readonly tasks?: TaskManager,
  ) {}

  subscribe(params: Record<string, unknown>, context: RequestContext): Record<string, never> {
    context.session.subscriptions.add(params.uri as string);
    return {};
  }

  unsubscribe(params: Record<string, unknown>, context: RequestContext): Record<string, never> {
    context.session.subscriptions.delete(params.uri as string);
    return {};
  }

  /** subscriptions/listen: acknowledged first, then the stream stays open until the client closes it or the server does. */
  async listen(params: Record<string, unknown>, context: RequestContext): Promise<ListenResult> {
    const requested = (params.notifications ?? {}) as SubscriptionFilter;
    const filter: SubscriptionFilter = {};
    for (const kind of ["tools", "prompts", "resources"] as const)
      if (requested[`${kind}ListChanged`] === true && this.offers(kind)) filter[`${kind}ListChanged`] = true;
    if (Array.isArray(requested.resourceSubscriptions) && this.offers("resources")) filter.resourceSubscriptions = [...requested.resourceSubscriptions];

    const id = context.requestId;
    const session = context.session;
    // The acknowledgement is the stream's first message: task changes before it wait for it.
    let early: Record<string, unknown>[] | undefined = [];
    const taskChanged = (task: Record<string, unknown>) => (early ? early.push(task) : this.send(session, id, "notifications/tasks", task));
    const watched = requested.taskIds !== undefined && this.tasks ? await watchTasks(this.tasks, requested.taskIds, context as HandlerContext, taskChanged) : undefined;
    if (watched) filter.taskIds = watched.honoured;
    this.send(session, id, "notifications/subscriptions/acknowledged", { notifications: filter });
    for (const task of early) this.send(session, id, "notifications/tasks", task);
    early = undefined;
    return new Promise((resolve) => {
      const listener: Listener = { session, id, filter, end: resolve, stop: watched?.stop };
      this.listeners.add(listener);
      context.signal.addEventListener("abort", () => (this.listeners.delete(listener), listener.stop?.()), { once: true });
    });
  }

  listChanged(kind: ListKind): void {
    const method = `notifications/${kind}/list_changed`;
    for (const session of this.sessions())
      if (session.revision !== undefined && !session.closed && declaresListChanged(session, kind)) this.deliver(session.notify(method, undefined, EVERY_SESSION), method);
    for (const listener of this.listeners) if (listener.filter[`${kind}ListChanged`]) this.send(listener.session, listener.id, method, {});
  }

  resourceUpdated(uri: string): void {
    const method = "notifications/resources/updated";
    for (const session of this.sessions())
      if (session.revision !== undefined && !session.closed && session.subscriptions.has(uri)) this.deliver(session.notify(method, { uri }, EVERY_SESSION), method);
    for (const listener of this.listeners)
      if (listener.filter.resourceSubscriptions?.includes(uri)) this.send(listener.session, listener.id, method, { uri });
  }

  /** The server is going away: end every stream with its result. */
  close(): void {
    for (const listener of this.listeners) {
      listener.stop?.();
      listener.end({ _meta: { [META.subscriptionId]: listener.id } });
    }
    this.listeners.clear();
  }

  private send(session: ServerSession, id: RequestId, method: string, params: Record<string, unknown>): void {
    const tagged = { ...params, _meta: { [META.subscriptionId]: id } };
    this.deliver(session.notify(method, tagged, { relatedRequestId: id }), method);
  }

  private deliver(sent: Promise<void>, method: string): void {
    sent.catch((error: Error) => this.logger("debug", `${method} not delivered: ${error.message}`));
  }
}

const EVERY_SESSION = { everySession: true } as const;

/** Session era: whether this session was told, at initialize, that `kind` announces list changes. */
function declaresListChanged(session: ServerSession, kind: ListKind): boolean {
  const capability = session.serverCapabilities?.[kind];
  return typeof capability === "object" && capability !== null && (capability as { listChanged?: unknown }).listChanged === true;
}
