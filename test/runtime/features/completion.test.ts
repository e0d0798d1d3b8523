// Completion (issue 5): completion/complete for prompt arguments and resource-template
// variables, through the completers registered with them; at most 100 values with a correct
// total and hasMore; the `completions` capability is declared exactly when there is a
// completer, and without any the method is -32601. Session era through the official SDK
// client's `complete`; stateless era with raw messages.
import { expect } from "chai";
import { createServer, type Completer, type McpServer } from "../../../runtime/index.js";
import { connectSdk, expectStateless, quiet, RawPeer, rejectionOf, SESSION_ERA, type Json } from "../../support/features-server.js";

const COLORS = ["red", "green", "blue", "black", "brown"];
/** n candidates: item-000, item-001, ... */
const items = (n: number) => Array.from({ length: n }, (_, i) => `item-${String(i).padStart(3, "0")}`);

function completionServer(revisions?: string[]) {
  const seen: { value: string; arguments: Readonly<Record<string, string>>; revision: string }[] = [];
  const server = createServer({ name: "completion", version: "1.0.0", logger: quiet, ...(revisions ? { revisions } : {}) });
  const color: Completer = (value, { arguments: chosen, request }) => {
    seen.push({ value, arguments: chosen, revision: request.revision });
    return COLORS.filter((c) => c.startsWith(value));
  };
  server.prompt(
    {
      name: "paint",
      arguments: [
        { name: "color", required: true },
        { name: "finish", required: false },
        { name: "surface", required: false },
      ],
    },
    ({ color: chosen }: { color: string }) => ({ messages: [{ role: "user", content: { type: "text", text: `paint it ${chosen}` } }] }),
    // surface has no completer: it completes to nothing
    { complete: { color, finish: async (value) => ["matte", "gloss"].filter((f) => f.startsWith(value)) } },
  );
  server.resourceTemplate({ uriTemplate: "items://{count}/{name}", name: "items" }, (uri) => ({ contents: [{ uri, text: uri }] }), {
    complete: { name: (value, { arguments: chosen }) => items(Number(chosen.count ?? 0)).filter((i) => i.startsWith(value)) },
  });
  return { server, seen };
}

