// Issue 32 item 7, Streamable HTTP and its auth layer: sequences of random and mutated requests
// (methods, headers, bodies, session and event ids, tokens) from two principals and strangers,
// into fetchHandler behind bearerAuth with a JWT verifier whose keys are served on 127.0.0.1.
// Properties: nothing throws or answers 500, every request is answered (within a bound: no hang)
// with an expected status, every JSON-RPC body is valid, every request of a POST is answered
// exactly once, a session is never served to another principal or without a token, and sessions
// stay within their bound, and a task alice started is never visible to bob, whatever came before.
// fast-check prints the seed and the shrunk sequence on failure (FUZZ_RUNS=n runs more).
import { expect } from "chai";
import fc from "fast-check";
import { createServer as createHttpServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { bearerAuth, jwtVerifier } from "../../../../runtime/auth/index.js";
import { fetchHandler } from "../../../../runtime/transports/http/index.js";
import { SseParser } from "../../../../runtime/transports/http/sse-parser.js";
import { answerable, fuzzServer, item, materialize, validOutbound, REVISIONS, type Item } from "../../../support/traffic.js";

const ISSUER = "https://as.fuzz.test";
const RESOURCE = "http://localhost/mcp";
const MAX_SESSIONS = 6;
const ANSWER_WITHIN_MS = 10_000;


type Who = "alice" | "bob" | "garbage" | "expired" | "none";
type Target = "own" | "other" | "random" | "none";

interface Step {
  readonly method: "POST" | "GET" | "DELETE" | "PUT" | "OPTIONS";
  readonly who: Who;
  /** Whose session the Mcp-Session-Id names: the caller's own, the other principal's, a made-up one, or none. */
  readonly session: Target;
  readonly version: string | undefined;
  readonly accept: string | undefined;
  readonly contentType: string | undefined;
  readonly lastEventId: string | undefined;
  readonly item: Item;
}

const step: fc.Arbitrary<Step> = fc.record({
  method: fc.constantFrom("POST", "POST", "POST", "POST", "GET", "DELETE", "PUT", "OPTIONS"),
  who: fc.constantFrom("alice", "alice", "bob", "bob", "garbage", "expired", "none"),
  session: fc.constantFrom("own", "own", "own", "other", "random", "none"),
  version: fc.option(fc.constantFrom(...REVISIONS, "2026-07-28", "garbage"), { nil: undefined }),
  accept: fc.option(fc.constantFrom("application/json, text/event-stream", "text/event-stream", "application/json", "text/html", "*/*"), { nil: undefined }),
  contentType: fc.option(fc.constantFrom("application/json", "application/json; charset=utf-8", "text/plain"), { nil: undefined }),
  lastEventId: fc.option(fc.oneof(fc.string({ maxLength: 20 }), fc.constant("g_1")), { nil: undefined }),
  item,
});

/** The JSON-RPC messages of an answer (JSON body or SSE), read whole within the bound. */
async function messagesOf(response: Response): Promise<unknown[]> {
  const type = response.headers.get("content-type") ?? "";
  const text = await within(response.text(), "the body");
  if (text === "") return [];
  if (type.includes("text/event-stream")) {
    const messages: unknown[] = [];
    new SseParser((event) => event.data !== "" && messages.push(JSON.parse(event.data))).push(text);
    return messages;
  }
  const body = JSON.parse(text) as unknown;
  return [body];
}

function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer for ${what} within ${ANSWER_WITHIN_MS} ms`)), ANSWER_WITHIN_MS)));
  return Promise.race([promise, hang]).finally(() => clearTimeout(timer));
}

const STATUSES = new Set([200, 202, 204, 400, 401, 403, 404, 405, 406, 409, 410, 413, 415, 503]);

describe("transports/http: fuzzing the endpoint and bearerAuth (fast-check)", function () {
  this.timeout(120_000);
  let jwks: Server;
  let tokens: Record<Exclude<Who, "none">, string>;

  before(async () => {
    const pair = await generateKeyPair("ES256", { extractable: true });
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: "k1", alg: "ES256", use: "sig" };
    jwks = createHttpServer((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys: [jwk] })));
    await new Promise<void>((resolve) => jwks.listen(0, "127.0.0.1", resolve));
    const now = Math.floor(Date.now() / 1000);
    const sign = (claims: Record<string, unknown>) =>
      new SignJWT({ iss: ISSUER, aud: RESOURCE, scope: "mcp", iat: now, exp: now + 3600, ...claims }).setProtectedHeader({ alg: "ES256", kid: "k1" }).sign(pair.privateKey);
    tokens = {
      alice: await sign({ sub: "alice", client_id: "c1" }),
      bob: await sign({ sub: "bob", client_id: "c1" }),
      expired: await sign({ sub: "alice", client_id: "c1", iat: now - 7200, exp: now - 3600 }),
      garbage: "not.a.jwt",
    };
  });
  after(() => new Promise<void>((resolve) => jwks.close(() => resolve())));

  it("answers every request once, validly, and never serves a session to another principal", async () => {
    const verifier = jwtVerifier({ issuer: ISSUER, audience: RESOURCE, jwksUrl: `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks` });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        const server = fuzzServer({ tasks: true });
        const auth = bearerAuth({ verifier, resourceMetadata: { resource: RESOURCE, authorizationServers: [ISSUER] }, onError: () => {} });
        const handler = fetchHandler(server, { path: "/mcp", auth, maxSessions: MAX_SESSIONS, logger: () => {} });
        /** Each principal's sessions, as initialize created them. */
        const sessions: Record<"alice" | "bob", string[]> = { alice: [], bob: [] };
        let id = 0;
        let initializes = 0;
        /** A request to `handler` as `principal`, in `session`, at 2025-11-25: its one JSON-RPC answer. */
        const rpc = async (principal: "alice" | "bob", session: string | undefined, body: Record<string, unknown>): Promise<{ headers: Headers; message: Record<string, unknown> }> => {
          const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json", authorization: `Bearer ${tokens[principal]}` };
          if (session) Object.assign(headers, { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" });
          const response = await within(handler(new Request(RESOURCE, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", ...body }) })), "a task request");
          return { headers: response.headers, message: (await response.json()) as Record<string, unknown> };
        };
        const initialize = { id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "f", version: "1" } } };
        try {
          // Each principal's 2025-11-25 session, and a task alice starts in hers (the probes at the end).
          const taskSessions = { alice: (await rpc("alice", undefined, initialize)).headers.get("mcp-session-id")!, bob: (await rpc("bob", undefined, initialize)).headers.get("mcp-session-id")! };
          initializes += 2;
          const created = await rpc("alice", taskSessions.alice, { id: 1, method: "tools/call", params: { name: "quick", arguments: {}, task: { ttl: 60_000 } } });
          const taskId = (created.message.result as { task: { taskId: string } }).task.taskId;
          for (const principal of ["alice", "bob"] as const) {
            const init = await handler(
              new Request(RESOURCE, {
                method: "POST",
                headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${tokens[principal]}` },
                body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "f", version: "1" } } }),
              }),
            );
            await init.text();
            sessions[principal].push(init.headers.get("mcp-session-id")!);
            initializes++;
          }
          for (const one of steps) {
            const principal = one.who === "alice" || one.who === "bob" ? one.who : undefined;
            const other = principal === "bob" ? "alice" : "bob";
            const sessionId =
              one.session === "own" ? sessions[principal ?? "alice"].at(-1) : one.session === "other" ? sessions[other].at(-1) : one.session === "random" ? "0123456789abcdef" : undefined;
            // No session left to name (all deleted): no header goes, and the request is nobody's session's.
            const owner = sessionId === undefined ? undefined : one.session === "own" ? (principal ?? "alice") : one.session === "other" ? other : undefined;
            const headers: Record<string, string> = {};
            if (one.who !== "none") headers.authorization = `Bearer ${tokens[one.who]}`;
            if (sessionId) headers["mcp-session-id"] = sessionId;
            if (one.version) headers["mcp-protocol-version"] = one.version;
            if (one.accept) headers.accept = one.accept;
            if (one.contentType) headers["content-type"] = one.contentType;
            if (one.lastEventId !== undefined && one.method === "GET") headers["last-event-id"] = one.lastEventId;
            const { body, raw } = materialize(one.item, () => ++id);
            const hasBody = one.method === "POST" || one.method === "PUT";
            const request = new Request(RESOURCE, { method: one.method, headers, ...(hasBody ? { body: raw ?? JSON.stringify(body) } : {}) });
            const response = await within(handler(request), `${one.method} ${JSON.stringify(headers)}`);
            const what = `${one.method} as ${one.who} on ${one.session} session: ${raw ?? JSON.stringify(body)}`;

            expect(STATUSES.has(response.status), `${what}: status ${response.status}`).to.equal(true);
            if (!principal) expect(response.status, `${what}: without a valid token`).to.be.oneOf([401, 400, 404, 405, 204]);
            // Another principal's session is "not found" (MCP security best practices, "Session hijacking").
            if (principal && owner && owner !== principal && one.method !== "OPTIONS") expect(response.status, `${what}: another's session`).to.not.be.oneOf([200, 202]);

            if (one.method === "GET" && response.status === 200) {
              await response.body?.cancel(); // the GET stream does not end by itself
              continue;
            }
            const messages = await messagesOf(response);
            for (const m of messages) if (typeof m === "object" && m !== null && (Array.isArray(m) || "jsonrpc" in m)) expect(validOutbound(m), `${what}: ${JSON.stringify(m)}`).to.equal(undefined);
            if (one.method === "POST" && response.status === 200 && answerable(body)) {
              const answers = messages.flatMap((m) => (Array.isArray(m) ? m : [m])).filter((m) => (m as { id?: unknown; method?: unknown }).method === undefined && (m as { id?: unknown }).id === body.id);
              expect(answers, `${what}: answers to its request`).to.have.length(1);
            }
            if (one.method === "POST" && principal && response.status === 200 && (body as { method?: unknown } | undefined)?.method === "initialize" && !sessionId) {
              const created = response.headers.get("mcp-session-id");
              if (created) {
                sessions[principal].push(created);
                initializes++;
              }
            }
            if (one.method === "DELETE" && response.status === 200 && owner) sessions[owner].pop();
            // Memory: sessions within their bound, and never more than were started.
            expect(handler.endpoint.sessionCount).to.be.at.most(Math.min(MAX_SESSIONS, initializes));
          }
          // Whatever happened meanwhile, alice's task is hers alone: bob gets an error for each tasks/* request.
          for (const method of ["tasks/get", "tasks/result", "tasks/cancel"]) {
            const probe = await rpc("bob", taskSessions.bob, { id: 2, method, params: { taskId } });
            if (probe.message.error === undefined) expect.fail(`bob's ${method} of alice's task: ${JSON.stringify(probe.message)}`);
          }
          const own = await rpc("alice", taskSessions.alice, { id: 3, method: "tasks/get", params: { taskId } });
          expect((own.message.result as { taskId: string } | undefined)?.taskId, "alice sees her task").to.equal(taskId);
        } finally {
          await server.close();
        }
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 80) },
    );
  });
});

describe("transports/http: what the fuzzing found", () => {
  const server = fuzzServer({ tasks: true });
  const handler = fetchHandler(server, { path: "/mcp", maxSessions: MAX_SESSIONS, logger: () => {} });
  after(() => server.close());
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    within(handler(new Request(RESOURCE, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers }, body: JSON.stringify(body) })), "the POST");

  it("a 2026-07-28 POST carrying a response (no method) is accepted with 202, not left waiting for an answer", async () => {
    const answer = await post({ jsonrpc: "2.0", id: "", result: {} }, { "mcp-protocol-version": "2026-07-28" });
    expect(answer.status).to.equal(202);
  });

  it("an initialize without a usable id is refused (400) and starts no session", async () => {
    for (const id of [null, undefined, true, { x: 1 }]) {
      const answer = await post({ jsonrpc: "2.0", id, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "f", version: "1" } } });
      expect(answer.status, JSON.stringify(id)).to.equal(400);
      expect(answer.headers.get("mcp-session-id")).to.equal(null);
      expect(((await answer.json()) as { error: { code: number } }).error.code).to.equal(-32600);
    }
    expect(handler.endpoint.sessionCount).to.equal(0);
  });
});
