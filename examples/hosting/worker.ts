// Cloudflare Workers (workerd): the handler is the Worker's fetch. Tool schemas are checked by the
// interpreter there, since Workers forbid code generation.
import { fetchHandler } from "../../runtime/http.js";
import { createHelloServer } from "./server.js";

const mcp = fetchHandler(createHelloServer(), { allowedHosts: "*" });

export default { fetch: (request: Request) => mcp(request) };
