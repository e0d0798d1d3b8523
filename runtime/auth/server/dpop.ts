import type * as Jose from "jose";
import { MemoryNonceStore, type NonceStore } from "../../stores/nonce-store.js";
import { loadJose } from "../peers.js";

/** DPoP at the resource server (RFC 9449): bearerAuth's `dpop` option. */
export interface DpopOptions {
  /** Accepted proof algorithms (default ES256, ES384, ES512, PS256, PS384, PS512, RS256, EdDSA); asymmetric only. */
  readonly algorithms?: readonly string[];
  /** Refuse Bearer tokens: every request must be DPoP (RFC 9728 dpop_bound_access_tokens_required). Default false. */
  readonly required?: boolean;
  /** How old a proof's `iat` may be, in seconds (default 60); `jti`s are remembered this long, plus the leeway. */
  readonly maxAgeSeconds?: number;
  /** Leeway for a proof's `iat` in the future, and its age, in seconds (default 5). */
  readonly clockToleranceSeconds?: number;
  /**
   * Where used `jti`s are claimed (default: this process's memory). Several instances behind a
   * load balancer share a RedisNonceStore so that a proof replayed at another instance is refused.
   */
  readonly replayStore?: NonceStore;
  /**
   * Server-provided nonces (RFC 9449 §9): a proof must carry a nonce this server issued within
   * `lifetimeSeconds` (default 300); otherwise 401 `use_dpop_nonce` with a fresh one in DPoP-Nonce.
   * Nonces are stateless (an HMAC of their time under `secret`): instances that share the secret
   * accept each other's. Default: no nonces.
   */
  readonly nonce?: boolean | { readonly secret?: string; readonly lifetimeSeconds?: number };
}

/** Why a proof is refused: RFC 9449 §7.1 `invalid_dpop_proof`, or §9 `use_dpop_nonce` (with the nonce to use). */
export class DpopProofError extends Error {
  override readonly name = "DpopProofError";
  constructor(
    message: string,
    readonly error: "invalid_dpop_proof" | "use_dpop_nonce" = "invalid_dpop_proof",
    readonly nonce?: string,
  ) {
    super(message);
  }
}

export const DEFAULT_DPOP_ALGORITHMS = ["ES256", "ES384", "ES512", "PS256", "PS384", "PS512", "RS256", "EdDSA"] as const;
const ASYMMETRIC = /^(ES|PS|RS)(256|384|512)$|^EdDSA$|^Ed25519$/;
const MAX_JTI = 512;

/** What a verified proof binds: the thumbprint of its key (RFC 7638), to compare with the token's cnf.jkt. */
export interface VerifiedProof {
  readonly jkt: string;
}

export interface DpopVerifier {
  readonly algorithms: readonly string[];
  readonly required: boolean;
  /**
   * Checks the DPoP header of `request` for `token` (RFC 9449 §4.3): one well-formed proof,
   * typ dpop+jwt, an accepted asymmetric alg, a public jwk that verifies it, htm and htu of this
   * request (or of `resource`, the public URL behind a proxy), a recent iat, an unused jti, ath of
   * the token, and this server's nonce when nonces are on.
   */
  verify(request: Request, token: string, resource: string): Promise<VerifiedProof>;
  /** A fresh nonce, when nonces are on. */
  freshNonce(): Promise<string | undefined>;
}

