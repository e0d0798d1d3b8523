import type * as oauth from "oauth4webapi";
import { loadOAuth, o4w } from "../peers.js";
import type { TokenVerifier } from "./bearer.js";
import { describe } from "../client/errors.js";
import { InvalidTokenError, VerificationUnavailableError } from "./errors.js";
import { toAuthInfo } from "./jwt.js";
import { redact } from "./redact.js";
import { checkTokenTimes, DEFAULT_CLOCK_TOLERANCE_SECONDS } from "./times.js";

/** Options of `introspectionVerifier`: the authorization server's RFC 7662 endpoint, the credentials to call it with, and the audience a token must name. */
export interface IntrospectionVerifierOptions {
  /** The authorization server: its issuer and introspection_endpoint (metadata, or these two). */
  readonly authorizationServer: { readonly issuer: string; readonly introspection_endpoint: string };
  /** This resource server's credentials at the authorization server (client_secret_basic). */
  readonly clientId: string;
  readonly clientSecret: string;
  /** This resource (RFC 8707): an active token whose `aud` does not contain it is refused. */
  readonly audience: string;
  /** Allow http: introspection endpoints (default: loopback only). */
  readonly allowHttp?: boolean;
  readonly timeoutMs?: number;
  /** Leeway for the answer's exp/nbf/iat, in seconds (default 5). */
  readonly clockToleranceSeconds?: number;
}

/**
 * RFC 7662 token introspection through oauth4webapi; inactive, expired (checkTokenTimes) or
 * other-audience tokens are refused. When the endpoint fails, the error (for the operator's log,
 * not the client) says what it answered, with the token and this server's secret redacted.
 */
export function introspectionVerifier(options: IntrospectionVerifierOptions): TokenVerifier {
  const as = options.authorizationServer as oauth.AuthorizationServer;
  const client: oauth.Client = { client_id: options.clientId };
  const endpoint = new URL(options.authorizationServer.introspection_endpoint);
  const insecure = options.allowHttp ?? ["localhost", "127.0.0.1", "[::1]"].includes(endpoint.hostname);
  return async (token) => {
    await loadOAuth("introspectionVerifier");
    let claims: oauth.IntrospectionResponse;
    try {
      const response = await o4w().introspectionRequest(as, client, o4w().ClientSecretBasic(options.clientSecret), token, {
        [o4w().allowInsecureRequests]: insecure,
        signal: AbortSignal.timeout(options.timeoutMs ?? 5000),
      });
      claims = await o4w().processIntrospectionResponse(as, client, response);
    } catch (error) {
      throw new VerificationUnavailableError(redact(`token introspection at ${endpoint.href} failed: ${describe(error)}`, [token, options.clientSecret]));
    }
    if (!claims.active) throw new InvalidTokenError("the token is not active");
    checkTokenTimes(claims as Record<string, unknown>, options.clockToleranceSeconds ?? DEFAULT_CLOCK_TOLERANCE_SECONDS, false);
    const aud = claims.aud;
    const audiences = typeof aud === "string" ? [aud] : Array.isArray(aud) ? aud : [];
    if (!audiences.includes(options.audience)) throw new InvalidTokenError("the token was issued for another resource (aud)");
    return toAuthInfo(token, claims as Record<string, unknown>);
  };
}
