// Cancellation (issue 5): notifications/cancelled aborts ctx.signal and the request is never
// answered; unknown ids are ignored; requests the server sends the client time out and are then
// cancelled. The session era through the official SDK client (AbortSignal, timeout, and its
// request handlers' extra.signal), the stateless era with raw messages.
import { CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema, type ClientCapabilities } from "@modelcontextprotocol/sdk/types.js";
import { expect } from "chai";
import { createServer, type CallToolResult, type McpServer, type RequestContext } from "../../../runtime/index.js";
import {
  bounded,
  connectSdk,
  deferred,
  initializeRaw,
  quiet,
  RawPeer,
  rejectionOf,
  SESSION_ERA,
  statelessMeta,
  turn,
  WAIT_MS,
  type Json,
} from "../../support/features-server.js";

const text = (value: string): CallToolResult => ({ content: [{ type: "text", text: value }] });

interface Watched {
  readonly started: ReturnType<typeof deferred<RequestContext>>;
  /** The abort reason's message, once the handler has finished after it. */
  readonly finished: ReturnType<typeof deferred<string>>;
}

/**
 * wait: blocks until cancelled, then answers anyway (the runtime must drop that answer).
 * ask: asks the client (`what`: sample, elicit, roots) and reports how that went.
 */
function cancellationServer(options: { revisions?: string[]; clientRequestTimeoutMs?: number } = {}) {
  const watched: Watched[] = [];
  const server = createServer({ name: "cancellation", version: "1.0.0", logger: quiet, ...options });
  server.tool({ name: "wait", inputSchema: { type: "object" } }, (_args, context) => {
    const watch: Watched = { started: deferred(), finished: deferred() };
    watched.push(watch);
    watch.started.resolve(context);
    return new Promise<CallToolResult>((resolve) => {
      context.signal.addEventListener("abort", () => {
        const reason = context.signal.reason instanceof Error ? context.signal.reason.message : String(context.signal.reason);
        resolve(text(`aborted: ${reason}`));
        watch.finished.resolve(reason);
      });
    });
  });
  server.tool(
    { name: "ask", inputSchema: { type: "object", properties: { what: { type: "string" } }, required: ["what"] } },
    async ({ what }: { what: string }, context) => {
      try {
        const answer =
          what === "sample"
            ? await context.sample({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 10 })
            : what === "elicit"
              ? await context.elicit({ message: "name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } })
              : await context.listRoots();
        return text(`answered: ${JSON.stringify(answer)}`);
      } catch (error) {
        return text(`failed: ${(error as { code?: number }).code} ${(error as Error).message}`);
      }
    },
  );
  return { server, watched };
}

const inbound = (log: readonly { direction: string; message: Json }[], method: string) =>
  log.filter((e) => e.direction === "in" && e.message.method === method).map((e) => e.message);
const outbound = (log: readonly { direction: string; message: Json }[], method: string) =>
  log.filter((e) => e.direction === "out" && e.message.method === method).map((e) => e.message);

describe("features: cancellation", () => {
  let servers: McpServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.map((server) => server.close()));
    servers = [];
  });
  const make = (options: Parameters<typeof cancellationServer>[0] = {}) => {
    const made = cancellationServer(options);
    servers.push(made.server);
    return made;
  };

  for (const revision of SESSION_ERA) {
    it(`${revision} through the SDK: aborting the AbortSignal aborts ctx.signal with the reason, and no response is sent for that id`, async () => {
      const { server, watched } = make({ revisions: [revision] });
      const { client, tap, errors } = await connectSdk(server);
      const controller = new AbortController();
      const call = client.callTool({ name: "wait", arguments: {} }, undefined, { signal: controller.signal });
      const context = await bounded((await until(() => watched[0])).started.promise, "the handler to start");
      expect(context.signal.aborted).to.equal(false);
      controller.abort("the user pressed stop");
      expect(String(await rejectionOf(call))).to.contain("the user pressed stop");
      expect(await bounded(watched[0]!.finished.promise, "the handler to see the abort")).to.equal("the user pressed stop");
      await turn();
      await client.ping(); // a round trip after the handler answered: its dropped answer would have arrived by now

      const [request] = inbound(tap.log, "tools/call");
      expect(inbound(tap.log, "notifications/cancelled").map((m) => m.params)).to.deep.equal([{ requestId: request.id, reason: "the user pressed stop" }]);
      expect(tap.responses(request.id), "no response for a cancelled request").to.deep.equal([]);
      expect(errors, "the SDK saw nothing unexpected").to.deep.equal([]);
      await client.close();
    });
  }

  it("2025-11-25 through the SDK: a request that times out on the client is cancelled the same way", async () => {
    const { server, watched } = make({ revisions: ["2025-11-25"] });
    const { client, tap, errors } = await connectSdk(server);
    const error = await rejectionOf(client.callTool({ name: "wait", arguments: {} }, undefined, { timeout: 30 }));
    expect(error.code).to.equal(-32001);
    const reason = await bounded(watched[0]!.finished.promise, "the handler to see the abort");
    expect(reason).to.contain("Request timed out");
    await turn();
    await client.ping();
    const [request] = inbound(tap.log, "tools/call");
    expect(inbound(tap.log, "notifications/cancelled").map((m) => m.params.requestId)).to.deep.equal([request.id]);
    expect(tap.responses(request.id)).to.deep.equal([]);
    expect(errors).to.deep.equal([]);
    await client.close();
  });

  it("2025-11-25 raw: cancelling an unknown id, an answered id, or with no usable requestId is ignored: no reply, and the session keeps serving", async () => {
    const { server } = make({ revisions: ["2025-11-25"] });
    const peer = new RawPeer(server);
    await initializeRaw(peer, "2025-11-25");
    const answered = await peer.request("ping", {}, "p-1");
    expect(answered.result).to.deep.equal({});
    for (const params of [{ requestId: 999 }, { requestId: "nobody" }, { requestId: "p-1", reason: "too late" }, { requestId: { no: 1 } }, {}])
      await peer.send({ jsonrpc: "2.0", method: "notifications/cancelled", params });
    const before = peer.received.length;
    const listed = await peer.request("tools/list", {}, "list-1");
    expect(listed.result.tools.map((t: Json) => t.name)).to.deep.equal(["wait", "ask"]);
    expect(peer.received.slice(before).map((m) => m.id)).to.deep.equal(["list-1"]);
    expect(peer.responses("p-1")).to.have.length(1);
    await peer.close();
  });

  it("2026-07-28 raw: notifications/cancelled aborts the handler's signal and the request is never answered", async () => {
    const { server, watched } = make();
    const peer = new RawPeer(server);
    await peer.send({ jsonrpc: "2.0", id: "call-1", method: "tools/call", params: { name: "wait", _meta: statelessMeta() } });
    const context = await bounded((await until(() => watched[0])).started.promise, "the handler to start");
    expect(context.era).to.equal("stateless");
    await peer.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "call-1", reason: "not needed" } });
    expect(await bounded(watched[0]!.finished.promise, "the handler to see the abort")).to.equal("not needed");
    await turn();
    const discover = await peer.stateless("server/discover", {}, {}, "d-1");
    expect(discover.result.resultType).to.equal("complete");
    expect(peer.responses("call-1")).to.deep.equal([]);
    await peer.close();
  });

  it("2025-11-25: closing the connection aborts every handler in flight", async () => {
    const { server, watched } = make({ revisions: ["2025-11-25"] });
    const { client } = await connectSdk(server);
    const calls = [1, 2].map(() => client.callTool({ name: "wait", arguments: {} }).catch((error: Error) => error));
    await bounded(Promise.all([0, 1].map(async (i) => (await until(() => watched[i])).started.promise)), "both handlers to start");
    await client.close();
    const reasons = await bounded(Promise.all(watched.map((w) => w.finished.promise)), "both handlers to see the abort");
    expect(reasons).to.deep.equal(["connection closed", "connection closed"]);
    for (const outcome of await Promise.all(calls)) expect(outcome).to.be.instanceOf(Error);
  });

  const asks: { what: string; method: string; capability: ClientCapabilities; revision: string }[] = SESSION_ERA.flatMap((revision) => [
    { what: "sample", method: "sampling/createMessage", capability: { sampling: {} }, revision },
    { what: "roots", method: "roots/list", capability: { roots: {} }, revision },
    ...(revision >= "2025-06-18" ? [{ what: "elicit", method: "elicitation/create", capability: { elicitation: {} }, revision }] : []),
  ]);
  for (const { what, method, capability, revision } of asks) {
    it(`${revision} through the SDK: ${method} from the server times out, then is cancelled: the SDK's handler sees its signal abort`, async () => {
      const { server } = make({ revisions: [revision], clientRequestTimeoutMs: 40 });
      const handlerAborted = deferred<string>();
      const wait = (_request: unknown, extra: { signal: AbortSignal }) =>
        new Promise<never>((_, reject) =>
          extra.signal.addEventListener("abort", () => {
            handlerAborted.resolve(String(extra.signal.reason));
            reject(new Error("aborted"));
          }),
        );
      const { client, tap, errors } = await connectSdk(server, { capabilities: capability }, (c) => {
        if (what === "sample") c.setRequestHandler(CreateMessageRequestSchema, wait);
        else if (what === "roots") c.setRequestHandler(ListRootsRequestSchema, wait);
        else c.setRequestHandler(ElicitRequestSchema, wait);
      });
      const result = await client.callTool({ name: "ask", arguments: { what } });
      expect(result.content).to.deep.equal([{ type: "text", text: `failed: -32001 ${method} timed out after 40 ms` }]);
      expect(await bounded(handlerAborted.promise, `the SDK's ${method} handler to abort`)).to.contain(`${method} timed out after 40 ms`);

      const [asked] = outbound(tap.log, method);
      expect(outbound(tap.log, "notifications/cancelled").map((m) => m.params.requestId)).to.deep.equal([asked.id]);
      await turn();
      await client.ping();
      expect(
        tap.log.filter((e) => e.direction === "in" && e.message.method === undefined && e.message.id === asked.id),
        "the SDK does not answer a cancelled request",
      ).to.deep.equal([]);
      expect(errors).to.deep.equal([]);
      await client.close();
    });
  }

  it("2025-11-25 through the SDK: cancelling a tools/call cancels the elicitation its handler is waiting on", async () => {
    const { server } = make({ revisions: ["2025-11-25"] });
    const elicited = deferred<void>();
    const handlerAborted = deferred<void>();
    const { client, tap } = await connectSdk(server, { capabilities: { elicitation: {} } }, (c) =>
      c.setRequestHandler(ElicitRequestSchema, (_request, extra) => {
        elicited.resolve();
        return new Promise((_, reject) => extra.signal.addEventListener("abort", () => (handlerAborted.resolve(), reject(new Error("aborted")))));
      }),
    );
    const controller = new AbortController();
    const call = client.callTool({ name: "ask", arguments: { what: "elicit" } }, undefined, { signal: controller.signal });
    await bounded(elicited.promise, "the elicitation to reach the SDK");
    controller.abort("changed my mind");
    await rejectionOf(call);
    await bounded(handlerAborted.promise, "the SDK's elicitation handler to abort");
    const [asked] = outbound(tap.log, "elicitation/create");
    const [toolCall] = inbound(tap.log, "tools/call");
    expect(outbound(tap.log, "notifications/cancelled").map((m) => m.params.requestId)).to.deep.equal([asked.id]);
    await turn();
    await client.ping();
    expect(tap.responses(toolCall.id)).to.deep.equal([]);
    await client.close();
  });

  /** The first defined value of `find`, polled once per turn, at most 1000 turns. */
  /** Polls `find` turn by turn, for as long as {@link bounded} waits: the first call of a revision may import its validators first. */
  async function until<T>(find: () => T | undefined): Promise<T> {
    const deadline = performance.now() + WAIT_MS;
    while (performance.now() < deadline) {
      const value = find();
      if (value !== undefined) return value;
      await turn();
    }
    throw new Error(`waited ${WAIT_MS} ms and gave up`);
  }
});
