// examples/database with --http --auth against the development authorization server
// (oidc-provider on 127.0.0.1): a request without a token is refused with a challenge naming the
// metadata; McpClient signs in (discovery, dynamic registration, PKCE, resource) and queries, in
// both eras; a client without auth gets the 401 as an error it can read.
import { expect } from "chai";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AuthorizationCodeProvider, headlessInteraction } from "../../runtime/auth/index.js";
import { McpClient, type Revision } from "../../runtime/index.js";
import { HttpClientTransport } from "../../runtime/http.js";
import { startAuthorizationServer, type AuthorizationServer } from "../../examples/shared/oidc-authorization-server.js";
import { httpServer, rejection, type HttpServer } from "./support.js";

const REDIRECT = "http://127.0.0.1:9/callback";

describe("examples/database over Streamable HTTP with --auth (oidc-provider)", function () {
  let dir: string;
  let as: AuthorizationServer;
  let server: HttpServer;
  let resource = "";
  before(async function () {
    dir = await mkdtemp(join(tmpdir(), "mcp-example-db-auth-"));
    as = await startAuthorizationServer({ redirectUri: REDIRECT, resources: () => ({ [resource]: "mcp:read" }) });
    server = await httpServer("database", ["--db", join(dir, "example.sqlite"), "--auth", as.issuer]);
    resource = server.url;
  });
  after(async function () {
    await server?.stop();
    await as?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("refuses a request without a token: 401 with the protected resource metadata, which names the authorization server", async function () {
    const response = await fetch(server.url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "{}" });
    expect(response.status).to.equal(401);
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(response.headers.get("www-authenticate") ?? "")?.[1];
    expect(metadataUrl).to.equal(`${new URL(server.url).origin}/.well-known/oauth-protected-resource/mcp`);
    expect(await (await fetch(metadataUrl!)).json()).to.deep.include({ resource: server.url, authorization_servers: [as.issuer], scopes_supported: ["mcp:read"] });
  });

  for (const revision of ["2025-11-25", "2026-07-28"] as Revision[])
    it(`McpClient signs in and queries at ${revision}`, async function () {
      const authProvider = new AuthorizationCodeProvider({ redirectUri: REDIRECT, interaction: headlessInteraction({ redirectUri: REDIRECT }), clientMetadata: { client_name: "database test" } });
      const client = await McpClient.connect(new HttpClientTransport(server.url, { authProvider }), { name: "t", version: "1", revision, logger: () => {} });
      try {
        const result = await client.callTool("sql_query", { query: "SELECT count(*) FROM users" });
        expect(result.structuredContent).to.deep.include({ rows: [[12]] });
      } finally {
        await client.close();
      }
    });

  it("a client without auth gets the server's 401 as an error naming the missing token", async function () {
    const error = await rejection(McpClient.connect(new HttpClientTransport(server.url), { name: "t", version: "1", revision: "2026-07-28", logger: () => {} }));
    expect(error.message).to.match(/an access token is required/);
  });
});
