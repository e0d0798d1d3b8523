// hono with authorization: bearerAuth checks every request to /mcp, and the RFC 9728 metadata
// its challenge names lives under /.well-known/, outside the /mcp route: one route hands it to
// the same handler, which serves it (the path-inserted and the root form).
import { Hono } from "hono";
import { bearerAuth, jwtVerifier } from "../../runtime/auth/index.js";
import { fetchHandler } from "../../runtime/http.js";
import { createHelloServer } from "./server.js";

export function createApp(resource: string, issuer: string) {
  const auth = bearerAuth({
    verifier: jwtVerifier({ issuer, audience: resource, jwksUrl: `${issuer}/jwks` }),
    resourceMetadata: { resource, authorizationServers: [issuer], scopesSupported: ["mcp:read"] },
  });
  const mcp = fetchHandler(createHelloServer(), { auth });

  const app = new Hono();
  app.all("/mcp", (c) => mcp(c.req.raw));
  app.get("/.well-known/oauth-protected-resource/*", (c) => mcp(c.req.raw));
  return app;
}
