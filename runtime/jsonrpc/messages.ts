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

export type Classified =
  | { readonly kind: "request"; readonly message: Request }
  | { readonly kind: "notification"; readonly message: Notification }
  | { readonly kind: "response"; readonly message: ResultResponse }
  | { readonly kind: "error"; readonly message: ErrorResponse }
  /** Not a JSON-RPC message; `id` is its id when one could be read, so the reply can carry it. */
  | { readonly kind: "invalid"; readonly id: RequestId | null; readonly reason: string };

export function isRequestId(value: unknown): value is RequestId {
  return typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
}

/**
 * Sorts one parsed value into a JSON-RPC message kind. Only the envelope is checked here;
 * each revision's generated validators check the rest.
 */
export function classify(value: unknown): Classified {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { kind: "invalid", id: null, reason: "a JSON-RPC message must be an object" };
  const message = value as Record<string, unknown>;
  const id = Object.prototype.hasOwnProperty.call(message, "id") ? message.id : undefined;
  const readableId = isRequestId(id) ? id : null;
  if (message.jsonrpc !== "2.0") return { kind: "invalid", id: readableId, reason: 'jsonrpc must be "2.0"' };

  if (message.method !== undefined) {
    if (typeof message.method !== "string") return { kind: "invalid", id: readableId, reason: "method must be a string" };
    const params = message.params;
    if (params !== undefined && (typeof params !== "object" || params === null || Array.isArray(params)))
      return { kind: "invalid", id: readableId, reason: "params must be an object" };
    if (id === undefined) return { kind: "notification", message: message as unknown as Notification };
    if (!isRequestId(id)) return { kind: "invalid", id: null, reason: "id must be a string or a number" };
    return { kind: "request", message: message as unknown as Request };
  }
  if (message.result !== undefined) {
    if (!isRequestId(id)) return { kind: "invalid", id: null, reason: "a response needs the id of its request" };
    return { kind: "response", message: message as unknown as ResultResponse };
  }
  if (message.error !== undefined) {
    const error = message.error as Record<string, unknown> | null;
    if (typeof error !== "object" || error === null || typeof error.code !== "number" || typeof error.message !== "string")
      return { kind: "invalid", id: readableId, reason: "error must be an object with a numeric code and a message" };
    if (id !== null && !isRequestId(id)) return { kind: "invalid", id: null, reason: "an error response needs an id or null" };
    return { kind: "error", message: message as unknown as ErrorResponse };
  }
  return { kind: "invalid", id: readableId, reason: "neither a request, a notification nor a response" };
}

export function errorResponse(id: RequestId | null, code: number, message: string, data?: unknown): ErrorResponse {
  return { jsonrpc: "2.0", id, error: data === undefined ? { code, message } : { code, message, data } };
}

