import type { RequestId } from "../../jsonrpc/messages.js";
import { printable } from "../../util/printable.js";

/** Errors of the transport, not of a request: -32000, like ../../transports/http/errors.ts. */
const TRANSPORT_ERROR = -32000;

export interface Challenge {
  /** The JSON-RPC id the error body answers: the request's, when the refusal is of one request (a tool's scope); else null. */
  readonly id?: RequestId | null;
  readonly status: 401 | 403 | 400 | 503;
  /** RFC 6750 §3.1 error code; absent for a request that had no token at all (§3.1: no error then). */
  readonly error?: "invalid_token" | "insufficient_scope" | "invalid_request";
  readonly description?: string;
  /** The scope that would do: RFC 6750 §3 `scope`, read by clients to choose and step up scopes. */
  readonly scope?: readonly string[];
  /** RFC 9728 §5.1 `resource_metadata`. */
  readonly resourceMetadata: string;
  /** A DPoP challenge too (RFC 9449 §7.1), when the server accepts DPoP. */
  readonly dpop?: DpopChallenge;
}

export interface DpopChallenge {
  /** The proof algorithms accepted (`algs`). */
  readonly algs: readonly string[];
  /** Whether a Bearer challenge is offered too (false when DPoP is required). */
  readonly bearer: boolean;
  /** Whether the request used the DPoP scheme: the error is then said in the DPoP challenge. */
  readonly used: boolean;
  /** RFC 9449 §7.1 invalid_dpop_proof, §9 use_dpop_nonce: said in the DPoP challenge, instead of `error`. */
  readonly error?: "invalid_dpop_proof" | "use_dpop_nonce";
  /** §9: the nonce to use, sent in DPoP-Nonce. */
  readonly nonce?: string;
}

/**
 * The refusal of a request, as RFC 6750 §3, RFC 9728 §5.1 and RFC 9449 §7.1 shape it:
 * WWW-Authenticate with the metadata URL, the error and the scope (a Bearer challenge, a DPoP
 * one with `algs`, or both); the body a JSON-RPC error (both eras) whose data carries the OAuth
 * error, so a client that reads either learns why.
 */
export function challengeResponse(challenge: Challenge): Response {
  const metadata = `resource_metadata="${quote(challenge.resourceMetadata)}"`;
  const scope = challenge.scope?.length ? [`scope="${quote(challenge.scope.join(" "))}"`] : [];
  const dpop = challenge.dpop;
  const error = dpop?.error ?? challenge.error;
  // The error and its description go in the challenge of the scheme the client used (the DPoP one
  // for a DPoP request or a DPoP error, or when Bearer is not offered), the others in both.
  const inDpop = dpop !== undefined && (dpop.used || dpop.error !== undefined || !dpop.bearer);
  const said = (carries: boolean) => {
    if (!carries || challenge.status === 503) return [];
    const params: string[] = [];
    if (error) params.push(`error="${error}"`);
    if (challenge.description) params.push(`error_description="${description(challenge.description)}"`);
    return params;
  };
  const challenges: string[] = [];
  if (!dpop || dpop.bearer) challenges.push(`Bearer ${[metadata, ...said(!inDpop), ...scope].join(", ")}`);
  if (dpop) challenges.push(`DPoP ${[metadata, ...said(inDpop), ...scope, `algs="${dpop.algs.join(" ")}"`].join(", ")}`);
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (challenge.status !== 503) headers["www-authenticate"] = challenges.join(", ");
  else headers["retry-after"] = "5";
  if (dpop?.nonce) headers["dpop-nonce"] = dpop.nonce;
  const reason = { 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 503: "Service Unavailable" }[challenge.status];
  const message = `${reason}${challenge.description ? `: ${challenge.description}` : ""}`;
  const data: Record<string, unknown> = {};
  if (error) data.error = error;
  if (challenge.description) data.error_description = challenge.description;
  if (challenge.scope?.length) data.scope = challenge.scope.join(" ");
  const body = { jsonrpc: "2.0", id: challenge.id ?? null, error: { code: TRANSPORT_ERROR, message, data } };
  return new Response(JSON.stringify(body), { status: challenge.status, headers });
}

/** RFC 6750 §3: error_description is printable ASCII without `"` or `\`: "§" spelt out, other characters replaced. */
function description(value: string): string {
  return value
    .replace(/§\s?/g, "section ")
    .replace(/"/g, "'")
    .replace(/\\/g, "/")
    .replace(/[^\x20-\x7e]/g, "?");
}

/** An RFC 9110 quoted-string: control characters dropped (printable), `"` and `\` backslash-escaped. */
function quote(value: string): string {
  return printable(value).replace(/(["\\])/g, "\\$1");
}
