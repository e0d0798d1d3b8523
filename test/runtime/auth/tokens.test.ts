// Bearer tokens at the resource server, with real components: JWTs signed with jose against a
// JWKS served on 127.0.0.1, an RFC 7662 introspection endpoint on 127.0.0.1, bearerAuth behind
// node:http (http()) and fetchHandler. Repeated Authorization headers are refused (RFC 6750 §3.1),
// `exp` is required (RFC 9068 §2.2), one leeway applies to exp, nbf and iat, and no token or
// secret reaches the client or the log.
import { expect } from "chai";
import { createServer as createHttpServer, type IncomingMessage, type Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { exportJWK, exportSPKI, generateKeyPair, importJWK, SignJWT, type JWK } from "jose";
import { bearerAuth, InvalidTokenError, introspectionVerifier, jwtVerifier, type TokenVerifier } from "../../../runtime/auth/index.js";
import { createServer, type McpServer } from "../../../runtime/index.js";
import { fetchHandler, http, type HttpEndpoint } from "../../../runtime/transports/http/index.js";
import { usedSecret } from "../../support/secrets.js";

type KeyLike = Awaited<ReturnType<typeof generateKeyPair>>["privateKey"];
const ISSUER = "https://as.example.test";
const CLIENT_SECRET = usedSecret("introspector-secret-4e1f9a7c2b");
const now = () => Math.floor(Date.now() / 1000);

async function listen(handler: Parameters<typeof createHttpServer>[1]): Promise<{ server: Server; url: string }> {
  const server = createHttpServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function stop(server: Server | undefined): Promise<void> {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
}

const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": { name: "t", version: "1" } };
const BODY = JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "whoami", arguments: {}, _meta: META } });
const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "whoami" };

/** A 2026-07-28 tools/call of whoami with these Authorization header lines, over a raw socket (fetch cannot repeat a header). */
function rawCall(url: string, authorizations: readonly string[]): Promise<{ status: number; text: string }> {
  const target = new URL(url);
  const lines = [`POST ${target.pathname} HTTP/1.1`, `Host: ${target.host}`, ...Object.entries(HEADERS).map(([k, v]) => `${k}: ${v}`), ...authorizations.map((a) => `Authorization: ${a}`), `Content-Length: ${Buffer.byteLength(BODY)}`, "Connection: close"];
  return new Promise((resolve, reject) => {
    const socket = connect(Number(target.port), target.hostname);
    let text = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (text += chunk));
    socket.on("error", reject);
    socket.on("end", () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text }));
    socket.setTimeout(10_000, () => socket.destroy(new Error("no answer within 10 s")));
    socket.write(`${lines.join("\r\n")}\r\n\r\n${BODY}`);
  });
}

function whoamiServer(): McpServer {
  const mcp = createServer({ name: "protected", version: "1.0.0", logger: () => {} });
  mcp.tool({ name: "whoami", inputSchema: { type: "object" } }, (_args, ctx) => ({ content: [{ type: "text", text: ctx.auth?.subject ?? "nobody" }] }));
  return mcp;
}

