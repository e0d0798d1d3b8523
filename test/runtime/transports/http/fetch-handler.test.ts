// fetchHandler in-process, Request in and Response out with no server at all: the auth hook's
// Response is sent as is, its AuthInfo reaches handlers as ctx.auth, routes come first, and a
// session started with one token is not found for another.
import { expect } from "chai";
import { createServer } from "../../../../runtime/index.js";
import { fetchHandler, type AuthInfo } from "../../../../runtime/http.js";
import { initializeRequest, stateless } from "./support.js";

const TOKENS: Record<string, AuthInfo> = { alice: { token: "alice", subject: "alice", scopes: ["mcp"] }, bob: { token: "bob", subject: "bob", scopes: ["mcp"] } };

describe("transports/http: fetchHandler with the auth hook and routes", () => {
  const server = createServer({ name: "fetch", version: "1.0.0", logger: () => {} });
  server.tool({ name: "whoami", description: "who called", inputSchema: { type: "object" } }, (_args, ctx) => ({ content: [{ type: "text", text: ctx.auth?.subject ?? "nobody" }] }));
  const handler = fetchHandler(server, {
    path: "/mcp",
    auth: {
      authenticate: async (request) =>
        TOKENS[request.headers.get("authorization")?.replace(/^Bearer /, "") ?? ""] ??
        new Response(null, { status: 401, headers: { "WWW-Authenticate": 'Bearer resource_metadata="http://localhost/.well-known/oauth-protected-resource"' } }),
    },
    routes: async (request) => (new URL(request.url).pathname === "/.well-known/oauth-protected-resource" ? Response.json({ resource: "http://localhost/mcp" }) : undefined),
  });
  after(() => server.close());

  const send = (body: unknown, headers: Record<string, string>) =>
    handler(new Request("http://localhost/mcp", { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers }, body: JSON.stringify(body) }));

  it("serves well-known routes first, and sends the hook's 401 as is", async () => {
    const metadata = await handler(new Request("http://localhost/.well-known/oauth-protected-resource"));
    expect(await metadata.json()).to.deep.equal({ resource: "http://localhost/mcp" });
    const call = stateless(1, "tools/call", { name: "whoami", arguments: {} });
    const refused = await send(call.body, call.headers);
    expect(refused.status).to.equal(401);
    expect(refused.headers.get("www-authenticate")).to.match(/^Bearer resource_metadata=/);
  });

  it("hands the AuthInfo to handlers as ctx.auth", async () => {
    const call = stateless(2, "tools/call", { name: "whoami", arguments: {} });
    const answer = await send(call.body, { ...call.headers, Authorization: "Bearer alice" });
    expect(answer.status).to.equal(200);
    expect(((await answer.json()) as { result: { content: { text: string }[] } }).result.content[0]!.text).to.equal("alice");
  });

  it("binds a session to its token: another token gets 404 for it", async () => {
    const init = await send(initializeRequest(), { Authorization: "Bearer alice" });
    const session = init.headers.get("mcp-session-id")!;
    expect(init.status).to.equal(200);
    await init.text();
    const headers = { "Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-11-25" };
    const ping = { jsonrpc: "2.0", id: 2, method: "ping" };
    expect((await send(ping, { ...headers, Authorization: "Bearer bob" })).status).to.equal(404);
    const own = await send(ping, { ...headers, Authorization: "Bearer alice" });
    expect(own.status).to.equal(200);
    expect(await own.json()).to.deep.include({ id: 2, result: {} });
  });
});

// SEP-1699 on Workers: when the server closes a request's stream, the request's work must outlive
// its response, which Workers only allow under ctx.waitUntil (tools/runtimes runs the same on workerd).
describe("transports/http: fetchHandler hands work that outlives its response to the platform's waitUntil", () => {
  const server = createServer({ name: "wait-until", version: "1.0.0", logger: () => {} });
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  server.tool({ name: "slow", description: "closes its stream, then answers once released", inputSchema: { type: "object" } }, async (_args, ctx) => {
    expect(handler.endpoint.closeStream(ctx.session, ctx.requestId)).to.equal(true);
    await gate;
    return { content: [{ type: "text", text: "finished" }] };
  });
  const handler = fetchHandler(server, { path: "/mcp" });
  after(() => server.close());

  const post = (body: unknown, headers: Record<string, string>, context?: object) =>
    handler(new Request("http://localhost/mcp", { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers }, body: JSON.stringify(body) }), context);

  it("passes waitUntil the request's completion when its stream is closed early; others' context objects are ignored", async () => {
    // A context without waitUntil (Bun's server, Deno's info) is accepted and ignored.
    const init = await post(initializeRequest(), {}, { port: 0, remoteAddr: {} });
    const headers = { "Mcp-Session-Id": init.headers.get("mcp-session-id")!, "MCP-Protocol-Version": "2025-11-25" };
    await init.text();
    await (await post({ jsonrpc: "2.0", method: "notifications/initialized" }, headers)).text();

    const kept: Promise<unknown>[] = [];
    const ctx = { waitUntil: (work: Promise<unknown>) => void kept.push(work) };
    const answer = await post({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "slow", arguments: {} } }, headers, ctx);
    const events = await answer.text();
    // The stream ended with its priming event only; the request goes on.
    expect(events).to.match(/^id: \S+\nretry: \d+\ndata: ?\n\n$/);
    expect(kept).to.have.length(1);
    let settled = false;
    void kept[0]!.then(() => (settled = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(settled).to.equal(false);

    release();
    await kept[0];
    const lastEventId = /^id: (\S+)/.exec(events)![1]!;
    const resumed = await handler(new Request("http://localhost/mcp", { headers: { ...headers, Accept: "text/event-stream", "Last-Event-ID": lastEventId } }));
    expect(await resumed.text()).to.contain('"text":"finished"');
  });
});

describe("transports/http: fetchHandler with a Worker's ctx.waitUntil", () => {
  it("hands a task's work to waitUntil, so the platform keeps running it after the CreateTaskResult", async () => {
    const server = createServer({ name: "worker", version: "1.0.0", logger: () => {} });
    server.tool({ name: "later", description: "a task", inputSchema: { type: "object" }, execution: { taskSupport: "optional" } }, (_args, ctx) =>
      ctx.task(async () => ({ content: [{ type: "text" as const, text: "finished" }] })),
    );
    const handler = fetchHandler(server, { path: "/mcp" });
    try {
      const kept: Promise<unknown>[] = [];
      const call = stateless(1, "tools/call", { name: "later", arguments: {}, _meta: { "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } } } });
      const request = new Request("http://localhost/mcp", { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...call.headers }, body: JSON.stringify(call.body) });
      const answer = (await (await handler(request, { waitUntil: (work: Promise<unknown>) => kept.push(work) })).json()) as { result: { resultType: string; taskId: string } };
      expect(answer.result.resultType).to.equal("task");
      expect(kept).to.have.length(1);
      await kept[0];
      const get = stateless(2, "tasks/get", { taskId: answer.result.taskId, _meta: { "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } } } });
      const got = await handler(new Request("http://localhost/mcp", { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...get.headers, "Mcp-Name": answer.result.taskId }, body: JSON.stringify(get.body) }));
      expect(((await got.json()) as { result: { status: string } }).result.status).to.equal("completed");
    } finally {
      await server.close();
    }
  });
});
