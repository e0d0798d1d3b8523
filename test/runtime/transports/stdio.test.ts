import { expect } from "chai";
import { PassThrough, Writable } from "node:stream";
import { setImmediate as nextTurn } from "node:timers/promises";
import { TransportClosedError } from "../../../runtime/transports/closed-error.js";
import { StdioTransport } from "../../../runtime/transports/stdio.js";
import { RecordingReceiver } from "./recording-receiver.js";

/** A transport reading from `input` and writing to `output`, started, with its input already flowing. */
async function open(options: { maxMessageBytes?: number } = {}) {
  const input = new PassThrough();
  const output = new PassThrough();
  const transport = new StdioTransport(input, output, options);
  const receiver = new RecordingReceiver();
  transport.start(receiver);
  // Flowing starts on the next tick; chunks written before that could be merged into one.
  await nextTurn();
  return { input, output, transport, receiver };
}

/** Everything written to `output` so far, as text. */
function written(output: PassThrough): string {
  const chunks: Buffer[] = [];
  for (let chunk; (chunk = output.read()) !== null; ) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
}

const MESSAGE = { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "echo", arguments: { text: "café € 😀 ✓" } } };
const LINE = Buffer.from(JSON.stringify(MESSAGE) + "\n", "utf8");

describe("StdioTransport framing", () => {
  it("delivers one message split in two at every byte position, multi-byte characters included", async () => {
    const { input, receiver } = await open();
    for (let at = 1; at < LINE.length; at++) {
      input.write(LINE.subarray(0, at));
      input.write(LINE.subarray(at));
    }
    await receiver.until(() => receiver.messages.length === LINE.length - 1);
    for (const message of receiver.messages) expect(message).to.deep.equal(MESSAGE);
    expect(receiver.problems).to.deep.equal([]);
  });

  it("delivers one message written a byte at a time", async () => {
    const { input, receiver } = await open();
    for (let at = 0; at < LINE.length; at++) input.write(LINE.subarray(at, at + 1));
    await receiver.until(() => receiver.messages.length === 1);
    expect(receiver.messages).to.deep.equal([MESSAGE]);
  });

  it("joins each multi-byte character split inside itself (é, €, 😀)", async () => {
    const { input, receiver } = await open();
    for (const character of ["é", "€", "😀"]) {
      const bytes = Buffer.from(JSON.stringify({ text: `a${character}b` }) + "\n", "utf8");
      const inside = bytes.indexOf(Buffer.from(character, "utf8")) + 1; // after the lead byte
      input.write(bytes.subarray(0, inside));
      input.write(bytes.subarray(inside, inside + 1));
      input.write(bytes.subarray(inside + 1));
    }
    await receiver.until(() => receiver.messages.length === 3);
    expect(receiver.messages).to.deep.equal([{ text: "aéb" }, { text: "a€b" }, { text: "a😀b" }]);
  });

  it("strips the \\r of CRLF, including a \\r that ends one chunk and a \\n that starts the next", async () => {
    const { input, receiver } = await open();
    input.write('{"a":1}\r\n{"a":"x\\r"}\r');
    input.write('\n{"a":3}\r\n');
    await receiver.until(() => receiver.messages.length === 3);
    expect(receiver.messages).to.deep.equal([{ a: 1 }, { a: "x\r" }, { a: 3 }]);
    expect(receiver.problems).to.deep.equal([]);
  });

  it("ignores blank lines, CRLF and whitespace-only ones too", async () => {
    const { input, receiver } = await open();
    input.write('\n\n{"a":1}\n\r\n  \t\n\n{"a":2}\n');
    await receiver.until(() => receiver.messages.length === 2);
    await nextTurn();
    expect(receiver.messages).to.deep.equal([{ a: 1 }, { a: 2 }]);
    expect(receiver.problems).to.deep.equal([]);
  });

  it("delivers several messages from one chunk, in order", async () => {
    const { input, receiver } = await open();
    const lines = Array.from({ length: 50 }, (_, id) => JSON.stringify({ jsonrpc: "2.0", id }) + "\n");
    input.write(lines.join(""));
    await receiver.until(() => receiver.messages.length === 50);
    expect(receiver.messages.map((m) => (m as { id: number }).id)).to.deep.equal([...Array(50).keys()]);
  });

  it("reports invalid JSON as a parse problem, then delivers the next message", async () => {
    const { input, receiver } = await open();
    input.write('{"jsonrpc": "2.0", "method": \n{"a":1}\n');
    await receiver.until(() => receiver.messages.length === 1);
    expect(receiver.problems).to.have.length(1);
    expect(receiver.problems[0]).to.include({ kind: "parse", excerpt: '{"jsonrpc": "2.0", "method": ' });
    expect((receiver.problems[0] as { message: string }).message).to.be.a("string").that.is.not.empty;
    expect(receiver.messages).to.deep.equal([{ a: 1 }]);
    expect(receiver.closings).to.deep.equal([]);
  });

  it("reports an oversized line once with its full size, keeps none of it, and delivers the next message", async () => {
    const limit = 1024;
    const { input, receiver, transport } = await open({ maxMessageBytes: limit });
    const oversized = 100 * 1024;
    const chunk = Buffer.alloc(1000, "x");
    let written = 0;
    let largestHeld = 0;
    // The line never ends in this loop: only bounded buffering keeps memory flat.
    while (written < oversized) {
      const piece = chunk.subarray(0, Math.min(chunk.length, oversized - written));
      input.write(piece);
      written += piece.length;
      largestHeld = Math.max(largestHeld, heldBytes(transport));
    }
    expect(receiver.problems).to.deep.equal([]); // reported when the line ends, with its size
    input.write('\r\n{"after":true}\n');
    await receiver.until(() => receiver.messages.length === 1);
    // Its first and last 200 characters are kept: what names a message (jsonrpc/frame-ends.ts).
    expect(receiver.problems).to.deep.equal([{ kind: "oversized", bytes: oversized, limit, head: "x".repeat(200), tail: "x".repeat(200) }]);
    expect(receiver.messages).to.deep.equal([{ after: true }]);
    expect(largestHeld).to.be.at.most(limit + 1);
    expect(heldBytes(transport)).to.equal(0);
  });

  it("accepts a line of exactly the limit, CRLF or not, and refuses one byte more", async () => {
    const message = JSON.stringify({ pad: "" });
    const limit = message.length + 10;
    const { input, receiver } = await open({ maxMessageBytes: limit });
    const exact = JSON.stringify({ pad: "y".repeat(10) });
    const over = JSON.stringify({ pad: "y".repeat(11) });
    input.write(`${exact}\n${exact}\r\n${over}\n${over}\r\n`);
    await receiver.until(() => receiver.messages.length + receiver.problems.length === 4);
    expect(receiver.messages).to.have.length(2);
    expect(receiver.problems).to.deep.equal([
      { kind: "oversized", bytes: limit + 1, limit, head: over, tail: over },
      { kind: "oversized", bytes: limit + 1, limit, head: over, tail: over },
    ]);
  });

  it("delivers a last line that has no newline when the input ends", async () => {
    const { input, receiver } = await open();
    input.end('{"a":1}\n{"last":true}');
    await receiver.until(() => receiver.closings.length === 1);
    expect(receiver.messages).to.deep.equal([{ a: 1 }, { last: true }]);
  });

  it("says so when the input ends in the middle of a message (the writer died while writing it)", async () => {
    const { input, receiver } = await open();
    input.end('{"a":1}\n{"jsonrpc":"2.0","id":3,"res');
    await receiver.until(() => receiver.closings.length === 1);
    expect(receiver.messages).to.deep.equal([{ a: 1 }]);
    expect(receiver.problems).to.have.length(1);
    expect(receiver.problems[0]).to.deep.include({ kind: "parse", excerpt: '{"jsonrpc":"2.0","id":3,"res' });
    expect((receiver.problems[0] as { message: string }).message).to.match(/^the input ended in the middle of a line of 28 bytes \(/);
  });
});

describe("StdioTransport lifecycle", () => {
  it("reports EOF on input as closed() once, without an error, and ends the output", async () => {
    const { input, output, transport, receiver } = await open();
    input.end('{"a":1}\n');
    await receiver.until(() => receiver.closings.length === 1);
    output.resume();
    await transport.close();
    await nextTurn();
    expect(receiver.closings).to.deep.equal([undefined]);
    expect(output.writableEnded).to.equal(true);
    expect(receiver.messages).to.deep.equal([{ a: 1 }]);
  });

  it("reports an input stream error as closed(error)", async () => {
    const { input, receiver } = await open();
    const failure = new Error("boom");
    input.destroy(failure);
    await receiver.until(() => receiver.closings.length === 1);
    await nextTurn();
    expect(receiver.closings).to.deep.equal([failure]);
  });

  it("writes each message as one line of JSON ending in \\n, newlines in strings escaped", async () => {
    const { output, transport } = await open();
    await transport.send({ jsonrpc: "2.0", id: 1, result: { text: "two\nlines\r\n" } });
    await transport.send([{ jsonrpc: "2.0", method: "n" }]);
    await nextTurn(); // sends of one turn are gathered into one write at its end
    const text = written(output);
    expect(text.split("\n")).to.have.length(3);
    expect(text.endsWith("\n")).to.equal(true);
    expect(text.split("\n").slice(0, 2).map((line) => JSON.parse(line))).to.deep.equal([
      { jsonrpc: "2.0", id: 1, result: { text: "two\nlines\r\n" } },
      [{ jsonrpc: "2.0", method: "n" }],
    ]);
  });

  it("rejects a message JSON cannot represent and stays usable", async () => {
    const { output, transport } = await open();
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    await expectRejection(transport.send(cyclic), TypeError);
    await expectRejection(transport.send(undefined), TypeError);
    await transport.send({ ok: true });
    await nextTurn();
    expect(written(output)).to.equal('{"ok":true}\n');
  });

  it("gathers the messages sent in one turn into writes of at most 4", async () => {
    const writes: number[] = [];
    const output = new Writable({
      write(_chunk, _encoding, done) {
        writes.push(1);
        done();
      },
      writev(chunks, done) {
        writes.push(chunks.length);
        done();
      },
    });
    const transport = new StdioTransport(new PassThrough(), output);
    transport.start(new RecordingReceiver());
    for (let id = 1; id <= 10; id++) void transport.send({ jsonrpc: "2.0", id, result: {} });
    await nextTurn();
    expect(writes).to.deep.equal([4, 4, 2]);
    await transport.send({ jsonrpc: "2.0", id: 11, result: {} });
    await nextTurn();
    expect(writes).to.deep.equal([4, 4, 2, 1]);
    await transport.close();
  });

  it("close() flushes, ends the output, reports closed() once, and is idempotent", async () => {
    const { output, transport, receiver } = await open();
    await transport.send({ a: 1 });
    const first = transport.close();
    const second = transport.close();
    expect(second).to.equal(first);
    output.resume(); // a PassThrough finishes only when read
    await first;
    expect(receiver.closings).to.deep.equal([undefined]);
    expect(output.writableFinished).to.equal(true);
    await expectRejection(transport.send({ a: 2 }), TransportClosedError);
    expect(receiver.closings).to.have.length(1);
  });

  it("delivers nothing after close()", async () => {
    const { input, output, transport, receiver } = await open();
    output.resume();
    await transport.close();
    input.write('{"late":true}\n');
    await nextTurn();
    expect(receiver.messages).to.deep.equal([]);
  });

  it("delivers nothing more once a receiver closes it halfway through a chunk", async () => {
    const input = new PassThrough();
    const output = new PassThrough().resume();
    const transport = new StdioTransport(input, output);
    const receiver = new RecordingReceiver();
    transport.start({
      message: (value) => {
        receiver.message(value);
        void transport.close();
      },
      malformed: (problem) => receiver.malformed(problem),
      closed: (error) => receiver.closed(error),
    });
    await nextTurn();
    input.write('{"a":1}\n{"a":2}\nnot json\n');
    await receiver.until(() => receiver.closings.length === 1);
    expect(receiver.messages).to.deep.equal([{ a: 1 }]);
    expect(receiver.problems).to.deep.equal([]);
  });

  it("reports an output error (the reader went away) as closed(error), and later sends reject", async () => {
    const { output, transport, receiver } = await open();
    const failure = Object.assign(new Error("write EPIPE"), { code: "EPIPE" });
    output.destroy(failure);
    await receiver.until(() => receiver.closings.length === 1);
    expect(receiver.closings).to.deep.equal([failure]);
    await expectRejection(transport.send({ a: 1 }), TransportClosedError);
  });
});

describe("StdioTransport back-pressure", () => {
  /** A Writable that accepts writes only when the test says so. */
  function slowWritable(highWaterMark: number) {
    const pending: (() => void)[] = [];
    const received: Buffer[] = [];
    const stream = new Writable({
      highWaterMark,
      write(chunk: Buffer, _encoding, callback) {
        received.push(chunk);
        pending.push(() => callback());
      },
    });
    const release = () => {
      while (pending.length > 0) pending.shift()!();
    };
    return { stream, received, release };
  }

  it("resolves send only after 'drain' when the output is full, one listener for many waiting sends", async () => {
    const input = new PassThrough();
    const { stream, received, release } = slowWritable(16);
    const transport = new StdioTransport(input, stream);
    transport.start(new RecordingReceiver());
    const settled: number[] = [];
    const sends = [1, 2, 3, 4, 5].map((id) => transport.send({ id, pad: "z".repeat(32) }).then(() => settled.push(id)));
    await nextTurn();
    expect(settled).to.deep.equal([]); // every write came back "full"
    expect(stream.listenerCount("drain")).to.equal(1);
    while (settled.length < 5) {
      release();
      await nextTurn();
    }
    await Promise.all(sends);
    expect(settled).to.deep.equal([1, 2, 3, 4, 5]);
    expect(Buffer.concat(received).toString().split("\n").filter(Boolean).map((l) => JSON.parse(l).id)).to.deep.equal([1, 2, 3, 4, 5]);
  });

  it("resolves a send without waiting when the output has room", async () => {
    const { stream } = slowWritable(1 << 20);
    const transport = new StdioTransport(new PassThrough(), stream);
    transport.start(new RecordingReceiver());
    let resolved = false;
    void transport.send({ id: 1 }).then(() => (resolved = true));
    await Promise.resolve();
    expect(resolved).to.equal(true);
  });

  it("close() waits for the blocked data to be written, and the waiting send resolves", async () => {
    const { stream, received, release } = slowWritable(16);
    const transport = new StdioTransport(new PassThrough(), stream);
    const receiver = new RecordingReceiver();
    transport.start(receiver);
    const send = transport.send({ id: 1, pad: "z".repeat(64) });
    let closed = false;
    const closing = transport.close().then(() => (closed = true));
    await nextTurn();
    expect(closed).to.equal(false);
    release();
    await Promise.all([send, closing]);
    expect(Buffer.concat(received).toString()).to.equal(JSON.stringify({ id: 1, pad: "z".repeat(64) }) + "\n");
    expect(receiver.closings).to.deep.equal([undefined]);
  });
});

/** What the transport holds for the line in progress (its decoder's buffer). */
function heldBytes(transport: StdioTransport): number {
  return (transport as unknown as { decoder: { bufferedBytes: number } }).decoder.bufferedBytes;
}

async function expectRejection(promise: Promise<unknown>, type: new (...args: never[]) => Error): Promise<void> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(type);
    return;
  }
  expect.fail(`expected a rejection with ${type.name}`);
}
