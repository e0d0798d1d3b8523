// The conformance fixture server, runnable:
//   node --import tsx examples/conformance-server/main.ts              (stdio)
//   node --import tsx examples/conformance-server/main.ts --port 3000  (Streamable HTTP on 127.0.0.1:3000/mcp)
// Options: --port N (0 picks a free port; the URL is printed on stderr as "listening on URL"),
// --host H (default 127.0.0.1).
import { parseArgs } from "node:util";
import { stdio } from "../../runtime/index.js";
import { http, type HttpEndpoint } from "../../runtime/transports/http/index.js";
import { createConformanceServer } from "./server.js";

const { values } = parseArgs({ options: { port: { type: "string" }, host: { type: "string" } }, strict: true });

let endpoint: HttpEndpoint | undefined;
const server = createConformanceServer({ closeStream: (ctx) => endpoint?.closeStream(ctx.session, ctx.requestId) ?? false });

if (values.port !== undefined) {
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a port number, not ${values.port}`);
  endpoint = http({ port, host: values.host ?? "127.0.0.1", retryMs: 500 });
  await server.listen(endpoint);
  process.stderr.write(`listening on ${endpoint.url}\n`);
} else {
  await server.listen(stdio());
}

const stop = () => {
  void server.close().finally(() => process.exit(0));
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