describe("features: completion", () => {
  let servers: McpServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.map((server) => server.close()));
    servers = [];
  });
  const make = (revisions?: string[]) => {
    const made = completionServer(revisions);
    servers.push(made.server);
    return made;
  };

  for (const revision of SESSION_ERA) {
    it(`${revision} through the SDK: prompt arguments complete through their completers, which see the other arguments; the prompt takes the value`, async () => {
      const { server, seen } = make([revision]);
      const { client } = await connectSdk(server);
      expect(client.getServerCapabilities()?.completions).to.deep.equal({});
      const result = await client.complete({
        ref: { type: "ref/prompt", name: "paint" },
        argument: { name: "color", value: "b" },
        context: { arguments: { finish: "matte" } },
      });
      expect(result.completion).to.deep.equal({ values: ["blue", "black", "brown"], total: 3, hasMore: false });
      expect(seen).to.deep.equal([{ value: "b", arguments: { finish: "matte" }, revision }]);
      const finish = await client.complete({ ref: { type: "ref/prompt", name: "paint" }, argument: { name: "finish", value: "" } });
      expect(finish.completion).to.deep.equal({ values: ["matte", "gloss"], total: 2, hasMore: false });
      const prompt = await client.getPrompt({ name: "paint", arguments: { color: result.completion.values[0]! } });
      expect(prompt.messages).to.deep.equal([{ role: "user", content: { type: "text", text: "paint it blue" } }]);
      await client.close();
    });
  }

  it("2025-11-25 through the SDK: template variables complete; 250 candidates give 100 values, total 250, hasMore", async () => {
    const { server } = make(["2025-11-25"]);
    const { client } = await connectSdk(server);
    const ref = { type: "ref/resource" as const, uri: "items://{count}/{name}" };
    const cases: [count: number, value: string, expected: Json][] = [
      [250, "", { values: items(100), total: 250, hasMore: true }],
      [250, "item-2", { values: items(250).slice(200, 250), total: 50, hasMore: false }],
      [101, "", { values: items(100), total: 101, hasMore: true }],
      [100, "", { values: items(100), total: 100, hasMore: false }],
      [99, "", { values: items(99), total: 99, hasMore: false }],
      [0, "", { values: [], total: 0, hasMore: false }],
    ];
    for (const [count, value, expected] of cases) {
      const result = await client.complete({ ref, argument: { name: "name", value }, context: { arguments: { count: String(count) } } });
      expect(result.completion, `${count} candidates, prefix ${JSON.stringify(value)}`).to.deep.equal(expected);
    }
    await client.close();
  });

  it("2025-11-25 through the SDK: an argument without a completer completes to nothing; an unknown prompt or template is -32602", async () => {
    const { server } = make(["2025-11-25"]);
    const { client } = await connectSdk(server);
    const none = await client.complete({ ref: { type: "ref/prompt", name: "paint" }, argument: { name: "surface", value: "w" } });
    expect(none.completion).to.deep.equal({ values: [], total: 0, hasMore: false });
    const noSuchArgument = await client.complete({ ref: { type: "ref/prompt", name: "paint" }, argument: { name: "constructor", value: "" } });
    expect(noSuchArgument.completion.values).to.deep.equal([]);
    for (const ref of [
      { type: "ref/prompt" as const, name: "nope" },
      { type: "ref/resource" as const, uri: "items://{nope}" },
    ]) {
      const error = await rejectionOf(client.complete({ ref, argument: { name: "x", value: "" } }));
      expect(error.code, JSON.stringify(ref)).to.equal(-32602);
    }
    await client.close();
  });

  it("2025-11-25 through the SDK: without any completer the capability is absent and completion/complete is -32601", async () => {
    const server = createServer({ name: "no-completion", version: "1.0.0", logger: quiet, revisions: ["2025-11-25"] });
    servers.push(server);
    server.prompt({ name: "plain", arguments: [{ name: "x" }] }, () => ({ messages: [] }));
    server.resourceTemplate({ uriTemplate: "plain://{x}", name: "plain" }, (uri) => ({ contents: [{ uri, text: "" }] }));
    const { client } = await connectSdk(server);
    expect(client.getServerCapabilities()).to.not.have.property("completions");
    for (const ref of [
      { type: "ref/prompt" as const, name: "plain" },
      { type: "ref/resource" as const, uri: "plain://{x}" },
    ]) {
      const error = await rejectionOf(client.complete({ ref, argument: { name: "x", value: "" } }));
      expect(error.code).to.equal(-32601);
    }
    await client.close();
  });

  it("2026-07-28 raw: completion/complete answers a valid CompleteResult, capped at 100, and discover declares completions", async () => {
    const { server, seen } = make();
    const peer = new RawPeer(server);
    const discovered = await peer.stateless("server/discover");
    expect(discovered.result.capabilities.completions).to.deep.equal({});
    const response = await peer.stateless("completion/complete", {
      ref: { type: "ref/resource", uri: "items://{count}/{name}" },
      argument: { name: "name", value: "item" },
      context: { arguments: { count: "150" } },
    });
    expectStateless("CompleteResult", response.result);
    expect(response.result.completion).to.deep.equal({ values: items(100), total: 150, hasMore: true });
    expect(response.result.resultType).to.equal("complete");
    const prompt = await peer.stateless("completion/complete", { ref: { type: "ref/prompt", name: "paint" }, argument: { name: "color", value: "g" } });
    expect(prompt.result.completion.values).to.deep.equal(["green"]);
    expect(seen.map((s) => s.revision)).to.deep.equal(["2026-07-28"]);
    await peer.close();
  });

  it("2026-07-28 raw: without any completer completion/complete is -32601", async () => {
    const server = createServer({ name: "no-completion", version: "1.0.0", logger: quiet });
    servers.push(server);
    server.prompt({ name: "plain" }, () => ({ messages: [] }));
    const peer = new RawPeer(server);
    const discovered = await peer.stateless("server/discover");
    expect(discovered.result.capabilities).to.not.have.property("completions");
    const response = await peer.stateless("completion/complete", { ref: { type: "ref/prompt", name: "plain" }, argument: { name: "x", value: "" } });
    expect(response.error?.code).to.equal(-32601);
    await peer.close();
  });
});
