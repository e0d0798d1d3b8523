import type * as oauth from "oauth4webapi";
import { loadOAuth, o4w } from "../peers.js";
import { bearerChallenge, type BearerChallenge } from "./challenge.js";
import { discover, requestOptions, type Discovered, type DiscoveryOptions } from "./discovery.js";
import { describe, OAuthFlowError } from "./errors.js";
import { MemoryAuthStore, type AuthStore, type StoredClient, type StoredTokens } from "./store.js";

/** What HttpClientTransport's `authProvider` option takes: a fetch that authorizes its requests. */
export interface AuthProvider {
  /**
   * Wraps `base` so that its requests carry a token, signing in, refreshing or stepping up as the
   * server asks.
   */
  fetch(base: typeof fetch): typeof fetch;
}

/** Options every OAuth provider takes: where tokens and registrations are stored, how many step-ups a request may take, where plain HTTP is allowed, the scope to ask for. */
export interface ProviderOptions {
  /** Where registrations and tokens are kept (default: in memory). */
  readonly store?: AuthStore;
  /** How many times one request may step up on 403 insufficient_scope (default 2). */
  readonly maxStepUps?: number;
  /** Whether plain-HTTP authorization servers are allowed (default: loopback hosts only). */
  readonly allowHttp?: (url: URL) => boolean;
  /** Scopes to ask for instead of those the server suggests. */
  readonly scope?: string;
  /**
   * DPoP (RFC 9449): prove possession of a key on every token and MCP request, so that a stolen
   * token is useless without it. `true`: a fresh ES256 key for this provider's lifetime; or your
   * key pair (its public key extractable). The authorization server then issues DPoP-bound tokens
   * (token_type DPoP), sent with the DPoP scheme; a server's `use_dpop_nonce` is answered once.
   */
  readonly dpop?: boolean | { readonly keyPair: oauth.CryptoKeyPair };
}

/** Tokens are refreshed this long before they expire. */
const EXPIRY_SKEW_MS = 30_000;

/**
 * The part every OAuth flow shares: attach the stored token, and on 401 (re)discover and obtain
 * one, on 403 insufficient_scope step up with the union of scopes (SEP-2350), within a bound.
 * Discovery runs again on every 401, so a resource whose authorization server changed is noticed
 * (SEP-2352). Concurrent requests share one authorization.
 */
export abstract class OAuthProvider implements AuthProvider {
  protected readonly store: AuthStore;
  private readonly inFlight = new Map<string, Promise<StoredTokens>>();
  private readonly discovered = new Map<string, Discovered>();
  private dpopHandle: Promise<oauth.DPoPHandle | undefined> | undefined;

  constructor(protected readonly options: ProviderOptions) {
    this.store = options.store ?? new MemoryAuthStore();
  }

  /** Obtains tokens for `scope` from the discovered authorization server. */
  protected abstract grant(found: Discovered, scope: string | undefined, base: typeof fetch): Promise<StoredTokens>;

  fetch(base: typeof fetch): typeof fetch {
    return async (input, init) => {
      await loadOAuth("an OAuth authProvider");
      const url = new URL(input instanceof Request ? input.url : String(input));
      const key = resourceKey(url);
      let tokens = await this.store.getTokens(key);
      if (tokens && isExpired(tokens)) tokens = (await this.refreshKnown(key, tokens, base)) ?? tokens;
      let response = await this.send(input, init, tokens, base);
      let authorized = false;
      let stepUps = 0;
      for (;;) {
        const challenge = response.status === 401 || response.status === 403 ? bearerChallenge(response) : undefined;
        if (response.status === 401 && !authorized) {
          authorized = true;
        } else if (response.status === 403 && challenge?.error === "insufficient_scope" && stepUps < (this.options.maxStepUps ?? 2)) {
          // Ask again only when the union adds a scope we were not granted: otherwise it cannot help.
          if (tokens && challenge.scope && isSubset(challenge.scope, tokens.scope)) return response;
          stepUps++;
        } else return response;
        await response.body?.cancel().catch(() => {});
        tokens = await this.obtain(url, key, challenge, tokens, response.status === 403, base);
        response = await this.send(input, init, tokens, base);
      }
    };
  }

