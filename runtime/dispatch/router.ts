import { ErrorCode, RpcError } from "../jsonrpc/errors.js";
import type { Request } from "../jsonrpc/messages.js";
import type { InboundRequest } from "../jsonrpc/peer.js";
import { META } from "../session/meta.js";
import type { MethodDescriptor } from "../session/revisions.js";
import type { RequestScope, ServerCore } from "../session/server-session.js";
import { checkRequest, checkResult, clientRequest } from "../session/validate.js";
import { isThenable } from "../util/thenable.js";
import { HandlerContext, type ContextOptions, type Handler, type RequestContext } from "./context.js";

export interface DispatchOptions extends ContextOptions {
  /** Check every result against the revision's schema before it is sent (default on). */
  readonly validateResults: boolean;
  /** Stateless era: the server's identity, put in every result's `_meta`. */
  readonly serverInfo: Readonly<Record<string, unknown>>;
  /** Stateless era: caching hints for list, read and discover results that do not set their own. */
  readonly cache: { readonly ttlMs: number; readonly scope: "public" | "private" };
}

/** The result fields the dispatcher completes on stateless-era results (completeStateless below). */
type Completed = "resultType" | "ttlMs" | "cacheScope";

/** A generated handler type with the fields the dispatcher completes made optional in its result. */
export type AsWritten<H> = H extends (params: infer P, context: infer C) => infer R
  ? (params: P, context: C) => Written<Awaited<R>> | Promise<Written<Awaited<R>>>
  : never;
type Written<R> = R extends unknown ? Omit<R, Completed> & Partial<Pick<R, Extract<keyof R, Completed>>> : never;

/**
 * The dispatcher's table, from handlers typed by the generated interfaces
 * (generated/<rev>/handlers.ts): method -> handler. Each handler declares its method's params
 * type; the dispatcher checks params against the request's revision before calling it, which is
 * what lets the table hold them all as plain {@link Handler}s.
 */
export function handlerTable<H extends { [M in keyof H]: (params: never, context: RequestContext) => unknown }>(handlers: H): ReadonlyMap<string, Handler> {
  return new Map(Object.entries(handlers) as [string, Handler][]);
}

/**
 * method -> generated validator -> handler -> result check -> reply, for a request whose
 * revision the session has already chosen.
 */
export function createDispatcher(handlers: ReadonlyMap<string, Handler>, options: DispatchOptions): ServerCore["dispatch"] {
  return (request: Request, inbound: InboundRequest, scope: RequestScope) => {
    const { module } = scope;
    const descriptor = clientRequest(module, request.method);
    const handler = handlers.get(request.method);
    if (!handler) throw new RpcError(ErrorCode.MethodNotFound, `Method not found: this server does not implement ${request.method}`);
    checkRequest(module, descriptor, request);

    const context = new HandlerContext(inbound, scope, request, descriptor, options);
    let outcome: unknown;
    try {
      outcome = handler(request.params ?? {}, context);
    } catch (error) {
      context.done();
      throw error;
    }
    if (context.input) {
      // Stateless era: the handler may stop at a question the request has no answer to.
      const required = context.input.required.then((result) => {
        context.abandon();
        return result;
      });
      outcome = Promise.race([outcome, required]);
    }
    if (!isThenable(outcome)) return answer(context, finishResult(context, scope, descriptor, describeRequest(request), outcome, options));
    return outcome.then(
      (result) => answer(context, finishResult(context, scope, descriptor, describeRequest(request), result, options)),
      (error: unknown) => {
        context.done();
        throw error;
      },
    );
  };
}

/**
 * After progress, the answer waits one turn. The official SDK client handles notifications a
 * microtask late but responses at once, so progress that reaches it in the same read as its
 * response is dropped ("unknown token"); on stdio the two would share a write.
 */
function answer(context: HandlerContext, result: unknown): unknown {
  return context.reportedProgress ? new Promise((resolve) => setImmediate(resolve, result)) : result;
}

/** `tools/call (tool "add")`: the method, and the tool, prompt or resource the request was for, as errors name it. */
function describeRequest(request: { readonly method: string; readonly params?: unknown }): string {
  const params = (request.params ?? {}) as { name?: unknown; uri?: unknown };
  const subject =
    request.method === "tools/call" ? ["tool", params.name] : request.method === "prompts/get" ? ["prompt", params.name] : request.method === "resources/read" ? ["resource", params.uri] : undefined;
  return subject && typeof subject[1] === "string" ? `${request.method} (${subject[0]} ${JSON.stringify(subject[1])})` : request.method;
}

/** Completes a stateless-era result, then checks it: invalid data is never sent. */
function finishResult(
  context: HandlerContext,
  scope: RequestScope,
  descriptor: MethodDescriptor,
  /** The request as errors name it ({@link describeRequest}). */
  label: string,
  result: unknown,
  options: DispatchOptions,
): unknown {
  context.done();
  if (typeof result !== "object" || result === null || Array.isArray(result))
    throw new RpcError(ErrorCode.InternalError, `the handler for ${label} returned ${result === null ? "null" : typeof result}, not a result object`);
  const completed = scope.module.era === "stateless" ? completeStateless(result as Record<string, unknown>, descriptor, options) : result;
  if (options.validateResults) checkResult(scope.module, descriptor, label, completed);
  return completed;
}

/** Stateless era: every result says its resultType and the server's identity; cacheable ones carry ttlMs and cacheScope. */
function completeStateless(result: Record<string, unknown>, descriptor: MethodDescriptor, options: DispatchOptions): Record<string, unknown> {
  const meta = typeof result._meta === "object" && result._meta !== null ? (result._meta as Record<string, unknown>) : undefined;
  const completed: Record<string, unknown> = {
    ...result,
    resultType: result.resultType ?? "complete",
    _meta: { ...meta, [META.serverInfo]: meta?.[META.serverInfo] ?? options.serverInfo },
  };
  if (descriptor.cacheable && completed.resultType === "complete") {
    completed.ttlMs ??= options.cache.ttlMs;
    completed.cacheScope ??= options.cache.scope;
  }
  return completed;
}

