// The event bus and the relay on it (issue 13): notifications and server-to-client requests reach
// the instance holding a session's stream, and answers come back. The same tests in memory and on
// a real redis-server, where each instance has its own connections.
import { expect } from "chai";
import { CHANNELS, MemoryEventBus, type EventBus } from "../../../runtime/stores/event-bus.js";
import { connectRedis, type RedisConnection } from "../../../runtime/stores/redis-connection.js";
import { RedisEventBus } from "../../../runtime/stores/redis-event-bus.js";
import { startRedis, type RedisServer } from "../../support/redis-server.js";

/** Resolves with the first `count` messages `bus` delivers on `channel`. */
async function collect(bus: EventBus, channel: string, count: number): Promise<{ messages: Promise<unknown[]>; stop: () => Promise<void> }> {
  const messages: unknown[] = [];
  let done!: (value: unknown[]) => void;
  const all = new Promise<unknown[]>((resolve) => (done = resolve));
  const stop = await bus.subscribe(channel, (message) => {
    messages.push(message);
    if (messages.length === count) done(messages);
  });
  return { messages: all, stop };
}

describe("stores: event bus", () => {
  let redis: RedisServer;
  const connections: RedisConnection[] = [];
  let n = 0;
  before(async () => {
    redis = await startRedis();
  });
  after(async () => {
    await Promise.all(connections.map((connection) => connection.close()));
    await redis?.stop();
  });

  const logged: string[] = [];
  const logger = (_level: string, message: string) => logged.push(message);
  const contract = (name: string, make: () => Promise<[EventBus, EventBus]>) =>
    describe(name, () => {
      it("logs a listener that throws, and still delivers to the others", async () => {
        const [a, b] = await make();
        logged.length = 0;
        const stopThrowing = await a.subscribe("faulty", () => {
          throw new Error("listener bug");
        });
        const onB = await collect(b, "faulty", 1);
        await a.publish("faulty", { n: 1 });
        expect(await onB.messages).to.deep.equal([{ n: 1 }]);
        // Bounded in time, not in a count of polls: how long delivery takes depends on the machine's load.
        for (const deadline = Date.now() + 10_000; logged.length === 0 && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 5));
        expect(logged).to.have.length(1);
        expect(logged[0]).to.match(/^a listener of faulty failed: Error: listener bug/);
        await stopThrowing();
        await onB.stop();
      });

      it("delivers a message to every subscribed instance, the publisher's included, and says how many", async () => {
        const [a, b] = await make();
        const onA = await collect(a, CHANNELS.notifications, 1);
        const onB = await collect(b, CHANNELS.notifications, 1);
        const update = { method: "notifications/resources/updated", params: { uri: "file:///a" } };
        expect(await b.publish(CHANNELS.notifications, update)).to.equal(2);
        expect(await onA.messages).to.deep.equal([update]);
        expect(await onB.messages).to.deep.equal([update]);
        await onA.stop();
        await onB.stop();
        expect(await a.publish(CHANNELS.notifications, update), "nobody listens any more").to.equal(0);
      });
    });

  contract("MemoryEventBus", async () => {
    const bus = new MemoryEventBus(logger);
    return [bus, bus];
  });
  contract("RedisEventBus (one connection pair per instance)", async () => {
    const prefix = `t${++n}:`;
    const [one, two] = [await connectRedis(redis.url), await connectRedis(redis.url)];
    connections.push(one, two);
    return [new RedisEventBus(one, prefix, logger), new RedisEventBus(two, prefix, logger)];
  });
});
