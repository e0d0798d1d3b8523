/** Errors of the transport, not of a request: -32000, like ../../transports/http/errors.ts. */
const TRANSPORT_ERROR = -32000;

export interface Challenge {
  readonly status: 401 | 403 | 400 | 503;
  /** RFC 6750 §3.1 error code; absent for a request that had no token at all (§3.1: no error then). */
  readonly error?: "invalid_token" | "insufficient_scope" | "invalid_request";
  readonly description?: string;
  /** The scope that would do: RFC 6750 §3 `scope`, read by clients to choose and step up scopes. */
  readonly scope?: readonly string[];
  /** RFC 9728 §5.1 `resource_metadata`. */
  readonly resourceMetadata: string;
}

/**
 * The refusal of a request, as RFC 6750 §3 and RFC 9728 §5.1 shape it: WWW-Authenticate with
 * the metadata URL, the error and the scope; the body a JSON-RPC error (both eras) whose data
 * carries the OAuth error, so a client that reads either learns why.
 */
export function challengeResponse(challenge: Challenge): Response {
  const params = [`resource_metadata="${quote(challenge.resourceMetadata)}"`];
  if (challenge.error && challenge.status !== 503) params.push(`error="${challenge.error}"`);
  if (challenge.description && challenge.status !== 503) params.push(`error_description="${quote(challenge.description)}"`);
  if (challenge.scope?.length) params.push(`scope="${quote(challenge.scope.join(" "))}"`);
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (challenge.status !== 503) headers["www-authenticate"] = `Bearer ${params.join(", ")}`;
  else headers["retry-after"] = "5";
  const reason = { 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 503: "Service Unavailable" }[challenge.status];
  const message = `${reason}${challenge.description ? `: ${challenge.description}` : ""}`;
  const data: Record<string, unknown> = {};
  if (challenge.error) data.error = challenge.error;
  if (challenge.description) data.error_description = challenge.description;
  if (challenge.scope?.length) data.scope = challenge.scope.join(" ");
  const body = { jsonrpc: "2.0", id: null, error: { code: TRANSPORT_ERROR, message, data } };
  return new Response(JSON.stringify(body), { status: challenge.status, headers });
}

/** An RFC 9110 quoted-string: backslash-escape `"` and `\`, drop control characters. */
function quote(value: string): string {
  return value.replace(/[\x00-\x1f\x7f]/g, " ").replace(/(["\\])/g, "\\$1");
}
