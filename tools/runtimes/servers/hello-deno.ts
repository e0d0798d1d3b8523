// Deno: Deno.serve takes the handler.
import { fetchHandler } from "../../../runtime/http.ts";
import { createHelloServer } from "../../../examples/hosting/server.ts";

const mcp = fetchHandler(createHelloServer(), { eventStore: false });

Deno.serve({ hostname: "127.0.0.1", port: Number(Deno.env.get("PORT") ?? 3000), onListen: ({ port }) => console.error(`listening on http://127.0.0.1:${port}/mcp`) }, mcp);
