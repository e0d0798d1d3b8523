import { isRequestId, type RequestId } from "../../jsonrpc/messages.js";
import type { AuthInfo } from "../types.js";
import { challengeResponse, type DpopChallenge } from "./challenge.js";
import { DpopProofError, dpopVerifier, type DpopOptions } from "./dpop.js";
import { stderrLogger } from "../../util/logger.js";
import { InvalidTokenError } from "./errors.js";
import { redact, redactedError } from "./redact.js";
import { resourceMetadata, type ResourceMetadataOptions } from "./metadata.js";

/** Checks one access token: resolves with what it grants, throws InvalidTokenError when it grants nothing. */
export type TokenVerifier = (token: string, request: Request) => Promise<AuthInfo>;

/** Scopes a tool, prompt or resource needs beyond `requiredScopes`, by name (tools, prompts) or URI (resources). */
export interface ScopeRequirements {
  readonly tools?: Readonly<Record<string, readonly string[]>>;
  readonly prompts?: Readonly<Record<string, readonly string[]>>;
  readonly resources?: Readonly<Record<string, readonly string[]>>;
}

export interface BearerAuthOptions {
  readonly verifier: TokenVerifier;
  readonly resourceMetadata: ResourceMetadataOptions;
  /** Scopes every request needs. */
  readonly requiredScopes?: readonly string[];
  /** Scopes single tools, prompts and resources need; refused with 403 insufficient_scope for step-up. */
  readonly scopes?: ScopeRequirements;
  /** The longest Authorization header accepted (default 8192 bytes): a longer one is 400. */
  readonly maxHeaderBytes?: number;
  /**
   * The operator's log of a verifier that failed (unreachable keys or introspection, an error
   * answer, a bug): what happened, with the token and anything shaped like a JWT redacted. The
   * client gets a generic 503. Default: the runtime's stderr logger.
   */
  readonly onError?: (error: Error) => void;
  /**
   * Accept DPoP-bound tokens (RFC 9449): the DPoP scheme with a proof of the key the token is
   * bound to (cnf.jkt). A DPoP-bound token presented as Bearer is refused whether or not this is set.
   */
  readonly dpop?: DpopOptions;
}

/** What an HTTP endpoint's `auth` option takes (fetchHandler and the node:http endpoint). */
export interface ResourceServerAuth {
  /** The request's AuthInfo, or the Response that refuses it (401, 403, 400 or 503, with WWW-Authenticate). */
  authenticate(request: Request): Promise<AuthInfo | Response>;
  /** The RFC 9728 metadata at its well-known paths; undefined for any other request. */
  routes(request: Request): Promise<Response | undefined>;
  /** One JSON-RPC message (or batch) under `auth`: a 403 insufficient_scope when it needs scopes the token lacks. */
  authorize(auth: AuthInfo, message: unknown): Response | undefined;
  /** Whether `auth` may use a tool, prompt or resource (to filter lists). */
  allows(auth: AuthInfo | undefined, kind: keyof ScopeRequirements, name: string): boolean;
}

// RFC 6750 §2.1: credentials = "Bearer" 1*SP b64token; RFC 9449 §7.1: the same with "DPoP".
const CREDENTIALS = /^(Bearer|DPoP) +([A-Za-z0-9\-._~+/]+=*) *$/i;

/**
 * An OAuth 2.1 resource server for an MCP endpoint (MCP 2025-06-18 on, "Authorization"): bearer
 * tokens checked by `verifier` on every request (a stateless 2026-07-28 request is checked on its
 * own, like any other), RFC 9728 metadata, and RFC 6750 challenges that tell the client where to
 * sign in and which scopes to ask for.
 */
