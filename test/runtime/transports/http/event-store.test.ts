import { expect } from "chai";
import { InMemoryEventStore } from "../../../../runtime/transports/http/event-store.js";

describe("transports/http/event-store", () => {
  it("replays the events after an id, on that stream only", () => {
    const store = new InMemoryEventStore(100);
    const a1 = store.append("s1", "a", "1");
    store.append("s1", "b", "x");
    const a2 = store.append("s1", "a", "2");
    const a3 = store.append("s1", "a", "3");
    expect(store.replayAfter("s1", a1)).to.deep.equal({ streamId: "a", events: [{ id: a2, data: "2" }, { id: a3, data: "3" }] });
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
    expect(store.replayAfter("s", store.primingId("a"))?.events.map((e) => e.data)).to.deep.equal(["3"]);
    expect(store.replayAfter("s", first)?.events.map((e) => e.data)).to.deep.equal(["3"]);
    for (let i = 0; i < 5000; i++) store.append("s", "c", String(i));
    expect(store.eventCount).to.equal(3);
    expect(store.replayAfter("s", store.primingId("c"))?.events.map((e) => e.data)).to.deep.equal(["4997", "4998", "4999"]);
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
