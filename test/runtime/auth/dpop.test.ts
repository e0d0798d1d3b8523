// DPoP (RFC 9449), both sides, with real components. The resource server (bearerAuth's `dpop`
// behind fetchHandler) gets proofs signed here with jose, one check broken at a time (§4.3);
// the client side (a provider's `dpop`) signs in at oidc-provider, which binds its tokens to the
// key (cnf.jkt, token_type DPoP), and calls our resource server, with and without the nonces of
// both servers (§8, §9).
import { expect } from "chai";
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";
import { createHash, randomUUID } from "node:crypto";
import {
  AuthorizationCodeProvider,
  bearerAuth,
  ClientCredentialsProvider,
  headlessInteraction,
  jwtVerifier,
  MemoryAuthStore,
  type DpopOptions,
  type ResourceServerAuth,
} from "../../../runtime/auth/index.js";
import { createServer, McpClient, type McpServer } from "../../../runtime/index.js";
import { MemoryNonceStore } from "../../../runtime/stores/nonce-store.js";
import { fetchHandler, http, HttpClientTransport, type HttpEndpoint } from "../../../runtime/transports/http/index.js";
import type { CryptoKeyPair } from "oauth4webapi";
import { MACHINE, startAuthorizationServer, type AuthorizationServer } from "../../../examples/shared/oidc-authorization-server.js";
import { usedSecret } from "../../support/secrets.js";

type KeyLike = Awaited<ReturnType<typeof generateKeyPair>>["privateKey"];
const ISSUER = "https://as.example.test";
const RESOURCE = "http://mcp.test/mcp";
const now = () => Math.floor(Date.now() / 1000);
const b64sha256 = (value: string) => createHash("sha256").update(value).digest("base64url");

const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": { name: "t", version: "1" } };
const BODY = JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "whoami", arguments: {}, _meta: META } });
const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "whoami" };

function whoamiServer(): McpServer {
  const mcp = createServer({ name: "protected", version: "1.0.0", logger: () => {} });
  mcp.tool({ name: "whoami", inputSchema: { type: "object" } }, (_args, ctx) => ({ content: [{ type: "text", text: ctx.auth?.subject ?? "nobody" }] }));
  return mcp;
}

interface ProofKey {
  privateKey: KeyLike;
  /** The private part of the JWK, for a proof that wrongly carries it. */
  d: string;
  jwk: JWK;
  jkt: string;
}

async function proofKey(): Promise<ProofKey> {
  const pair = await generateKeyPair("ES256", { extractable: true });
  const d = usedSecret((await exportJWK(pair.privateKey)).d!);
  const jwk = await exportJWK(pair.publicKey);
  return { privateKey: pair.privateKey as KeyLike, d, jwk, jkt: await calculateJwkThumbprint(jwk) };
}

/** What the server answered: status, the OAuth error of the body, its WWW-Authenticate and DPoP-Nonce. */
async function outcome(response: Response) {
  const text = await response.text();
  const body = JSON.parse(text || "{}") as { error?: { data?: { error?: string; error_description?: string } }; result?: { content?: { text?: string }[] } };
  return {
    status: response.status,
    error: body.error?.data?.error,
    description: body.error?.data?.error_description,
    subject: body.result?.content?.[0]?.text,
    challenge: response.headers.get("www-authenticate") ?? "",
    nonce: response.headers.get("dpop-nonce") ?? undefined,
  };
}

