// Asking the client (issue 5): ctx.sample, ctx.elicit and ctx.listRoots, one API for both eras.
// Session era, through the official SDK client's request handlers: a server-to-client request,
// only when the client declared the capability (otherwise the tool gets a clear error).
// Stateless era (2026-07-28), raw and through McpClient: MRTR. The handler is replayed; a missing
// answer returns an InputRequiredResult whose HMAC-protected requestState expires, is bound to its
// request, and is accepted once; the retry re-runs the handler with inputResponses.
import { CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { expect } from "chai";
import {
  createMemoryPair,
  createServer,
  McpClient,
  type CallToolResult,
  type McpServer,
  type RequestContext,
  type ServerOptions,
} from "../../../runtime/index.js";
import {
  bounded,
  connectSdk,
  deferred,
  expectStateless,
  initializeRaw,
  quiet,
  RawPeer,
  SESSION_ERA,
  STATELESS,
  turn,
  type Json,
} from "../../support/features-server.js";

const SAMPLE = { messages: [{ role: "user", content: { type: "text", text: "Say hi" } }], maxTokens: 16 };
const ELICIT = { message: "Your name?", requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } };
const SAMPLED = { role: "assistant", content: { type: "text", text: "hi" }, model: "test-model" };
const ELICITED = { action: "accept", content: { name: "Ada" } };
const ROOTS = { roots: [{ uri: "file:///work", name: "work" }] };
const ALL_CAPABILITIES = { sampling: {}, elicitation: {}, roots: {} };

const text = (value: string): CallToolResult => ({ content: [{ type: "text", text: value }] });
const ask = (context: RequestContext, what: string) =>
  what === "sample" ? context.sample(SAMPLE) : what === "elicit" ? context.elicit(ELICIT) : context.listRoots();

interface Run {
  readonly tool: string;
  readonly context: RequestContext;
  /** The abort reason's message, if this run's signal aborted. */
  aborted?: string;
}

/**
 * ask {what}: asks once and answers with the JSON of the answer; a plain error becomes the tool's
 * isError text (RpcErrors are JSON-RPC errors). both: asks elicit and sample together. chain:
 * elicit, then sample, then roots, one after the other. Also prompt "ask" (elicit) and resource
 * ask://roots (listRoots), the other two methods that may answer InputRequiredResult.
 */
function askingServer(options: Partial<ServerOptions> = {}) {
  const runs: Run[] = [];
  const server = createServer({ name: "asking", version: "1.0.0", logger: quiet, ...options });
  const track = (tool: string, context: RequestContext) => {
    const run: Run = { tool, context };
    runs.push(run);
    context.signal.addEventListener("abort", () => (run.aborted = String((context.signal.reason as Error)?.message ?? context.signal.reason)));
    return run;
  };
  server.tool(
    { name: "ask", inputSchema: { type: "object", properties: { what: { type: "string" } }, required: ["what"] } },
    async ({ what }: { what: string }, context) => {
      track("ask", context);
      return text(JSON.stringify(await ask(context, what)));
    },
  );
  server.tool({ name: "both", inputSchema: { type: "object" } }, async (_args, context) => {
    track("both", context);
    const [elicited, sampled] = await Promise.all([context.elicit(ELICIT), context.sample(SAMPLE)]);
    return text(JSON.stringify({ elicited, sampled }));
  });
  server.tool({ name: "chain", inputSchema: { type: "object" } }, async (_args, context) => {
    track("chain", context);
    const elicited = await context.elicit(ELICIT);
    const sampled = await context.sample(SAMPLE);
    const roots = await context.listRoots();
    return text(JSON.stringify({ elicited, sampled, roots }));
  });
  server.prompt({ name: "ask" }, async (_args, context) => {
    track("prompt", context);
    const elicited = await context.elicit(ELICIT);
    return { messages: [{ role: "user", content: { type: "text", text: `Hello ${(elicited.content as { name: string }).name}` } }] };
  });
  server.resource({ uri: "ask://roots", name: "roots" }, async (uri, context) => {
    track("resource", context);
    return { contents: [{ uri, text: JSON.stringify(await context.listRoots()) }] };
  });
  return { server, runs };
}

