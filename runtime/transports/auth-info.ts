// AuthInfo is part of the transport contract (a message's context carries it): declared there.
import type { AuthInfo } from "../jsonrpc/transport.js";

export type { AuthInfo };

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
