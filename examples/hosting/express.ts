// express: mount the node:http handler on a route. It reads the body itself, so that bad JSON is
// answered by MCP (-32700); behind express.json(), pass `req.body` as the third argument instead.
import express from "express";
import { httpHandler } from "../../runtime/http.js";
import { createHelloServer } from "./server.js";

const mcp = httpHandler(createHelloServer());

export const app = express();
app.all("/mcp", (req, res) => mcp(req, res));
