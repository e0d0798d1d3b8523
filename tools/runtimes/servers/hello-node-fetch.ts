// Node: the hosting example's server through fetchHandler, served by @hono/node-server.
import { serve } from "@hono/node-server";
import { fetchHandler } from "../../../runtime/http.ts";
import { createHelloServer } from "../../../examples/hosting/server.ts";

const mcp = fetchHandler(createHelloServer(), { eventStore: false });
serve({ fetch: mcp, port: Number(process.env.PORT ?? 0), hostname: "127.0.0.1" }, (info) => console.error(`listening on http://127.0.0.1:${info.port}/mcp`));
