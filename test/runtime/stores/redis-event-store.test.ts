// Events in Redis Streams (issue 13): resumable from any instance, owned by one session, bounded
// by bytes and by age, with a resumption from before an evicted event reported as truncated.
// Against a real redis-server started for this file; two connections stand for two instances.
import { expect } from "chai";
import { connectRedis, type RedisConnection } from "../../../runtime/stores/redis-connection.js";
import { RedisEventStore } from "../../../runtime/stores/redis-event-store.js";
import { startRedis, type RedisServer } from "../../support/redis-server.js";

describe("stores: RedisEventStore", () => {
  let redis: RedisServer;
  let one: RedisConnection;
  let two: RedisConnection;
  let n = 0;
  /** A fresh key prefix per test, so tests share the server and nothing else. */
  const prefix = () => `t${++n}:`;

  before(async () => {
    redis = await startRedis();
    [one, two] = [await connectRedis(redis.url), await connectRedis(redis.url)];
  });
  after(async () => {
    await one?.close();
    await two?.close();
    await redis?.stop();
  });

  const redisNowMs = async () => {
    const [seconds, micros] = (await one.commands.sendCommand(["TIME"])) as [string, string];
    return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
  };

  it("replays a stream's events in order on another instance, from the priming id or from any event", async () => {
    const p = prefix();
    const [a, b] = [new RedisEventStore(one.commands, { prefix: p }), new RedisEventStore(two.commands, { prefix: p })];
    const ids = [];
    for (const data of ["e1", "e2", "e3"]) ids.push(await a.append("session-1", "stream-1", data));
    expect(new Set(ids).size).to.equal(3);
    const all = await b.replayAfter("session-1", b.primingId("stream-1"));
    expect(all).to.deep.equal({ streamId: "stream-1", truncated: false, events: ids.map((id, i) => ({ id, data: `e${i + 1}` })) });
    const rest = await b.replayAfter("session-1", ids[0]!);
    expect(rest!.events.map((event) => event.data)).to.deep.equal(["e2", "e3"]);
    expect((await b.replayAfter("session-1", ids[2]!))!.events).to.deep.equal([]);
  });

  it("keeps a stream to its owner: another session neither replays it nor appends to it", async () => {
    const store = new RedisEventStore(one.commands, { prefix: prefix() });
    const id = await store.append("owner", "s", "secret event");
    expect(await store.replayAfter("intruder", id)).to.equal(undefined);
    expect(await store.replayAfter("intruder", store.primingId("s"))).to.equal(undefined);
    let refused: Error | undefined;
    await store.append("intruder", "s", "x").catch((error: Error) => (refused = error));
    expect(refused?.message).to.equal("the stream s belongs to another session");
    expect((await store.replayAfter("owner", store.primingId("s")))!.events.map((event) => event.data)).to.deep.equal(["secret event"]);
  });

  it("answers undefined for an unknown, malformed or future id", async () => {
    const store = new RedisEventStore(one.commands, { prefix: prefix() });
    const id = await store.append("o", "s", "e");
    for (const bad of ["nope", "s_", "s_1", "_1-0", "other_1-0", `s_${Number(id.split("_")[1]!.split("-")[0]) + 1000}-0`])
      expect(await store.replayAfter("o", bad), bad).to.equal(undefined);
    expect(await store.replayAfter("o", "never-used_0-0"), "a priming id of a stream with no events yet").to.deep.equal({
      streamId: "never-used",
      events: [],
      truncated: false,
    });
  });

  it("bounds a stream in bytes: the oldest events go first, and a resumption from before them is truncated", async () => {
    const p = prefix();
    const store = new RedisEventStore(one.commands, { prefix: p, maxBytesPerStream: 100 });
    const ids = [];
    for (let i = 0; i < 10; i++) ids.push(await store.append("o", "s", String(i).repeat(30)));
    const kept = await store.replayAfter("o", store.primingId("s"));
    expect(kept!.events.map((event) => event.data[0])).to.deep.equal(["7", "8", "9"]);
    expect(kept!.truncated).to.equal(true);
    expect((await store.replayAfter("o", ids[2]!))!.truncated, "events 3..6 were evicted").to.equal(true);
    expect(await store.replayAfter("o", ids[6]!), "nothing after event 6 is missing").to.deep.equal({ streamId: "s", truncated: false, events: kept!.events });
    expect(Number(await one.commands.sendCommand(["GET", `${p}{s}:bytes`])), "the byte count matches what is kept").to.equal(90);
  });

  it("bounds a stream in age: an event older than maxAgeMs is left out of a replay and evicted by the next append", async () => {
    const p = prefix();
    const store = new RedisEventStore(one.commands, { prefix: p, maxAgeMs: 200 });
    const first = await store.append("o", "s", "old");
    const firstMs = Number(first.split("_")[1]!.split("-")[0]);
    // Waits on Redis's own clock (the one the scripts read) until the first event is past the bound.
    for (let i = 0; i < 1000 && (await redisNowMs()) <= firstMs + 200; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await redisNowMs()).to.be.greaterThan(firstMs + 200);
    expect(await store.replayAfter("o", store.primingId("s")), "too old to replay").to.deep.equal({ streamId: "s", events: [], truncated: true });
    const second = await store.append("o", "s", "new");
    const replay = await store.replayAfter("o", store.primingId("s"));
    expect(replay).to.deep.equal({ streamId: "s", events: [{ id: second, data: "new" }], truncated: true });
    expect(Number(await one.commands.sendCommand(["XLEN", `${p}{s}:events`])), "evicted from Redis, not only hidden").to.equal(1);
    expect(await store.replayAfter("o", first), "nothing after the old event is missing").to.deep.equal({ streamId: "s", events: replay!.events, truncated: false });
    for (const key of [`${p}{s}:events`, `${p}{s}:bytes`, `${p}{s}:owner`, `${p}{s}:evicted`, `${p}owner:o:streams`]) {
      const ttl = Number(await one.commands.sendCommand(["PTTL", key]));
      expect(ttl, `${key} expires`).to.be.within(1, 200 + 60_000);
    }
  });

  it("forgets every stream of an owner", async () => {
    const p = prefix();
    const store = new RedisEventStore(one.commands, { prefix: p });
    const id1 = await store.append("o", "s1", "a");
    await store.append("o", "s2", "b");
    await store.append("other", "s3", "c");
    await store.forget("o");
    expect(await store.replayAfter("o", id1)).to.equal(undefined);
    const left = (await one.commands.sendCommand(["KEYS", `${p}*`])) as string[];
    expect(left.sort()).to.deep.equal([`${p}owner:other:streams`, `${p}{s3}:bytes`, `${p}{s3}:events`, `${p}{s3}:owner`]);
  });
});
