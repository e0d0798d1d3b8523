import { refuse, type HttpError } from "./errors.js";
import type { Incoming } from "./incoming.js";

/** Hostnames a local server answers to by default: what a DNS-rebinding page cannot claim. */
export const LOCAL_HOSTNAMES: readonly string[] = ["localhost", "127.0.0.1", "[::1]"];

export interface SecurityOptions {
  /**
   * Hostnames (port ignored) the Host header may name; "*" turns the check off. Default: localhost,
   * 127.0.0.1 and [::1]. A server bound to a public address behind a proxy lists its public names.
   */
  readonly allowedHosts?: readonly string[] | "*";
  /**
   * Origins a browser may call from: exact origins ("https://app.example.com") or hostnames (any
   * scheme and port); "*" allows any. Default: pages served from localhost, 127.0.0.1 and [::1].
   * A request without an Origin header (not from a browser) is always allowed.
   */
  readonly allowedOrigins?: readonly string[] | "*";
  /**
   * Answer CORS: echo an allowed Origin in Access-Control-Allow-Origin (never "*") and answer
   * preflights. Off by default: no CORS header is ever sent.
   */
  readonly cors?: boolean;
}

/**
 * The hostname of a Host header value or URL host, lower case, port removed; brackets kept for IPv6.
 * A value that is not host[:port] (RFC 9110 §7.2), such as "localhost:80@evil.example", is
 * returned whole, so that it matches no allowed name.
 */
export function hostnameOf(host: string): string {
  const value = host.trim().toLowerCase();
  const end = value.startsWith("[") ? value.indexOf("]") + 1 : value.indexOf(":") < 0 ? value.length : value.indexOf(":");
  if (end <= 0) return value;
  const port = value.slice(end);
  return port === "" || /^:\d{1,5}$/.test(port) ? value.slice(0, end) : value;
}

/** DNS-rebinding protection: the Host, then the Origin, against their allow-lists. */
export function checkHostAndOrigin(req: Incoming, options: SecurityOptions): HttpError | undefined {
  const allowedHosts = options.allowedHosts ?? LOCAL_HOSTNAMES;
  if (allowedHosts !== "*") {
    const host = req.header("host");
    // RFC 9112 §3.2: a request without Host is a bad request, not a foreign one.
    if (host === undefined) return refuse.badRequest("the Host header is missing");
    if (!allowedHosts.includes(hostnameOf(host))) return refuse.forbidden(`the Host header ${JSON.stringify(host)} is not allowed`);
  }
  const origin = req.header("origin");
  if (origin !== undefined && !originAllowed(origin, options)) return refuse.forbidden(`the Origin ${JSON.stringify(origin)} is not allowed`);
  return undefined;
}

export function originAllowed(origin: string, options: SecurityOptions): boolean {
  const allowed = options.allowedOrigins ?? LOCAL_HOSTNAMES;
  if (allowed === "*") return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // "null" (sandboxed pages, file://) and garbage
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  // An origin is scheme://host[:port] (RFC 6454 §7): with userinfo, a path, a query or a fragment it is none.
  if (url.username !== "" || url.password !== "" || url.pathname !== "/" || url.search !== "" || url.hash !== "") return false;
  const hostname = url.hostname.toLowerCase();
  return allowed.some((entry) => (entry.includes("://") ? entry.toLowerCase() === url.origin.toLowerCase() : entry.toLowerCase() === hostname));
}

/** No CORS headers: one frozen object for every request (callers copy what they add to it). */
const NO_HEADERS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/** CORS response headers for an allowed Origin, when CORS is on; none otherwise. */
export function corsHeaders(req: Incoming, options: SecurityOptions): Record<string, string> {
  if (!options.cors) return NO_HEADERS;
  const origin = req.header("origin");
  if (origin === undefined || !originAllowed(origin, options)) return NO_HEADERS;
  return {
    "Access-Control-Allow-Origin": origin,
    // WWW-Authenticate and DPoP-Nonce: a page must read a challenge and a nonce (RFC 9449 §9) to answer them.
    "Access-Control-Expose-Headers": "Mcp-Session-Id, MCP-Protocol-Version, WWW-Authenticate, DPoP-Nonce",
    Vary: "Origin",
  };
}

/** The answer to a CORS preflight (OPTIONS): which methods and headers a page may use. */
export function preflightHeaders(req: Incoming, options: SecurityOptions): Record<string, string> {
  const headers = corsHeaders(req, options);
  if (Object.keys(headers).length === 0) return headers;
  return {
    ...headers,
    "Access-Control-Allow-Methods": "GET, POST, DELETE, OPTIONS",
    "Access-Control-Allow-Headers":
      req.header("access-control-request-headers") ??
      "Content-Type, Accept, Mcp-Session-Id, MCP-Protocol-Version, Mcp-Method, Mcp-Name, Last-Event-ID, Authorization, DPoP",
    "Access-Control-Max-Age": "600",
  };
}
