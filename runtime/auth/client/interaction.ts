import { describe, OAuthFlowError } from "./errors.js";

/**
 * The user's part of the authorization code flow: open `authorizationUrl` (a browser, a printed
 * link) and resolve with the URL the authorization server redirected back to, with its `code`,
 * `state` and `iss`. The flow validates that URL; the interaction only carries it.
 */
export type UserInteraction = (authorizationUrl: URL) => Promise<URL>;

/** Options of `headlessInteraction`: the redirect URI it stops at, and how the authorization URL's redirects are followed without a browser. */
export interface HeadlessOptions {
  /** The redirect URI registered for the client: the walk stops at the first redirect to it. */
  readonly redirectUri: string;
  /** How many redirects to follow (default 10). */
  readonly maxHops?: number;
  /** The fetch that follows the authorization URL (the global fetch by default). */
  readonly fetch?: typeof fetch;
}

/**
 * An interaction without a person, for tests and machine clients whose authorization server
 * grants without a login page: follows the authorization server's redirects (keeping its cookies,
 * as a browser would) until one leads to `redirectUri`, and returns that URL.
 */
export function headlessInteraction(options: HeadlessOptions): UserInteraction {
  const doFetch = options.fetch ?? globalThis.fetch;
  const target = new URL(options.redirectUri);
  return async (authorizationUrl) => {
    const cookies = new Map<string, Map<string, string>>(); // origin -> name -> value
    let url = authorizationUrl;
    for (let hop = 0; hop < (options.maxHops ?? 10); hop++) {
      const jar = cookies.get(url.origin);
      const headers: Record<string, string> = {};
      if (jar?.size) headers.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
      const get = () => doFetch(url, { redirect: "manual", headers, signal: AbortSignal.timeout(30_000) });
      // A GET is safe to repeat: once, when a kept-alive connection was closed under us.
      const response = await get()
        .catch((error: Error) => (error.name === "TimeoutError" ? Promise.reject(error) : get()))
        .catch((error: Error) => {
          throw new OAuthFlowError("authorization request", url.href, describe(error), { cause: error });
        });
      for (const line of response.headers.getSetCookie?.() ?? []) {
        const [pair] = line.split(";");
        const eq = pair!.indexOf("=");
        if (eq <= 0) continue;
        const map = cookies.get(url.origin) ?? new Map<string, string>();
        map.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim());
        cookies.set(url.origin, map);
      }
      const location = response.headers.get("location");
      if (response.status < 300 || response.status >= 400 || !location) {
        const text = await response.text().catch(() => "");
        throw new OAuthFlowError("authorization request", url.href, `expected a redirect, got HTTP ${response.status} ${text.slice(0, 200)}`);
      }
      await response.body?.cancel().catch(() => {});
      const next = new URL(location, url);
      if (next.origin === target.origin && next.pathname === target.pathname) return next;
      url = next;
    }
    throw new OAuthFlowError("authorization request", authorizationUrl.href, `no redirect to ${options.redirectUri} within ${options.maxHops ?? 10} hops`);
  };
}