const toolText = (result: Json) => result.content[0].text as string;

/** The decoded payload of a requestState (its expiry `e`, nonce `n`, ...), which is readable but signed. */
function statePayload(state: string): Json {
  return JSON.parse(Buffer.from(state.slice(0, state.lastIndexOf(".")), "base64url").toString("utf8"));
}

function flip(value: string, index: number): string {
  const at = index >= 0 ? index : value.length + index;
  return value.slice(0, at) + (value[at] === "A" ? "B" : "A") + value.slice(at + 1);
}

describe("features: asking the client", () => {
  let servers: McpServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.map((server) => server.close()));
    servers = [];
  });
  const make = (options: Partial<ServerOptions> = {}) => {
    const made = askingServer(options);
    servers.push(made.server);
    return made;
  };

  describe("session era: server-to-client requests", () => {
    for (const revision of SESSION_ERA) {
      const hasElicitation = revision >= "2025-06-18";
      it(`${revision} through the SDK: sampling${hasElicitation ? ", elicitation" : ""} and roots reach the SDK client's handlers and their answers reach the tool`, async () => {
        const { server } = make({ revisions: [revision] });
        const asked: Json[] = [];
        const { client, tap, errors } = await connectSdk(server, { capabilities: hasElicitation ? ALL_CAPABILITIES : { sampling: {}, roots: {} } }, (c) => {
          c.setRequestHandler(CreateMessageRequestSchema, (request) => (asked.push(request.params), SAMPLED as never));
          c.setRequestHandler(ListRootsRequestSchema, () => ROOTS);
          if (hasElicitation) c.setRequestHandler(ElicitRequestSchema, (request) => (asked.push(request.params), ELICITED as never));
        });
        const cases: [string, unknown][] = [["sample", SAMPLED], ["roots", ROOTS], ...(hasElicitation ? [["elicit", ELICITED] as [string, unknown]] : [])];
        for (const [what, expected] of cases) {
          const result = await client.callTool({ name: "ask", arguments: { what } });
          expect(JSON.parse(toolText(result)), what).to.deep.equal(expected);
        }
        expect(asked[0]).to.deep.equal(SAMPLE);
        if (hasElicitation) expect(asked[1]).to.deep.include({ message: ELICIT.message, requestedSchema: ELICIT.requestedSchema });
        const calls = tap.log.filter((e) => e.direction === "in" && e.message.method === "tools/call").map((e) => e.message.id);
        const questions = tap.sent().filter((e) => ["sampling/createMessage", "roots/list", "elicitation/create"].includes(e.message.method));
        expect(
          questions.map((e) => e.relatedRequestId),
          "each question belongs to the call that asked it",
        ).to.deep.equal(calls);
        expect(errors).to.deep.equal([]);
        await client.close();
      });
    }

    it("2025-11-25 through the SDK: a client that did not declare the capability is not asked; the tool gets a clear error", async () => {
      const { server } = make({ revisions: ["2025-11-25"] });
      const { client, tap } = await connectSdk(server);
      for (const [what, capability, method] of [
        ["sample", "sampling", "sampling/createMessage"],
        ["elicit", "elicitation", "elicitation/create"],
        ["roots", "roots", "roots/list"],
      ] as const) {
        const result = await client.callTool({ name: "ask", arguments: { what } });
        expect(result.isError, what).to.equal(true);
        expect(toolText(result)).to.equal(`the client did not declare the ${capability} capability, so tools/call cannot send it ${method}`);
      }
      expect(
        tap.sent().filter((e) => e.message.method !== undefined && e.message.id !== undefined),
        "no request went to the client",
      ).to.deep.equal([]);
      await client.close();
    });

    it("2024-11-05 through the SDK: elicitation does not exist before 2025-06-18; the tool gets a clear error", async () => {
      const { server } = make({ revisions: ["2024-11-05"] });
      const { client, tap } = await connectSdk(server, { capabilities: { elicitation: {} } });
      const result = await client.callTool({ name: "ask", arguments: { what: "elicit" } });
      expect(result.isError).to.equal(true);
      expect(toolText(result)).to.equal("MCP 2024-11-05 has no elicitation/create");
      expect(tap.notifications("elicitation/create")).to.deep.equal([]);
      await client.close();
    });

    it("2025-11-25 raw: an answer that is not a valid result is refused with -32602 naming the definition", async () => {
      const { server } = make({ revisions: ["2025-11-25"] });
      const peer = new RawPeer(server);
      await initializeRaw(peer, "2025-11-25", { sampling: {} });
      await peer.send({ jsonrpc: "2.0", id: "call", method: "tools/call", params: { name: "ask", arguments: { what: "sample" } } });
      const question = await peer.until(() => peer.received.find((m) => m.method === "sampling/createMessage"), "the sampling request");
      expect(question.params).to.deep.equal(SAMPLE);
      await peer.send({ jsonrpc: "2.0", id: question.id, result: { role: "assistant" } });
      const response = await peer.response("call");
      expect(response.error.code).to.equal(-32602);
      expect(response.error.message).to.contain("invalid CreateMessageResult");
      await peer.close();
    });

    for (const revision of SESSION_ERA)
      it(`${revision} through the SDK: the server pings the client; the client's roots/list_changed and progress reach onNotification, notifications/initialized does not`, async () => {
        const notified: [string, Json][] = [];
        const { server } = make({ revisions: [revision], onNotification: (method, params) => notified.push([method, params]) });
        const { client, session, tap } = await connectSdk(server, { capabilities: { roots: { listChanged: true }, sampling: {} } }, (c) =>
          c.setRequestHandler(CreateMessageRequestSchema, async (request, extra) => {
            const token = request.params._meta?.progressToken;
            if (token !== undefined)
              await extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress: 1, total: 2 } });
            return SAMPLED as never;
          }),
        );
        expect(await session.request("ping", undefined)).to.deep.equal({});
        await client.sendRootsListChanged();
        server.tool({ name: "sample_with_progress", inputSchema: { type: "object" } }, async (_args, context) =>
          text(JSON.stringify(await context.sample({ ...SAMPLE, _meta: { progressToken: "sampling-1" } }))),
        );
        const result = await client.callTool({ name: "sample_with_progress", arguments: {} });
        expect(JSON.parse(toolText(result))).to.deep.equal(SAMPLED);
        await turn();
        expect(
          tap.log.filter((e) => e.direction === "in" && e.message.method === "notifications/initialized"),
          "the SDK did send it",
        ).to.have.length(1);
        expect(notified).to.deep.equal([
          ["notifications/roots/list_changed", {}],
          ["notifications/progress", { progressToken: "sampling-1", progress: 1, total: 2 }],
        ]);
        await client.close();
      });
  });

  describe("stateless era: MRTR", () => {
    it("2026-07-28 raw: a full round trip: InputRequiredResult, then the retry with inputResponses runs the handler again to completion", async () => {
      const { server, runs } = make();
      const peer = new RawPeer(server);
      const first = await peer.stateless("tools/call", { name: "ask", arguments: { what: "elicit" } }, ALL_CAPABILITIES, "r-1");
      expectStateless("InputRequiredResult", first.result);
      expect(first.result.resultType).to.equal("input_required");
      expect(first.result.inputRequests).to.deep.equal({ "input-1": { method: "elicitation/create", params: ELICIT } });
      expect(first.result.requestState).to.be.a("string");
      expect(first.result._meta["io.modelcontextprotocol/serverInfo"]).to.deep.equal({ name: "asking", version: "1.0.0" });
      expectStateless("ElicitRequest", first.result.inputRequests["input-1"]);

      const retry = await peer.stateless(
        "tools/call",
        { name: "ask", arguments: { what: "elicit" }, inputResponses: { "input-1": ELICITED }, requestState: first.result.requestState },
        ALL_CAPABILITIES,
        "r-2",
      );
      expectStateless("CallToolResult", retry.result);
      expect(retry.result.resultType).to.equal("complete");
      expect(JSON.parse(toolText(retry.result))).to.deep.equal(ELICITED);
      expect(runs.map((r) => r.tool)).to.deep.equal(["ask", "ask"]);
      expect(runs[1]!.aborted, "the run that completed was not abandoned").to.equal(undefined);
      await peer.close();
    });

    it("2026-07-28 raw: the handler's signal aborts when its run is abandoned for input, and nothing it sends afterwards goes out", async () => {
      const { server, runs } = make();
      const after = deferred<void>();
      server.tool({ name: "noisy", inputSchema: { type: "object" } }, async (_args, context) => {
        const run: Run = { tool: "noisy", context };
        runs.push(run);
        context.signal.addEventListener("abort", () => {
          run.aborted = (context.signal.reason as Error).message;
          context.progress(99);
          context.log("emergency", "after being abandoned");
          after.resolve();
        });
        return text(JSON.stringify(await context.elicit(ELICIT)));
      });
      const peer = new RawPeer(server);
      const meta = { progressToken: "p", "io.modelcontextprotocol/logLevel": "debug" };
      const response = await peer.stateless("tools/call", { name: "noisy", _meta: meta }, ALL_CAPABILITIES, "n-1");
      expect(response.result.resultType).to.equal("input_required");
      await bounded(after.promise, "the abandoned run's abort listener");
      expect(runs[0]!.aborted).to.contain("needs input from the client");
      await turn();
      await peer.stateless("server/discover");
      expect(peer.received.filter((m) => m.method !== undefined)).to.deep.equal([]);
      await peer.close();
    });

    it("2026-07-28 raw: a question asked with { key } is named by that key in inputRequests and answered by it in inputResponses", async () => {
      const { server } = make();
      server.tool({ name: "named", inputSchema: { type: "object" } }, async (_args, context) => {
        const [user, model] = await Promise.all([context.elicit(ELICIT, { key: "user_name" }), context.sample(SAMPLE)]);
        return text(JSON.stringify({ user, model }));
      });
      const peer = new RawPeer(server);
      const first = await peer.stateless("tools/call", { name: "named" }, ALL_CAPABILITIES);
      expect(Object.keys(first.result.inputRequests)).to.deep.equal(["user_name", "input-1"]);
      const done = await peer.stateless(
        "tools/call",
        { name: "named", inputResponses: { user_name: ELICITED, "input-1": SAMPLED }, requestState: first.result.requestState },
        ALL_CAPABILITIES,
      );
      expect(JSON.parse(toolText(done.result))).to.deep.equal({ user: ELICITED, model: SAMPLED });
      await peer.close();
    });

    it("2026-07-28 raw: a tampered requestState is -32602", async () => {
      const { server } = make();
      const peer = new RawPeer(server);
      const first = await peer.stateless("tools/call", { name: "ask", arguments: { what: "sample" } }, ALL_CAPABILITIES);
      const state: string = first.result.requestState;
      const dot = state.lastIndexOf(".");
      const reSigned = `${Buffer.from(JSON.stringify({ ...statePayload(state), e: Date.now() + 1e9 })).toString("base64url")}${state.slice(dot)}`;
      for (const tampered of [flip(state, 5), flip(state, -3), state.slice(0, dot), `${state}A`, reSigned, "not-a-state", ""]) {
        const response = await peer.stateless(
          "tools/call",
          { name: "ask", arguments: { what: "sample" }, inputResponses: { "input-1": SAMPLED }, requestState: tampered },
          ALL_CAPABILITIES,
        );
        expect(response.error?.code, `requestState ${JSON.stringify(tampered.slice(0, 30))}`).to.equal(-32602);
        expect(response.error.message).to.match(/requestState/);
      }
      const genuine = await peer.stateless(
        "tools/call",
        { name: "ask", arguments: { what: "sample" }, inputResponses: { "input-1": SAMPLED }, requestState: state },
        ALL_CAPABILITIES,
      );
      expect(JSON.parse(toolText(genuine.result)), "the genuine state still works").to.deep.equal(SAMPLED);
      await peer.close();
    });

    it("2026-07-28 raw: an expired requestState is -32602", async () => {
      const { server } = make({ inputRequired: { ttlMs: 1 } });
      const peer = new RawPeer(server);
      const first = await peer.stateless("tools/call", { name: "ask", arguments: { what: "roots" } }, ALL_CAPABILITIES);
      const state: string = first.result.requestState;
      const expiry: number = statePayload(state).e;
      for (let i = 0; i < 1000 && Date.now() <= expiry; i++) await new Promise((resolve) => setTimeout(resolve, 1));
      expect(Date.now()).to.be.greaterThan(expiry);
      const response = await peer.stateless(
        "tools/call",
        { name: "ask", arguments: { what: "roots" }, inputResponses: { "input-1": ROOTS }, requestState: state },
        ALL_CAPABILITIES,
      );
      expect(response.error?.code).to.equal(-32602);
      expect(response.error.message).to.equal("Invalid params: requestState has expired");
      await peer.close();
    });

    it("2026-07-28 raw: a replayed requestState is -32602", async () => {
      const { server, runs } = make();
      const peer = new RawPeer(server);
      const first = await peer.stateless("tools/call", { name: "ask", arguments: { what: "elicit" } }, ALL_CAPABILITIES);
      const retry = { name: "ask", arguments: { what: "elicit" }, inputResponses: { "input-1": ELICITED }, requestState: first.result.requestState };
      const once = await peer.stateless("tools/call", retry, ALL_CAPABILITIES);
      expect(once.result.resultType).to.equal("complete");
      const twice = await peer.stateless("tools/call", retry, ALL_CAPABILITIES);
      expect(twice.error?.code).to.equal(-32602);
      expect(twice.error.message).to.equal("Invalid params: requestState was already used");
      expect(runs, "the replay never reached the handler").to.have.length(2);
      await peer.close();
    });

    it("2026-07-28 raw: a requestState used for another request (other arguments, tool or method) is -32602", async () => {
      const { server } = make();
      const peer = new RawPeer(server);
      const issue = async () =>
        (await peer.stateless("tools/call", { name: "ask", arguments: { what: "elicit" } }, ALL_CAPABILITIES)).result.requestState as string;
      const elsewhere: [string, Record<string, unknown>][] = [
        ["tools/call", { name: "ask", arguments: { what: "sample" } }],
        ["tools/call", { name: "chain", arguments: {} }],
        ["prompts/get", { name: "ask" }],
        ["resources/read", { uri: "ask://roots" }],
      ];
      for (const [method, params] of elsewhere) {
        const response = await peer.stateless(method, { ...params, inputResponses: { "input-1": ELICITED }, requestState: await issue() }, ALL_CAPABILITIES);
        expect(response.error?.code, `${method} ${JSON.stringify(params)}`).to.equal(-32602);
        expect(response.error.message).to.equal("Invalid params: requestState belongs to a different request");
      }
      await peer.close();
    });

    it("2026-07-28 raw: a retry without the answer gets a new InputRequiredResult asking again, with a new requestState", async () => {
      const { server } = make();
      const peer = new RawPeer(server);
      const params = { name: "ask", arguments: { what: "elicit" } };
      const first = await peer.stateless("tools/call", params, ALL_CAPABILITIES);
      const second = await peer.stateless("tools/call", { ...params, inputResponses: {}, requestState: first.result.requestState }, ALL_CAPABILITIES);
      expectStateless("InputRequiredResult", second.result);
      expect(second.result.inputRequests).to.deep.equal(first.result.inputRequests);
      expect(second.result.requestState).to.not.equal(first.result.requestState);
      const wrongKey = await peer.stateless(
        "tools/call",
        { ...params, inputResponses: { "input-9": ELICITED }, requestState: second.result.requestState },
        ALL_CAPABILITIES,
      );
      expect(wrongKey.result.resultType, "an answer to a question never asked is no answer").to.equal("input_required");
      const done = await peer.stateless(
        "tools/call",
        { ...params, inputResponses: { "input-1": ELICITED }, requestState: wrongKey.result.requestState },
        ALL_CAPABILITIES,
      );
      expect(JSON.parse(toolText(done.result))).to.deep.equal(ELICITED);
      await peer.close();
    });

    it("2026-07-28 raw: two questions asked together come back in one InputRequiredResult; a partial answer is remembered", async () => {
      const { server, runs } = make();
      const peer = new RawPeer(server);
      const first = await peer.stateless("tools/call", { name: "both" }, ALL_CAPABILITIES);
      expect(first.result.inputRequests).to.deep.equal({
        "input-1": { method: "elicitation/create", params: ELICIT },
        "input-2": { method: "sampling/createMessage", params: SAMPLE },
      });
      const partial = await peer.stateless(
        "tools/call",
        { name: "both", inputResponses: { "input-1": ELICITED }, requestState: first.result.requestState },
        ALL_CAPABILITIES,
      );
      expect(partial.result.inputRequests).to.deep.equal({ "input-2": { method: "sampling/createMessage", params: SAMPLE } });
      const done = await peer.stateless(
        "tools/call",
        { name: "both", inputResponses: { "input-2": SAMPLED }, requestState: partial.result.requestState },
        ALL_CAPABILITIES,
      );
      expect(JSON.parse(toolText(done.result))).to.deep.equal({ elicited: ELICITED, sampled: SAMPLED });
      expect(runs).to.have.length(3);
      expect(runs.map((r) => r.aborted === undefined)).to.deep.equal([false, false, true]);
      await peer.close();
    });

    it("2026-07-28 raw: questions asked one after another take one round each, earlier answers carried by the requestState", async () => {
      const { server } = make();
      const peer = new RawPeer(server);
      const asked: string[][] = [];
      let state: string | undefined;
      let answers: Record<string, unknown> = {};
      let result: Json;
      for (let round = 0; round < 5; round++) {
        const response = await peer.stateless(
          "tools/call",
          { name: "chain", ...(state ? { inputResponses: answers, requestState: state } : {}) },
          ALL_CAPABILITIES,
        );
        result = response.result;
        if (result.resultType !== "input_required") break;
        const requests = Object.entries(result.inputRequests as Record<string, Json>);
        asked.push(requests.map(([key, request]) => `${key} ${request.method}`));
        answers = Object.fromEntries(
          requests.map(([key, request]) => [
            key,
            request.method === "elicitation/create" ? ELICITED : request.method === "sampling/createMessage" ? SAMPLED : ROOTS,
          ]),
        );
        state = result.requestState;
      }
      expect(asked).to.deep.equal([["input-1 elicitation/create"], ["input-2 sampling/createMessage"], ["input-3 roots/list"]]);
      expect(JSON.parse(toolText(result))).to.deep.equal({ elicited: ELICITED, sampled: SAMPLED, roots: ROOTS });
      await peer.close();
    });

    it("2026-07-28 raw: asking a client that did not declare the capability is -32021 with requiredCapabilities", async () => {
      const { server } = make();
      const peer = new RawPeer(server);
      for (const [what, capability] of [
        ["sample", "sampling"],
        ["elicit", "elicitation"],
        ["roots", "roots"],
      ] as const) {
        const declared: Record<string, unknown> = { ...ALL_CAPABILITIES };
        delete declared[capability];
        const response = await peer.stateless("tools/call", { name: "ask", arguments: { what } }, declared);
        expectStateless("MissingRequiredClientCapabilityError", response);
        expect(response.error.code).to.equal(-32021);
        expect(response.error.data).to.deep.equal({ requiredCapabilities: { [capability]: {} } });
      }
      await peer.close();
    });

    it("2026-07-28 raw: an answer of the wrong shape is -32602", async () => {
      const { server } = make();
      const peer = new RawPeer(server);
      const first = await peer.stateless("tools/call", { name: "ask", arguments: { what: "sample" } }, ALL_CAPABILITIES);
      const response = await peer.stateless(
        "tools/call",
        { name: "ask", arguments: { what: "sample" }, inputResponses: { "input-1": { role: "assistant" } }, requestState: first.result.requestState },
        ALL_CAPABILITIES,
      );
      expect(response.error?.code).to.equal(-32602);
      expect(response.error.message).to.contain("inputResponses");
      await peer.close();
    });

    it("2026-07-28: a requestState from one server is accepted by another with the same secret, refused by one with another secret", async () => {
      const a = make({ secret: "shared secret" });
      const b = make({ secret: "shared secret" });
      const c = make({ secret: "another secret" });
      const [peerA, peerB, peerC] = [new RawPeer(a.server), new RawPeer(b.server), new RawPeer(c.server)];
      const retry = async (peer: RawPeer) => {
        const first = await peerA.stateless("tools/call", { name: "ask", arguments: { what: "roots" } }, ALL_CAPABILITIES);
        return peer.stateless(
          "tools/call",
          { name: "ask", arguments: { what: "roots" }, inputResponses: { "input-1": ROOTS }, requestState: first.result.requestState },
          ALL_CAPABILITIES,
        );
      };
      expect(JSON.parse(toolText((await retry(peerB)).result))).to.deep.equal(ROOTS);
      expect((await retry(peerC)).error?.code).to.equal(-32602);
      await Promise.all([peerA.close(), peerB.close(), peerC.close()]);
    });

    it("2026-07-28 through McpClient: tools/call, prompts/get and resources/read answer their questions through the client's handlers and retry", async () => {
      const { server, runs } = make();
      const [serverEnd, clientEnd] = createMemoryPair();
      server.connect(serverEnd);
      const answered: string[] = [];
      const client = await McpClient.connect(clientEnd, {
        name: "ours",
        version: "1.0.0",
        revision: STATELESS,
        logger: quiet,
        handlers: {
          elicitation: (params) => (answered.push(`elicit ${params.message}`), ELICITED),
          sampling: () => (answered.push("sample"), SAMPLED),
          roots: () => (answered.push("roots"), ROOTS),
        },
      });
      expect(JSON.parse(toolText(await client.callTool("chain")))).to.deep.equal({ elicited: ELICITED, sampled: SAMPLED, roots: ROOTS });
      expect(JSON.parse(toolText(await client.callTool("both")))).to.deep.equal({ elicited: ELICITED, sampled: SAMPLED });
      const prompt = await client.getPrompt("ask");
      expect(prompt.messages).to.deep.equal([{ role: "user", content: { type: "text", text: "Hello Ada" } }]);
      const resource = await client.readResource("ask://roots");
      expect(JSON.parse((resource.contents[0] as { text: string }).text)).to.deep.equal(ROOTS);
      expect(answered).to.deep.equal(["elicit Your name?", "sample", "roots", "elicit Your name?", "sample", "elicit Your name?", "roots"]);
      expect(runs.map((r) => r.tool)).to.deep.equal(["chain", "chain", "chain", "chain", "both", "both", "prompt", "prompt", "resource", "resource"]);
      await client.close();
    });

    it("2026-07-28 raw: a handler that cannot answer InputRequiredResult (completion/complete) gets a clear error when it asks", async () => {
      const server = createServer({ name: "asking", version: "1.0.0", logger: quiet });
      servers.push(server);
      server.prompt({ name: "p", arguments: [{ name: "x" }] }, () => ({ messages: [] }), {
        complete: {
          x: async (_value, { request }) => {
            try {
              await request.elicit(ELICIT);
              return ["asked"];
            } catch (error) {
              return [(error as Error).message];
            }
          },
        },
      });
      const peer = new RawPeer(server);
      const response = await peer.stateless(
        "completion/complete",
        { ref: { type: "ref/prompt", name: "p" }, argument: { name: "x", value: "" } },
        ALL_CAPABILITIES,
      );
      expect(response.result.completion.values).to.deep.equal([
        "completion/complete cannot ask the client for input: only tools/call, prompts/get and resources/read can",
      ]);
      await peer.close();
    });
  });
});
