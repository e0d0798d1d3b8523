// Scale-out, stateless era (issue 13): three server processes behind a round-robin proxy with no
// affinity, sharing only a secret and a Redis nonce store. Every request lands on the next
// instance, so a cursor, a requestState and its retry each cross instances; a replayed
// requestState is refused on whichever instance it reaches.
import { expect } from "chai";
import { McpClient, type Receiver, type Transport } from "../../../runtime/index.js";
import { HttpClientTransport } from "../../../runtime/http.js";
import { startProxy, type RoundRobinProxy } from "../../support/round-robin-proxy.js";
import { startRedis, type RedisServer } from "../../support/redis-server.js";
import { startInstance, type Instance } from "../../support/scale-out.js";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A transport that records what the client sends and can send a message of the test's own, whose response it keeps. */
class Tap implements Transport {
  readonly sent: Json[] = [];
  private receiver!: Receiver;
  private readonly waiting = new Map<string, (message: Json) => void>();
  constructor(private readonly inner: Transport) {}
  start(receiver: Receiver): void {
    this.receiver = receiver;
    this.inner.start({
      ...receiver,
      message: (message) => {
        const id = (message as Json).id;
        const waiter = typeof id === "string" ? this.waiting.get(id) : undefined;
        if (waiter) return waiter(message as Json);
        this.receiver.message(message);
      },
    });
  }
  send(message: unknown, options?: Parameters<Transport["send"]>[1]): Promise<void> {
    this.sent.push(message as Json);
    return this.inner.send(message, options);
  }
  close(): Promise<void> {
    return this.inner.close();
  }
  /** Sends `message` under the test's own id and resolves with its response. */
  async exchange(message: Json, id: string): Promise<Json> {
    const response = new Promise<Json>((resolve) => this.waiting.set(id, resolve));
    await this.inner.send({ ...message, id });
    return response;
  }
}

describe("scale-out, stateless era: three instances behind a round-robin proxy", function () {
  this.timeout(120_000);
  let redis: RedisServer;
  let instances: Instance[] = [];
  let proxy: RoundRobinProxy;
  let client: McpClient;
  let tap: Tap;

  before(async function () {
    redis = await startRedis();
    instances = await Promise.all([0, 1, 2].map(() => startInstance({ MCP_SECRET: "one secret for the service", REDIS_URL: redis.url })));
    proxy = await startProxy(instances.map((instance) => instance.url));
    tap = new Tap(new HttpClientTransport(proxy.url));
    client = await McpClient.connect(tap, {
      name: "scale-out-test",
      version: "1.0.0",
      revision: "2026-07-28",
      requestTimeoutMs: 30_000,
      handlers: { elicitation: () => ({ action: "accept", content: { name: "Ada" } }) },
    });
  });
  after(async function () {
    await client?.close();
    await proxy?.close();
    await Promise.all(instances.map((instance) => instance.stop()));
    await redis?.stop();
  });

  const toolJson = (result: { content?: unknown }) => JSON.parse((result.content as { text: string }[])[0]!.text);

  it("spreads requests over all three instances, with no affinity", async function () {
    const pids = [];
    for (let i = 0; i < 3; i++) pids.push(toolJson(await client.callTool("whoami")).pid);
    expect(new Set(pids).size).to.equal(3);
    expect(pids.sort()).to.deep.equal(instances.map((instance) => instance.pid).sort());
  });

  it("walks every page of tools/list, each page served by another instance", async function () {
    const names: string[] = [];
    const before = [...proxy.counts];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const listed = await client.listTools(cursor);
      names.push(...listed.items.map((tool) => tool.name));
      cursor = listed.nextCursor;
      if (cursor === undefined) break;
    }
    expect(names).to.deep.equal(["whoami", "ask", "touch", "tool-0", "tool-1", "tool-2", "tool-3", "tool-4"]);
    const served = proxy.counts.map((count, i) => count - before[i]!);
    expect(served.sort(), "4 pages, one request each, round robin over 3 instances").to.deep.equal([1, 1, 2]);
  });

  it("answers a multi-round-trip call whose retry lands on another instance, and refuses its requestState replayed on a third", async function () {
    const result = toolJson(await client.callTool("ask"));
    expect(result.answer).to.deep.equal({ action: "accept", content: { name: "Ada" } });
    const retry = tap.sent.filter((message) => message.method === "tools/call" && message.params?.requestState).at(-1)!;
    expect(retry, "the client retried with a requestState").to.not.equal(undefined);
    const replayed = await tap.exchange(retry, "replay-1");
    expect(replayed.error?.code).to.equal(-32602);
    expect(replayed.error?.message).to.equal("Invalid params: requestState was already used");
    const again = await tap.exchange(retry, "replay-2");
    expect(again.error?.message, "on the next instance too").to.equal("Invalid params: requestState was already used");
  });
});
