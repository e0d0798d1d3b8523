import { InvalidTokenError } from "./errors.js";

/** The leeway for a token's times when a verifier is given none (jwtVerifier's clockToleranceSeconds). */
export const DEFAULT_CLOCK_TOLERANCE_SECONDS = 5;

/**
 * The one clock rule of the resource server, applied once, by the verifier: a token is refused
 * once `exp` is `toleranceSeconds` past, before `nbf` less the leeway, and when `iat` is further
 * in the future than the leeway (a token cannot be issued later than now). `requireExp`: RFC 9068
 * §2.2 makes `exp` required in a JWT access token; RFC 7662 leaves it optional in introspection.
 */
export function checkTokenTimes(claims: Readonly<Record<string, unknown>>, toleranceSeconds: number, requireExp: boolean, nowSeconds = Date.now() / 1000): void {
  const { exp, nbf, iat } = claims;
  if (exp === undefined) {
    if (requireExp) throw new InvalidTokenError("the token has no exp claim (RFC 9068 §2.2 requires one)");
  } else if (typeof exp !== "number") throw new InvalidTokenError("the token's exp claim is not a number");
  else if (exp <= nowSeconds - toleranceSeconds) throw new InvalidTokenError("the token has expired");
  if (nbf !== undefined && (typeof nbf !== "number" || nbf > nowSeconds + toleranceSeconds)) throw new InvalidTokenError("the token is not valid yet (nbf)");
  if (iat !== undefined && (typeof iat !== "number" || iat > nowSeconds + toleranceSeconds)) throw new InvalidTokenError("the token's iat claim is in the future");
}