  /**
   * One request to the MCP server with `tokens`: Bearer, or for a DPoP-bound token the DPoP
   * scheme and a fresh proof (RFC 9449 §7.1, with `ath`), sent again once with the nonce when
   * the server answers `use_dpop_nonce` (§9; oauth4webapi keeps the nonce per origin).
   */
  private async send(input: Parameters<typeof fetch>[0], init: RequestInit | undefined, tokens: StoredTokens | undefined, base: typeof fetch): Promise<Response> {
    if (tokens?.tokenType !== "dpop") return base(input, withBearer(init, tokens?.accessToken));
    const dpop = await this.dpop();
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (!dpop) throw new OAuthFlowError("resource request", url.href, "the token is DPoP-bound (token_type DPoP) but this provider has no DPoP key");
    const method = init?.method ?? (input instanceof Request ? input.method : "GET");
    const headers = new Headers(init?.headers);
    headers.delete("authorization");
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await o4w().protectedResourceRequest(tokens.accessToken, method, url, headers, (init?.body ?? null) as string | null, {
          DPoP: dpop,
          signal: init?.signal ?? undefined,
          ...resourceRequestOptions(base),
        });
      } catch (error) {
        // oauth4webapi throws on any WWW-Authenticate challenge; the loop in fetch() reads it.
        const challenged = (error as { response?: unknown }).response;
        if (!(challenged instanceof Response)) throw error;
        response = challenged;
      }
      if (attempt > 0 || !isNonceChallenge(response)) return response;
      await response.body?.cancel().catch(() => {});
    }
  }

  /** The DPoP handle of this provider, when `dpop` is set: one key for its lifetime. */
  protected dpop(): Promise<oauth.DPoPHandle | undefined> {
    const option = this.options.dpop;
    if (!option) return Promise.resolve(undefined);
    return (this.dpopHandle ??= (async () => {
      const keyPair = option === true ? await o4w().generateKeyPair("ES256", { extractable: false }) : option.keyPair;
      return o4w().DPoP({}, keyPair);
    })());
  }

  /**
   * A token endpoint request with this provider's DPoP proof (RFC 9449 §5), sent again once with
   * the authorization server's nonce when it answers `use_dpop_nonce` (§8).
   */
  protected async tokenRequest<T>(run: (dpop: oauth.DPoPHandle | undefined) => Promise<T>): Promise<T> {
    const dpop = await this.dpop();
    try {
      return await run(dpop);
    } catch (error) {
      if (dpop && o4w().isDPoPNonceError(error)) return run(dpop);
      throw error;
    }
  }

  private obtain(url: URL, key: string, challenge: BearerChallenge | undefined, failed: StoredTokens | undefined, stepUp: boolean, base: typeof fetch): Promise<StoredTokens> {
    const running = this.inFlight.get(key);
    if (running) return running;
    const run = (async () => {
      const current = await this.store.getTokens(key);
      // Another request already replaced the token that failed.
      if (!stepUp && current && current.accessToken !== failed?.accessToken) return current;
      const found = await discover(url, challenge?.resourceMetadata, this.discovery(base));
      this.discovered.set(key, found);
      let previous = current;
      if (previous && previous.issuer !== found.as.issuer) {
        await this.store.deleteTokens(key); // SEP-2352: tokens and registrations never cross servers
        previous = undefined;
      }
      if (!stepUp && previous?.refreshToken) {
        const refreshed = await this.refresh(found, key, previous, base).catch(() => undefined);
        if (refreshed) return refreshed;
      }
      const tokens = await this.grant(found, this.chooseScope(found, challenge, previous), base);
      await this.store.setTokens(key, tokens);
      return tokens;
    })().finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, run);
    return run;
  }

  /**
   * MCP 2025-11-25 "Scope Selection Strategy": the challenge's scope, else the PRM's
   * scopes_supported, else none; with what was granted before (SEP-2350 union) and
   * offline_access when the authorization server lists it (SEP-2207).
   */
  protected chooseScope(found: Discovered, challenge: BearerChallenge | undefined, previous: StoredTokens | undefined): string | undefined {
    if (this.options.scope !== undefined) return this.options.scope;
    const chosen = challenge?.scope ?? found.protectedResource?.scopes_supported?.join(" ");
    if (chosen === undefined || chosen.trim() === "") return previous?.scope;
    const scopes = new Set([...(previous?.scope?.split(" ") ?? []), ...chosen.split(" ")].filter(Boolean));
    if (this.wantsRefreshTokens && found.as.scopes_supported?.includes("offline_access")) scopes.add("offline_access");
    return [...scopes].join(" ");
  }

  /** Whether this flow can use refresh tokens (the authorization code flow can). */
  protected get wantsRefreshTokens(): boolean {
    return false;
  }

  /** The options of discovery requests (fetch and timeouts) for `base`. */
  protected discovery(base: typeof fetch): DiscoveryOptions {
    return { fetch: base, allowHttp: this.options.allowHttp };
  }

  /** The client and its token endpoint authentication, for refresh. */
  protected abstract clientFor(found: Discovered, base: typeof fetch): Promise<{ client: oauth.Client; auth: oauth.ClientAuth }>;

  private async refreshKnown(key: string, tokens: StoredTokens, base: typeof fetch): Promise<StoredTokens | undefined> {
    const found = this.discovered.get(key);
    if (!found || !tokens.refreshToken || found.as.issuer !== tokens.issuer) return undefined;
    const running = this.inFlight.get(key);
    if (running) return running;
    const run = this.refresh(found, key, tokens, base)
      .catch(() => undefined)
      .finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, run as Promise<StoredTokens>);
    return run;
  }

  private async refresh(found: Discovered, key: string, tokens: StoredTokens, base: typeof fetch): Promise<StoredTokens> {
    const { client, auth } = await this.clientFor(found, base);
    const endpoint = new URL(found.as.token_endpoint ?? found.as.issuer);
    let result: oauth.TokenEndpointResponse;
    try {
      result = await this.tokenRequest(async (DPoP) => {
        const response = await o4w().refreshTokenGrantRequest(found.as, client, auth, tokens.refreshToken!, {
          ...requestOptions(endpoint, this.discovery(base)),
          additionalParameters: { resource: found.resource },
          DPoP,
        });
        return o4w().processRefreshTokenResponse(found.as, client, response);
      });
    } catch (error) {
      throw new OAuthFlowError("refresh token request", endpoint.href, describe(error), { cause: error });
    }
    const refreshed = toStored(found, result, tokens.scope, tokens.refreshToken);
    await this.store.setTokens(key, refreshed);
    return refreshed;
  }
}

