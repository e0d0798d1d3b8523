// Sharing sessions between endpoints (runtime/transports/http/sessions.ts) without Redis: two
// endpoints of one process share a MemorySessionStore, one event store and a MemoryEventBus, behind
// a round-robin proxy with no affinity. The Redis scale-out runs in sessions.test.ts.
import { expect } from "chai";
import { CHANNELS, McpClient, MemoryEventBus, MemorySessionStore } from "../../../../runtime/index.js";
import { HttpClientTransport } from "../../../../runtime/http.js";
import { SharedSessions, sharedMemoryEvents } from "../../../../runtime/transports/http/sessions.js";
import { startProxy, type RoundRobinProxy } from "../../../support/round-robin-proxy.js";
import { LATEST_SESSION, startServer, until, type Running } from "./support.js";

describe("transports/http/sessions: two endpoints sharing sessions in memory", () => {
  const shared = { sessions: new MemorySessionStore(), events: sharedMemoryEvents(), bus: new MemoryEventBus() };
  let servers: Running[] = [];
  let proxy: RoundRobinProxy;

  before(async () => {
    servers = await Promise.all(
      ["a", "b"].map((name) =>
        startServer(shared, (server) => {
          server.tool({ name: "who", inputSchema: { type: "object" } }, () => ({ content: [{ type: "text", text: name }] }));
          server.tool({ name: "ask", inputSchema: { type: "object" } }, async (_args, ctx) => {
            const answer = await ctx.elicit({ message: "name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } });
            return { content: [{ type: "text", text: `${name}:${JSON.stringify(answer.content)}` }] };
          });
        }),
      ),
    );
    proxy = await startProxy(servers.map((server) => server.url));
  });
  after(async () => {
    await proxy?.close();
    await Promise.all(servers.map((server) => server.close()));
  });

  it("serves one session from both endpoints, and brings the client's answer to the endpoint that asked", async () => {
    let asked = 0;
    const client = await McpClient.connect(new HttpClientTransport(proxy.url), {
      name: "t",
      version: "1",
      revision: LATEST_SESSION,
      handlers: { elicitation: () => ({ action: "accept", content: { name: `n${++asked}` } }) },
    });
    try {
      const served = new Set<string>();
      for (let i = 0; i < 4; i++) served.add(((await client.callTool("who")).content as { text: string }[])[0]!.text);
      expect([...served].sort()).to.deep.equal(["a", "b"]);
      const answers: string[] = [];
      for (let i = 0; i < 4; i++) answers.push(((await client.callTool("ask")).content as { text: string }[])[0]!.text);
      // Each call's answer is a POST of its own, which the proxy sends to the other endpoint.
      expect(answers.map((answer) => answer.slice(2)).sort()).to.deep.equal(['{"name":"n1"}', '{"name":"n2"}', '{"name":"n3"}', '{"name":"n4"}']);
      expect(servers.every((server) => server.endpoint.sessionCount === 1), "a replica on each endpoint").to.equal(true);
    } finally {
      await client.close();
    }
  });
});

describe("transports/http/sessions: messages for the GET stream from both endpoints", () => {
  /** A bus whose every other publish takes 40 ms, as a busy Redis may. */
  class UnevenBus extends MemoryEventBus {
    private count = 0;
    override async publish(channel: string, message: unknown): Promise<number> {
      if (this.count++ % 2 === 0) await new Promise((resolve) => setTimeout(resolve, 40));
      return super.publish(channel, message);
    }
  }
  const shared = { sessions: new MemorySessionStore(), events: sharedMemoryEvents(), bus: new UnevenBus() };
  let servers: Running[] = [];
  let proxy: RoundRobinProxy;

  before(async () => {
    servers = await Promise.all(
      ["a", "b"].map(() =>
        startServer(shared, (server) =>
          server.tool({ name: "say", inputSchema: { type: "object", properties: { seq: { type: "number" } }, required: ["seq"] } }, async ({ seq }, ctx) => {
            await ctx.session.notify("notifications/message", { level: "info", data: { seq } });
            return { content: [] };
          }),
        ),
      ),
    );
    proxy = await startProxy(servers.map((server) => server.url));
  });
  after(async () => {
    await proxy?.close();
    await Promise.all(servers.map((server) => server.close()));
  });

  it("come in the order they were sent: a notify resolves once the endpoint holding the stream has it", async () => {
    const seen: number[] = [];
    const client = await McpClient.connect(new HttpClientTransport(proxy.url), { name: "t", version: "1", revision: LATEST_SESSION });
    try {
      client.on("notifications/message", (params) => void seen.push((params.data as { seq: number }).seq));
      for (let seq = 1; seq <= 6; seq++) await client.callTool("say", { seq });
      await until(() => seen.length === 6, "six messages on the GET stream");
      expect(seen).to.deep.equal([1, 2, 3, 4, 5, 6]);
    } finally {
      await client.close();
    }
  });
});

describe("transports/http/sessions: a change every instance must confirm", () => {
  /** Ends a session with `others` more instances listening, `silent` of which never confirm; the warnings logged. */
  async function endWith(others: number, silent: number): Promise<string[]> {
    const warnings: string[] = [];
    const bus = new MemoryEventBus();
    const options = { sessions: new MemorySessionStore(), events: sharedMemoryEvents(), bus };
    const logger = (level: string, text: string) => void (level === "warn" && warnings.push(text));
    const instances = Array.from({ length: 1 + others - silent }, () => new SharedSessions(options, 60_000, logger));
    await Promise.all(instances.map((instance) => instance.listen(() => {})));
    for (let k = 0; k < silent; k++) await bus.subscribe(CHANNELS.sessionChanged, () => {}); // an instance that is gone
    await instances[0]!.end("s1");
    return warnings;
  }

  it("is answered once every instance has confirmed, with nothing logged", async () => {
    expect(await endWith(2, 0)).to.deep.equal([]);
  });

  it("is answered after 2 s when one never confirms, with a warning that counts it", async () => {
    expect(await endWith(2, 1)).to.deep.equal(["session s1 changed: 1 instance(s) did not confirm within 2000 ms"]);
  });
});
