// Bun: the conformance fixture through fetchHandler. Prints "listening on URL" on stderr.
import handler from "./fixture.ts";

// idleTimeout 0: Bun otherwise closes a connection idle for 10 s, an open SSE stream included.
const served = Bun.serve({ hostname: "127.0.0.1", port: Number(process.env.PORT ?? 0), idleTimeout: 0, fetch: handler });
console.error(`listening on http://127.0.0.1:${served.port}/mcp`);
