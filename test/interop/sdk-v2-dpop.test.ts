// DPoP interop: the official SDK v2 client (@modelcontextprotocol/client 2.4, tools/interop) signs
// its requests with `withDpop` and a DpopSession, against our resource server (http() with
// bearerAuth's dpop, DPoP required), with and without server nonces. The token is bound to the
// session's key (cnf.jkt = session.thumbprint) and signed by a local authorization server key.
import { expect } from "chai";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { bearerAuth, jwtVerifier, type ResourceServerAuth } from "../../runtime/auth/index.js";
import { createServer, type McpServer } from "../../runtime/index.js";
import { http } from "../../runtime/transports/http/index.js";
import { usedSecret } from "../support/secrets.js";
import { interopPeers } from "./support/peers.js";

type Any = any; // eslint-disable-line @typescript-eslint/no-explicit-any
const ISSUER = "https://as.example.test";

describe("DPoP interop: the SDK v2 client's withDpop against our resource server", function () {
  this.timeout(60_000);
  let peers: Any;
  let asKey: { privateKey: CryptoKeyLike; jwk: Record<string, unknown> };
  const servers: McpServer[] = [];
  type CryptoKeyLike = Awaited<ReturnType<typeof generateKeyPair>>["privateKey"];

  before(async function () {
    peers = await interopPeers(this);
    const pair = await generateKeyPair("ES256", { extractable: true });
    asKey = { privateKey: pair.privateKey, jwk: { ...(await exportJWK(pair.publicKey)), kid: "as-1", alg: "ES256" } };
  });
  after(async () => {
    for (const server of servers) await server.close();
  });

  /** Our server (DPoP required; nonces when asked), and each authentication verdict: status, OAuth error, scheme. */
  async function serve(nonce: boolean) {
    const mcp = createServer({ name: "protected", version: "1.0.0", logger: () => {} });
    mcp.tool({ name: "whoami", inputSchema: { type: "object" } }, (_args, ctx) => ({ content: [{ type: "text", text: ctx.auth?.subject ?? "nobody" }] }));
    let auth: ResourceServerAuth | undefined;
    const verdicts: { status: number; error?: string; scheme?: string }[] = [];
    const endpoint = http({
      port: 0,
      host: "127.0.0.1",
      logger: () => {},
      auth: {
        authenticate: async (request) => {
          const verdict = await auth!.authenticate(request);
          const scheme = /^(\w+)/.exec(request.headers.get("authorization") ?? "")?.[1];
          const error = verdict instanceof Response ? ((await verdict.clone().json()) as { error?: { data?: { error?: string } } }).error?.data?.error : undefined;
          verdicts.push({ status: verdict instanceof Response ? verdict.status : 200, error, scheme });
          return verdict;
        },
        routes: (request) => auth!.routes(request),
      },
    });
    await mcp.listen(endpoint);
    servers.push(mcp);
    auth = bearerAuth({
      verifier: jwtVerifier({ issuer: ISSUER, audience: endpoint.url, jwks: { keys: [asKey.jwk] } }),
      resourceMetadata: { resource: endpoint.url, authorizationServers: [ISSUER] },
      dpop: { required: true, nonce },
    });
    return { url: endpoint.url, verdicts };
  }

  const boundToken = async (audience: string, jkt: string) => {
    const now = Math.floor(Date.now() / 1000);
    return usedSecret(
      await new SignJWT({ sub: "sdk-v2", scope: "mcp:read", cnf: { jkt } }).setProtectedHeader({ alg: "ES256", kid: "as-1", typ: "at+jwt" }).setIssuer(ISSUER).setAudience(audience).setIssuedAt(now).setExpirationTime(now + 600).sign(asKey.privateKey),
    );
  };

  for (const nonce of [false, true])
    it(`lists and calls a tool with a fresh proof on every request${nonce ? ", retrying our use_dpop_nonce challenge with the nonce" : ""}`, async () => {
      const { url, verdicts } = await serve(nonce);
      const session = await peers.DpopSession.create();
      const token = await boundToken(url, session.thumbprint);
      const client = new peers.Client({ name: "sdk-v2-dpop", version: "2.4.0" });
      await client.connect(new peers.StreamableHTTPClientTransport(new URL(url), { fetch: peers.withDpop(session, () => token)(fetch) }));
      try {
        expect((await client.listTools()).tools.map((t: { name: string }) => t.name)).to.deep.equal(["whoami"]);
        expect((await client.callTool({ name: "whoami", arguments: {} })).content).to.deep.equal([{ type: "text", text: "sdk-v2" }]);
      } finally {
        await client.close();
      }
      expect(verdicts.filter((v) => v.scheme !== "DPoP")).to.deep.equal([]);
      expect(verdicts.filter((v) => v.status === 200).length).to.be.at.least(3);
      const challenges = verdicts.filter((v) => v.error === "use_dpop_nonce").length;
      if (nonce) expect(challenges).to.be.at.least(1);
      else expect(challenges).to.equal(0);
      expect(verdicts.filter((v) => v.status !== 200 && v.error !== "use_dpop_nonce")).to.deep.equal([]);
    });

  it("refuses the SDK client when its session is not the key the token is bound to (the check can fail)", async () => {
    const { url, verdicts } = await serve(false);
    const holder = await peers.DpopSession.create();
    const other = await peers.DpopSession.create();
    const token = await boundToken(url, holder.thumbprint);
    const client = new peers.Client({ name: "sdk-v2-dpop", version: "2.4.0" });
    const failure = await client.connect(new peers.StreamableHTTPClientTransport(new URL(url), { fetch: peers.withDpop(other, () => token)(fetch) })).then(
      () => undefined,
      (error: Error) => error,
    );
    await client.close();
    expect(failure).to.be.instanceOf(Error);
    expect(verdicts.some((v) => v.status === 401 && v.error === "invalid_token")).to.equal(true);
  });
});
