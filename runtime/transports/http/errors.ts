import { ErrorCode } from "../../jsonrpc/errors.js";
import type { RequestId } from "../../jsonrpc/messages.js";
import type { Reply } from "./reply.js";

/**
 * A refusal at the HTTP layer: a status, and the JSON-RPC error that goes in its body. Every error
 * response of this transport carries both, so a client that reads only one of them still learns why.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly data?: unknown,
    /** The id of the request refused, when it could be read. */
    readonly id: RequestId | null = null,
    readonly headers?: Readonly<Record<string, string>>,
  ) {
    super(message);
    this.name = "HttpError";
  }

  withId(id: RequestId | null): HttpError {
    return new HttpError(this.status, this.code, this.message, this.data, id, this.headers);
  }
}

/** Errors of the transport itself, not of any request: JSON-RPC has no code for them, so they use -32000 like the official SDK. */
export const TRANSPORT_ERROR = -32000;

/**
 * Stateless era: the HTTP status of a JSON response that carries a JSON-RPC error, by error code.
 * The one place the transport looks inside a response; it needs no other protocol knowledge. A
 * code not listed here travels with 200, like a result.
 */
export const STATUS_BY_ERROR_CODE: ReadonlyMap<number, number> = new Map([
  [ErrorCode.ParseError, 400],
  [ErrorCode.InvalidRequest, 400],
  [ErrorCode.MethodNotFound, 404],
  [ErrorCode.InvalidParams, 400],
  [ErrorCode.InternalError, 500],
  [ErrorCode.HeaderMismatch, 400],
  [ErrorCode.MissingRequiredClientCapability, 400],
  [ErrorCode.UnsupportedProtocolVersion, 400],
]);

/** The status for a JSON body that is one response (or a batch of them), by the table above. */
export function statusOfResponse(body: unknown): number {
  const error = (body as { error?: { code?: unknown } } | null)?.error;
  if (typeof error?.code !== "number") return 200;
  return STATUS_BY_ERROR_CODE.get(error.code) ?? 200;
}

/** Sends `error` as its status and a JSON-RPC error body; ends the answer when it has already started. */
export function writeError(reply: Reply, error: HttpError, extraHeaders?: Readonly<Record<string, string>>): void {
  if (reply.started) {
    reply.end();
    return;
  }
  reply.send(error.status, { ...extraHeaders, ...error.headers, "Content-Type": "application/json" }, errorBody(error));
}

/** The JSON-RPC error body of `error`. */
export function errorBody(error: HttpError): string {
  return JSON.stringify({
    jsonrpc: "2.0",
    id: error.id,
    error: error.data === undefined ? { code: error.code, message: error.message } : { code: error.code, message: error.message, data: error.data },
  });
}

/** Shorthands for the refusals the transport makes. */
export const refuse = {
  badRequest: (message: string, code: number = TRANSPORT_ERROR, data?: unknown) => new HttpError(400, code, `Bad Request: ${message}`, data),
  forbidden: (message: string) => new HttpError(403, TRANSPORT_ERROR, `Forbidden: ${message}`),
  notFound: (message: string) => new HttpError(404, TRANSPORT_ERROR, `Not Found: ${message}`),
  methodNotAllowed: (allow: string) =>
    new HttpError(405, TRANSPORT_ERROR, `Method Not Allowed: use ${allow}`, undefined, null, { Allow: allow }),
  notAcceptable: (message: string) => new HttpError(406, TRANSPORT_ERROR, `Not Acceptable: ${message}`),
  gone: (message: string) => new HttpError(410, TRANSPORT_ERROR, `Gone: ${message}`),
  conflict: (message: string) => new HttpError(409, TRANSPORT_ERROR, `Conflict: ${message}`),
  tooLarge: (bytes: number | undefined, limit: number) =>
    new HttpError(413, TRANSPORT_ERROR, `Payload Too Large: the body exceeds ${limit} bytes`, bytes === undefined ? { limit } : { bytes, limit }),
  headersTooLarge: (limit: number) =>
    new HttpError(431, TRANSPORT_ERROR, `Request Header Fields Too Large: the request's headers exceed ${limit} bytes`, { limit }),
  unsupportedMediaType: (found: string | undefined) =>
    new HttpError(415, TRANSPORT_ERROR, `Unsupported Media Type: send application/json${found ? `, not ${found}` : ""}`),
  parse: (message: string) => new HttpError(400, ErrorCode.ParseError, `Parse error: ${message}`),
  invalid: (message: string, id: RequestId | null = null) => new HttpError(400, ErrorCode.InvalidRequest, `Invalid Request: ${message}`, undefined, id),
};
