// Progress (issue 5): ctx.progress() reaches the client only when the request carried a
// progressToken, values strictly increase, and nothing follows the response. Session era through
// the official SDK client (its `onprogress`), every session revision; stateless era with raw
// messages and with our McpClient (progress is server-to-client only there).
import { expect } from "chai";
import { createMemoryPair, createServer, McpClient, type McpServer, type RequestContext } from "../../../runtime/index.js";
import { bounded, connectSdk, deferred, expectStateless, quiet, RawPeer, SESSION_ERA, STATELESS, turn, type Json } from "../../support/features-server.js";

const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });

/** steps: reports 1..n of n with a message each. bad: reports 2, then 2 again, then 1, then 3; says which ones threw. late: keeps its context for after the response. */
function progressServer(revisions?: string[]) {
  const contexts: RequestContext[] = [];
  const server = createServer({ name: "progress", version: "1.0.0", logger: quiet, ...(revisions ? { revisions } : {}) });
  server.tool(
    { name: "steps", inputSchema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] } },
    async ({ n }: { n: number }, context) => {
      for (let i = 1; i <= n; i++) {
        context.progress(i, n, `step ${i} of ${n}`);
        await turn();
      }
      return text(`did ${n} steps`);
    },
  );
  server.tool({ name: "bad", inputSchema: { type: "object" } }, (_args, context) => {
    const outcomes = [2, 2, 1, 3, Number.NaN].map((value) => {
      try {
        context.progress(value);
        return `${value}: sent`;
      } catch (error) {
        return `${value}: ${(error as Error).name}`;
      }
    });
    return text(outcomes.join(", "));
  });
  server.tool({ name: "late", inputSchema: { type: "object" } }, (_args, context) => {
    contexts.push(context);
    context.progress(1);
    return text("answered");
  });
  return { server, contexts };
}

function callIds(tapLog: readonly { direction: string; message: Json }[], tool: string): (string | number)[] {
  return tapLog.filter((e) => e.direction === "in" && e.message.method === "tools/call" && e.message.params?.name === tool).map((e) => e.message.id);
}

