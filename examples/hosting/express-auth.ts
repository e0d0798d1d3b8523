// express with authorization: bearerAuth checks every request to /mcp, and the RFC 9728 metadata
// its challenge names lives under /.well-known/, outside the /mcp route: one route hands it to
// the same handler, which serves it (the path-inserted and the root form).
import express from "express";
import { bearerAuth, jwtVerifier } from "../../runtime/auth/index.js";
import { httpHandler } from "../../runtime/http.js";
import { createHelloServer } from "./server.js";

export function createApp(resource: string, issuer: string) {
  const auth = bearerAuth({
    verifier: jwtVerifier({ issuer, audience: resource, jwksUrl: `${issuer}/jwks` }),
    resourceMetadata: { resource, authorizationServers: [issuer], scopesSupported: ["mcp:read"] },
  });
  const mcp = httpHandler(createHelloServer(), { auth });

  const app = express();
  app.all("/mcp", (req, res) => mcp(req, res));
  app.get("/.well-known/oauth-protected-resource{/*path}", (req, res) => mcp(req, res));
  return app;
}
