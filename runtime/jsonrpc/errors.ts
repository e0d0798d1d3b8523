/** JSON-RPC 2.0 and MCP error codes. */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** A request to the other side took longer than its timeout (as the official SDK). */
  RequestTimeout: -32001,
  /** Session era: resources/read of a URI the server does not have. */
  ResourceNotFound: -32002,
  /** Stateless era over HTTP: a header disagrees with the body. */
  HeaderMismatch: -32020,
  /** Stateless era: the request needs a client capability it did not declare. */
  MissingRequiredClientCapability: -32021,
  /** Stateless era: the request's protocol version is not one the server speaks. */
  UnsupportedProtocolVersion: -32022,
} as const;

export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

/** An error that travels as a JSON-RPC error object: throw it from a handler to choose the code. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "RpcError";
  }

  /** The JSON-RPC error object this error is sent as. */
  toJSON(): { code: number; message: string; data?: unknown } {
    return this.data === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, data: this.data };
  }

  /** Rebuilds an error received from the other side. */
  static from(error: { code: number; message: string; data?: unknown }): RpcError {
    return rebuilt(error);
  }
}

/**
 * A handler answered with what may not be sent (a result its schema refuses, no result object):
 * -32603 to the other side, and this side's own bug, so the side that answers with it logs it
 * (peer.ts), wherever it was found.
 */
export class HandlerFault extends RpcError {
  constructor(message: string, data?: unknown) {
    super(ErrorCode.InternalError, message, data);
  }
}

// Outside the class: esbuild emits a class that names itself in its body as `class _RpcError`, its constructor's name.
function rebuilt(error: { code: number; message: string; data?: unknown }): RpcError {
  return new RpcError(error.code, error.message, error.data);
}
