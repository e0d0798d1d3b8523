import type * as Jose from "jose";
import type { AuthInfo } from "../types.js";
import type { TokenVerifier } from "./bearer.js";
import { loadJose } from "../peers.js";
import { InvalidTokenError, VerificationUnavailableError } from "./errors.js";
import { checkTokenTimes, DEFAULT_CLOCK_TOLERANCE_SECONDS } from "./times.js";

/** Options of `jwtVerifier`: the issuer and audience a token must name, and where the keys are. */
export interface JwtVerifierOptions {
  /** The authorization server's issuer identifier: `iss` must equal it. */
  readonly issuer: string;
  /** This resource (the MCP endpoint URL, RFC 8707): `aud` must contain it. */
  readonly audience: string | readonly string[];
  /** Where the signing keys are (the AS's jwks_uri); fetched and cached by jose. One of jwksUrl, jwks, key. */
  readonly jwksUrl?: string;
  /** The authorization server's keys, held locally (a JWK Set): for tests and single-tenant setups. */
  readonly jwks?: { readonly keys: readonly Jose.JWK[] };
  /** One verification key: a public JWK, a Jose.CryptoKey, or an SPKI PEM ("-----BEGIN PUBLIC KEY-----"). */
  readonly key?: Jose.JWK | Jose.CryptoKey | string;
  /** Accepted JWS algorithms (default RS256, PS256, ES256, EdDSA; `none` never). */
  readonly algorithms?: readonly string[];
  /** How long a JWKS fetch may take (default 5000 ms); beyond, the request gets 503. */
  readonly jwksTimeoutMs?: number;
  /** Leeway for exp/nbf/iat, in seconds (default 5); the only leeway applied to the token's times. */
  readonly clockToleranceSeconds?: number;
  /**
   * Claims a token must carry besides `exp`, `iss` and `aud`, which are always required (RFC 9068
   * §2.2 requires `sub`, `client_id`, `iat` and `jti` too; some authorization servers omit them).
   */
  readonly requiredClaims?: readonly string[];
}

/**
 * RFC 9068 JWT access tokens, checked with jose against the authorization server's JWKS:
 * signature, `iss`, `aud` (the token must be for this resource: RFC 8707), `exp` (required),
 * `nbf` and `iat` (checkTokenTimes), and the scopes from `scope` (or `scp`).
 */
export function jwtVerifier(options: JwtVerifierOptions): TokenVerifier {
  const algorithms = [...(options.algorithms ?? ["RS256", "PS256", "ES256", "EdDSA"])].filter((a) => a.toLowerCase() !== "none");
  const tolerance = options.clockToleranceSeconds ?? DEFAULT_CLOCK_TOLERANCE_SECONDS;
  const sources = [options.jwksUrl, options.jwks, options.key].filter((v) => v !== undefined).length;
  if (sources !== 1) throw new TypeError(`jwtVerifier: give exactly one of jwksUrl, jwks and key (got ${sources})`);
  let ready: Promise<{ jose: typeof Jose; keys: Jose.JWTVerifyGetKey | Jose.CryptoKey }> | undefined;
  const load = () => (ready ??= loadJose("jwtVerifier").then(async (jose) => ({ jose, keys: await keySource(jose, options) })));
  return async (token) => {
    const { jose, keys } = await load();
    let payload: Jose.JWTPayload;
    try {
      ({ payload } = await jose.jwtVerify(token, keys as Jose.JWTVerifyGetKey, {
        issuer: options.issuer,
        audience: typeof options.audience === "string" ? options.audience : [...options.audience],
        algorithms,
        requiredClaims: ["exp", ...(options.requiredClaims ?? [])],
        // jose checks exp and nbf by the same rule as checkTokenTimes, with the same leeway.
        clockTolerance: tolerance,
      }));
    } catch (error) {
      throw classify(jose, error, tolerance);
    }
    checkTokenTimes(payload as Record<string, unknown>, tolerance, true);
    return toAuthInfo(token, payload as Record<string, unknown>);
  };
}

