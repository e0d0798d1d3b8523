import type * as oauth from "oauth4webapi";
import { o4w } from "../peers.js";
import { describe, OAuthFlowError } from "./errors.js";

/** What discovery found for one MCP server: where to authorize and for which resource. */
export interface Discovered {
  /** RFC 8707 resource indicator: the PRM `resource`, or the server URL without PRM. */
  readonly resource: string;
  /** RFC 9728 metadata, when the server publishes it (2025-06-18 on). */
  readonly protectedResource?: oauth.ResourceServer;
  readonly as: oauth.AuthorizationServer;
  /** True when the server had no metadata and the 2025-03-26 default endpoints are used. */
  readonly defaultEndpoints: boolean;
}

export interface DiscoveryOptions {
  readonly fetch: typeof fetch;
  /** Whether plain-HTTP URLs are allowed (default: only for loopback hosts). */
  readonly allowHttp?: (url: URL) => boolean;
}

const TIMEOUT_MS = 30_000;

/** http: to localhost, 127.0.0.0/8 or ::1; everything else must be https: (OAuth 2.1 §1.5). */
export function isLoopback(url: URL): boolean {
  return url.hostname === "localhost" || url.hostname === "[::1]" || /^127(\.\d{1,3}){3}$/.test(url.hostname);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- one option bag for every oauth4webapi request
export function requestOptions(url: URL, options: DiscoveryOptions): oauth.HttpRequestOptions<any, any> {
  return {
    [o4w().customFetch]: options.fetch,
    [o4w().allowInsecureRequests]: (options.allowHttp ?? isLoopback)(url),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  };
}

/**
 * MCP authorization discovery (2025-11-25 "Authorization Server Discovery"): protected resource
 * metadata from the challenge's `resource_metadata`, else the path-inserted and then the root
 * well-known URL; then the first authorization server's metadata. Without PRM, the 2025-03-26
 * rules: the server's origin is the authorization server, with default endpoints when it
 * publishes no metadata.
 */
export async function discover(serverUrl: URL, resourceMetadataUrl: string | undefined, options: DiscoveryOptions): Promise<Discovered> {
  const server = canonical(serverUrl);
  const prm = await protectedResourceMetadata(server, resourceMetadataUrl, options);
  if (prm) {
    const issuer = prm.authorization_servers?.[0];
    if (!issuer) throw new OAuthFlowError("protected resource metadata", undefined, `${prm.resource} names no authorization_servers`);
    const as = await authorizationServerMetadata(new URL(issuer), options);
    if (!as) throw new OAuthFlowError("authorization server metadata", issuer, "no RFC 8414 or OpenID metadata at any well-known URL");
    return { resource: prm.resource, protectedResource: prm, as, defaultEndpoints: false };
  }
  const origin = new URL(server.origin);
  const as = await authorizationServerMetadata(origin, options);
  if (as) return { resource: server.href, as, defaultEndpoints: false };
  // 2025-03-26 §2.3.3: no metadata, so /authorize, /token and /register at the server's origin.
  return {
    resource: server.href,
    as: {
      issuer: origin.href.replace(/\/$/, ""),
      authorization_endpoint: new URL("/authorize", origin).href,
      token_endpoint: new URL("/token", origin).href,
      registration_endpoint: new URL("/register", origin).href,
    },
    defaultEndpoints: true,
  };
}

/** The server URL as a resource indicator: no fragment (RFC 8707 §2). */
function canonical(url: URL): URL {
  const copy = new URL(url);
  copy.hash = "";
  return copy;
}

async function protectedResourceMetadata(server: URL, fromChallenge: string | undefined, options: DiscoveryOptions): Promise<oauth.ResourceServer | undefined> {
  const candidates: { url: string; request: () => Promise<Response> }[] = [];
  if (fromChallenge) {
    const url = new URL(fromChallenge, server);
    candidates.push({ url: url.href, request: () => get(url, options) });
  } else {
    const pathInserted = new URL(server);
    pathInserted.search = "";
    candidates.push({ url: wellKnown(pathInserted, "oauth-protected-resource"), request: () => o4w().resourceDiscoveryRequest(pathInserted, requestOptions(pathInserted, options)) });
    if (pathInserted.pathname !== "/") {
      const root = new URL(server.origin);
      candidates.push({ url: wellKnown(root, "oauth-protected-resource"), request: () => o4w().resourceDiscoveryRequest(root, requestOptions(root, options)) });
    }
  }
  for (const { url, request } of candidates) {
    const response = await request().catch((error: Error) => {
      throw new OAuthFlowError("protected resource metadata", url, describe(error), { cause: error });
    });
    if (response.status >= 400 && response.status < 500 && !fromChallenge) {
      await response.body?.cancel().catch(() => {});
      continue; // try the next well-known URL
    }
    const declared = (await response
      .clone()
      .json()
      .catch(() => undefined)) as { resource?: unknown } | undefined;
    const resource = typeof declared?.resource === "string" ? declared.resource : server.href;
    let metadata: oauth.ResourceServer;
    try {
      metadata = await o4w().processResourceDiscoveryResponse(new URL(resource), response);
    } catch (error) {
      throw new OAuthFlowError("protected resource metadata", url, describe(error), { cause: error });
    }
    // RFC 9728 §3.3 / MCP: the metadata must be about this server: same origin, and a path that contains the server's.
    if (!covers(new URL(metadata.resource), server))
      throw new OAuthFlowError("protected resource metadata", url, `its resource ${metadata.resource} is not the MCP server ${server.href}`);
    return metadata;
  }
  return undefined;
}

function covers(resource: URL, server: URL): boolean {
  if (resource.origin !== server.origin) return false;
  const base = resource.pathname.endsWith("/") ? resource.pathname : `${resource.pathname}/`;
  const path = server.pathname.endsWith("/") ? server.pathname : `${server.pathname}/`;
  return path.startsWith(base);
}

/**
 * RFC 8414 §3.1 and OpenID Connect Discovery, in the order MCP 2025-11-25 gives: for an issuer
 * with a path, oauth-authorization-server and openid-configuration inserted before the path, then
 * openid-configuration appended; for one without, the two at the root. oauth4webapi checks that
 * the metadata's `issuer` is the one asked for (RFC 8414 §3.3).
 */
async function authorizationServerMetadata(issuer: URL, options: DiscoveryOptions): Promise<oauth.AuthorizationServer | undefined> {
  const hasPath = issuer.pathname !== "/" && issuer.pathname !== "";
  const attempts: { url: string; request: () => Promise<Response> }[] = [
    { url: wellKnown(issuer, "oauth-authorization-server"), request: () => o4w().discoveryRequest(issuer, { ...requestOptions(issuer, options), algorithm: "oauth2" }) },
  ];
  if (hasPath) {
    const inserted = new URL(wellKnown(issuer, "openid-configuration"));
    attempts.push({ url: inserted.href, request: () => get(inserted, options) });
  }
  attempts.push({
    url: `${issuer.href.replace(/\/$/, "")}/.well-known/openid-configuration`,
    request: () => o4w().discoveryRequest(issuer, { ...requestOptions(issuer, options), algorithm: "oidc" }),
  });
  for (const { url, request } of attempts) {
    const response = await request().catch((error: Error) => {
      throw new OAuthFlowError("authorization server metadata", url, describe(error), { cause: error });
    });
    if (response.status >= 400 && response.status < 500) {
      await response.body?.cancel().catch(() => {});
      continue;
    }
    try {
      return await o4w().processDiscoveryResponse(issuer, response);
    } catch (error) {
      throw new OAuthFlowError("authorization server metadata", url, describe(error), { cause: error });
    }
  }
  return undefined;
}

/** MCP 2025-11-25: without S256 in code_challenge_methods_supported the client must not proceed. */
export function checkPkce(as: oauth.AuthorizationServer): oauth.AuthorizationServer {
  if (as.code_challenge_methods_supported?.includes("S256")) return as;
  const supported = as.code_challenge_methods_supported;
  throw new OAuthFlowError(
    "authorization server metadata",
    as.issuer,
    supported ? `PKCE S256 is not supported (code_challenge_methods_supported: ${supported.join(", ")})` : "it does not advertise PKCE (no code_challenge_methods_supported)",
  );
}

function wellKnown(url: URL, name: string): string {
  const path = url.pathname === "/" ? "" : url.pathname.replace(/\/$/, "");
  return new URL(`/.well-known/${name}${path}`, url.origin).href;
}

function get(url: URL, options: DiscoveryOptions): Promise<Response> {
  o4w().checkProtocol(url, !(options.allowHttp ?? isLoopback)(url));
  return options.fetch(url, { headers: { accept: "application/json" }, redirect: "manual", signal: AbortSignal.timeout(TIMEOUT_MS) });
}
