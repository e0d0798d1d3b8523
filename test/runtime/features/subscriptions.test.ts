// List changes and subscriptions (issue 5). Session era, through the official SDK client:
// notifications/{tools,prompts,resources}/list_changed when a tool, prompt, resource or template
// is added or removed (and on server.notify*Changed()), only where listChanged was declared;
// resources/subscribe + unsubscribe, and notifications/resources/updated only to subscribers.
// Stateless era, raw and through McpClient: subscriptions/listen is acknowledged first with the
// honoured filter, delivers only the requested types, tags every message with its
// subscriptionId, and ends without a response when cancelled, with a result when the server closes.
import {
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { expect } from "chai";
import { createMemoryPair, createServer, McpClient, type McpServer } from "../../../runtime/index.js";
import {
  bounded,
  connectSdk,
  expectStateless,
  initializeRaw,
  quiet,
  RawPeer,
  SESSION_ERA,
  STATELESS,
  statelessMeta,
  turn,
  type Json,
  type SdkConnection,
} from "../../support/features-server.js";

const noop = () => ({ content: [] });
const read = (uri: string) => ({ contents: [{ uri, text: uri }] });
const SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

/** A server with one of each (tool t0, prompt p0, resource res://a and res://b, template tpl://{x}), unless told `empty`. */
function subscriptionServer(options: { revisions?: string[]; empty?: boolean; only?: "tools" } = {}) {
  const server = createServer({ name: "subscriptions", version: "1.0.0", logger: quiet, ...(options.revisions ? { revisions: options.revisions } : {}) });
  if (options.empty) return server;
  server.tool({ name: "t0", inputSchema: { type: "object" } }, noop);
  if (options.only === "tools") return server;
  server.prompt({ name: "p0" }, () => ({ messages: [] }));
  server.resource({ uri: "res://a", name: "a" }, read);
  server.resource({ uri: "res://b", name: "b" }, read);
  server.resourceTemplate({ uriTemplate: "tpl://{x}", name: "tpl" }, read);
  return server;
}

/** Which list_changed and updated notifications an SDK client heard, in order. */
function heard(client: Client): string[] {
  const log: string[] = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => void log.push("tools"));
  client.setNotificationHandler(PromptListChangedNotificationSchema, () => void log.push("prompts"));
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void log.push("resources"));
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void log.push(`updated ${n.params.uri}`));
  return log;
}

async function sdkWithLog(server: McpServer): Promise<SdkConnection & { log: string[] }> {
  let log: string[] = [];
  const connection = await connectSdk(server, {}, (client) => (log = heard(client)));
  return { ...connection, log };
}

/** Everything sent so far reaches the client: a round trip after a turn. */
async function settle(...clients: Client[]): Promise<void> {
  await turn();
  await Promise.all(clients.map((client) => client.ping()));
}

