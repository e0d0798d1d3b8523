// Deno: the conformance fixture through fetchHandler. Prints "listening on URL" on stderr.
import handler from "./fixture.ts";

Deno.serve({ hostname: "127.0.0.1", port: Number(Deno.env.get("PORT") ?? 0), onListen: ({ port }) => console.error(`listening on http://127.0.0.1:${port}/mcp`) }, handler);
