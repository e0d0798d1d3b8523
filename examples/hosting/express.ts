// express: mount the node:http handler on a route. It reads the body itself, so that bad JSON is
// answered by MCP (-32700); behind express.json(), it takes the body express parsed.
import express from "express";
import { httpHandler } from "../../runtime/http.js";
import { createHelloServer } from "./server.js";

export const app = express();
app.all("/mcp", httpHandler(createHelloServer()));
