/**
 * @mcp-codegen/runtime/auth from the packed packages (`make pack`), in a fresh project outside
 * this checkout: the entry point loads without its optional peers, each function that
 * needs one names it and the install line, and JWT verification works with jose alone
 * (docs/authorization.md's snippets are compiled by test/docs/snippets.test.ts).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "chai";
import { npm, packedPackages, type Packed } from "../support/packed.js";
import { describeRun, removeDir, ROOT, tempDir, type CliRun } from "../support/project.js";
import { startRegistry, type LocalRegistry } from "../support/registry.js";

function node(script: string, cwd: string): CliRun {
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd, encoding: "utf8", timeout: 120_000 });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const VERSIONS = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { devDependencies: Record<string, string> };
const at = (name: string) => `${name}@${VERSIONS.devDependencies[name]}`;

/** Each function with the peer it needs: run without either installed, each must name its own. */
const WITHOUT_PEERS = `
import { bearerAuth, ClientCredentialsProvider, introspectionVerifier, jwtVerifier, MissingPeerError } from "@mcp-codegen/runtime/auth";
const said = {};
const request = new Request("http://mcp.test/mcp");
const jwt = jwtVerifier({ issuer: "https://as.test", audience: "http://mcp.test/mcp", jwksUrl: "https://as.test/jwks" });
said.jwt = await jwt("a.b.c", request).then(() => "accepted", (e) => [e instanceof MissingPeerError, e.message]);
const introspect = introspectionVerifier({ authorizationServer: { issuer: "https://as.test", introspection_endpoint: "https://as.test/introspect" }, clientId: "rs", clientSecret: "s", audience: "http://mcp.test/mcp" });
said.introspection = await introspect("t", request).then(() => "accepted", (e) => [e instanceof MissingPeerError, e.message]);
const provider = new ClientCredentialsProvider({ clientId: "c", clientSecret: "s" });
said.provider = await provider.fetch(fetch)("http://127.0.0.1:9/mcp").then(() => "fetched", (e) => [e instanceof MissingPeerError, e.message]);
const logged = [];
const auth = bearerAuth({ verifier: jwt, resourceMetadata: { resource: "http://mcp.test/mcp", authorizationServers: ["https://as.test"] }, onError: (e) => logged.push(e.message) });
const refused = await auth.authenticate(new Request("http://mcp.test/mcp", { headers: { authorization: "Bearer a.b.c" } }));
said.bearer = [refused.status, logged];
console.log(JSON.stringify(said));
`;

/** A resource server with JWTs and jose alone: a local key, bearerAuth, fetchHandler, a signed token. */
const JWT_ONLY = `
import { generateKeyPair, exportJWK, SignJWT } from "jose";
import { createServer } from "@mcp-codegen/runtime";
import { fetchHandler } from "@mcp-codegen/runtime/http";
import { bearerAuth, jwtVerifier, AuthorizationCodeProvider, headlessInteraction } from "@mcp-codegen/runtime/auth";
const { privateKey, publicKey } = await generateKeyPair("ES256");
const resource = "http://mcp.test/mcp";
const auth = bearerAuth({ verifier: jwtVerifier({ issuer: "https://as.test", audience: resource, key: await exportJWK(publicKey) }), resourceMetadata: { resource, authorizationServers: ["https://as.test"] } });
const server = createServer({ name: "jwt-only", version: "1.0.0" });
server.tool({ name: "whoami", inputSchema: { type: "object" } }, (_args, ctx) => ({ content: [{ type: "text", text: ctx.auth.subject }] }));
const handle = fetchHandler(server, { auth, allowedHosts: "*" });
const now = Math.floor(Date.now() / 1000);
const token = await new SignJWT({ sub: "alice", scope: "mcp:read" }).setProtectedHeader({ alg: "ES256" }).setIssuer("https://as.test").setAudience(resource).setIssuedAt(now).setExpirationTime(now + 60).sign(privateKey);
const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": { name: "t", version: "1" } };
const response = await handle(new Request(resource, {
  method: "POST",
  headers: { authorization: "Bearer " + token, "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "whoami" },
  body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "whoami", arguments: {}, _meta: meta } }),
}));
const answer = await response.json();
const provider = new AuthorizationCodeProvider({ redirectUri: "http://127.0.0.1:9/cb", interaction: headlessInteraction({ redirectUri: "http://127.0.0.1:9/cb" }) });
const client = await provider.fetch(fetch)("http://127.0.0.1:9/mcp").then(() => "fetched", (e) => e.message);
console.log(JSON.stringify({ status: response.status, text: answer.result?.content?.[0]?.text, client }));
await server.close();
`;

