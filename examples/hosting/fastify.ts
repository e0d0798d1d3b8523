// fastify: hand the raw request and response to the node:http handler, which reads the body
// itself (so MCP's own errors answer bad JSON), with fastify's JSON parsing off for this route.
import Fastify from "fastify";
import { httpHandler } from "../../runtime/http.js";
import { createHelloServer } from "./server.js";

const mcp = httpHandler(createHelloServer());

export const app = Fastify();
app.register(async (scope) => {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser("*", (_request, _payload, done) => done(null));
  scope.all("/mcp", (request, reply) => {
    reply.hijack();
    mcp(request.raw, reply.raw);
  });
});
