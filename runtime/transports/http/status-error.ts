import { RpcError } from "../../jsonrpc/errors.js";
import { printable } from "../../util/printable.js";
import { TRANSPORT_ERROR } from "./errors.js";

/**
 * The server refused a message with an HTTP status the client acts on: 401 or 403 (authorization),
 * or 404 to a request that carried an Mcp-Session-Id (the session is gone: 2025-03-26 and later,
 * "Session Management"). An RpcError with the code and data of the server's JSON-RPC body (else
 * -32000), and the status and the headers that say what to do.
 */
export class HttpStatusError extends RpcError {
  override readonly name = "HttpStatusError";

  constructor(
    readonly status: number,
    code: number,
    message: string,
    data?: unknown,
    /** The WWW-Authenticate header of a 401 or 403 (RFC 9110 §11.6.1; MCP authorization names `resource_metadata` in it). */
    readonly wwwAuthenticate?: string,
    /** The Mcp-Session-Id the refused request carried: the session the server no longer knows (404). */
    readonly sessionId?: string,
  ) {
    super(code, message, data);
  }

  /** The server refuses this client whatever the era: authorization required (401), or a 403 (a token without the scope, or a Host or Origin it does not allow; the message says which). */
  get unauthorized(): boolean {
    return this.status === 401 || this.status === 403;
  }

  /** A 404 to a request in a session: the server no longer knows the session. */
  get sessionLost(): boolean {
    return this.status === 404 && this.sessionId !== undefined;
  }

  /** From the refusal's status, headers and body (a JSON-RPC error, or any text). */
  static of(status: number, body: string, wwwAuthenticate: string | undefined, sessionId: string | undefined): HttpStatusError {
    let error: { code?: unknown; message?: unknown; data?: unknown } | undefined;
    try {
      error = (JSON.parse(body) as { error?: typeof error }).error;
    } catch {
      error = undefined;
    }
    const said = printable(typeof error?.message === "string" ? error.message : body.slice(0, 200));
    const code = typeof error?.code === "number" ? error.code : TRANSPORT_ERROR;
    const why =
      status === 401 || (status === 403 && wwwAuthenticate !== undefined)
        ? `the server requires authorization (HTTP ${status}${said ? `: ${said}` : ""})${wwwAuthenticate ? `; WWW-Authenticate: ${printable(wwwAuthenticate.slice(0, 300))}` : ""}`
        : `HTTP ${status}${said ? `: ${said}` : ""}`;
    return statusError(status, code, why, error?.data, wwwAuthenticate, sessionId);
  }
}

// Outside the class: esbuild emits a class that names itself in its body as `class _HttpStatusError`, its constructor's name.
function statusError(...args: ConstructorParameters<typeof HttpStatusError>): HttpStatusError {
  return new HttpStatusError(...args);
}
