// requestState is accepted once across instances (issue 13, item 7): two servers with the same
// secret sharing a real redis-server; the same state, accepted on B, is refused on A. The store
// itself, in memory and in Redis: first claim wins, a second connection sees the claim, an expired
// nonce is never accepted, concurrent claims have exactly one winner.
import { expect } from "chai";
import { createHash, randomUUID } from "node:crypto";
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT } from "jose";
import { bearerAuth, jwtVerifier } from "../../../runtime/auth/index.js";
import { createServer, type McpServer, type RequestContext } from "../../../runtime/index.js";
import { MemoryNonceStore, type NonceStore } from "../../../runtime/stores/nonce-store.js";
import { RedisNonceStore } from "../../../runtime/stores/redis-nonce-store.js";
import { quiet, RawPeer, type Json } from "../../support/features-server.js";
import { redisForSuite } from "../../support/redis-server.js";
import { usedSecret } from "../../support/secrets.js";

const ROOTS = { roots: [{ uri: "file:///work", name: "work" }] };

describe("stores: single-use nonces", () => {
  const { connect } = redisForSuite();

  const contract = (name: string, make: () => Promise<[NonceStore, NonceStore]>) =>
    describe(name, () => {
      it("accepts a nonce once, whoever of the sharing stores sees it", async () => {
        const [one, other] = await make();
        const expiry = Date.now() + 60_000;
        expect(await one.claim("n1", expiry)).to.equal(true);
        expect(await other.claim("n1", expiry)).to.equal(false);
        expect(await one.claim("n1", expiry)).to.equal(false);
        expect(await other.claim("n2", expiry)).to.equal(true);
      });

      it("never accepts an expired nonce", async () => {
        const [one] = await make();
        expect(await one.claim("old", Date.now() - 1)).to.equal(false);
      });

      it("has exactly one winner among concurrent claims", async () => {
        const [one, other] = await make();
        const expiry = Date.now() + 60_000;
        const claims = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? one : other).claim("contested", expiry)));
        expect(claims.filter(Boolean)).to.have.length(1);
      });
    });

  contract("MemoryNonceStore (one process)", async () => {
    const store = new MemoryNonceStore();
    return [store, store];
  });
  contract("RedisNonceStore (two connections to one redis-server)", async () => {
    const prefix = `test-${Math.random().toString(36).slice(2)}:`;
    return [new RedisNonceStore((await connect()).commands, prefix), new RedisNonceStore((await connect()).commands, prefix)];
  });

  it("RedisNonceStore: Redis forgets a claimed nonce when its state expires", async () => {
    const { commands } = await connect();
    const store = new RedisNonceStore(commands, "ttl:");
    const expiry = Date.now() + 60_000;
    expect(await store.claim("n", expiry)).to.equal(true);
    const left = Number(await commands.sendCommand(["PEXPIRETIME", "ttl:nonce:n"]));
    expect(left).to.equal(Math.ceil(expiry));
  });

  it("RedisNonceStore as DPoP replayStore: a proof used at one bearerAuth instance is refused at another (RFC 9449 §11.1)", async () => {
    const resource = "http://mcp.test/mcp";
    const as = await generateKeyPair("ES256");
    const holder = await generateKeyPair("ES256", { extractable: true });
    const jwk = await exportJWK(holder.publicKey);
    const now = Math.floor(Date.now() / 1000);
    const token = usedSecret(await new SignJWT({ sub: "alice", cnf: { jkt: await calculateJwkThumbprint(jwk) } }).setProtectedHeader({ alg: "ES256" }).setIssuer("https://as.test").setAudience(resource).setIssuedAt(now).setExpirationTime(now + 60).sign(as.privateKey));
    const proof = usedSecret(await new SignJWT({ jti: randomUUID(), htm: "POST", htu: resource, iat: now, ath: createHash("sha256").update(token).digest("base64url") }).setProtectedHeader({ alg: "ES256", typ: "dpop+jwt", jwk }).sign(holder.privateKey));
    const prefix = `dpop-${Math.random().toString(36).slice(2)}:`;
    const instance = async () =>
      bearerAuth({
        verifier: jwtVerifier({ issuer: "https://as.test", audience: resource, key: await exportJWK(as.publicKey) }),
        resourceMetadata: { resource, authorizationServers: ["https://as.test"] },
        dpop: { replayStore: new RedisNonceStore((await connect()).commands, prefix) },
      });
    const request = () => new Request(resource, { method: "POST", headers: { authorization: `DPoP ${token}`, dpop: proof } });
    const [a, b] = [await instance(), await instance()];
    expect(await a.authenticate(request())).to.not.be.instanceOf(Response);
    const replayed = await b.authenticate(request());
    expect(replayed).to.be.instanceOf(Response);
    expect((replayed as Response).status).to.equal(401);
    expect(await (replayed as Response).text()).to.include("already used");
  });

  describe("two server instances with the same secret and a shared Redis", () => {
    const servers: McpServer[] = [];
    let runs = 0;
    after(async () => {
      await Promise.all(servers.map((server) => server.close()));
    });
    const instance = async () => {
      const server = createServer({
        name: "instance",
        version: "1.0.0",
        logger: quiet,
        secret: "shared secret",
        inputRequired: { nonces: new RedisNonceStore((await connect()).commands) },
      });
      server.tool({ name: "roots", inputSchema: { type: "object" } }, async (_args, context: RequestContext) => {
        runs++;
        return { content: [{ type: "text", text: JSON.stringify(await context.listRoots()) }] };
      });
      servers.push(server);
      return new RawPeer(server);
    };
    const call = (peer: RawPeer, requestState?: string) =>
      peer.stateless(
        "tools/call",
        requestState ? { name: "roots", arguments: {}, inputResponses: { "input-1": ROOTS }, requestState } : { name: "roots", arguments: {} },
        { roots: {} },
      );

    it("a requestState accepted on B is refused on A, and the handler does not run again", async () => {
      const [a, b] = [await instance(), await instance()];
      const first: Json = await call(a);
      expect(first.result.resultType).to.equal("input_required");
      const state: string = first.result.requestState;
      const onB = await call(b, state);
      expect(JSON.parse(onB.result.content[0].text)).to.deep.equal(ROOTS);
      const runsBefore = runs;
      const onA = await call(a, state);
      expect(onA.error?.code).to.equal(-32602);
      expect(onA.error?.message).to.equal("Invalid params: requestState was already used");
      const againOnB = await call(b, state);
      expect(againOnB.error?.message).to.equal("Invalid params: requestState was already used");
      expect(runs, "a refused state runs no handler").to.equal(runsBefore);
    });
  });
});