export function dpopVerifier(options: DpopOptions): DpopVerifier {
  const algorithms = [...(options.algorithms ?? DEFAULT_DPOP_ALGORITHMS)];
  const symmetric = algorithms.filter((a) => !ASYMMETRIC.test(a));
  if (symmetric.length) throw new TypeError(`DPoP proofs are signed with asymmetric keys (RFC 9449 §4.2); not ${symmetric.join(", ")}`);
  const maxAge = options.maxAgeSeconds ?? 60;
  const leeway = options.clockToleranceSeconds ?? 5;
  const replay = options.replayStore ?? new MemoryNonceStore();
  const nonces = options.nonce ? nonceIssuer(options.nonce === true ? {} : options.nonce) : undefined;

  return {
    algorithms,
    required: options.required ?? false,
    freshNonce: async () => nonces?.issue(),
    async verify(request, token, resource) {
      const header = request.headers.get("dpop");
      if (header === null) throw new DpopProofError("the request has no DPoP proof (DPoP header)");
      // Web Headers join repeated fields with ", "; a compact JWS has no comma (RFC 9449 §4.3 step 1).
      if (header.includes(",")) throw new DpopProofError("the request carries more than one DPoP header");
      if (header.length > 8192) throw new DpopProofError("the DPoP proof is longer than 8192 bytes");
      const jose = await loadJose("DPoP proof verification");
      let payload: Jose.JWTPayload;
      let jwk: Jose.JWK;
      try {
        const verified = await jose.jwtVerify(header, jose.EmbeddedJWK, { typ: "dpop+jwt", algorithms });
        payload = verified.payload;
        jwk = verified.protectedHeader.jwk!;
      } catch (error) {
        throw new DpopProofError(proofRefusal(jose, error));
      }
      const { jti, htm, htu, iat, ath } = payload as Record<string, unknown>;
      if (typeof jti !== "string" || jti.length === 0 || jti.length > MAX_JTI) throw new DpopProofError("the DPoP proof has no valid jti");
      if (htm !== request.method) throw new DpopProofError(`the DPoP proof's htm is not ${request.method}, the request's method`);
      if (typeof htu !== "string" || !sameTarget(htu, [request.url, resource])) throw new DpopProofError("the DPoP proof's htu is not this request's URL");
      const now = Date.now() / 1000;
      if (typeof iat !== "number" || !Number.isFinite(iat)) throw new DpopProofError("the DPoP proof has no iat");
      if (iat > now + leeway) throw new DpopProofError("the DPoP proof's iat is in the future");
      if (iat < now - maxAge - leeway) throw new DpopProofError(`the DPoP proof is older than ${maxAge} s (iat); sign a fresh one`);
      if (typeof ath !== "string" || ath !== (await sha256(token))) throw new DpopProofError("the DPoP proof's ath is not the hash of the access token");
      if (nonces) {
        const nonce = (payload as Record<string, unknown>).nonce;
        if (typeof nonce !== "string" || !(await nonces.valid(nonce)))
          throw new DpopProofError(typeof nonce === "string" ? "the DPoP nonce is not valid now; use the one in DPoP-Nonce" : "this server requires a DPoP nonce; use the one in DPoP-Nonce", "use_dpop_nonce", await nonces.issue());
      }
      const jkt = await jose.calculateJwkThumbprint(jwk, "sha256");
      // §11.1: a proof is used once. Remembered as long as its iat would be accepted.
      if (!(await replay.claim(`dpop:${jkt}:${jti}`, (iat + maxAge + 2 * leeway) * 1000))) throw new DpopProofError("the DPoP proof was already used (jti); sign a fresh one per request");
      return { jkt };
    },
  };
}

/** What a client is told about a proof jose refused: precise, never the proof. */
function proofRefusal(jose: typeof Jose, error: unknown): string {
  const e = jose.errors;
  if (error instanceof e.JOSEAlgNotAllowed) return "the DPoP proof's alg is not accepted";
  if (error instanceof e.JWTClaimValidationFailed && error.claim === "typ") return "the DPoP proof's typ is not dpop+jwt";
  if (error instanceof e.JWSSignatureVerificationFailed) return "the DPoP proof's signature does not verify with its jwk";
  if (error instanceof e.JWSInvalid && /jwk/i.test(error.message)) return "the DPoP proof's header has no public jwk";
  return "the DPoP proof is not a well-formed signed JWT";
}

/**
 * RFC 9449 §4.3 step 9: htu equals the request's URI without query and fragment, after syntax-
 * and scheme-based normalisation (RFC 3986 §6.2.2, §6.2.3: case of scheme and host, default
 * port, percent-encoding case, dot segments; the WHATWG URL parser does these).
 */
function sameTarget(htu: string, candidates: readonly string[]): boolean {
  const target = normalised(htu);
  return target !== undefined && candidates.some((c) => normalised(c) === target);
}

function normalised(value: string): string | undefined {
  if (!URL.canParse(value)) return undefined;
  const url = new URL(value);
  const path = (url.pathname || "/").replace(/%[0-9a-f]{2}/gi, (e) => e.toUpperCase());
  return `${url.protocol}//${url.host}${path}`;
}

/** base64url(SHA-256(value)): `ath` (RFC 9449 §4.2). */
export async function sha256(value: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value)));
  return btoa(String.fromCharCode(...digest)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Stateless nonces: `<seconds>.<HMAC-SHA256(secret, seconds)>`, valid for `lifetimeSeconds`. */
function nonceIssuer(options: { readonly secret?: string; readonly lifetimeSeconds?: number }) {
  const lifetime = options.lifetimeSeconds ?? 300;
  const secret = options.secret ?? crypto.getRandomValues(new Uint8Array(32)).join(".");
  const key = crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
  const mac = async (time: string) => {
    const signature = new Uint8Array(await crypto.subtle.sign("HMAC", await key, new TextEncoder().encode(`dpop-nonce:${time}`)));
    return btoa(String.fromCharCode(...signature)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  };
  return {
    async issue(): Promise<string> {
      const time = String(Math.floor(Date.now() / 1000));
      return `${time}.${await mac(time)}`;
    },
    async valid(nonce: string): Promise<boolean> {
      const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(nonce);
      if (!match) return false;
      const age = Date.now() / 1000 - Number(match[1]);
      if (age < -5 || age > lifetime) return false;
      return timingSafeEqual(match[2]!, await mac(match[1]!));
    },
  };
}

function timingSafeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
