import { ErrorCode, HandlerFault, RpcError } from "../jsonrpc/errors.js";
import type { Request } from "../jsonrpc/messages.js";
import type { InboundRequest } from "../jsonrpc/peer.js";
import { META } from "../session/meta.js";
import type { MethodDescriptor } from "../session/revisions.js";
import type { RequestScope, ServerCore } from "../session/server-session.js";
import { checkRequest, checkResult, clientRequest, fallbackFor, isValidResult } from "../session/validate.js";
import { shallowCopy } from "../util/shallow-copy.js";
import { isThenable } from "../util/thenable.js";
import { HandlerContext, type ContextOptions, type Handler, type RequestContext } from "./context.js";

export interface DispatchOptions extends ContextOptions {
  /** Check every result against the revision's schema before it is sent (default on). */
  readonly validateResults: boolean;
  /** Stateless era: the server's identity, put in every result's `_meta`. */
  readonly serverInfo: Readonly<Record<string, unknown>>;
  /** Stateless era: caching hints for list, read and discover results that do not set their own. */
  readonly cache: { readonly ttlMs: number; readonly scope: "public" | "private" };
  /** Methods no revision defines, each with its own checks; looked up per request. */
  readonly extensions?: ReadonlyMap<string, ExtensionMethod>;
}

/** A request method that no served revision defines (an extension's), served with checks of its own. */
export interface ExtensionMethod {
  readonly handler: Handler;
  /** The method as its extension module describes it (a generated one); absent for one served by JSON Schemas. */
  readonly descriptor?: MethodDescriptor;
  /** Throws -32602 naming the offending fields. */
  checkParams(params: unknown, request: Request): void;
  /** Throws -32603 naming the offending fields: invalid data is never sent. */
  checkResult(result: unknown): void;
}

const EXTENSION: MethodDescriptor = { kind: "request", senders: ["client"], message: "", paramsRequired: false, results: [], cacheable: false };
/** An extension method served by JSON Schemas whose result is a CacheableResult (SEP-2549). */
export const CACHEABLE_EXTENSION: MethodDescriptor = { ...EXTENSION, cacheable: true };

/**
 * A result that is not the method's own but one an extension answers in its place, built and
 * checked by that extension: the tasks extension's CreateTaskResult for tools/call
 * (runtime/tasks). Sent as is, past the method's result check (stateless era: completed with
 * the server's identity like any result).
 */
export class ExtensionResult {
  constructor(readonly value: Record<string, unknown>) {}
}

/** The result fields the dispatcher completes on stateless-era results (completeStateless below). */
export type Completed = "resultType" | "ttlMs" | "cacheScope";

/** A generated handler type with the fields the dispatcher completes made optional in its result. */
export type AsWritten<H> = H extends (params: infer P, context: infer C) => infer R
  ? (params: P, context: C) => Written<Awaited<R>> | Promise<Written<Awaited<R>>>
  : never;
/** A result as a handler writes it: the fields the dispatcher completes are optional. */
// A key-remapping mapped type, not Omit: Omit on an open result (`[key: string]: unknown`, as the spec's
// are) would keep only the index signature and drop every named field with its check.
export type Written<R> = R extends unknown
  ? { [K in keyof R as K extends Completed ? never : K]: R[K] } & { [K in keyof R as K extends Completed ? K : never]?: R[K] }
  : never;

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
    const extension = module.methods.has(request.method) ? undefined : options.extensions?.get(request.method);
    const descriptor = extension ? (extension.descriptor ?? EXTENSION) : clientRequest(module, request.method);
    const handler = extension?.handler ?? handlers.get(request.method);
    if (!handler) throw new RpcError(ErrorCode.MethodNotFound, `Method not found: this server does not implement ${request.method}`);
    if (extension) extension.checkParams(request.params ?? {}, request);
    else checkRequest(module, descriptor, request);

    const context = new HandlerContext(inbound, scope, request, descriptor, options);
    const run = () => handler(request.params ?? {}, context);
    let outcome: unknown;
    try {
      // A requestState is claimed (once, across instances) before the handler runs again with it.
      const claimed = context.input?.claimed;
      outcome = claimed ? claimed.then(run) : run();
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
    if (!isThenable(outcome)) return answer(context, scope, finishResult(context, scope, descriptor, request, extension, outcome, options));
    return outcome.then(
      (result) => answer(context, scope, finishResult(context, scope, descriptor, request, extension, result, options)),
      (error: unknown) => {
        context.done();
        throw error;
      },
    );
  };
}

