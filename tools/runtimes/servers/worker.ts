// workerd: the conformance fixture through fetchHandler, as a Worker module. `ctx` lets the work
// of a request whose stream the server closed (SEP-1699 polling) run on under ctx.waitUntil.
import handler from "./fixture.ts";

export default { fetch: (request: Request, _env: unknown, ctx: { waitUntil(promise: Promise<unknown>): void }) => handler(request, ctx) };