describe("DPoP (RFC 9449)", function () {
  this.timeout(60_000);

  describe("the resource server checks every proof (§4.3, §7)", () => {
    let asKey: { privateKey: KeyLike; jwk: JWK };
    let holder: ProofKey;
    let thief: ProofKey;
    const closing: (() => Promise<void>)[] = [];

    before(async () => {
      const pair = await generateKeyPair("ES256", { extractable: true });
      asKey = { privateKey: pair.privateKey as KeyLike, jwk: { ...(await exportJWK(pair.publicKey)), kid: "as-1", alg: "ES256" } };
      holder = await proofKey();
      thief = await proofKey();
    });
    after(async () => {
      for (const close of closing.reverse()) await close();
    });

    /** An access token for RESOURCE, bound to `jkt` unless it is undefined. */
    async function token(jkt: string | undefined, claims: Record<string, unknown> = {}): Promise<string> {
      const payload: Record<string, unknown> = { iss: ISSUER, aud: RESOURCE, sub: "alice", scope: "mcp:read", iat: now(), exp: now() + 600, ...claims };
      if (jkt) payload.cnf = { jkt };
      return usedSecret(await new SignJWT(payload).setProtectedHeader({ alg: "ES256", kid: "as-1", typ: "at+jwt" }).sign(asKey.privateKey));
    }

    /** A proof by `key` for the request; `claims` override the right ones (undefined removes one), `header` the JOSE header. */
    async function proof(key: ProofKey, accessToken: string, claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}): Promise<string> {
      const payload: Record<string, unknown> = { jti: randomUUID(), htm: "POST", htu: RESOURCE, iat: now(), ath: b64sha256(accessToken), ...claims };
      for (const [k, v] of Object.entries(payload)) if (v === undefined) delete payload[k];
      return usedSecret(await new SignJWT(payload).setProtectedHeader({ alg: "ES256", typ: "dpop+jwt", jwk: key.jwk, ...header } as { alg: string }).sign(key.privateKey));
    }

    function server(dpop: DpopOptions = {}): { handle: (request: Request) => Promise<Response>; auth: ResourceServerAuth } {
      const mcp = whoamiServer();
      // jwtVerifier with a local JWKS (issue 27): no key server at all.
      const auth = bearerAuth({
        verifier: jwtVerifier({ issuer: ISSUER, audience: RESOURCE, jwks: { keys: [asKey.jwk] } }),
        resourceMetadata: { resource: RESOURCE, authorizationServers: [ISSUER] },
        dpop,
      });
      const handle = fetchHandler(mcp, { auth, allowedHosts: "*" });
      closing.push(() => mcp.close());
      return { handle, auth };
    }

    const call = (authorization: string | undefined, dpop?: string | string[], url = RESOURCE, method = "POST") => {
      const headers = new Headers(HEADERS);
      if (authorization) headers.set("authorization", authorization);
      for (const value of dpop === undefined ? [] : Array.isArray(dpop) ? dpop : [dpop]) headers.append("dpop", value);
      return new Request(url, { method, headers, body: method === "POST" ? BODY : undefined });
    };

    it("serves a DPoP-bound token with a right proof, and says in the metadata which algorithms it takes", async () => {
      const { handle } = server();
      const at = await token(holder.jkt);
      expect(await outcome(await handle(call(`DPoP ${at}`, await proof(holder, at))))).to.include({ status: 200, subject: "alice" });
      const metadata = (await (await handle(new Request("http://mcp.test/.well-known/oauth-protected-resource/mcp"))).json()) as Record<string, unknown>;
      expect(metadata.dpop_signing_alg_values_supported).to.include("ES256");
      expect(metadata.dpop_bound_access_tokens_required).to.equal(false);
    });

    it("htu is compared after RFC 3986 normalisation (case of scheme and host, default port), query and fragment aside", async () => {
      const { handle } = server();
      for (const htu of ["HTTP://MCP.TEST/mcp", "http://mcp.test:80/mcp", "http://mcp.test/mcp?x=1"]) {
        const at = await token(holder.jkt);
        expect(await outcome(await handle(call(`DPoP ${at}`, await proof(holder, at, { htu })))), htu).to.include({ status: 200 });
      }
    });

    const refusals: [string, (at: string) => Promise<string | string[] | undefined>, RegExp][] = [
      ["no proof", async () => undefined, /no DPoP proof/],
      ["two DPoP headers", async (at) => [await proof(holder, at), await proof(holder, at)], /more than one DPoP header/],
      ["wrong htm (GET for a POST)", (at) => proof(holder, at, { htm: "GET" }), /htm is not POST/],
      ["wrong htu (another path)", (at) => proof(holder, at, { htu: "http://mcp.test/other" }), /htu is not this request's URL/],
      ["wrong htu (another host)", (at) => proof(holder, at, { htu: "http://evil.test/mcp" }), /htu is not this request's URL/],
      ["iat 10 minutes old", (at) => proof(holder, at, { iat: now() - 600 }), /older than 60 s/],
      ["iat a minute in the future", (at) => proof(holder, at, { iat: now() + 60 }), /iat is in the future/],
      ["no jti", (at) => proof(holder, at, { jti: undefined }), /no valid jti/],
      ["wrong ath (the hash of another token)", (at) => proof(holder, at, { ath: b64sha256(`${at}x`) }), /ath is not the hash/],
      ["no ath", (at) => proof(holder, at, { ath: undefined }), /ath is not the hash/],
      ["typ JWT", (at) => proof(holder, at, {}, { typ: "JWT" }), /typ is not dpop\+jwt/],
      ["a header jwk that is not the signing key", (at) => proof(holder, at, {}, { jwk: thief.jwk }), /signature does not verify/],
      ["no jwk in the header", (at) => proof(holder, at, {}, { jwk: undefined }), /no public jwk|not a well-formed/],
      ["a private key as the header jwk", async (at) => proof(holder, at, {}, { jwk: { ...holder.jwk, d: holder.d } }), /no public jwk|not a well-formed/],
    ];
    for (const [what, make, said] of refusals)
      it(`refuses a proof with ${what}: 401 invalid_dpop_proof in a DPoP challenge`, async () => {
        const { handle } = server();
        const at = await token(holder.jkt);
        const answer = await outcome(await handle(call(`DPoP ${at}`, await make(at))));
        expect(answer.status).to.equal(401);
        expect(answer.error).to.equal("invalid_dpop_proof");
        expect(answer.description).to.match(said);
        expect(answer.challenge).to.match(/DPoP resource_metadata="[^"]+", error="invalid_dpop_proof", error_description="[^"]+", algs="ES256/);
      });

    it("refuses an alg outside its list, and never takes a symmetric one", async () => {
      const { handle } = server({ algorithms: ["ES384"] });
      const at = await token(holder.jkt);
      const answer = await outcome(await handle(call(`DPoP ${at}`, await proof(holder, at))));
      expect(answer).to.include({ status: 401, error: "invalid_dpop_proof" });
      expect(answer.description).to.match(/alg is not accepted/);
      expect(() => bearerAuth({ verifier: async () => ({ token: "", scopes: [] }), resourceMetadata: { resource: RESOURCE, authorizationServers: [ISSUER] }, dpop: { algorithms: ["HS256"] } })).to.throw(/asymmetric/);
    });

    it("refuses a replayed proof (same jti), at this instance and at another sharing the replay store", async () => {
      const store = new MemoryNonceStore();
      const one = server({ replayStore: store });
      const two = server({ replayStore: store });
      const at = await token(holder.jkt);
      const once = await proof(holder, at);
      expect(await outcome(await one.handle(call(`DPoP ${at}`, once)))).to.include({ status: 200 });
      for (const { handle } of [one, two]) {
        const again = await outcome(await handle(call(`DPoP ${at}`, once)));
        expect(again).to.include({ status: 401, error: "invalid_dpop_proof" });
        expect(again.description).to.match(/already used/);
      }
    });

    it("refuses a proof by another key than the token's cnf.jkt (a stolen token with the thief's own proof)", async () => {
      const { handle } = server();
      const at = await token(holder.jkt);
      const answer = await outcome(await handle(call(`DPoP ${at}`, await proof(thief, at))));
      expect(answer).to.include({ status: 401, error: "invalid_token" });
      expect(answer.description).to.match(/bound to another key/);
      expect(answer.challenge).to.match(/DPoP resource_metadata="[^"]+", error="invalid_token"/);
    });

    it("refuses a DPoP-bound token presented as Bearer (§7.2), with or without DPoP configured", async () => {
      const at = await token(holder.jkt);
      for (const dpop of [{}, undefined]) {
        const mcp = whoamiServer();
        closing.push(() => mcp.close());
        const auth = bearerAuth({ verifier: jwtVerifier({ issuer: ISSUER, audience: RESOURCE, jwks: { keys: [asKey.jwk] } }), resourceMetadata: { resource: RESOURCE, authorizationServers: [ISSUER] }, dpop });
        const answer = await outcome(await fetchHandler(mcp, { auth, allowedHosts: "*" })(call(`Bearer ${at}`)));
        expect(answer).to.include({ status: 401, error: "invalid_token" });
        expect(answer.description).to.match(/DPoP-bound/);
      }
      // An unbound token is still served as Bearer when DPoP is optional,
      const plain = await token(undefined);
      expect(await outcome(await server().handle(call(`Bearer ${plain}`)))).to.include({ status: 200 });
      // and refused under the DPoP scheme: it is bound to no key.
      const answer = await outcome(await server().handle(call(`DPoP ${plain}`, await proof(holder, plain))));
      expect(answer).to.include({ status: 401, error: "invalid_token" });
      expect(answer.description).to.match(/not DPoP-bound/);
    });

    it("challenges with both schemes and algs; with DPoP required, only DPoP, and a Bearer token is no credential", async () => {
      const optional = await outcome(await server().handle(call(undefined)));
      expect(optional.status).to.equal(401);
      expect(optional.challenge).to.match(/^Bearer resource_metadata="[^"]+", error_description="an access token is required", DPoP resource_metadata="[^"]+", algs="ES256 /);
      const { handle } = server({ required: true });
      const plain = await token(undefined);
      const refused = await outcome(await handle(call(`Bearer ${plain}`)));
      expect(refused.status).to.equal(401);
      expect(refused.challenge).to.match(/^DPoP resource_metadata=/);
      expect(refused.challenge).to.not.match(/Bearer/);
      const metadata = (await (await handle(new Request("http://mcp.test/.well-known/oauth-protected-resource/mcp"))).json()) as Record<string, unknown>;
      expect(metadata.dpop_bound_access_tokens_required).to.equal(true);
    });

    it("server nonces (§9): a proof without one, or with a forged one (its time or MAC changed), gets 401 use_dpop_nonce and a fresh DPoP-Nonce, which then works", async () => {
      const { handle } = server({ nonce: { lifetimeSeconds: 120 } });
      const at = await token(holder.jkt);
      const first = await outcome(await handle(call(`DPoP ${at}`, await proof(holder, at))));
      expect(first).to.include({ status: 401, error: "use_dpop_nonce" });
      expect(first.challenge).to.match(/DPoP resource_metadata="[^"]+", error="use_dpop_nonce"/);
      expect(first.nonce).to.match(/^\d+\.[A-Za-z0-9_-]{43}$/);
      const [time, mac] = first.nonce!.split(".");
      for (const bad of [`${Number(time) + 1}.${mac}`, `${Number(time) - 600}.${mac}`, "made-up"]) {
        const answer = await outcome(await handle(call(`DPoP ${at}`, await proof(holder, at, { nonce: bad }))));
        expect(answer, bad).to.include({ status: 401, error: "use_dpop_nonce" });
        expect(answer.nonce).to.be.a("string");
      }
      expect(await outcome(await handle(call(`DPoP ${at}`, await proof(holder, at, { nonce: first.nonce }))))).to.include({ status: 200, subject: "alice" });
      // Another instance with another secret does not take this one's nonce; one with the same secret does.
      const shared = { secret: usedSecret("dpop-nonce-secret-5b0c7e21"), lifetimeSeconds: 120 };
      const a = server({ nonce: shared });
      const b = server({ nonce: shared });
      const issued = (await outcome(await a.handle(call(`DPoP ${at}`, await proof(holder, at))))).nonce!;
      expect(await outcome(await b.handle(call(`DPoP ${at}`, await proof(holder, at, { nonce: issued }))))).to.include({ status: 200 });
      expect(await outcome(await server({ nonce: true }).handle(call(`DPoP ${at}`, await proof(holder, at, { nonce: issued }))))).to.include({ status: 401, error: "use_dpop_nonce" });
    });

    it("a verifier or replay store that fails: 503 for the client, and the operator's log has neither the token nor the proof", async () => {
      const at = await token(holder.jkt);
      const logged: string[] = [];
      const onError = (error: Error) => {
        logged.push(error.message);
        console.error(`operator log: ${error.message}`); // seen by output.test.ts, which greps for the proof
      };
      const failing = [
        { verifier: async (t: string, request: Request) => Promise.reject(new Error(`introspection said: bad ${t} with ${request.headers.get("dpop")}`)), dpop: {} },
        { verifier: jwtVerifier({ issuer: ISSUER, audience: RESOURCE, jwks: { keys: [asKey.jwk] } }), dpop: { replayStore: { claim: () => Promise.reject(new Error("redis: connection refused")) } } },
      ];
      for (const { verifier, dpop } of failing) {
        const mcp = whoamiServer();
        closing.push(() => mcp.close());
        const auth = bearerAuth({ verifier, resourceMetadata: { resource: RESOURCE, authorizationServers: [ISSUER] }, dpop, onError });
        const sent = await proof(holder, at);
        const response = await fetchHandler(mcp, { auth, allowedHosts: "*" })(call(`DPoP ${at}`, sent));
        const text = await response.text();
        expect(response.status).to.equal(503);
        expect(text).to.not.include(sent).and.not.include(at);
      }
      expect(logged).to.have.length(2);
      expect(logged[0]).to.include("[redacted]");
      for (const line of logged) expect(line).to.not.match(/eyJ[A-Za-z0-9_-]{2,}\./);
    });

    it("CORS: an allowed page reads the DPoP challenge and nonce of a refusal, and may send the DPoP header", async () => {
      const mcp = whoamiServer();
      closing.push(() => mcp.close());
      const auth = bearerAuth({ verifier: jwtVerifier({ issuer: ISSUER, audience: RESOURCE, jwks: { keys: [asKey.jwk] } }), resourceMetadata: { resource: RESOURCE, authorizationServers: [ISSUER] }, dpop: { nonce: true } });
      const handle = fetchHandler(mcp, { auth, allowedHosts: "*", cors: true, allowedOrigins: ["https://app.example.com"] });
      const at = await token(holder.jkt);
      const request = call(`DPoP ${at}`, await proof(holder, at));
      request.headers.set("origin", "https://app.example.com");
      const refused = await handle(request);
      expect(refused.status).to.equal(401);
      expect(refused.headers.get("access-control-allow-origin")).to.equal("https://app.example.com");
      expect(refused.headers.get("access-control-expose-headers")).to.contain("WWW-Authenticate").and.contain("DPoP-Nonce");
      expect(refused.headers.get("dpop-nonce")).to.be.a("string");
      await refused.body?.cancel();
      const preflight = await handle(new Request(RESOURCE, { method: "OPTIONS", headers: { origin: "https://app.example.com", "access-control-request-method": "POST" } }));
      expect(preflight.headers.get("access-control-allow-headers")).to.match(/\bDPoP\b/);
    });

    it("a provider with your key pair presents a stored DPoP-bound token with its proofs, to an http: server that is not loopback, through the transport's fetch", async () => {
      const mcp = whoamiServer();
      closing.push(() => mcp.close());
      const auth = bearerAuth({ verifier: jwtVerifier({ issuer: ISSUER, audience: RESOURCE, jwks: { keys: [asKey.jwk] } }), resourceMetadata: { resource: RESOURCE, authorizationServers: [ISSUER] }, dpop: { required: true, nonce: true } });
      const handle = fetchHandler(mcp, { auth, allowedHosts: "*" });
      const keyPair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"])) as CryptoKeyPair;
      const jkt = await calculateJwkThumbprint(await exportJWK(keyPair.publicKey));
      const store = new MemoryAuthStore();
      await store.setTokens(RESOURCE, { issuer: ISSUER, accessToken: await token(jkt), tokenType: "dpop", expiresAt: Date.now() + 600_000 });
      const provider = new ClientCredentialsProvider({ clientId: "unused", clientSecret: usedSecret("unused-secret-7c1d"), store, dpop: { keyPair } });
      const seen: string[] = [];
      // http://mcp.test is not loopback: served in process by the transport's fetch, as a proxy or a test would.
      const transport = new HttpClientTransport(RESOURCE, { authProvider: provider, fetch: async (input, init) => {
        const request = new Request(input, init);
        seen.push(request.headers.get("authorization")?.split(" ")[0] ?? "none");
        return handle(request);
      } });
      const client = await McpClient.connect(transport, { name: "k", version: "1", revision: "2026-07-28", logger: () => {} });
      expect((await client.callTool("whoami", {})).content).to.deep.equal([{ type: "text", text: "alice" }]);
      await client.close();
      expect(seen.length).to.be.at.least(2);
      expect(seen.filter((scheme) => scheme !== "DPoP")).to.deep.equal([]);
    });

    it("refuses a replayed proof in the node:http endpoint too, and no answer repeats the proof or the token", async () => {
      const mcp = whoamiServer();
      const auth = bearerAuth({ verifier: jwtVerifier({ issuer: ISSUER, audience: RESOURCE, jwks: { keys: [asKey.jwk] } }), resourceMetadata: { resource: RESOURCE, authorizationServers: [ISSUER] }, dpop: {} });
      const endpoint = http({ port: 0, host: "127.0.0.1", auth, allowedHosts: "*", logger: () => {} });
      await mcp.listen(endpoint);
      closing.push(() => mcp.close());
      const at = await token(holder.jkt);
      // The proof names the public URL (the resource), as behind a proxy; the request goes to 127.0.0.1.
      const once = await proof(holder, at);
      const send = () => fetch(endpoint.url, { method: "POST", headers: { ...HEADERS, authorization: `DPoP ${at}`, dpop: once }, body: BODY });
      const first = await send();
      expect(first.status).to.equal(200);
      await first.body?.cancel();
      const again = await send();
      const text = await again.text();
      expect(again.status).to.equal(401);
      expect(text).to.include("already used");
      expect(text + (again.headers.get("www-authenticate") ?? "")).to.not.include(once).and.not.include(at);
    });
  });

  describe("the client signs every request, at oidc-provider and our resource server", () => {
    const REDIRECT = "http://127.0.0.1:9/callback";
    const started: { as: AuthorizationServer; server: McpServer }[] = [];
    after(async () => {
      for (const { as, server } of started) {
        await server.close();
        await as.close();
      }
    });

    /** oidc-provider and our resource server with DPoP; records each answer's status and challenge. */
    async function setUp(nonces: boolean) {
      let mcpUrl = "";
      const as = await startAuthorizationServer({ redirectUri: REDIRECT, resources: () => ({ [mcpUrl]: "mcp:read" }), dpopNonce: nonces });
      const server = createServer({ name: "protected", version: "1.0.0", logger: () => {} });
      const seen: Record<string, unknown>[] = [];
      server.tool({ name: "whoami", inputSchema: { type: "object" } }, (_args, ctx) => {
        seen.push({ ...ctx.auth?.claims });
        return { content: [{ type: "text", text: ctx.auth?.subject ?? "nobody" }] };
      });
      let auth: ResourceServerAuth | undefined;
      const answers: { status: number; error?: string; scheme?: string }[] = [];
      const endpoint: HttpEndpoint = http({
        port: 0,
        logger: () => {},
        auth: {
          authenticate: async (request) => {
            const verdict = await auth!.authenticate(request);
            const scheme = /^(\w+)/.exec(request.headers.get("authorization") ?? "")?.[1];
            if (verdict instanceof Response) answers.push({ status: verdict.status, error: ((await verdict.clone().json()) as { error?: { data?: { error?: string } } }).error?.data?.error, scheme });
            else answers.push({ status: 200, scheme });
            return verdict;
          },
          routes: (request) => auth!.routes(request),
        },
      });
      await server.listen(endpoint);
      mcpUrl = endpoint.url;
      auth = bearerAuth({
        verifier: jwtVerifier({ issuer: as.issuer, audience: mcpUrl, jwksUrl: `${as.issuer}/jwks` }),
        resourceMetadata: { resource: mcpUrl, authorizationServers: [as.issuer], scopesSupported: ["mcp:read"] },
        dpop: { required: true, nonce: nonces },
      });
      started.push({ as, server });
      return { as, mcpUrl, seen, answers };
    }

    for (const nonces of [false, true])
      it(`AuthorizationCodeProvider with dpop gets a DPoP-bound token and uses it with fresh proofs${nonces ? ", answering both servers' nonces" : ""}`, async () => {
        const { as, mcpUrl, seen, answers } = await setUp(nonces);
        const store = new MemoryAuthStore();
        const provider = new AuthorizationCodeProvider({ redirectUri: REDIRECT, interaction: headlessInteraction({ redirectUri: REDIRECT }), clientMetadata: { client_name: "dpop" }, store, dpop: true });
        // One revision: a failed first attempt must not be masked by falling back to the other era.
        const client = await McpClient.connect(new HttpClientTransport(mcpUrl, { authProvider: provider }), { name: "c", version: "1", revision: "2026-07-28", logger: () => {} });
        for (let i = 0; i < 3; i++) expect((await client.callTool("whoami", {})).content).to.deep.equal([{ type: "text", text: "user-1" }]);
        await client.close();
        const stored = await store.getTokens(mcpUrl);
        expect(stored?.tokenType).to.equal("dpop");
        usedSecret(stored!.accessToken);
        expect(seen).to.have.length(3);
        for (const claims of seen) expect((claims.cnf as { jkt?: string } | undefined)?.jkt).to.be.a("string");
        // Every request that carried a token used the DPoP scheme; with nonces, the RS asked for one once and then served.
        expect(answers.filter((a) => a.scheme && a.scheme !== "DPoP")).to.deep.equal([]);
        expect(answers.filter((a) => a.status === 200).length).to.be.at.least(4);
        const nonceChallenges = answers.filter((a) => a.error === "use_dpop_nonce").length;
        if (nonces) expect(nonceChallenges).to.equal(1);
        else expect(nonceChallenges).to.equal(0);
        expect(answers.filter((a) => a.status !== 200 && a.error !== "use_dpop_nonce" && a.error !== undefined)).to.deep.equal([]);
        // One sign-in, one token: a nonce is answered by sending the request again, never by signing in again.
        expect(as.authorizations).to.have.length(1);
        expect(as.grants.map((g) => g.grantType)).to.deep.equal(["authorization_code"]);
      });

    it("refreshes an expired DPoP-bound token with a proof (RFC 9449 §5), answering the nonce, and the new token is bound to the same key", async () => {
      const { as, mcpUrl, seen } = await setUp(true);
      const store = new MemoryAuthStore();
      const provider = new AuthorizationCodeProvider({ redirectUri: REDIRECT, interaction: headlessInteraction({ redirectUri: REDIRECT }), clientMetadata: { client_name: "dpop-refresh" }, store, dpop: true });
      const client = await McpClient.connect(new HttpClientTransport(mcpUrl, { authProvider: provider }), { name: "r", version: "1", revision: "2026-07-28", logger: () => {} });
      try {
        await client.callTool("whoami", {});
        const first = (await store.getTokens(mcpUrl))!;
        expect(first.refreshToken, "a refresh token (offline_access)").to.be.a("string");
        usedSecret(first.accessToken);
        usedSecret(first.refreshToken!);
        await store.setTokens(mcpUrl, { ...first, expiresAt: Date.now() - 1000 });
        expect((await client.callTool("whoami", {})).content).to.deep.equal([{ type: "text", text: "user-1" }]);
        const second = (await store.getTokens(mcpUrl))!;
        usedSecret(second.accessToken);
        if (second.refreshToken) usedSecret(second.refreshToken);
        expect(second.accessToken).to.not.equal(first.accessToken);
        expect(second.tokenType).to.equal("dpop");
      } finally {
        await client.close();
      }
      expect(as.grants.map((g) => g.grantType)).to.deep.equal(["authorization_code", "refresh_token"]);
      const jkts = seen.map((claims) => (claims.cnf as { jkt?: string }).jkt);
      expect(jkts).to.have.length(2);
      expect(jkts[1]).to.equal(jkts[0]);
    });

    it("ClientCredentialsProvider with dpop: a machine client gets and uses a DPoP-bound token, with nonces", async () => {
      const { as, mcpUrl, seen } = await setUp(true);
      const store = new MemoryAuthStore();
      const provider = new ClientCredentialsProvider({ clientId: MACHINE.client_id, clientSecret: usedSecret(MACHINE.client_secret), store, dpop: true });
      const client = await McpClient.connect(new HttpClientTransport(mcpUrl, { authProvider: provider }), { name: "m", version: "1", logger: () => {} });
      expect((await client.callTool("whoami", {})).content).to.have.length(1);
      await client.close();
      expect((await store.getTokens(mcpUrl))?.tokenType).to.equal("dpop");
      expect((seen[0]?.cnf as { jkt?: string } | undefined)?.jkt).to.be.a("string");
      expect(as.grants.map((g) => g.grantType)).to.deep.equal(["client_credentials"]);
    });

    it("without dpop, the same resource server (DPoP required) refuses the client's Bearer token: the check can fail", async () => {
      const { mcpUrl, answers } = await setUp(false);
      const provider = new AuthorizationCodeProvider({ redirectUri: REDIRECT, interaction: headlessInteraction({ redirectUri: REDIRECT }), clientMetadata: { client_name: "bearer" } });
      let failure: unknown;
      try {
        const client = await McpClient.connect(new HttpClientTransport(mcpUrl, { authProvider: provider }), { name: "b", version: "1", logger: () => {} });
        await client.close();
      } catch (error) {
        failure = error;
      }
      expect(failure).to.be.instanceOf(Error);
      expect(answers.some((a) => a.scheme === "Bearer" && a.status === 401)).to.equal(true);
    });
  });
});
