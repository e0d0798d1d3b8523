import { expect } from "chai";
import { TransportClosedError } from "../../../runtime/transports/closed-error.js";
import { createMemoryPair } from "../../../runtime/transports/memory.js";
import type { Receiver } from "../../../runtime/jsonrpc/transport.js";
import { RecordingReceiver } from "./recording-receiver.js";

function startedPair() {
  const [a, b] = createMemoryPair();
  const atA = new RecordingReceiver();
  const atB = new RecordingReceiver();
  a.start(atA);
  b.start(atB);
  return { a, b, atA, atB };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  return expect.fail("expected a rejection");
}

describe("createMemoryPair", () => {
  it("delivers to the other end, in order, both ways", async () => {
    const { a, b, atA, atB } = startedPair();
    for (let id = 0; id < 100; id++) {
      void a.send({ id });
      void b.send({ id: -id });
    }
    await atB.until(() => atB.messages.length === 100);
    await atA.until(() => atA.messages.length === 100);
    expect(atB.messages).to.deep.equal(Array.from({ length: 100 }, (_, id) => ({ id })));
    expect(atA.messages).to.deep.equal(Array.from({ length: 100 }, (_, id) => ({ id: -id })));
  });

  it("passes the value itself, with no serialization", async () => {
    const { a, atB } = startedPair();
    const message = { jsonrpc: "2.0", id: 1, result: { big: new Array(1000).fill("x") } };
    await a.send(message);
    await atB.until(() => atB.messages.length === 1);
    expect(atB.messages[0]).to.equal(message);
  });

  it("never calls the receiver from inside send", async () => {
    const { a, atB } = startedPair();
    const sent = a.send({ id: 1 });
    expect(atB.messages).to.deep.equal([]);
    await sent;
    await atB.until(() => atB.messages.length === 1);
    expect(atB.messages).to.deep.equal([{ id: 1 }]);
  });

  it("queues a send made from inside a receiver after the message being delivered", async () => {
    const [a, b] = createMemoryPair();
    const order: string[] = [];
    const bReceiver: Receiver = {
      message(value) {
        order.push(`b got ${JSON.stringify(value)}`);
        if (value === "first") void a.send("second");
        order.push("b returned");
      },
      malformed() {},
      closed() {},
    };
    a.start(new RecordingReceiver());
    b.start(bReceiver);
    void a.send("first");
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).to.deep.equal(['b got "first"', "b returned", 'b got "second"', "b returned"]);
    await a.close();
  });

  it("keeps what is sent before the other end starts, and delivers it on start", async () => {
    const [a, b] = createMemoryPair();
    a.start(new RecordingReceiver());
    await a.send(1);
    await a.send(2);
    const atB = new RecordingReceiver();
    b.start(atB);
    expect(atB.messages).to.deep.equal([]);
    await atB.until(() => atB.messages.length === 2);
    expect(atB.messages).to.deep.equal([1, 2]);
  });

  it("closing one end closes both: each closed() once, after what was already sent", async () => {
    const { a, b, atA, atB } = startedPair();
    void a.send("before close");
    void b.send("reply in flight");
    await a.close();
    await atB.until(() => atB.closings.length === 1);
    expect(atB.messages).to.deep.equal(["before close"]);
    expect(atA.messages).to.deep.equal(["reply in flight"]);
    expect(atA.closings).to.deep.equal([undefined]);
    expect(atB.closings).to.deep.equal([undefined]);
  });

  it("rejects sends on both ends once either is closed", async () => {
    const { a, b } = startedPair();
    const closing = b.close();
    expect(await rejection(a.send("x"))).to.be.instanceOf(TransportClosedError);
    expect(await rejection(b.send("x"))).to.be.instanceOf(TransportClosedError);
    await closing;
  });

  it("close() is idempotent and may be called from both ends", async () => {
    const { a, b, atA, atB } = startedPair();
    const first = a.close();
    expect(a.close()).to.equal(first);
    await Promise.all([first, b.close()]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(atA.closings).to.have.length(1);
    expect(atB.closings).to.have.length(1);
  });

  it("close() resolves after the end's own closed()", async () => {
    const { a, atA } = startedPair();
    await a.close();
    expect(atA.closings).to.have.length(1);
  });
});
