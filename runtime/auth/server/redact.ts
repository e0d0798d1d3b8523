/**
 * Secrets out of what a resource server says: an access token, a client secret, as they may
 * appear in an authorization server's error (raw, form- or URI-encoded, JSON-escaped), and
 * anything shaped like a JWT. Used on every message that leaves bearerAuth or
 * a verifier, for the client and for the operator's log alike.
 */
const REDACTED = "[redacted]";
// Three base64url segments, the first a JOSE header ("eyJ" is base64 of '{"'): a JWT, or a JWS.
const JWT_SHAPED = /eyJ[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*/g;

/** `text` with every form of every secret in `secrets`, and every JWT, replaced. */
export function redact(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    if (!secret) continue;
    for (const form of new Set([secret, encodeURIComponent(secret), new URLSearchParams({ s: secret }).toString().slice(2), JSON.stringify(secret).slice(1, -1)]))
      out = out.split(form).join(REDACTED);
  }
  return out.replace(JWT_SHAPED, REDACTED);
}

/** An Error whose message is `error`'s, and its causes', with `secrets` redacted; the original is not kept. */
export function redactedError(error: unknown, secrets: readonly (string | undefined)[]): Error {
  const parts: string[] = [];
  let at: unknown = error;
  for (let depth = 0; at !== undefined && at !== null && depth < 5; depth++) {
    const e = at as { name?: unknown; message?: unknown; error?: unknown; error_description?: unknown; cause?: unknown };
    const said = [e.error, e.error_description].filter((v) => typeof v === "string").join(": ");
    parts.push(`${typeof e.name === "string" ? `${e.name}: ` : ""}${typeof e.message === "string" ? e.message : String(at)}${said ? ` (${said})` : ""}`);
    at = e.cause;
  }
  const redacted = new Error(redact(parts.join(" <- caused by "), secrets));
  redacted.name = error instanceof Error ? error.name : "Error";
  return redacted;
}