/** The stored form of a token response; the refresh token is kept when the server did not rotate it. */
export function toStored(found: Discovered, result: oauth.TokenEndpointResponse, requestedScope: string | undefined, refreshToken?: string): StoredTokens {
  return {
    issuer: found.as.issuer,
    accessToken: result.access_token,
    refreshToken: result.refresh_token ?? refreshToken,
    expiresAt: typeof result.expires_in === "number" ? Date.now() + result.expires_in * 1000 : undefined,
    scope: result.scope ?? requestedScope,
    tokenType: result.token_type.toLowerCase(),
  };
}

/** Token endpoint authentication for a registration: its method, else the best the server lists. */
export function clientAuthentication(as: oauth.AuthorizationServer, client: StoredClient): oauth.ClientAuth {
  const secret = client.client_secret;
  if (!secret) return o4w().None();
  const method = client.token_endpoint_auth_method ?? preferredMethod(as.token_endpoint_auth_methods_supported, true);
  if (method === "client_secret_post") return o4w().ClientSecretPost(secret);
  if (method === "none") return o4w().None();
  return clientSecretBasic(secret);
}

/**
 * client_secret_basic (RFC 6749 §2.3.1). oauth4webapi also percent-encodes - _ . ! ~ * ' ( ),
 * which RFC 3986 leaves alone and which servers that do not decode (the official SDKs' among
 * them) then refuse; encodeURIComponent leaves them, and a server that decodes reads the same.
 */
export function clientSecretBasic(secret: string): oauth.ClientAuth {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, "+");
  return (_as, client, _body, headers) => {
    headers.set("authorization", `Basic ${btoa(`${encode(client.client_id)}:${encode(secret)}`)}`);
  };
}

/** client_secret_basic, then client_secret_post, then none (RFC 8414: basic is the default when unlisted). */
export function preferredMethod(supported: readonly string[] | undefined, hasSecret: boolean): string {
  const list = supported ?? ["client_secret_basic"];
  if (hasSecret || list.some((m) => m.startsWith("client_secret"))) {
    if (list.includes("client_secret_basic")) return "client_secret_basic";
    if (list.includes("client_secret_post")) return "client_secret_post";
  }
  return "none";
}

/** One key per MCP endpoint: the URL without query or fragment. */
function resourceKey(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

function isExpired(tokens: StoredTokens): boolean {
  return tokens.expiresAt !== undefined && tokens.expiresAt - EXPIRY_SKEW_MS <= Date.now();
}

function isSubset(scope: string, granted: string | undefined): boolean {
  const have = new Set(granted?.split(" ") ?? []);
  return scope.split(" ").filter(Boolean).every((s) => have.has(s));
}

/** RFC 9449 §9: a 401 whose DPoP challenge is use_dpop_nonce, with the nonce to use. */
function isNonceChallenge(response: Response): boolean {
  return response.status === 401 && response.headers.has("dpop-nonce") && /(^|[\s,])error\s*=\s*"?use_dpop_nonce"?/i.test(response.headers.get("www-authenticate") ?? "");
}

/**
 * oauth4webapi's options for a request to the MCP server: the transport's fetch and signal (a
 * stream may last: no timeout), and its URL as given, as a Bearer request is sent (`allowHttp`
 * is about authorization servers).
 */
function resourceRequestOptions(base: typeof fetch): { [key: symbol]: unknown } {
  return { [o4w().customFetch]: base, [o4w().allowInsecureRequests]: true };
}

function withBearer(init: RequestInit | undefined, token: string | undefined): RequestInit | undefined {
  if (token === undefined) return init;
  const headers = new Headers(init?.headers);
  headers.set("authorization", `Bearer ${token}`);
  return { ...init, headers };
}
