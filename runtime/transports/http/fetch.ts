import { stderrLogger } from "../../util/logger.js";
import { StreamableHttpEndpoint, type EndpointOptions } from "./endpoint.js";
import type { Listenable } from "../endpoint.js";
import type { PlatformContext } from "./reply.js";

/**
 * A web-standard handler: what Workers, Deno.serve, Bun.serve and hono take. On Workers, pass the
 * Worker's `ctx` as `context`: work that outlives a response (SEP-1699 polling) then runs to its
 * end under `ctx.waitUntil`.
 */
export type FetchHandler = ((request: Request, context?: PlatformContext) => Promise<Response>) & { readonly endpoint: StreamableHttpEndpoint };

/**
 * Streamable HTTP, both eras, as `(request: Request) => Promise<Response>`, on Web APIs alone:
 * `export default { fetch: (request, env, ctx) => handler(request, ctx) }` on a Worker, `Deno.serve(handler)`,
 * `Bun.serve({ fetch: handler })`. `server` is an McpServer; the handler's endpoint is
 * `handler.endpoint`.
 *
 * The stateless era (2026-07-28) keeps nothing between requests. The session era keeps its
 * sessions and their SSE streams in this process's memory: on a platform that spreads requests
 * over isolates or instances, route a session's requests to one of them, or serve 2026-07-28.
 */
export function fetchHandler(server: Listenable, options: EndpointOptions = {}): FetchHandler {
  const endpoint = new StreamableHttpEndpoint(options);
  server.listen(endpoint).catch((error: Error) => (options.logger ?? stderrLogger)("error", `the HTTP handler could not start: ${error.message}`));
  return Object.assign((request: Request, context?: PlatformContext) => endpoint.fetch(request, context), { endpoint });
}