describe("features: progress", () => {
  let servers: McpServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.map((server) => server.close()));
    servers = [];
  });
  const make = (revisions?: string[]) => {
    const made = progressServer(revisions);
    servers.push(made.server);
    return made;
  };

  for (const revision of SESSION_ERA) {
    it(`${revision} through the SDK: onprogress gets every step in order, with total and message, before the result`, async () => {
      const { server } = make([revision]);
      const { client, tap, errors } = await connectSdk(server);
      expect(client.getServerVersion()?.name).to.equal("progress");
      const seen: Json[] = [];
      const result = await client.callTool({ name: "steps", arguments: { n: 4 } }, undefined, { onprogress: (p) => seen.push(p) });
      expect(result.content).to.deep.equal([{ type: "text", text: "did 4 steps" }]);
      expect(seen).to.deep.equal([1, 2, 3, 4].map((i) => ({ progress: i, total: 4, message: `step ${i} of 4` })));

      const [id] = callIds(tap.log, "steps");
      const sent = tap.sent().filter((e) => e.message.method === "notifications/progress" || e.message.id === id);
      expect(sent.map((e) => e.message.method ?? "response")).to.deep.equal([...Array(4).fill("notifications/progress"), "response"]);
      for (const entry of sent.slice(0, 4)) expect(entry.relatedRequestId, "progress belongs to the call").to.equal(id);
      expect(errors).to.deep.equal([]);
      await client.close();
    });
  }

  it("2025-11-25 through the SDK: a request without a progressToken gets no progress; ctx.progress does nothing", async () => {
    const { server } = make(["2025-11-25"]);
    const { client, tap } = await connectSdk(server);
    const result = await client.callTool({ name: "steps", arguments: { n: 3 } });
    expect(result.content).to.deep.equal([{ type: "text", text: "did 3 steps" }]);
    const bad = await client.callTool({ name: "bad", arguments: {} });
    expect(bad.content, "without a token nothing is checked or sent").to.deep.equal([{ type: "text", text: "2: sent, 2: sent, 1: sent, 3: sent, NaN: sent" }]);
    expect(tap.notifications("notifications/progress")).to.deep.equal([]);
    await client.close();
  });

  it("2025-11-25 through the SDK: a value that does not increase is rejected (RangeError) and not sent", async () => {
    const { server } = make(["2025-11-25"]);
    const { client, tap, errors } = await connectSdk(server);
    const seen: number[] = [];
    const result = await client.callTool({ name: "bad", arguments: {} }, undefined, { onprogress: (p) => seen.push(p.progress) });
    expect(result.content).to.deep.equal([{ type: "text", text: "2: sent, 2: RangeError, 1: RangeError, 3: sent, NaN: RangeError" }]);
    expect(seen).to.deep.equal([2, 3]);
    expect(tap.notifications("notifications/progress").map((e) => e.message.params.progress)).to.deep.equal([2, 3]);
    expect(errors).to.deep.equal([]);
    await client.close();
  });

  it("2025-11-25 through the SDK: nothing is sent after the response", async () => {
    const { server, contexts } = make(["2025-11-25"]);
    const { client, tap, errors } = await connectSdk(server);
    const seen: number[] = [];
    await client.callTool({ name: "late", arguments: {} }, undefined, { onprogress: (p) => seen.push(p.progress) });
    const context = contexts[0]!;
    context.progress(2, 10, "after the response");
    context.progress(3);
    await turn();
    await client.ping(); // a round trip: anything the server sent before its answer has arrived
    expect(seen).to.deep.equal([1]);
    expect(tap.notifications("notifications/progress")).to.have.length(1);
    expect(errors, "the SDK reports progress for a token it no longer knows").to.deep.equal([]);
    await client.close();
  });

  it("2025-11-25 through the SDK: nothing is sent after the client cancelled the request", async () => {
    const aborted = deferred<RequestContext>();
    const server = createServer({ name: "progress", version: "1.0.0", logger: quiet, revisions: ["2025-11-25"] });
    servers.push(server);
    server.tool({ name: "wait", inputSchema: { type: "object" } }, (_args, context) => {
      context.progress(1);
      return new Promise(() => context.signal.addEventListener("abort", () => aborted.resolve(context)));
    });
    const { client, tap, errors } = await connectSdk(server);
    const controller = new AbortController();
    const seen: number[] = [];
    const call = client.callTool({ name: "wait", arguments: {} }, undefined, {
      signal: controller.signal,
      onprogress: (p) => {
        seen.push(p.progress);
        controller.abort("enough");
      },
    });
    await call.catch(() => {});
    const context = await bounded(aborted.promise, "the handler's signal to abort");
    context.progress(2);
    await turn();
    await client.ping();
    expect(seen).to.deep.equal([1]);
    expect(tap.notifications("notifications/progress").map((e) => e.message.params.progress)).to.deep.equal([1]);
    expect(errors).to.deep.equal([]);
    await client.close();
  });

  it("2026-07-28 raw: progress goes server to client for a request with a progressToken, on that request's stream, before its result", async () => {
    const { server } = make();
    const peer = new RawPeer(server);
    const response = await peer.stateless("tools/call", { name: "steps", arguments: { n: 3 }, _meta: { progressToken: "tok-1" } }, {}, "call-1");
    expectStateless("CallToolResult", response.result);
    const progress = peer.tap.notifications("notifications/progress");
    expect(progress.map((e) => e.message.params)).to.deep.equal(
      [1, 2, 3].map((i) => ({ progressToken: "tok-1", progress: i, total: 3, message: `step ${i} of 3` })),
    );
    for (const entry of progress) {
      expectStateless("ProgressNotification", entry.message);
      expect(entry.relatedRequestId).to.equal("call-1");
    }
    const order = peer.received.map((m) => m.method ?? `response ${m.id}`);
    expect(order).to.deep.equal([...Array(3).fill("notifications/progress"), "response call-1"]);

    const none = await peer.stateless("tools/call", { name: "steps", arguments: { n: 2 } }, {}, "call-2");
    expect(none.result.content).to.deep.equal([{ type: "text", text: "did 2 steps" }]);
    expect(peer.notifications("notifications/progress")).to.have.length(3);
    await peer.close();
  });

  it("2026-07-28 raw: notifications/progress from the client is not a 2026-07-28 client notification: no reply, the server still serves", async () => {
    const server = createServer({ name: "progress", version: "1.0.0", logger: quiet });
    servers.push(server);
    server.tool({ name: "noop", inputSchema: { type: "object" } }, () => text("ok"));
    const peer = new RawPeer(server);
    await peer.send({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } });
    const response = await peer.stateless("tools/call", { name: "noop" }, {}, 7);
    expect(response.result.content).to.deep.equal([{ type: "text", text: "ok" }]);
    expect(peer.received, "only the tools/call response").to.have.length(1);
    await peer.close();
  });

  it("2026-07-28 through McpClient: onProgress gets the steps; nothing after the result", async () => {
    const { server, contexts } = make();
    const [serverEnd, clientEnd] = createMemoryPair();
    server.connect(serverEnd);
    const client = await McpClient.connect(clientEnd, { name: "ours", version: "1.0.0", revision: STATELESS, logger: quiet });
    const seen: Json[] = [];
    const result = await client.callTool("steps", { n: 2 }, { onProgress: (p) => seen.push(p) });
    expect(result.content).to.deep.equal([{ type: "text", text: "did 2 steps" }]);
    expect(seen).to.deep.equal([1, 2].map((i) => ({ progressToken: 1, progress: i, total: 2, message: `step ${i} of 2` })));
    await client.callTool("late", {}, { onProgress: (p) => seen.push(p) });
    contexts[0]!.progress(5);
    await turn();
    expect(seen.map((p) => p.progress)).to.deep.equal([1, 2, 1]);
    await client.close();
  });
});