/** DPoP at the resource server with jose alone: a bound token, a proof signed with jose, then the same proof replayed. */
const DPOP_SERVER = `
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT } from "jose";
import { createHash, randomUUID } from "node:crypto";
import { createServer } from "@mcp-codegen/runtime";
import { fetchHandler } from "@mcp-codegen/runtime/http";
import { bearerAuth, jwtVerifier } from "@mcp-codegen/runtime/auth";
const resource = "http://mcp.test/mcp";
const as = await generateKeyPair("ES256");
const holder = await generateKeyPair("ES256", { extractable: true });
const jwk = await exportJWK(holder.publicKey);
const auth = bearerAuth({ verifier: jwtVerifier({ issuer: "https://as.test", audience: resource, key: await exportJWK(as.publicKey) }), resourceMetadata: { resource, authorizationServers: ["https://as.test"] }, dpop: { required: true } });
const server = createServer({ name: "dpop", version: "1.0.0" });
server.tool({ name: "whoami", inputSchema: { type: "object" } }, (_args, ctx) => ({ content: [{ type: "text", text: ctx.auth.subject }] }));
const handle = fetchHandler(server, { auth, allowedHosts: "*" });
const now = Math.floor(Date.now() / 1000);
const token = await new SignJWT({ sub: "alice", cnf: { jkt: await calculateJwkThumbprint(jwk) } }).setProtectedHeader({ alg: "ES256" }).setIssuer("https://as.test").setAudience(resource).setIssuedAt(now).setExpirationTime(now + 60).sign(as.privateKey);
const proof = await new SignJWT({ jti: randomUUID(), htm: "POST", htu: resource, iat: now, ath: createHash("sha256").update(token).digest("base64url") }).setProtectedHeader({ alg: "ES256", typ: "dpop+jwt", jwk }).sign(holder.privateKey);
const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": { name: "t", version: "1" } };
const send = () => handle(new Request(resource, {
  method: "POST",
  headers: { authorization: "DPoP " + token, dpop: proof, "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "whoami" },
  body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "whoami", arguments: {}, _meta: meta } }),
}));
const first = await send();
const text = (await first.json()).result?.content?.[0]?.text;
const replay = await send();
const refused = await replay.json();
console.log(JSON.stringify({ first: first.status, text, replay: replay.status, error: refused.error?.data?.error, challenge: replay.headers.get("www-authenticate")?.split(" ")[0] }));
await server.close();
`;

describe("@mcp-codegen/runtime/auth from the packed packages", function () {
  this.timeout(600_000);
  let packed: Packed;
  let registry: LocalRegistry;
  let dir: string;
  let project: string;

  before(async () => {
    packed = packedPackages();
    registry = await startRegistry([packed.runtime, packed.cli]);
    dir = tempDir("packages-auth");
    project = join(dir, "auth");
    mkdirSync(project, { recursive: true });
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "auth", private: true, type: "module" }));
    const install = await npm(["install", `@mcp-codegen/runtime@${packed.version}`], project, registry.url);
    expect(install.status, describeRun(install)).to.equal(0);
  });
  after(async () => {
    await registry?.close();
    removeDir(dir);
  });

  it("without jose and oauth4webapi, the entry point loads, and each function names the package it needs and the install line", () => {
    const run = node(WITHOUT_PEERS, project);
    expect(run.status, describeRun(run)).to.equal(0);
    const said = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(said.jwt).to.deep.equal([true, "jwtVerifier needs the optional package jose, which is not installed: run `npm install jose` (or your package manager's equivalent)"]);
    expect(said.introspection).to.deep.equal([true, "introspectionVerifier needs the optional package oauth4webapi, which is not installed: run `npm install oauth4webapi` (or your package manager's equivalent)"]);
    expect((said.provider as [boolean, string])[0]).to.equal(true);
    expect((said.provider as [boolean, string])[1]).to.contain("npm install oauth4webapi");
    // bearerAuth answers 503 and the operator's log names the missing package.
    const [status, logged] = said.bearer as [number, string[]];
    expect(status).to.equal(503);
    expect(logged.join("\n")).to.contain("npm install jose");
  });

  it("with jose alone, a resource server verifies JWTs with a local key; the OAuth client still asks for oauth4webapi", async () => {
    const install = await npm(["install", "--prefer-offline", at("jose")], project, registry.url);
    expect(install.status, describeRun(install)).to.equal(0);
    const run = node(JWT_ONLY, project);
    expect(run.status, describeRun(run)).to.equal(0);
    const result = JSON.parse(run.stdout) as { status: number; text: string; client: string };
    expect(result).to.include({ status: 200, text: "alice" });
    expect(result.client).to.contain("npm install oauth4webapi");
  });

  it("with jose alone, the resource server checks DPoP: a bound token with its proof is served, the proof replayed is refused", () => {
    const run = node(DPOP_SERVER, project);
    expect(run.status, describeRun(run)).to.equal(0);
    expect(JSON.parse(run.stdout)).to.deep.equal({ first: 200, text: "alice", replay: 401, error: "invalid_dpop_proof", challenge: "DPoP" });
  });
});
