// The conformance fixture as a fetch handler: what every runtime below serves, unchanged.
import { createConformanceServer } from "../../../examples/conformance-server/server.ts";
import { fetchHandler, type FetchHandler } from "../../../runtime/http.ts";

let handler: FetchHandler | undefined;
const server = createConformanceServer({ closeStream: (ctx) => handler?.endpoint.closeStream(ctx.session, ctx.requestId) ?? false });
handler = fetchHandler(server, { path: "/mcp", retryMs: 500 });

export default handler;