export function bearerAuth(options: BearerAuthOptions): ResourceServerAuth {
  const dpop = options.dpop ? dpopVerifier(options.dpop) : undefined;
  const metadata = resourceMetadata(options.resourceMetadata, dpop ? { algorithms: dpop.algorithms, required: dpop.required } : undefined);
  const paths = new Set(metadata.urls.map((u) => new URL(u).pathname));
  const required = options.requiredScopes ?? [];
  const maxHeader = options.maxHeaderBytes ?? 8192;
  // The schemes this server takes: a credential of another scheme is no credential (RFC 6750 §3.1).
  const schemes = dpop ? (dpop.required ? /^dpop(\s|$)/i : /^(bearer|dpop)(\s|$)/i) : /^bearer(\s|$)/i;
  const refuse = (
    status: 400 | 401 | 403 | 503,
    error?: "invalid_token" | "insufficient_scope" | "invalid_request",
    description?: string,
    scope?: readonly string[],
    proof?: { used: boolean; error?: DpopChallenge["error"]; nonce?: string },
    id: RequestId | null = null,
  ) =>
    challengeResponse({
      id,
      status,
      error,
      description,
      scope,
      resourceMetadata: metadata.url,
      dpop: dpop && { algs: dpop.algorithms, bearer: !dpop.required, used: proof?.used ?? false, error: proof?.error, nonce: proof?.nonce },
    });
  const needs = (kind: keyof ScopeRequirements, name: string): readonly string[] => options.scopes?.[kind]?.[name] ?? [];
  const log = options.onError ?? ((error: Error) => stderrLogger("error", `bearerAuth: the token verifier failed: ${error.message}`));

  return {
    async routes(request) {
      if (!paths.has(new URL(request.url).pathname)) return undefined;
      const cors = { "access-control-allow-origin": "*", "access-control-allow-methods": "GET, OPTIONS" };
      if (request.method === "OPTIONS") return new Response(null, { status: 204, headers: cors });
      if (request.method !== "GET" && request.method !== "HEAD") return new Response(null, { status: 405, headers: { allow: "GET, HEAD, OPTIONS" } });
      return Response.json(metadata.document, { headers: { ...cors, "cache-control": "max-age=3600" } });
    },

    async authenticate(request) {
      const header = request.headers.get("authorization");
      // RFC 6750 §3.1: a request without credentials gets a challenge with no error code.
      const suggested = required.length ? required : options.resourceMetadata.scopesSupported;
      // Two Authorization headers arrive joined by ", " (Web Headers, and node:http's raw headers
      // as runtime/transports/http/node.ts reads them); a token has no comma. Authorization is not
      // a list (RFC 9110 §11.6.2), and more than one credential is invalid_request (RFC 6750 §3.1).
      if (header !== null && header.includes(",") && /(^|,)\s*(bearer|dpop)(\s|,|$)/i.test(header))
        return refuse(400, "invalid_request", "the request carries more than one Authorization header or credential; send one token");
      if (header === null || !schemes.test(header)) return refuse(401, undefined, "an access token is required", suggested);
      if (header.length > maxHeader) return refuse(400, "invalid_request", `the Authorization header is longer than ${maxHeader} bytes`);
      const match = CREDENTIALS.exec(header);
      if (!match) return refuse(400, "invalid_request", "the Authorization header is not Bearer (or DPoP) followed by one token (RFC 6750 §2.1)");
      const token = match[2]!;
      const usedDpop = match[1]!.toLowerCase() === "dpop";
      // RFC 9449 §7.1: the proof first (local, cheap), then the token it must be bound to.
      let jkt: string | undefined;
      if (dpop && usedDpop) {
        try {
          ({ jkt } = await dpop.verify(request, token, options.resourceMetadata.resource));
        } catch (error) {
          if (error instanceof DpopProofError) return refuse(401, undefined, redact(error.message, [token]), suggested, { used: true, error: error.error, nonce: error.nonce });
          log(redactedError(error, [token, request.headers.get("dpop") ?? undefined]));
          return refuse(503, undefined, "the DPoP proof cannot be checked now; try again later");
        }
      }
      let info: AuthInfo;
      try {
        // The verifier checks the token's times too, with its leeway (checkTokenTimes): not again here.
        info = await options.verifier(token, request);
      } catch (error) {
        if (error instanceof InvalidTokenError) return refuse(401, "invalid_token", redact(error.message, [token]), suggested, { used: usedDpop });
        log(redactedError(error, [token, request.headers.get("dpop") ?? undefined]));
        return refuse(503, undefined, "the access token cannot be checked now; try again later");
      }
      const cnf = (info.claims?.cnf as { jkt?: unknown } | undefined)?.jkt;
      // RFC 9449 §7.2: a DPoP-bound token is never accepted as a bearer token.
      if (!usedDpop && cnf !== undefined) return refuse(401, "invalid_token", "the token is DPoP-bound: present it with the DPoP scheme and a proof (RFC 9449 §7.1)", suggested);
      if (usedDpop && cnf !== jkt)
        return refuse(401, "invalid_token", cnf === undefined ? "the token is not DPoP-bound (no cnf.jkt); present it as Bearer" : "the token is bound to another key than the DPoP proof's (cnf.jkt)", suggested, { used: true });
      const missing = required.filter((s) => !info.scopes.includes(s));
      if (missing.length) return refuse(403, "insufficient_scope", `the token lacks ${missing.join(" ")}`, union(info.scopes, required), { used: usedDpop });
      return info;
    },

    authorize(auth, message) {
      for (const item of Array.isArray(message) ? message : [message]) {
        const m = item as { method?: unknown; params?: { name?: unknown; uri?: unknown } } | null;
        const kind = m?.method === "tools/call" ? "tools" : m?.method === "prompts/get" ? "prompts" : m?.method === "resources/read" ? "resources" : undefined;
        const name = kind === "resources" ? m?.params?.uri : m?.params?.name;
        if (!kind || typeof name !== "string") continue;
        const missing = needs(kind, name).filter((s) => !auth.scopes.includes(s));
        // SEP-2350: name every scope the request needs, the ones already granted too.
        // A request alone is answered with its id; one of a batch with null (the batch gets one answer).
        const id = !Array.isArray(message) && isRequestId((m as { id?: unknown }).id) ? ((m as { id: RequestId }).id) : null;
        if (missing.length) return refuse(403, "insufficient_scope", `${name} needs ${missing.join(" ")}`, union(union(auth.scopes, required), needs(kind, name)), { used: isDpopBound(auth) }, id);
      }
      return undefined;
    },

    allows(auth, kind, name) {
      const scopes = auth?.scopes ?? [];
      return needs(kind, name).every((s) => scopes.includes(s));
    },
  };
}

function isDpopBound(auth: AuthInfo): boolean {
  return (auth.claims?.cnf as { jkt?: unknown } | undefined)?.jkt !== undefined;
}

function union(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set([...a, ...b])];
}
