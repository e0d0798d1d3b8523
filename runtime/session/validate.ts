import type { ValidationIssue } from "../contract.js";
import { ErrorCode, HandlerFault, RpcError } from "../jsonrpc/errors.js";
import type { Request } from "../jsonrpc/messages.js";
import type { MethodDescriptor, LoadedRevision } from "./revisions.js";

/** What checking a message needs of a revision, or of an extension module (runtime/server/extensions.ts). */
export type Validating = Pick<LoadedRevision, "revision" | "validator">;

/** How many issues an error carries in `data.issues`: enough to fix a message, bounded for a hostile one. */
export const MAX_REPORTED_ISSUES = 20;

/** The descriptor of a method the client may send under `module`, or -32601. */
export function clientRequest(module: LoadedRevision, method: string): MethodDescriptor {
  const descriptor = module.methods.get(method);
  if (!descriptor || descriptor.kind !== "request" || !descriptor.senders.includes("client"))
    throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${method} is not a client request in MCP ${module.revision}`);
  return descriptor;
}

/** The whole request against its generated definition, or -32602 with the issues' paths. */
export function checkRequest(module: Validating, descriptor: MethodDescriptor, request: Request): void {
  const validator = module.validator(descriptor.message);
  const message: unknown = request;
  if (validator.is(message)) return;
  const issues = validator.check(message);
  throw new RpcError(ErrorCode.InvalidParams, `Invalid params for ${request.method}: ${summarize(issues)}`, { issues: reported(issues) });
}

/**
 * The definitions a result must match. InputRequiredResult requires nothing but a string
 * `resultType`, so every stateless result would pass it: it is the candidate only when
 * resultType is "input_required", and then the only one.
 */
export function resultCandidates(results: readonly string[], result: unknown): readonly string[] {
  if (!results.includes("InputRequiredResult")) return results;
  const inputRequired = (result as { resultType?: unknown } | null)?.resultType === "input_required";
  return inputRequired ? ["InputRequiredResult"] : results.filter((name) => name !== "InputRequiredResult");
}

/** Whether a result matches one of the definitions its method may answer with (the fast path of {@link checkResult}). */
export function isValidResult(module: Validating, descriptor: MethodDescriptor, result: unknown): boolean {
  for (const name of resultCandidates(descriptor.results ?? [], result)) if (module.validator(name).is(result)) return true;
  return false;
}

/**
 * A result the runtime writes itself (a tool's "Invalid arguments", a thrown error as `isError`),
 * with the JSON-RPC error that says the same where a revision's result schema asks for more than
 * the runtime knows to give (a field a later revision requires): the client then gets that
 * error, not a -32603 that blames the handler.
 */
const FALLBACKS = new WeakMap<object, RpcError>();

/** Marks `result` as the runtime's own, answered as `fallback` where it does not fit the revision. */
export function runtimeResult<T extends object>(result: T, fallback: RpcError): T {
  FALLBACKS.set(result, fallback);
  return result;
}

/** The error to answer instead of the runtime's own `result`, when the revision refuses it. */
export function fallbackFor(result: unknown): RpcError | undefined {
  return typeof result === "object" && result !== null ? FALLBACKS.get(result) : undefined;
}

/** A result against the definitions its method may answer with, or -32603: invalid data is never sent. */
export function checkResult(module: Validating, descriptor: MethodDescriptor, method: string, result: unknown): void {
  if (isValidResult(module, descriptor, result)) return;
  const candidates = resultCandidates(descriptor.results ?? [], result);
  const primary = candidates[0]!;
  const issues = module.validator(primary).check(result);
  throw new HandlerFault(`the handler for ${method} returned an invalid ${primary} for MCP ${module.revision}: ${summarize(issues)}`, { issues: reported(issues) });
}

/** "/params/name: must be string, found number (and 2 more issues)": the count is of issues, not of the values listed. */
export function summarize(issues: readonly ValidationIssue[]): string {
  const first = issues[0];
  if (!first) return "invalid";
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more ${issues.length === 2 ? "issue" : "issues"})` : "";
  return `${first.path || "(root)"}: ${first.message}${more}`;
}

export function reported(issues: readonly ValidationIssue[]): ValidationIssue[] {
  return issues.slice(0, MAX_REPORTED_ISSUES);
}

/**
 * A notification a server's code sends (`ctx.notify`, `server.notify`), before it leaves: refused
 * with an Error naming the method and what is wrong when `module`'s revision defines the method
 * but not from the server, or its params do not fit. Whether the revision defines it is returned:
 * a method it does not define (a vendor's, `notifications/acme/...`) passes as sent.
 */
export function checkServerNotification(module: LoadedRevision, method: string, params: Record<string, unknown> | undefined): boolean {
  const descriptor = module.methods.get(method);
  if (!descriptor) return false;
  if (descriptor.kind !== "notification" || !descriptor.senders.includes("server"))
    throw new Error(`${method} is not a server notification in MCP ${module.revision}`);
  if (params === undefined ? descriptor.paramsRequired : descriptor.params !== undefined && !module.validator(descriptor.params).is(params))
    throw new Error(`invalid params for ${method} in MCP ${module.revision}: ${params === undefined ? "params are required" : summarize(module.validator(descriptor.params!).check(params))}`);
  return true;
}
