// End to end: McpClient signs in to our resource server (http({ auth: bearerAuth(...) })) at a
// real authorization server (oidc-provider on 127.0.0.1), in both eras: dynamic registration and
// pre-registration, refresh of an expired token, step-up for a tool that needs another scope, a
// token for another resource refused; and the official SDK v1 client with its own OAuth.
import { expect } from "chai";
import { Client as SdkClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { AuthorizationCodeProvider, bearerAuth, headlessInteraction, jwtVerifier, MemoryAuthStore, type ResourceServerAuth } from "../../../runtime/auth/index.js";
import { createServer, McpClient, type McpServer, type Revision } from "../../../runtime/index.js";
import { http, HttpClientTransport, type HttpEndpoint } from "../../../runtime/transports/http/index.js";
import { MACHINE, PRE_REGISTERED, startAuthorizationServer, type AuthorizationServer } from "../../../examples/shared/oidc-authorization-server.js";

const REDIRECT = "http://127.0.0.1:9/callback"; // never fetched: the headless walk stops at it
const OTHER = "http://127.0.0.1:9/other-mcp";
const quiet = () => {};

describe("authorization end to end: McpClient, our resource server, oidc-provider", function () {
  let as: AuthorizationServer;
  let server: McpServer;
  let endpoint: HttpEndpoint;
  let auth: ResourceServerAuth;
  let mcpUrl: string;
  const seen: { subject?: string; scopes?: readonly string[]; clientId?: string }[] = [];

  before(async () => {
    as = await startAuthorizationServer({ redirectUri: REDIRECT, resources: () => ({ [mcpUrl]: "mcp:read mcp:write", [OTHER]: "mcp:read" }) });
    server = createServer({ name: "protected", version: "1.0.0", visible: (kind, name, ctx) => auth.allows(ctx.auth, kind, name) });
    server.tool({ name: "whoami", description: "Says who the token is for", inputSchema: { type: "object" } }, (_args, ctx) => {
      seen.push({ subject: ctx.auth?.subject, scopes: ctx.auth?.scopes, clientId: ctx.auth?.clientId });
      return { content: [{ type: "text", text: `${ctx.auth?.subject} ${ctx.auth?.scopes.join(" ")}` }] };
    });
    server.tool({ name: "write", description: "Needs mcp:write", inputSchema: { type: "object" } }, () => ({ content: [{ type: "text", text: "written" }] }));
    // The endpoint's URL is the resource, known once it listens: the auth option delegates to `auth`.
    endpoint = http({
      port: 0,
      logger: quiet,
      auth: {
        authenticate: (request) => auth.authenticate(request),
        routes: (request) => auth.routes(request),
        authorize: (info, message) => auth.authorize(info, message),
      },
    });
    await server.listen(endpoint);
    mcpUrl = endpoint.url;
    auth = bearerAuth({
      verifier: jwtVerifier({ issuer: as.issuer, audience: mcpUrl, jwksUrl: `${as.issuer}/jwks` }),
      resourceMetadata: { resource: mcpUrl, authorizationServers: [as.issuer], scopesSupported: ["mcp:read", "mcp:write"] },
      requiredScopes: ["mcp:read"],
      scopes: { tools: { write: ["mcp:write"] } },
    });
  });
  after(async () => {
    await server?.close();
    await as?.close();
  });

  const signIn = (options: Partial<ConstructorParameters<typeof AuthorizationCodeProvider>[0]> = {}) =>
    new AuthorizationCodeProvider({ redirectUri: REDIRECT, interaction: headlessInteraction({ redirectUri: REDIRECT }), clientMetadata: { client_name: "e2e" }, ...options });

  for (const revision of ["2025-11-25", "2026-07-28"] as Revision[]) {
    describe(`at ${revision}`, () => {
      const connect = (authProvider: AuthorizationCodeProvider) =>
        McpClient.connect(new HttpClientTransport(mcpUrl, { authProvider }), { name: "e2e", version: "1.0.0", revision, logger: quiet });

      it("signs in with dynamic registration, and the handler sees the token in ctx.auth", async () => {
        const grants = as.grants.length;
        const client = await connect(signIn());
        try {
          const result = await client.callTool("whoami");
          expect(result.content).to.deep.equal([{ type: "text", text: "user-1 mcp:read" }]);
          const code = as.grants.slice(grants).find((g) => g.grantType === "authorization_code");
          expect(code, "an authorization code grant").to.include({ resource: mcpUrl });
          expect(code!.clientId).to.not.equal(PRE_REGISTERED.client_id); // registered on the fly
          expect(seen.at(-1)!.clientId).to.equal(code!.clientId);
        } finally {
          await client.close();
        }
      });

      it("signs in with a pre-registered client", async () => {
        const grants = as.grants.length;
        const client = await connect(signIn({ client: PRE_REGISTERED }));
        try {
          await client.callTool("whoami");
          expect(as.grants.slice(grants).map((g) => g.clientId)).to.include(PRE_REGISTERED.client_id);
          expect(seen.at(-1)!.clientId).to.equal(PRE_REGISTERED.client_id);
        } finally {
          await client.close();
        }
      });

      it("refreshes an expired token with its refresh token, for the same resource", async () => {
        const store = new MemoryAuthStore();
        const client = await connect(signIn({ store }));
        try {
          await client.callTool("whoami");
          const key = new URL(mcpUrl).origin + new URL(mcpUrl).pathname;
          const first = (await store.getTokens(key))!;
          expect(first.refreshToken, "a refresh token (offline_access)").to.be.a("string");
          await store.setTokens(key, { ...first, expiresAt: Date.now() - 1000 });
          const grants = as.grants.length;
          await client.callTool("whoami");
          expect(as.grants.slice(grants)).to.deep.equal([{ grantType: "refresh_token", resource: mcpUrl, scope: undefined, clientId: as.grants.at(-1)!.clientId }]);
          expect((await store.getTokens(key))!.accessToken).to.not.equal(first.accessToken);
        } finally {
          await client.close();
        }
      });

      it("lists only what the token may use, steps up for a tool that needs another scope (asking for the union), then lists it", async () => {
        const client = await connect(signIn());
        try {
          expect((await client.listTools()).items.map((t) => t.name)).to.deep.equal(["whoami"]);
          const before = as.authorizations.length;
          expect((await client.callTool("write")).content).to.deep.equal([{ type: "text", text: "written" }]);
          const stepUp = as.authorizations.slice(before);
          expect(stepUp).to.have.length(1);
          expect(stepUp[0]!.scope!.split(" ")).to.include.members(["mcp:read", "mcp:write"]);
          expect((await client.listTools()).items.map((t) => t.name)).to.deep.equal(["whoami", "write"]);
        } finally {
          await client.close();
        }
      });
    });
  }

  it("refuses a token issued for another resource (RFC 8707), and accepts one for this resource", async () => {
    const tokenFor = async (resource: string) => {
      const response = await fetch(`${as.issuer}/token`, {
        method: "POST",
        headers: { authorization: `Basic ${btoa(`${MACHINE.client_id}:${MACHINE.client_secret}`)}`, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "client_credentials", resource, scope: "mcp:read" }),
      });
      expect(response.status).to.equal(200);
      return ((await response.json()) as { access_token: string }).access_token;
    };
    const call = (token: string) =>
      fetch(mcpUrl, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } } }),
      });
    const refused = await call(await tokenFor(OTHER));
    expect(refused.status).to.equal(401);
    expect(refused.headers.get("www-authenticate")).to.match(/^Bearer resource_metadata="[^"]+", error="invalid_token"/);
    const body = (await refused.json()) as { error: { code: number; data: { error: string; error_description: string } } };
    expect(body.error.data).to.deep.equal({ error: "invalid_token", error_description: "the token was issued for another resource (aud)", scope: "mcp:read" });
    const accepted = await call(await tokenFor(mcpUrl));
    expect(accepted.status, await accepted.clone().text()).to.not.equal(401);
  });

  it("the official SDK v1 client, with its own OAuth provider, signs in to our server", async () => {
    const walk = headlessInteraction({ redirectUri: REDIRECT });
    let code: string | undefined;
    let verifier = "";
    let clientInfo: Parameters<NonNullable<OAuthClientProvider["saveClientInformation"]>>[0] | undefined;
    let tokens: Parameters<OAuthClientProvider["saveTokens"]>[0] | undefined;
    const provider: OAuthClientProvider = {
      get redirectUrl() {
        return REDIRECT;
      },
      get clientMetadata() {
        return { client_name: "sdk-v1", redirect_uris: [REDIRECT], grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "client_secret_basic", application_type: "native" } as never;
      },
      clientInformation: () => clientInfo,
      saveClientInformation: (info) => void (clientInfo = info),
      tokens: () => tokens,
      saveTokens: (t) => void (tokens = t),
      redirectToAuthorization: async (url) => {
        code = (await walk(url)).searchParams.get("code") ?? undefined;
      },
      saveCodeVerifier: (v) => void (verifier = v),
      codeVerifier: () => verifier,
    };
    const sdk = new SdkClient({ name: "sdk-v1", version: "1.0.0" });
    let transport = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider });
    await sdk.connect(transport).catch(async (error: Error) => {
      // The SDK's flow: UnauthorizedError after the redirect, then finishAuth(code) and connect again.
      expect(error).to.be.instanceOf(UnauthorizedError);
      expect(code, "the authorization code from the redirect").to.be.a("string");
      await transport.finishAuth(code!);
      transport = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider });
      await sdk.connect(transport);
    });
    try {
      const result = await sdk.callTool({ name: "whoami", arguments: {} });
      expect(result.content).to.deep.equal([{ type: "text", text: `user-1 ${tokens!.scope}` }]);
      expect(tokens!.scope!.split(" ")).to.include("mcp:read");
    } finally {
      await sdk.close();
    }
  });
});
