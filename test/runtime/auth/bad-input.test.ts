// The resource server refuses bad tokens precisely and keeps serving: forged, expired,
// wrong-audience, wrong-issuer and malformed tokens, oversized Authorization headers, alg "none",
// an unknown kid, and a JWKS endpoint that never answers. Tokens are signed with jose; the keys
// are served over HTTP on 127.0.0.1, as an authorization server would.
import { expect } from "chai";
import { createServer as createHttpServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";

type KeyLike = Awaited<ReturnType<typeof generateKeyPair>>["privateKey"];
import { extractWWWAuthenticateParams } from "@modelcontextprotocol/sdk/client/auth.js";
import { bearerAuth, bearerChallenge, jwtVerifier } from "../../../runtime/auth/index.js";
import { createServer, type McpServer } from "../../../runtime/index.js";
import { http, type HttpEndpoint } from "../../../runtime/transports/http/index.js";
import { usedSecret } from "../../support/secrets.js";

const ISSUER = "https://as.example.test";
const quiet = () => {};

async function listen(handler: Parameters<typeof createHttpServer>[1]): Promise<{ server: Server; url: string }> {
  const server = createHttpServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe("authorization: bad input at the resource server", function () {
  let keys: { privateKey: KeyLike; jwk: JWK };
  let forger: { privateKey: KeyLike };
  let jwks: { server: Server; url: string };
  let hanging: { server: Server; url: string };
  const servers: { mcp: McpServer; endpoint: HttpEndpoint }[] = [];
  let mcpUrl: string;
  let slowUrl: string;
  const logged: Error[] = [];

  async function protectedServer(jwksUrl: string, audience: () => string): Promise<{ mcp: McpServer; endpoint: HttpEndpoint }> {
    const mcp = createServer({ name: "protected", version: "1.0.0" });
    mcp.tool({ name: "whoami", inputSchema: { type: "object" } }, (_args, ctx) => ({ content: [{ type: "text", text: ctx.auth?.subject ?? "nobody" }] }));
    let auth: ReturnType<typeof bearerAuth> | undefined;
    const endpoint = http({ port: 0, logger: quiet, auth: { authenticate: (r) => auth!.authenticate(r), routes: (r) => auth!.routes(r) } });
    await mcp.listen(endpoint);
    auth = bearerAuth({
      verifier: jwtVerifier({ issuer: ISSUER, audience: audience() || endpoint.url, jwksUrl, jwksTimeoutMs: 300 }),
      resourceMetadata: { resource: endpoint.url, authorizationServers: [ISSUER], scopesSupported: ["mcp:read"] },
      requiredScopes: ["mcp:read"],
      onError: (error) => logged.push(error),
    });
    servers.push({ mcp, endpoint });
    return { mcp, endpoint };
  }

  before(async () => {
    const pair = await generateKeyPair("ES256", { extractable: true });
    keys = { privateKey: pair.privateKey as KeyLike, jwk: { ...(await exportJWK(pair.publicKey)), kid: "k1", alg: "ES256", use: "sig" } };
    forger = { privateKey: (await generateKeyPair("ES256")).privateKey as KeyLike };
    jwks = await listen((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ keys: [keys.jwk] }));
    });
    hanging = await listen(() => {}); // accepts, never answers
    mcpUrl = (await protectedServer(`${jwks.url}/jwks`, () => "")).endpoint.url;
    slowUrl = (await protectedServer(`${hanging.url}/jwks`, () => "")).endpoint.url;
  });
  after(async () => {
    for (const { mcp } of servers) await mcp.close();
    for (const s of [jwks?.server, hanging?.server]) {
      s?.closeAllConnections();
      await new Promise((resolve) => s?.close(resolve));
    }
  });

  const sign = (claims: Record<string, unknown>, options: { key?: KeyLike; kid?: string; audience?: string; exp?: number } = {}) =>
    new SignJWT({ scope: "mcp:read", ...claims })
      .setProtectedHeader({ alg: "ES256", kid: options.kid ?? "k1" })
      .setIssuer((claims.iss as string) ?? ISSUER)
      .setAudience(options.audience ?? mcpUrl)
      .setSubject("user-1")
      .setIssuedAt()
      .setExpirationTime(options.exp ?? Math.floor(Date.now() / 1000) + 600)
      .sign(options.key ?? keys.privateKey)
      .then(usedSecret);

  const post = (url: string, authorization: string | undefined) =>
    fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "whoami", ...(authorization === undefined ? {} : { authorization }) },
      body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "whoami", arguments: {}, _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": { name: "t", version: "1" } } } }),
    });

  /** The refusal: status, the Bearer challenge as our client and the SDK read it, and the JSON-RPC body. */
  async function refusal(response: Response) {
    const body = (await response.json()) as { jsonrpc: string; error: { code: number; message: string; data: Record<string, unknown> } };
    expect(body.jsonrpc).to.equal("2.0");
    const ours = bearerChallenge(response);
    const sdk = extractWWWAuthenticateParams(response);
    expect(ours?.resourceMetadata).to.equal(sdk.resourceMetadataUrl?.href);
    expect(ours?.scope).to.equal(sdk.scope);
    return { status: response.status, challenge: ours, error: body.error };
  }

  async function expectServing(): Promise<void> {
    const ok = await post(mcpUrl, `Bearer ${await sign({})}`);
    expect(ok.status, await ok.clone().text()).to.equal(200);
    const body = (await ok.json()) as { result: { content: unknown } };
    expect(body.result.content).to.deep.equal([{ type: "text", text: "user-1" }]);
  }

  it("serves RFC 9728 metadata at the path-inserted and the root well-known URLs", async () => {
    const url = new URL(mcpUrl);
    for (const path of [`/.well-known/oauth-protected-resource${url.pathname}`, "/.well-known/oauth-protected-resource"]) {
      const response = await fetch(new URL(path, url.origin));
      expect(response.status).to.equal(200);
      expect(await response.json()).to.deep.equal({ resource: mcpUrl, authorization_servers: [ISSUER], bearer_methods_supported: ["header"], scopes_supported: ["mcp:read"] });
    }
  });

  it("a request without a token: 401 naming the metadata and the scope, no error code (RFC 6750 §3.1)", async () => {
    const { status, challenge, error } = await refusal(await post(mcpUrl, undefined));
    expect(status).to.equal(401);
    expect(challenge).to.deep.equal({ error: undefined, errorDescription: "an access token is required", scope: "mcp:read", resourceMetadata: `${new URL(mcpUrl).origin}/.well-known/oauth-protected-resource/mcp` });
    expect(error.code).to.equal(-32000);
  });

  const cases: { name: string; header: () => Promise<string>; status: number; error: string; description: RegExp }[] = [
    { name: "a forged token (signed by another key)", header: async () => `Bearer ${await sign({}, { key: forger.privateKey })}`, status: 401, error: "invalid_token", description: /signature does not verify/ },
    { name: "an expired token", header: async () => `Bearer ${await sign({}, { exp: Math.floor(Date.now() / 1000) - 3600 })}`, status: 401, error: "invalid_token", description: /expired/ },
    { name: "a token for another resource", header: async () => `Bearer ${await sign({}, { audience: "https://elsewhere.test/mcp" })}`, status: 401, error: "invalid_token", description: /another resource/ },
    { name: "a token from another issuer", header: async () => `Bearer ${await sign({ iss: "https://evil.test" })}`, status: 401, error: "invalid_token", description: /another authorization server/ },
    { name: "an unknown kid", header: async () => `Bearer ${await sign({}, { kid: "nope" })}`, status: 401, error: "invalid_token", description: /no key .* matches/ },
    {
      name: 'alg "none"',
      header: async () => {
        const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString("base64url");
        return `Bearer ${b64({ alg: "none", typ: "JWT" })}.${b64({ iss: ISSUER, aud: mcpUrl, sub: "admin", scope: "mcp:read", exp: Math.floor(Date.now() / 1000) + 600 })}.`;
      },
      status: 401,
      error: "invalid_token",
      description: /not a well-formed signed JWT|algorithm/,
    },
    { name: "a malformed token", header: async () => "Bearer not-a-jwt", status: 401, error: "invalid_token", description: /not a well-formed/ },
    { name: "two tokens in one header", header: async () => "Bearer a b", status: 400, error: "invalid_request", description: /one token/ },
    { name: "an oversized Authorization header", header: async () => `Bearer ${"a".repeat(9000)}`, status: 400, error: "invalid_request", description: /longer than 8192/ },
    { name: "a token without the required scope", header: async () => `Bearer ${await sign({ scope: "other" })}`, status: 403, error: "insufficient_scope", description: /lacks mcp:read/ },
  ];
  for (const c of cases)
    it(`${c.name}: ${c.status} ${c.error}, and the server keeps serving`, async () => {
      const { status, challenge, error } = await refusal(await post(mcpUrl, await c.header()));
      expect(status).to.equal(c.status);
      expect(challenge?.error).to.equal(c.error);
      expect(challenge?.errorDescription).to.match(c.description);
      expect(error.data).to.include({ error: c.error });
      await expectServing();
    });

  it("a JWKS endpoint that never answers: 503 once the fetch times out, why in the operator's log, and the server keeps serving", async () => {
    const before = logged.length;
    const response = await post(slowUrl, `Bearer ${await sign({}, { audience: slowUrl })}`);
    expect(response.status).to.equal(503);
    const body = (await response.json()) as { error: { code: number; message: string } };
    expect(body.error.message).to.equal("Service Unavailable: the access token cannot be checked now; try again later");
    expect(logged.slice(before).map((e) => e.message)).to.deep.equal(["VerificationUnavailableError: the authorization server's keys could not be fetched in time"]);
    await expectServing();
  });

  it("a request refused for a tool's scope is answered with its own id (403 insufficient_scope); a batch's with null", async () => {
    const scoped = bearerAuth({
      verifier: () => Promise.reject(new Error("not called: authorize reads the token's scopes")),
      resourceMetadata: { resource: "http://127.0.0.1/mcp", authorizationServers: [ISSUER] },
      scopes: { tools: { write: ["mcp:write"] } },
    });
    const token = { token: "t", scopes: ["mcp:read"] };
    const call = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "write", arguments: {} } });
    const alone = scoped.authorize(token, call(7))!;
    expect(alone.status).to.equal(403);
    expect(((await alone.json()) as { id: unknown }).id).to.equal(7);
    const batch = scoped.authorize(token, [call(8)])!;
    expect(((await batch.json()) as { id: unknown }).id).to.equal(null);
    expect(scoped.authorize({ ...token, scopes: ["mcp:read", "mcp:write"] }, call(9))).to.equal(undefined);
  });
});
