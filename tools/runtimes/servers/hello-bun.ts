// Bun: Bun.serve takes the handler as its fetch. idleTimeout 0 keeps SSE streams open past 10 s.
import { fetchHandler } from "../../../runtime/http.ts";
import { createHelloServer } from "../../../examples/hosting/server.ts";

const mcp = fetchHandler(createHelloServer(), { eventStore: false });

const served = Bun.serve({ hostname: "127.0.0.1", port: Number(process.env.PORT ?? 3000), idleTimeout: 0, fetch: mcp });
console.error(`listening on http://127.0.0.1:${served.port}/mcp`);
