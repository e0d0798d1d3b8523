// workerd: the conformance fixture through fetchHandler, as a Worker module.
import handler from "./fixture.ts";

export default { fetch: (request: Request, env: unknown, ctx: { waitUntil(work: Promise<unknown>): void }) => handler(request, env, ctx) };
