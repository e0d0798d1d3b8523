/** The JSON-RPC 2.0 message shapes, independent of any MCP revision. */
export type RequestId = string | number;

export interface Request {
  readonly jsonrpc: "2.0";
  readonly id: RequestId;
  readonly method: string;
  readonly params?: Record<string, unknown>;
}

export interface Notification {
  readonly jsonrpc: "2.0";
  readonly method: string;
  readonly params?: Record<string, unknown>;
}

export interface ResultResponse {
  readonly jsonrpc: "2.0";
  readonly id: RequestId;
  readonly result: Record<string, unknown>;
}

export interface ErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

export interface ErrorResponse {
  readonly jsonrpc: "2.0";
  readonly id: RequestId | null;
  readonly error: ErrorObject;
}

export type Message = Request | Notification | ResultResponse | ErrorResponse;

export type MessageKind = "request" | "notification" | "response" | "error" | "invalid";

/**
 * MCP's RequestId is a string or an integer. A number JSON.parse could not keep exactly (beyond
 * 2^53) is refused: answered with the rounded id, two requests could share it.
 */
export function isRequestId(value: unknown): value is RequestId {
  return typeof value === "string" || Number.isSafeInteger(value);
}

/**
 * Sorts one parsed value into a JSON-RPC message kind. Only the envelope is checked here; each
 * revision's generated validators check the rest. Allocation-free: it runs on every message.
 */
export function classify(value: unknown): MessageKind {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "invalid";
  const message = value as Record<string, unknown>;
  if (message.jsonrpc !== "2.0") return "invalid";
  const id = Object.prototype.hasOwnProperty.call(message, "id") ? message.id : undefined;
  if (message.method !== undefined) {
    if (typeof message.method !== "string") return "invalid";
    const params = message.params;
    if (params !== undefined && (typeof params !== "object" || params === null || Array.isArray(params))) return "invalid";
    if (id === undefined) return "notification";
    return isRequestId(id) ? "request" : "invalid";
  }
  if (message.result !== undefined) return isRequestId(id) ? "response" : "invalid";
  if (message.error !== undefined) {
    const error = message.error as Record<string, unknown> | null;
    if (typeof error !== "object" || error === null || typeof error.code !== "number" || typeof error.message !== "string") return "invalid";
    return id === null || isRequestId(id) ? "error" : "invalid";
  }
  return "invalid";
}

/** Why `classify` said "invalid", and the id to answer with when one could be read. */
export function invalidity(value: unknown): { readonly id: RequestId | null; readonly reason: string } {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { id: null, reason: "a JSON-RPC message must be an object" };
  const message = value as Record<string, unknown>;
  const raw = Object.prototype.hasOwnProperty.call(message, "id") ? message.id : undefined;
  const id = isRequestId(raw) ? raw : null;
  if (message.jsonrpc !== "2.0") return { id, reason: 'jsonrpc must be "2.0"' };
  if (message.method !== undefined) {
    if (typeof message.method !== "string") return { id, reason: "method must be a string" };
    if (message.params !== undefined && (typeof message.params !== "object" || message.params === null || Array.isArray(message.params)))
      return { id, reason: "params must be an object" };
    return { id: null, reason: "id must be a string or an integer (of at most 2^53 - 1 in magnitude, which JavaScript numbers keep exactly)" };
  }
  if (message.result !== undefined) return { id: null, reason: raw === undefined || raw === null ? "a response needs the id of its request" : "a response's id must be a string or an integer" };
  if (message.error !== undefined) {
    const error = message.error as Record<string, unknown> | null;
    if (typeof error !== "object" || error === null || typeof error.code !== "number" || typeof error.message !== "string")
      return { id, reason: "error must be an object with a numeric code and a message" };
    return { id: null, reason: "an error response needs an id or null" };
  }
  return { id, reason: "neither a request, a notification nor a response" };
}

export function errorResponse(id: RequestId | null, code: number, message: string, data?: unknown): ErrorResponse {
  return { jsonrpc: "2.0", id, error: data === undefined ? { code, message } : { code, message, data } };
}

/**
 * A message as JSON text, or a TypeError: a value JSON has no text for (a BigInt, a cycle, a
 * throwing toJSON, undefined) is refused when it is sent, not later where nobody answers for it.
 */
export function jsonText(message: unknown): string {
  const text = JSON.stringify(message);
  if (text === undefined) throw new TypeError("the message is not a JSON value");
  return text;
}