describe("features: subscriptions and list changes", () => {
  let servers: McpServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.map((server) => server.close()));
    servers = [];
  });
  const make = (options: Parameters<typeof subscriptionServer>[0] = {}) => {
    const server = subscriptionServer(options);
    servers.push(server);
    return server;
  };

  it("removing the last tool, prompt and resource: the lists answer empty, as the capability promised, not -32601; a server that never had them still refuses", async () => {
    const server = createServer({ name: "emptied", version: "1.0.0", logger: quiet });
    server.tool({ name: "only", inputSchema: { type: "object" } }, noop);
    server.prompt({ name: "p" }, () => ({ messages: [] }));
    server.resource({ uri: "res://only", name: "only" }, read);
    const [serverEnd, clientEnd] = createMemoryPair();
    server.connect(serverEnd);
    const client = await McpClient.connect(clientEnd, { name: "c", version: "1", revision: "2025-11-25", logger: quiet });
    try {
      expect(server.removeTool("only") && server.removePrompt("p") && server.removeResource("res://only")).to.equal(true);
      expect((await client.listTools()).items).to.deep.equal([]);
      expect((await client.request("prompts/list", {})).prompts).to.deep.equal([]);
      expect((await client.request("resources/list", {})).resources).to.deep.equal([]);
    } finally {
      await client.close();
    }
    const bare = createServer({ name: "bare", version: "1.0.0", logger: quiet });
    const [bareEnd, bareClient] = createMemoryPair();
    bare.connect(bareEnd);
    const other = await McpClient.connect(bareClient, { name: "c", version: "1", revision: "2025-11-25", logger: quiet });
    try {
      const refused = await other.request("tools/list", {}).then(
        () => undefined,
        (error: { code?: number }) => error.code,
      );
      expect(refused).to.equal(-32601);
    } finally {
      await other.close();
    }
  });

  for (const revision of SESSION_ERA) {
    it(`${revision} through the SDK: adding or removing a tool, prompt, resource or template sends that list's list_changed`, async () => {
      const server = make({ revisions: [revision] });
      const { client, log } = await sdkWithLog(server);
      expect(client.getServerCapabilities()).to.deep.include({
        tools: { listChanged: true },
        prompts: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
      });
      server.tool({ name: "t1", inputSchema: { type: "object" } }, noop);
      server.prompt({ name: "p1" }, () => ({ messages: [] }));
      server.resource({ uri: "res://c", name: "c" }, read);
      server.resourceTemplate({ uriTemplate: "tpl2://{y}", name: "tpl2" }, read);
      await settle(client);
      expect(log).to.deep.equal(["tools", "prompts", "resources", "resources"]);
      log.length = 0;
      expect(server.removeTool("t1")).to.equal(true);
      expect(server.removePrompt("p1")).to.equal(true);
      expect(server.removeResource("res://c")).to.equal(true);
      expect(server.removeResource("tpl2://{y}")).to.equal(true);
      expect(server.removeTool("never-there"), "removing nothing changes nothing").to.equal(false);
      await settle(client);
      expect(log).to.deep.equal(["tools", "prompts", "resources", "resources"]);
      log.length = 0;
      server.notifyToolsChanged();
      server.notifyPromptsChanged();
      server.notifyResourcesChanged();
      await settle(client);
      expect(log).to.deep.equal(["tools", "prompts", "resources"]);
      expect((await client.listTools()).tools.map((t) => t.name)).to.deep.equal(["t0"]);
      await client.close();
    });
  }

  for (const revision of SESSION_ERA)
    it(`${revision} through the SDK: resources/updated goes only to the sessions subscribed to that URI, until they unsubscribe; the subscriber reads it`, async () => {
      const server = make({ revisions: [revision] });
      const a = await sdkWithLog(server);
      const b = await sdkWithLog(server);
      expect(await a.client.subscribeResource({ uri: "res://a" })).to.deep.equal({});
      await b.client.subscribeResource({ uri: "res://b" });
      await b.client.subscribeResource({ uri: "tpl://7" });
      server.notifyResourceUpdated("res://a");
      server.notifyResourceUpdated("res://b");
      server.notifyResourceUpdated("tpl://7");
      server.notifyResourceUpdated("res://nobody");
      await settle(a.client, b.client);
      expect(a.log).to.deep.equal(["updated res://a"]);
      expect(b.log).to.deep.equal(["updated res://b", "updated tpl://7"]);
      expect((await a.client.readResource({ uri: "res://a" })).contents).to.deep.equal([{ uri: "res://a", text: "res://a" }]);
      expect((await b.client.readResource({ uri: "tpl://7" })).contents).to.deep.equal([{ uri: "tpl://7", text: "tpl://7" }]);

      expect(await a.client.unsubscribeResource({ uri: "res://a" })).to.deep.equal({});
      server.notifyResourceUpdated("res://a");
      server.notifyResourceUpdated("res://b");
      await settle(a.client, b.client);
      expect(a.log).to.deep.equal(["updated res://a"]);
      expect(b.log).to.deep.equal(["updated res://b", "updated tpl://7", "updated res://b"]);
      const updates = a.tap.notifications("notifications/resources/updated").concat(b.tap.notifications("notifications/resources/updated"));
      for (const entry of updates) expect(Object.keys(entry.message.params)).to.deep.equal(["uri"]);
      await Promise.all([a.close(), b.close()]);
    });

  it("2025-11-25 raw: list_changed only for the lists whose listChanged this session was told at initialize", async () => {
    const server = make({ revisions: ["2025-11-25"], only: "tools" });
    const peer = new RawPeer(server);
    const result = await initializeRaw(peer, "2025-11-25");
    expect(result.capabilities).to.deep.equal({ logging: {}, tools: { listChanged: true } });
    server.prompt({ name: "p-late" }, () => ({ messages: [] }));
    server.resource({ uri: "res://late", name: "late" }, read);
    server.tool({ name: "t-late", inputSchema: { type: "object" } }, noop);
    await turn();
    await peer.request("ping", {});
    expect(peer.received.filter((m) => m.method).map((m) => m.method)).to.deep.equal(["notifications/tools/list_changed"]);
    await peer.close();
  });

  it("2025-11-25 raw: a connection that has not initialized hears no list changes", async () => {
    const server = make({ revisions: ["2025-11-25"] });
    const peer = new RawPeer(server);
    server.notifyToolsChanged();
    server.tool({ name: "t9", inputSchema: { type: "object" } }, noop);
    await turn();
    const pong = await peer.request("ping", {});
    expect(pong.result).to.deep.equal({});
    expect(peer.received.map((m) => m.method ?? "response")).to.deep.equal(["response"]);
    await peer.close();
  });

  it("2026-07-28 raw: subscriptions/listen is acknowledged first with the honoured filter, then delivers only what was asked, each tagged with the subscriptionId", async () => {
    const server = make({ only: "tools" }); // no prompts, no resources
    const peer = new RawPeer(server);
    await peer.send({
      jsonrpc: "2.0",
      id: "sub-1",
      method: "subscriptions/listen",
      params: { _meta: statelessMeta(), notifications: { toolsListChanged: true, promptsListChanged: true, resourceSubscriptions: ["res://a"] } },
    });
    const ack = await peer.until(() => peer.notifications("notifications/subscriptions/acknowledged")[0], "the acknowledgement");
    expectStateless("SubscriptionsAcknowledgedNotification", ack);
    expect(ack.params).to.deep.equal({ notifications: { toolsListChanged: true }, _meta: { [SUBSCRIPTION_ID]: "sub-1" } });
    expect(peer.received[0], "the acknowledgement is the first message").to.equal(ack);

    server.prompt({ name: "p-new" }, () => ({ messages: [] })); // offered now, but not honoured on this stream
    server.resource({ uri: "res://a", name: "a" }, read);
    server.notifyResourceUpdated("res://a");
    server.tool({ name: "t-new", inputSchema: { type: "object" } }, noop);
    server.removeTool("t-new");
    await turn();
    await peer.stateless("server/discover", {}, {}, "d-1");
    const stream = peer.received.filter((m) => m.method !== undefined);
    expect(stream.map((m) => m.method)).to.deep.equal([
      "notifications/subscriptions/acknowledged",
      "notifications/tools/list_changed",
      "notifications/tools/list_changed",
    ]);
    for (const message of stream) expect(message.params._meta[SUBSCRIPTION_ID]).to.equal("sub-1");
    for (const entry of peer.tap.sent().filter((e) => e.message.method !== undefined)) expect(entry.relatedRequestId, entry.message.method).to.equal("sub-1");
    expectStateless("ToolListChangedNotification", stream[1]);
    expect(peer.responses("sub-1"), "the stream stays open").to.deep.equal([]);
    await peer.close();
  });

  it("2026-07-28 raw: resource subscriptions and list changes on two streams go each to the stream that asked", async () => {
    const server = make();
    const peer = new RawPeer(server);
    const listen = (id: string, notifications: Json) =>
      peer.send({ jsonrpc: "2.0", id, method: "subscriptions/listen", params: { _meta: statelessMeta(), notifications } });
    await listen("s-res", { resourceSubscriptions: ["res://a", "tpl://1"], resourcesListChanged: true });
    await listen("s-prompts", { promptsListChanged: true });
    await peer.until(() => (peer.notifications("notifications/subscriptions/acknowledged").length === 2 ? true : undefined), "both acknowledgements");
    const acks = peer.notifications("notifications/subscriptions/acknowledged");
    expect(acks.map((a) => [a.params._meta[SUBSCRIPTION_ID], a.params.notifications])).to.deep.equal([
      ["s-res", { resourcesListChanged: true, resourceSubscriptions: ["res://a", "tpl://1"] }],
      ["s-prompts", { promptsListChanged: true }],
    ]);
    server.notifyResourceUpdated("res://a");
    server.notifyResourceUpdated("res://b");
    server.notifyResourceUpdated("tpl://1");
    server.notifyPromptsChanged();
    server.notifyToolsChanged();
    server.notifyResourcesChanged();
    await turn();
    await peer.stateless("server/discover");
    const after = peer.received.filter((m) => m.method !== undefined && m.method !== "notifications/subscriptions/acknowledged");
    expect(after.map((m) => `${m.params._meta[SUBSCRIPTION_ID]} ${m.method} ${m.params.uri ?? ""}`.trim())).to.deep.equal([
      "s-res notifications/resources/updated res://a",
      "s-res notifications/resources/updated tpl://1",
      "s-prompts notifications/prompts/list_changed",
      "s-res notifications/resources/list_changed",
    ]);
    for (const message of after)
      expectStateless(
        message.method === "notifications/resources/updated"
          ? "ResourceUpdatedNotification"
          : message.method === "notifications/prompts/list_changed"
            ? "PromptListChangedNotification"
            : "ResourceListChangedNotification",
        message,
      );
    await peer.close();
  });

  it("2026-07-28 raw: cancelling a stream ends it without a response; a stateless client that is not listening hears nothing", async () => {
    const server = make();
    const peer = new RawPeer(server);
    await peer.send({ jsonrpc: "2.0", id: 1, method: "subscriptions/listen", params: { _meta: statelessMeta(), notifications: { toolsListChanged: true } } });
    await peer.until(() => peer.notifications("notifications/subscriptions/acknowledged")[0], "the acknowledgement");
    server.notifyToolsChanged();
    await peer.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, reason: "done listening" } });
    await turn();
    server.notifyToolsChanged();
    server.tool({ name: "t-more", inputSchema: { type: "object" } }, noop);
    await turn();
    await peer.stateless("tools/list", {}, {}, "after");
    expect(peer.notifications("notifications/tools/list_changed")).to.have.length(1);
    expect(peer.responses(1)).to.deep.equal([]);

    const bystander = new RawPeer(server);
    await bystander.stateless("tools/list");
    server.notifyToolsChanged();
    server.notifyResourceUpdated("res://a");
    await turn();
    await bystander.stateless("server/discover");
    expect(bystander.received.filter((m) => m.method !== undefined)).to.deep.equal([]);
    await Promise.all([peer.close(), bystander.close()]);
  });

  it("2026-07-28 raw: closing the server ends every open stream with a SubscriptionsListenResult carrying its subscriptionId", async () => {
    const server = subscriptionServer();
    const peer = new RawPeer(server);
    await peer.send({
      jsonrpc: "2.0",
      id: "s-1",
      method: "subscriptions/listen",
      params: { _meta: statelessMeta(), notifications: { toolsListChanged: true } },
    });
    await peer.until(() => peer.notifications("notifications/subscriptions/acknowledged")[0], "the acknowledgement");
    await server.close();
    const response = await peer.response("s-1");
    expectStateless("SubscriptionsListenResult", response.result);
    expect(response.result._meta[SUBSCRIPTION_ID]).to.equal("s-1");
    await peer.close();
  });

  it("2026-07-28 through McpClient: listen() resolves the acknowledgement and its listeners hear the changes; close() ends the stream", async () => {
    const server = make();
    const [serverEnd, clientEnd] = createMemoryPair();
    server.connect(serverEnd);
    const client = await McpClient.connect(clientEnd, { name: "ours", version: "1.0.0", revision: STATELESS, logger: quiet });
    const changes: Json[] = [];
    client.on("notifications/tools/list_changed", (params) => changes.push(params));
    const subscription = client.listen({ toolsListChanged: true, resourceSubscriptions: ["res://b"] });
    expect(await bounded(subscription.acknowledged, "the acknowledgement")).to.deep.equal({ toolsListChanged: true, resourceSubscriptions: ["res://b"] });
    server.notifyToolsChanged();
    await turn();
    await client.request("server/discover");
    expect(changes).to.have.length(1);
    expect(changes[0]._meta[SUBSCRIPTION_ID]).to.be.a("number");
    subscription.close();
    await turn();
    server.notifyToolsChanged();
    await turn();
    await client.request("server/discover");
    expect(changes).to.have.length(1);
    await client.close();
  });

  it("2026-07-28 through McpClient: two listen() streams each resolve with their own acknowledgement", async () => {
    const server = make();
    const [serverEnd, clientEnd] = createMemoryPair();
    server.connect(serverEnd);
    const client = await McpClient.connect(clientEnd, { name: "ours", version: "1.0.0", revision: STATELESS, logger: quiet });
    const tools = client.listen({ toolsListChanged: true });
    const resources = client.listen({ resourceSubscriptions: ["res://b"] });
    expect(await bounded(tools.acknowledged, "the first acknowledgement")).to.deep.equal({ toolsListChanged: true });
    expect(await bounded(resources.acknowledged, "the second acknowledgement")).to.deep.equal({ resourceSubscriptions: ["res://b"] });
    tools.close();
    resources.close();
    await client.close();
  });
});
