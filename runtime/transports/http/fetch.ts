import { stderrLogger } from "../../util/logger.js";
import { StreamableHttpEndpoint, type EndpointOptions, type Listenable } from "./endpoint.js";
import type { PlatformContext } from "./incoming.js";

/** A web-standard handler: what Workers, Deno.serve, Bun.serve and hono take. */
export type FetchHandler = ((request: Request, env?: unknown, platform?: PlatformContext) => Promise<Response>) & { readonly endpoint: StreamableHttpEndpoint };

/**
 * Streamable HTTP, both eras, as `(request: Request) => Promise<Response>`, on Web APIs alone:
 * `export default { fetch: fetchHandler(server) }` on a Worker, `Deno.serve(handler)`,
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
  // A Worker's fetch is (request, env, ctx): ctx.waitUntil keeps tasks running after their CreateTaskResult.
  return Object.assign((request: Request, _env?: unknown, platform?: PlatformContext) => endpoint.fetch(request, platform), { endpoint });
}