/** The verification key(s) of the options: remote JWKS, local JWKS, or one key (imported per `alg`, which jwtVerify restricts). */
async function keySource(jose: typeof Jose, options: JwtVerifierOptions): Promise<Jose.JWTVerifyGetKey | Jose.CryptoKey> {
  if (options.jwksUrl !== undefined) return jose.createRemoteJWKSet(new URL(options.jwksUrl), { timeoutDuration: options.jwksTimeoutMs ?? 5000 });
  if (options.jwks !== undefined) return jose.createLocalJWKSet({ keys: [...options.jwks.keys] });
  const key = options.key!;
  if (typeof key !== "string" && !("kty" in key)) return key as Jose.CryptoKey;
  const imported = new Map<string, Promise<Jose.CryptoKey | Uint8Array>>();
  return (header: Jose.JWTHeaderParameters) => {
    const alg = header.alg ?? "";
    let found = imported.get(alg);
    if (!found) {
      found = typeof key === "string" ? jose.importSPKI(key, alg) : jose.importJWK(key, alg);
      imported.set(alg, found);
    }
    return found;
  };
}

/** What a client is told about a refused JWT: precise, and never the token. */
function classify(jose: typeof Jose, error: unknown, tolerance: number): Error {
  const e = jose.errors;
  if (error instanceof e.JWKSTimeout) return new VerificationUnavailableError("the authorization server's keys could not be fetched in time");
  // A time jose refused: said as checkTokenTimes says it.
  if ((error instanceof e.JWTExpired || error instanceof e.JWTClaimValidationFailed) && ["exp", "nbf", "iat"].includes(error.claim) && error.reason !== "missing") {
    try {
      checkTokenTimes(error.payload as Record<string, unknown>, tolerance, true);
    } catch (refused) {
      if (refused instanceof InvalidTokenError) return refused;
    }
  }
  if (error instanceof e.JWTExpired) return new InvalidTokenError("the token has expired");
  if (error instanceof e.JWTClaimValidationFailed) {
    if (error.reason === "missing") return new InvalidTokenError(`the token has no ${error.claim} claim${error.claim === "exp" ? " (RFC 9068 §2.2 requires one)" : ""}`);
    if (error.claim === "aud") return new InvalidTokenError("the token was issued for another resource (aud)");
    if (error.claim === "iss") return new InvalidTokenError("the token was issued by another authorization server (iss)");
    return new InvalidTokenError(`the token's ${error.claim} claim is not valid: ${error.reason}`);
  }
  if (error instanceof e.JOSEAlgNotAllowed) return new InvalidTokenError("the token's signing algorithm is not accepted");
  if (error instanceof e.JWKSNoMatchingKey) return new InvalidTokenError("no key of the authorization server matches the token (kid)");
  if (error instanceof e.JWSSignatureVerificationFailed) return new InvalidTokenError("the token's signature does not verify");
  if (error instanceof e.JWSInvalid || error instanceof e.JWTInvalid || error instanceof e.JOSENotSupported) return new InvalidTokenError("the token is not a well-formed signed JWT");
  if (error instanceof e.JWKSInvalid || error instanceof e.JOSEError) return new VerificationUnavailableError("the authorization server's keys could not be read");
  // fetch failures (refused, reset) of the JWKS
  return new VerificationUnavailableError("the authorization server's keys are unreachable");
}

/** AuthInfo from token claims (RFC 9068 §2.2, RFC 8693 §4.2 for scope). */
export function toAuthInfo(token: string, claims: Record<string, unknown>): AuthInfo {
  const scope = claims.scope ?? claims.scp;
  const scopes = typeof scope === "string" ? scope.split(" ").filter(Boolean) : Array.isArray(scope) ? scope.filter((s): s is string => typeof s === "string") : [];
  const clientId = claims.client_id ?? claims.azp;
  return {
    token,
    clientId: typeof clientId === "string" ? clientId : undefined,
    subject: typeof claims.sub === "string" ? claims.sub : undefined,
    scopes,
    expiresAt: typeof claims.exp === "number" ? claims.exp : undefined,
    claims,
  };
}