/**
 * After progress, the answer waits. The official SDK clients (v1, v2) handle a notification a
 * microtask late but a response at once, deleting the request's progress handler: progress read
 * in the same chunk as its response is dropped as "unknown token" (typescript-sdk#2580). Timing
 * cannot rule that out (a client descheduled for a while reads everything at once), so:
 * - session era over stdio: a ping. The client answers it only after handling what came before
 *   it, its notifications' microtasks included, so the response can no longer share its read.
 *   One round trip per call that reported progress; a failed ping (the client does not answer
 *   pings, or too late) only delays the response by at most PROGRESS_PING_MS.
 * - 2026-07-28 over stdio (no server-to-client request): the response is sent apart
 *   (SendOptions.apart), 64 KiB after the last progress notification, so that no read of the pipe
 *   holds both: the client handles the progress in the turn before the response's.
 * - otherwise (HTTP: each message in its own SSE event): the response follows once the last
 *   progress was written and one more turn has passed.
 */
function answer(context: HandlerContext, scope: RequestScope, result: unknown): unknown {
  const sent = context.progressSent;
  if (sent === undefined) return result;
  if (scope.module.era === "session" && scope.session.coalesces)
    return sent
      .then(() => scope.session.request("ping", undefined, { timeoutMs: PROGRESS_PING_MS }))
      .then(
        () => result,
        () => result,
      );
  if (scope.session.coalesces)
    return sent.then(() => {
      context.answerApart();
      return result;
    });
  return sent.then(() => new Promise((resolve) => setImmediate(resolve, result)));
}

/** How long a response waits at most for the ping that confirms its progress. */
const PROGRESS_PING_MS = 2_000;

/** `tools/call (tool "add")`: the method, and the tool, prompt or resource the request was for, as errors name it. */
function describeRequest(request: { readonly method: string; readonly params?: unknown }): string {
  const params = (request.params ?? {}) as { name?: unknown; uri?: unknown };
  const subject =
    request.method === "tools/call" ? ["tool", params.name] : request.method === "prompts/get" ? ["prompt", params.name] : request.method === "resources/read" ? ["resource", params.uri] : undefined;
  return subject && typeof subject[1] === "string" ? `${request.method} (${subject[0]} ${JSON.stringify(subject[1])})` : request.method;
}

/** Completes a stateless-era result, then checks it: invalid data is never sent. Errors name the request ({@link describeRequest}), built only then. */
function finishResult(
  context: HandlerContext,
  scope: RequestScope,
  descriptor: MethodDescriptor,
  request: Request,
  extension: ExtensionMethod | undefined,
  result: unknown,
  options: DispatchOptions,
): unknown {
  context.done();
  if (result instanceof ExtensionResult) return scope.module.era === "stateless" ? completeStateless(result.value, descriptor, options) : result.value;
  if (typeof result !== "object" || result === null || Array.isArray(result))
    throw new HandlerFault(`the handler for ${describeRequest(request)} returned ${result === null ? "null" : typeof result}, not a result object`);
  const completed = scope.module.era === "stateless" ? completeStateless(result as Record<string, unknown>, descriptor, options) : result;
  if (options.validateResults) {
    if (extension) extension.checkResult(completed);
    else if (!isValidResult(scope.module, descriptor, completed)) {
      const fallback = fallbackFor(result);
      if (fallback) throw fallback;
      checkResult(scope.module, descriptor, describeRequest(request), completed);
    }
  }
  return completed;
}

/**
 * Stateless era: every result says its resultType and the server's identity; cacheable ones carry
 * ttlMs and cacheScope. A copy (the handler may return a shared object), made key by key: a
 * spread followed by a computed key (`{ ...meta, [META.serverInfo]: ... }`) sent V8 down a slow
 * path that cost more than the rest of the call (bench/runtime.ts, 2026-07-28 in memory).
 */
function completeStateless(result: Record<string, unknown>, descriptor: MethodDescriptor, options: DispatchOptions): Record<string, unknown> {
  const completed = shallowCopy(result);
  completed.resultType ??= "complete";
  const meta = result._meta;
  const completedMeta = typeof meta === "object" && meta !== null ? shallowCopy(meta as Record<string, unknown>) : {};
  completedMeta[META.serverInfo] ??= options.serverInfo;
  completed._meta = completedMeta;
  if (descriptor.cacheable && completed.resultType === "complete") {
    completed.ttlMs ??= options.cache.ttlMs;
    completed.cacheScope ??= options.cache.scope;
  }
  return completed;
}