describe("authorization: bearer tokens", function () {
  let keys: { privateKey: KeyLike; jwk: JWK };
  let jwks: { server: Server; url: string };
  const closing: (() => Promise<void>)[] = [];

  before(async () => {
    const pair = await generateKeyPair("ES256", { extractable: true });
    keys = { privateKey: pair.privateKey as KeyLike, jwk: { ...(await exportJWK(pair.publicKey)), kid: "k1", alg: "ES256", use: "sig" } };
    jwks = await listen((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ keys: [keys.jwk] }));
    });
  });
  after(async () => {
    for (const close of closing.reverse()) await close();
    await stop(jwks?.server);
  });

  /** A JWT for `audience` signed by the JWKS's key; `claims` override the defaults, `undefined` removes one. */
  async function sign(audience: string, claims: Record<string, unknown> = {}): Promise<string> {
    const payload: Record<string, unknown> = { iss: ISSUER, aud: audience, sub: "alice", scope: "mcp:read", iat: now(), exp: now() + 600, ...claims };
    for (const [k, v] of Object.entries(payload)) if (v === undefined) delete payload[k];
    return usedSecret(await new SignJWT(payload).setProtectedHeader({ alg: "ES256", kid: "k1" }).sign(keys.privateKey));
  }

  /** An MCP server on node:http behind bearerAuth with `verifier(url)`; errors bearerAuth logs go to `errors`. */
  async function served(verifier: (url: string) => TokenVerifier, errors?: Error[]): Promise<{ url: string; endpoint: HttpEndpoint }> {
    const mcp = whoamiServer();
    let auth: ReturnType<typeof bearerAuth> | undefined;
    const endpoint = http({ port: 0, logger: () => {}, auth: { authenticate: (r) => auth!.authenticate(r), routes: (r) => auth!.routes(r) } });
    await mcp.listen(endpoint);
    auth = bearerAuth({
      verifier: verifier(endpoint.url),
      resourceMetadata: { resource: endpoint.url, authorizationServers: [ISSUER] },
      ...(errors ? { onError: (error: Error) => errors.push(error) } : {}),
    });
    closing.push(() => mcp.close());
    return { url: endpoint.url, endpoint };
  }

  const jwt = (options: { clockToleranceSeconds?: number; requiredClaims?: string[] } = {}) => (audience: string) => jwtVerifier({ issuer: ISSUER, audience, jwksUrl: `${jwks.url}/jwks`, ...options });

  const call = (url: string, token: string) => fetch(url, { method: "POST", headers: { ...HEADERS, authorization: `Bearer ${token}` }, body: BODY });

  /** The status, and the OAuth error and description from the JSON-RPC body. */
  async function outcome(response: Response): Promise<{ status: number; error?: string; description?: string; subject?: string }> {
    const body = (await response.json()) as { result?: { content: { text: string }[] }; error?: { data?: { error?: string; error_description?: string } } };
    return { status: response.status, error: body.error?.data?.error, description: body.error?.data?.error_description, subject: body.result?.content[0]?.text };
  }

  describe("repeated Authorization headers (RFC 6750 §3.1, RFC 9110 §11.6.2)", () => {
    it("node:http: two headers, valid then garbage or alice's then bob's, are 400 invalid_request; one is served", async () => {
      const { url } = await served(jwt());
      const alice = await sign(url);
      const bob = await sign(url, { sub: "bob" });
      for (const pair of [[`Bearer ${alice}`, "Bearer garbage"], [`Bearer ${alice}`, `Bearer ${bob}`], ["Bearer garbage", `Bearer ${alice}`], [`Bearer ${alice}`, `Bearer ${alice}`]]) {
        const answer = await rawCall(url, pair);
        expect(answer.status, pair.join(" + ")).to.equal(400);
        expect(answer.text).to.include('error="invalid_request"');
        expect(answer.text).to.not.include(alice);
      }
      const one = await rawCall(url, [`Bearer ${alice}`]);
      expect(one.status, one.text).to.equal(200);
      expect(one.text).to.include('"text":"alice"');
    });

    it("fetchHandler: Headers joins repeated values with a comma: refused the same way", async () => {
      const mcp = whoamiServer();
      const auth = bearerAuth({ verifier: jwt()("http://mcp.test/mcp"), resourceMetadata: { resource: "http://mcp.test/mcp", authorizationServers: [ISSUER] } });
      const handle = fetchHandler(mcp, { auth, allowedHosts: "*" });
      closing.push(() => mcp.close());
      const alice = await sign("http://mcp.test/mcp");
      const request = (values: string[]) => {
        const headers = new Headers(HEADERS);
        for (const value of values) headers.append("authorization", value);
        return new Request("http://mcp.test/mcp", { method: "POST", headers, body: BODY });
      };
      for (const values of [[`Bearer ${alice}`, "Bearer garbage"], [`Bearer ${alice}`, `Bearer ${await sign("http://mcp.test/mcp", { sub: "bob" })}`], ["Basic YTpi", `Bearer ${alice}`]]) {
        const { status, error, description } = await outcome(await handle(request(values)));
        expect(status, values.join(" + ")).to.equal(400);
        expect(error).to.equal("invalid_request");
        expect(description).to.match(/more than one Authorization/);
      }
      expect(await outcome(await handle(request([`Bearer ${alice}`])))).to.include({ status: 200, subject: "alice" });
    });
  });

  describe("jwtVerifier's keys: a JWKS URL, a local JWKS, or one key (issue 27)", () => {
    it("verifies with a local JWKS, a public JWK, a CryptoKey or an SPKI PEM; refuses a token another key signed", async () => {
      const token = await sign("http://mcp.test/mcp");
      const publicKey = await importJWK(keys.jwk, "ES256");
      const pem = await exportSPKI(publicKey as Parameters<typeof exportSPKI>[0]);
      const request = new Request("http://mcp.test/mcp");
      const sources = { jwks: { jwks: { keys: [keys.jwk] } }, jwk: { key: keys.jwk }, cryptoKey: { key: publicKey as Exclude<typeof publicKey, Uint8Array> }, pem: { key: pem } };
      for (const [name, source] of Object.entries(sources)) {
        const info = await jwtVerifier({ issuer: ISSUER, audience: "http://mcp.test/mcp", ...source })(token, request);
        expect(info.subject, name).to.equal("alice");
      }
      const other = await generateKeyPair("ES256", { extractable: true });
      for (const source of [{ key: await exportJWK(other.publicKey) }, { jwks: { keys: [{ ...(await exportJWK(other.publicKey)), kid: "k1" }] } }]) {
        const refused = await jwtVerifier({ issuer: ISSUER, audience: "http://mcp.test/mcp", ...source })(token, request).then(() => undefined, (error: Error) => error);
        expect(refused).to.be.instanceOf(InvalidTokenError);
        expect(refused!.message).to.match(/signature does not verify/);
      }
    });

    it("takes exactly one source of keys", () => {
      expect(() => jwtVerifier({ issuer: ISSUER, audience: "a" })).to.throw(/exactly one of jwksUrl, jwks and key \(got 0\)/);
      expect(() => jwtVerifier({ issuer: ISSUER, audience: "a", jwksUrl: jwks.url, key: keys.jwk })).to.throw(/got 2/);
    });
  });

  describe("JWT times: exp required, one leeway", () => {
    it("a correctly signed token without exp is refused (RFC 9068 §2.2); the header's error_description is printable ASCII (RFC 6750 §3)", async () => {
      const { url } = await served(jwt());
      const response = await call(url, await sign(url, { exp: undefined }));
      const header = response.headers.get("www-authenticate") ?? "";
      expect(header).to.include('error_description="the token has no exp claim (RFC 9068 section 2.2 requires one)"');
      expect(header).to.match(/^[\x20-\x7e]*$/);
      expect(await outcome(response)).to.deep.include({ status: 401, error: "invalid_token", description: "the token has no exp claim (RFC 9068 §2.2 requires one)" });
    });

    it("requiredClaims only adds claims: a token without jti is refused when jti is required, and exp stays required", async () => {
      const { url } = await served(jwt({ requiredClaims: ["jti"] }));
      expect(await outcome(await call(url, await sign(url)))).to.deep.include({ status: 401, description: "the token has no jti claim" });
      expect(await outcome(await call(url, await sign(url, { jti: "j1", exp: undefined })))).to.deep.include({ status: 401, description: "the token has no exp claim (RFC 9068 §2.2 requires one)" });
      expect(await outcome(await call(url, await sign(url, { jti: "j1" })))).to.include({ status: 200, subject: "alice" });
    });

    it("exp 2 s past is inside the 5 s leeway and served; 60 s past, or 2 s past with no leeway, is expired", async () => {
      const lenient = await served(jwt());
      expect(await outcome(await call(lenient.url, await sign(lenient.url, { exp: now() - 2 })))).to.include({ status: 200, subject: "alice" });
      expect(await outcome(await call(lenient.url, await sign(lenient.url, { exp: now() - 60 })))).to.deep.include({ status: 401, description: "the token has expired" });
      const strict = await served(jwt({ clockToleranceSeconds: 0 }));
      expect(await outcome(await call(strict.url, await sign(strict.url, { exp: now() - 2 })))).to.deep.include({ status: 401, description: "the token has expired" });
    });

    it("iat an hour or a day in the future is refused; 2 s ahead is inside the leeway", async () => {
      const { url } = await served(jwt());
      for (const ahead of [3600, 86_400])
        expect(await outcome(await call(url, await sign(url, { iat: now() + ahead, exp: now() + ahead + 600 }))), `${ahead} s`).to.deep.include({ status: 401, description: "the token's iat claim is in the future" });
      expect(await outcome(await call(url, await sign(url, { iat: now() + 2 })))).to.include({ status: 200, subject: "alice" });
    });

    it("nbf follows the same leeway, said as introspection says it", async () => {
      const { url } = await served(jwt());
      expect(await outcome(await call(url, await sign(url, { nbf: now() + 3600 })))).to.deep.include({ status: 401, description: "the token is not valid yet (nbf)" });
      expect(await outcome(await call(url, await sign(url, { nbf: now() + 2 })))).to.include({ status: 200, subject: "alice" });
    });
  });

  describe("introspection: times, and what the authorization server says", () => {
    /** An RFC 7662 endpoint on 127.0.0.1 whose answer `answer` chooses from the token it is asked about. */
    async function introspection(answer: (token: string) => { status: number; body: unknown }): Promise<{ url: string; asked: string[] }> {
      const asked: string[] = [];
      const { server, url } = await listen(async (req: IncomingMessage, res) => {
        let body = "";
        for await (const chunk of req) body += chunk;
        const token = new URLSearchParams(body).get("token") ?? "";
        asked.push(req.headers.authorization ?? "");
        const { status, body: json } = answer(token);
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(json));
      });
      closing.push(() => stop(server));
      return { url: `${url}/introspect`, asked };
    }
    const introspecting = (endpoint: string) => (audience: string) =>
      introspectionVerifier({ authorizationServer: { issuer: ISSUER, introspection_endpoint: endpoint }, clientId: "rs", clientSecret: CLIENT_SECRET, audience });

    it("an active token's exp, nbf and iat follow the same leeway", async () => {
      const claims = new Map<string, Record<string, unknown>>();
      const as = await introspection((token) => ({ status: 200, body: { active: true, scope: "mcp:read", sub: "alice", ...claims.get(token) } }));
      const { url } = await served(introspecting(as.url));
      const token = (extra: Record<string, unknown>) => {
        const t = usedSecret(`opaque-${Math.random().toString(36).slice(2)}-${Date.now()}`);
        claims.set(t, { aud: url, ...extra });
        return t;
      };
      expect(await outcome(await call(url, token({ exp: now() - 2 })))).to.include({ status: 200, subject: "alice" });
      expect(await outcome(await call(url, token({ exp: now() - 60 })))).to.deep.include({ status: 401, description: "the token has expired" });
      expect(await outcome(await call(url, token({ iat: now() + 3600 })))).to.deep.include({ status: 401, description: "the token's iat claim is in the future" });
      expect(await outcome(await call(url, token({ nbf: now() + 3600 })))).to.deep.include({ status: 401, description: "the token is not valid yet (nbf)" });
      expect(as.asked, "each request was introspected, with the resource server's credentials").to.have.length(4).and.satisfy((asked: string[]) => asked.every((h) => h.startsWith("Basic ")));
    });

    it("an endpoint that answers 400 repeating the token: the client gets a generic 503; the operator's log gets what it said, redacted", async () => {
      const as = await introspection((token) => ({ status: 400, body: { error: "invalid_request", error_description: `malformed token ${token} (client secret ${CLIENT_SECRET})` } }));
      const errors: Error[] = [];
      const { url } = await served(introspecting(as.url), errors);
      const token = usedSecret("opaque-token-3f9c1d2e8b7a");
      const response = await call(url, token);
      const text = await response.text();
      expect(response.status).to.equal(503);
      expect(response.headers.get("retry-after")).to.equal("5");
      expect(JSON.parse(text).error.message).to.equal("Service Unavailable: the access token cannot be checked now; try again later");
      for (const secret of [token, CLIENT_SECRET, as.url, "127.0.0.1"]) expect(text, secret).to.not.include(secret);
      expect(errors).to.have.length(1);
      expect(errors[0]!.message).to.include(`token introspection at ${as.url} failed`);
      expect(errors[0]!.message).to.include("malformed token [redacted] (client secret [redacted])");
      for (const secret of [token, CLIENT_SECRET]) expect(`${errors[0]!.message}\n${errors[0]!.stack}`).to.not.include(secret);
    });

    it("without onError, the stderr log line is redacted too", async () => {
      const as = await introspection((token) => ({ status: 400, body: { error: "invalid_request", error_description: `malformed token ${token}` } }));
      const { url } = await served(introspecting(as.url));
      const token = usedSecret("opaque-token-7d6e5f4a3b2c");
      const written: string[] = [];
      const write = process.stderr.write;
      process.stderr.write = ((chunk: string | Uint8Array) => (written.push(String(chunk)), true)) as typeof process.stderr.write;
      try {
        expect((await call(url, token)).status).to.equal(503);
      } finally {
        process.stderr.write = write;
      }
      expect(written.join("")).to.include("malformed token [redacted]").and.not.include(token);
      // Once more to the real stderr, which test/runtime/auth/output.test.ts captures and greps.
      expect((await call(url, token)).status).to.equal(503);
    });

    it("an unreachable endpoint: 503, generic", async () => {
      const gone = await listen(() => {});
      await stop(gone.server);
      const errors: Error[] = [];
      const { url } = await served(introspecting(`${gone.url}/introspect`), errors);
      const response = await call(url, usedSecret("opaque-token-0a1b2c3d4e5f"));
      expect(response.status).to.equal(503);
      expect(await response.text()).to.not.include(gone.url);
      expect(errors[0]!.message).to.include(`token introspection at ${gone.url}/introspect failed`);
    });
  });

  describe("a verifier that fails or talks too much", () => {
    it("a verifier that throws something else: 503 generic, the token redacted from the log", async () => {
      const errors: Error[] = [];
      const { url } = await served(() => async (token) => {
        throw new TypeError(`cannot read ${token}`);
      }, errors);
      const token = await sign(url);
      const response = await call(url, token);
      expect(response.status).to.equal(503);
      expect(await response.text()).to.not.include(token);
      expect(errors.map((e) => e.message)).to.deep.equal(["TypeError: cannot read [redacted]"]);
    });

    it("an InvalidTokenError that repeats the token: the description the client gets is redacted", async () => {
      const { url } = await served(() => async (token) => {
        throw new InvalidTokenError(`unknown token ${token}`);
      });
      const token = usedSecret("opaque-token-9e8d7c6b5a4f");
      const response = await call(url, token);
      const text = await response.text();
      expect(response.status).to.equal(401);
      expect(text).to.include("unknown token [redacted]").and.not.include(token);
      expect(response.headers.get("www-authenticate")).to.include("unknown token [redacted]");
    });
  });
});
