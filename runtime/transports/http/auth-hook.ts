/**
 * The endpoint's authorization hook, typed structurally so that any verifier fits (runtime/auth
 * provides one). MCP authorization (2025-06-18 and later, "Authorization") is per HTTP request:
 * every request carries its bearer token, and the endpoint asks the hook before it reads the body.
 */

/** Who made a request, as the verifier established it. Handlers read it as `ctx.auth`. */
export interface AuthInfo {
  /** The access token as received. */
  readonly token: string;
  readonly clientId?: string;
  readonly subject?: string;
  readonly scopes: readonly string[];
  /** When the token expires, in seconds since the epoch. */
  readonly expiresAt?: number;
  readonly claims?: Readonly<Record<string, unknown>>;
}

export interface HttpAuth {
  /**
   * The request's AuthInfo, or the Response to send instead (401 or 403 with WWW-Authenticate,
   * RFC 6750 §3), which the endpoint sends as it is.
   */
  authenticate(request: Request): Promise<AuthInfo | Response>;
}

export interface AuthOptions {
  /** Verifies every request to the MCP path (CORS preflights aside). */
  readonly auth?: HttpAuth;
  /**
   * Other paths served first, before the MCP path check: OAuth protected resource metadata
   * (RFC 9728, `/.well-known/oauth-protected-resource`) and the like. Undefined: not one of them.
   */
  routes?(request: Request): Promise<Response | undefined>;
}
