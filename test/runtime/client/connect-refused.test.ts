// McpClient.connect over HTTP to a server that refuses the client itself (401, 403): no other era
// is probed, and the error keeps the status and what the server said to do (WWW-Authenticate).
// Real servers on 127.0.0.1: our endpoint with bearerAuth, and one whose Host allow-list refuses us.
import { expect } from "chai";
import { bearerAuth, jwtVerifier } from "../../../runtime/auth/index.js";
import { createServer, McpClient, type McpServer } from "../../../runtime/index.js";
import { http, HttpClientTransport, HttpStatusError, type HttpOptions } from "../../../runtime/http.js";
import { silentLogger } from "../../../runtime/util/logger.js";
import { rejection } from "../../support/mcp.js";

async function serve(options: HttpOptions, protect: boolean): Promise<{ server: McpServer; url: string }> {
  const server = createServer({ name: "refusing", version: "1.0.0", logger: silentLogger });
  let auth: ReturnType<typeof bearerAuth> | undefined;
  const endpoint = http({ port: 0, logger: silentLogger, ...options, ...(protect ? { auth: { authenticate: (r) => auth!.authenticate(r), routes: (r) => auth!.routes(r) } } : {}) });
  await server.listen(endpoint);
  // No token is ever sent, so the keys are never fetched.
  if (protect)
    auth = bearerAuth({
      verifier: jwtVerifier({ issuer: "https://as.example.test", audience: endpoint.url, jwksUrl: "http://127.0.0.1:9/jwks" }),
      resourceMetadata: { resource: endpoint.url, authorizationServers: ["https://as.example.test"] },
    });
  return { server, url: endpoint.url };
}

/** The client's fetch, recording the method of each POST it sends. */
function recording(methods: string[]): typeof fetch {
  return (input, init) => {
    if (init?.method === "POST" && typeof init.body === "string") methods.push((JSON.parse(init.body) as { method: string }).method);
    return fetch(input, init);
  };
}

describe("McpClient.connect over HTTP: refused with 401 or 403", () => {
  it("401: stops after the first probe and says the server requires authorization, with the status and WWW-Authenticate", async () => {
    const { server, url } = await serve({}, true);
    const sent: string[] = [];
    try {
      const error = await rejection(McpClient.connect(new HttpClientTransport(url, { fetch: recording(sent) }), { name: "c", version: "1", logger: silentLogger }));
      expect(sent, "no other era probed").to.deep.equal(["server/discover"]);
      expect(error).to.be.instanceOf(HttpStatusError);
      expect(error.status).to.equal(401);
      expect(error.unauthorized).to.equal(true);
      expect(error.message).to.contain("the server requires authorization (HTTP 401").and.not.contain("no MCP era works");
      const metadata = `${new URL(url).origin}/.well-known/oauth-protected-resource/`;
      expect(error.wwwAuthenticate).to.contain(`resource_metadata="${metadata}`);
      expect(error.message).to.contain(metadata);
    } finally {
      await server.close();
    }
  });

  it("401 at a revision given: the same error, from initialize", async () => {
    const { server, url } = await serve({}, true);
    try {
      const error = await rejection(McpClient.connect(new HttpClientTransport(url), { name: "c", version: "1", revision: "2025-11-25", logger: silentLogger }));
      expect(error).to.be.instanceOf(HttpStatusError);
      expect(error.status).to.equal(401);
    } finally {
      await server.close();
    }
  });

  it("403 (a Host the server does not allow): stops after the first probe, with the status and the server's reason", async () => {
    const { server, url } = await serve({ allowedHosts: ["mcp.example.test"] }, false);
    const sent: string[] = [];
    try {
      const error = await rejection(McpClient.connect(new HttpClientTransport(url, { fetch: recording(sent) }), { name: "c", version: "1", logger: silentLogger }));
      expect(sent).to.deep.equal(["server/discover"]);
      expect(error).to.be.instanceOf(HttpStatusError);
      expect(error.status).to.equal(403);
      expect(error.message).to.match(/^HTTP 403: Forbidden: .*Host/);
    } finally {
      await server.close();
    }
  });
});
