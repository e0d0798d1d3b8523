import { ErrorCode, RpcError } from "../jsonrpc/errors.js";
import type { Request } from "../jsonrpc/messages.js";
import { META } from "../session/meta.js";
import type { MethodDescriptor, RevisionModule } from "../session/revisions.js";
import type { Handler, RequestContext } from "./context.js";
import { reported, summarize } from "./issues.js";

export interface RouteOptions {
  /** Check every result against the revision's schema before it is sent (default on). */
  readonly validateResults: boolean;
  /** Stateless era: the server's identity, put in every result's `_meta`. */
  readonly serverInfo: Readonly<Record<string, unknown>>;
  /** Stateless era: caching hints for list, read and discover results that do not set their own. */
  readonly cache: { readonly ttlMs: number; readonly scope: "public" | "private" };
}

/** The descriptor of a method the client may send under `module`, or -32601. */
export function clientRequest(module: RevisionModule, method: string): MethodDescriptor {
  const descriptor = module.methods.get(method);
  if (!descriptor || descriptor.kind !== "request" || !descriptor.senders.includes("client"))
    throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${method} is not a client request in MCP ${module.revision}`);
  return descriptor;
}

/** The whole request against its generated definition; -32602 with the issues' paths. */
export function checkRequest(module: RevisionModule, descriptor: MethodDescriptor, request: Request): void {
  const validator = module.validator(descriptor.message);
  const message: unknown = request;
  if (validator.is(message)) return;
  const issues = validator.check(message);
  throw new RpcError(ErrorCode.InvalidParams, `Invalid params for ${request.method}: ${summarize(issues)}`, { issues: reported(issues) });
}

/**
 * method -> generated validator -> handler -> result check. The caller has already picked
 * the revision (`module`) for this request.
 */
export function route(
  module: RevisionModule,
  request: Request,
  handler: Handler | undefined,
  context: () => RequestContext,
  options: RouteOptions,
): unknown {
  const descriptor = clientRequest(module, request.method);
  if (!handler) throw new RpcError(ErrorCode.MethodNotFound, `Method not found: this server does not implement ${request.method}`);
  checkRequest(module, descriptor, request);
  const outcome = handler(request.params ?? {}, context());
  return isThenable(outcome)
    ? outcome.then((result) => finishResult(module, descriptor, request.method, result, options))
    : finishResult(module, descriptor, request.method, outcome, options);
}

/** Completes a stateless-era result, then checks it: invalid data is never sent. */
export function finishResult(module: RevisionModule, descriptor: MethodDescriptor, method: string, result: unknown, options: RouteOptions): unknown {
  if (typeof result !== "object" || result === null || Array.isArray(result))
    throw new RpcError(ErrorCode.InternalError, `the handler for ${method} returned ${result === null ? "null" : typeof result}, not a result object`);
  const completed = module.era === "stateless" ? completeStateless(result as Record<string, unknown>, descriptor, options) : result;
  if (!options.validateResults) return completed;

  const results = descriptor.results ?? [];
  for (const name of results) if (module.validator(name).is(completed)) return completed;
  const primary = (completed as Record<string, unknown>).resultType === "input_required" && results.includes("InputRequiredResult") ? "InputRequiredResult" : results[0]!;
  const issues = module.validator(primary).check(completed);
  throw new RpcError(
    ErrorCode.InternalError,
    `the handler for ${method} returned an invalid ${primary} for MCP ${module.revision}: ${summarize(issues)}`,
    { issues: reported(issues) },
  );
}

/** Stateless era: every result says its resultType and the server's identity; cacheable ones carry ttlMs and cacheScope. */
function completeStateless(result: Record<string, unknown>, descriptor: MethodDescriptor, options: RouteOptions): Record<string, unknown> {
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

export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}
