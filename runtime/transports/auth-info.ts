/**
 * What a verified access token says (the resource server side of MCP authorization): put in a
 * message's context by an HTTP endpoint configured with `auth`, read by handlers as `ctx.auth`.
 * Here, at the bottom, so that every layer can name it; runtime/auth produces it.
 */
export interface AuthInfo {
  /** The access token itself, as presented. */
  readonly token: string;
  readonly clientId?: string;
  /** The resource owner (`sub`). */
  readonly subject?: string;
  readonly scopes: readonly string[];
  /** Expiry, in seconds since the epoch (`exp`). */
  readonly expiresAt?: number;
  /** Every claim of the token (JWT) or of the introspection answer. */
  readonly claims?: Readonly<Record<string, unknown>>;
}

/** An HTTP endpoint's `auth` option, on Web Request/Response (runtime/auth's bearerAuth is one). */
export interface EndpointAuth {
  /** The request's AuthInfo, or the Response that refuses it, sent as is. */
  authenticate(request: Request): Promise<AuthInfo | Response>;
  /** Serves the well-known metadata paths, before the MCP path check; undefined for other requests. */
  routes?(request: Request): Promise<Response | undefined>;
  /** One parsed JSON-RPC body under `auth`: a Response (403 insufficient_scope) when it needs more scopes. */
  authorize?(auth: AuthInfo, message: unknown): Response | undefined;
}

/** The authorization options of an HTTP endpoint (`http()`, `httpHandler()`, `fetchHandler()`). */
export interface AuthOptions {
  /** Verifies every request to the MCP path (CORS preflights aside). */
  readonly auth?: EndpointAuth;
  /** Other paths served first, before the MCP path check (`auth.routes` is served too). */
  routes?(request: Request): Promise<Response | undefined>;
}
