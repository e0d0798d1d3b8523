// Cloudflare Workers (workerd): the handler is the Worker's fetch. Tool schemas are checked by the
// interpreter there, since Workers forbid code generation. The README shows this file verbatim.
import { fetchHandler, type PlatformContext } from "../../runtime/http.js";
import { createHelloServer } from "./server.js";

const mcp = fetchHandler(createHelloServer(), { allowedHosts: "*" });

// ctx: a request's work that outlives its response (SEP-1699 polling) runs on under ctx.waitUntil.
export default { fetch: (request: Request, _env: unknown, ctx: PlatformContext) => mcp(request, ctx) };
