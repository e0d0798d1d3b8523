/**
 * A token the resource server refuses (RFC 6750 §3.1 `invalid_token`): malformed, forged,
 * expired, or for another resource. A verifier throws it; the message is shown to the client as
 * error_description, so it says what is wrong and never repeats the token.
 */
export class InvalidTokenError extends Error {
  override readonly name = "InvalidTokenError";
}

/** The token could not be checked at all (keys or introspection unreachable): 503, not the client's fault. */
export class VerificationUnavailableError extends Error {
  override readonly name = "VerificationUnavailableError";
}
