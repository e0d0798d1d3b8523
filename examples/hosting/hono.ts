// hono: the web-standard handler takes hono's Request as is; the same app runs on Node
// (@hono/node-server), Bun, Deno and Workers.
import { Hono } from "hono";
import { fetchHandler } from "../../runtime/http.js";
import { createHelloServer } from "./server.js";

const mcp = fetchHandler(createHelloServer());

export const app = new Hono();
app.all("/mcp", (c) => mcp(c.req.raw));
