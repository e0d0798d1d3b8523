import { expect } from "chai";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { InMemoryEventStore } from "../../../../runtime/transports/http/event-store.js";
import { openSession, post, sessionHeaders, startServer } from "./support.js";

describe("transports/http/event-store", () => {
  it("replays the events after an id, on that stream only", () => {
    const store = new InMemoryEventStore(100);
    const a1 = store.append("s1", "a", "1");
    store.append("s1", "b", "x");
    const a2 = store.append("s1", "a", "2");
    const a3 = store.append("s1", "a", "3");
    expect(store.replayAfter("s1", a1)).to.deep.equal({ streamId: "a", events: [{ id: a2, data: "2" }, { id: a3, data: "3" }], truncated: false });
    expect(store.replayAfter("s1", store.primingId("a"))?.events.map((e) => e.data)).to.deep.equal(["1", "2", "3"]);
    expect(store.replayAfter("s1", a3)?.events).to.deep.equal([]);
  });

  it("never replays another owner's stream, and refuses ids it never issued", () => {
    const store = new InMemoryEventStore(100);
    const id = store.append("s1", "a", "secret");
    expect(store.replayAfter("s2", store.primingId("a"))).to.equal(undefined);
    expect(store.replayAfter("s2", id)).to.equal(undefined);
    expect(store.replayAfter("s1", "a_99")).to.equal(undefined);
    expect(store.replayAfter("s1", "garbage")).to.equal(undefined);
    expect(store.replayAfter("s1", "a_1e3")).to.equal(undefined);
  });

  it("is bounded: the oldest events go first, across streams", () => {
    const store = new InMemoryEventStore(3);
    const first = store.append("s", "a", "1");
    store.append("s", "b", "2");
    store.append("s", "a", "3");
    store.append("s", "b", "4");
    expect(store.eventCount).to.equal(3);
    // "1" is gone: a replay from before it has a gap, and says so; from "1" on, it has none.
    expect(store.replayAfter("s", store.primingId("a"))).to.deep.equal({ streamId: "a", events: [{ id: "a_2", data: "3" }], truncated: true });
    expect(store.replayAfter("s", first)).to.deep.equal({ streamId: "a", events: [{ id: "a_2", data: "3" }], truncated: false });
    for (let i = 0; i < 5000; i++) store.append("s", "c", String(i));
    expect(store.eventCount).to.equal(3);
    expect(store.replayAfter("s", "c_4997")).to.deep.equal({ streamId: "c", events: [{ id: "c_4998", data: "4997" }, { id: "c_4999", data: "4998" }, { id: "c_5000", data: "4999" }], truncated: false });
    expect(store.replayAfter("s", store.primingId("c"))?.truncated).to.equal(true);
  });

  it("is bounded in bytes per session and in all, the session over its share losing its own oldest first", () => {
    const store = new InMemoryEventStore({ maxBytesPerSession: 10, maxBytes: 25 });
    const kb = (n: number) => "x".repeat(n);
    store.append("quiet", "q", kb(4));
    for (let i = 0; i < 5; i++) store.append("noisy", "n", kb(4));
    expect(store.replayAfter("noisy", store.primingId("n"))?.events).to.have.length(2);
    expect(store.replayAfter("quiet", store.primingId("q"))?.events, "another session keeps its events").to.have.length(1);
    expect(store.byteCount).to.equal(12);
    store.append("third", "t", kb(8));
    store.append("fourth", "f", kb(8));
    expect(store.byteCount).to.be.at.most(25);
    expect(store.replayAfter("quiet", store.primingId("q"))?.truncated, "the oldest event overall went first").to.equal(true);
  });

  it("holds in memory no more than its bounds: events dropped for a session's share or forgotten are released", () => {
    // Found by bench/memory-abuse.ts: the byte count kept its bound while dropped events stayed
    // referenced behind the oldest live one, so answers nobody resumed stayed in the heap.
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const MiB = 2 ** 20;
    const store = new InMemoryEventStore({ maxBytesPerSession: MiB, maxBytes: 64 * MiB });
    gc();
    const before = process.memoryUsage().heapUsed;
    // A quiet session's one event stays oldest; 16 sessions then each send 12 MiB against a 1 MiB share.
    store.append("quiet", "q", "hello");
    for (let i = 0; i < 48; i++) for (let s = 0; s < 16; s++) store.append(`s${s}`, `stream${s}`, Buffer.alloc(MiB / 4, 97 + (i % 26)).toString("latin1"));
    store.forget("s0");
    gc();
    const held = (process.memoryUsage().heapUsed - before) / MiB;
    expect(store.byteCount).to.equal(15 * MiB + "hello".length);
    expect(held, "MiB of heap held by the store (15 MiB kept)").to.be.below(40);
  });

  it("is bounded in age", () => {
    let now = 1_000;
    const store = new InMemoryEventStore({ maxAgeMs: 100 }, () => now);
    const old = store.append("s", "a", "old");
    now += 150;
    store.append("s", "a", "new");
    expect(store.eventCount).to.equal(1);
    expect(store.replayAfter("s", old)?.events.map((e) => e.data)).to.deep.equal(["new"]);
    now += 150;
    const replay = store.replayAfter("s", store.primingId("a"));
    expect(replay?.truncated).to.equal(true);
    expect(store.eventCount).to.equal(0);
  });

  it("forgets an owner's streams", () => {
    const store = new InMemoryEventStore(10);
    store.append("s1", "a", "1");
    store.append("s2", "b", "2");
    store.forget("s1");
    expect(store.eventCount).to.equal(1);
    expect(store.replayAfter("s2", store.primingId("b"))?.events).to.have.length(1);
  });
});

describe("transports/http: resuming after evicted events", () => {
  it("answers 410 Gone, naming the id, instead of replaying with a gap", async () => {
    const running = await startServer({ eventStore: new InMemoryEventStore({ maxEvents: 1 }) });
    try {
      const session = await openSession(running.url);
      const headers = sessionHeaders(session);
      // The progress tool sends two notifications and its response: an SSE answer of three events.
      const answer = await post(running.url, { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "progress", arguments: {}, _meta: { progressToken: "p" } } }, headers);
      const priming = answer.events[0]?.id;
      expect(priming, "a priming event id").to.be.a("string");
      expect(answer.messages).to.have.length(3);
      const resumed = await fetch(running.url, { headers: { ...headers, Accept: "text/event-stream", "Last-Event-ID": priming! }, signal: AbortSignal.timeout(10_000) });
      expect(resumed.status).to.equal(410);
      const body = (await resumed.json()) as { error: { code: number; message: string } };
      expect(body.error.code).to.equal(-32000);
      expect(body.error.message).to.contain(priming!);
    } finally {
      await running.close();
    }
  });
});
