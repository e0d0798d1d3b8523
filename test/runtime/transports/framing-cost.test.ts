import { expect } from "chai";
import { PassThrough } from "node:stream";
import { setImmediate as nextTurn } from "node:timers/promises";
import { ReadBuffer } from "@modelcontextprotocol/sdk/shared/stdio.js";
import { StdioTransport } from "../../../runtime/transports/stdio.js";
import { RecordingReceiver } from "./recording-receiver.js";

// Linear time, proven by counting work rather than timing it: every byte the framing copies
// (Buffer.concat) or scans for '\n' (Buffer#indexOf) is tallied while one large line goes
// through. Linear framing copies a line once and scans each byte once, whatever the chunk size.

interface Work {
  concatCalls: number;
  bytesCopied: number;
  bytesScanned: number;
}

/** Run `body` with Buffer.concat and Buffer#indexOf counted. */
async function measureWork(body: () => Promise<void>): Promise<Work> {
  const work: Work = { concatCalls: 0, bytesCopied: 0, bytesScanned: 0 };
  const concat = Buffer.concat;
  const indexOf = Buffer.prototype.indexOf;
  Buffer.concat = function (list: readonly Uint8Array[], totalLength?: number) {
    const result = concat.call(Buffer, list, totalLength);
    work.concatCalls += 1;
    work.bytesCopied += result.length;
    return result;
  } as typeof Buffer.concat;
  Buffer.prototype.indexOf = function (this: Buffer, value: never, byteOffset?: never, encoding?: never) {
    const from = typeof byteOffset === "number" ? byteOffset : 0;
    const found = indexOf.call(this, value, byteOffset, encoding);
    // A scan stops at what it finds: the bytes it looked at, not the ones it could have.
    work.bytesScanned += (found === -1 ? this.length : found + 1) - from;
    return found;
  };
  try {
    await body();
  } finally {
    Buffer.concat = concat;
    Buffer.prototype.indexOf = indexOf;
  }
  return work;
}

/** One JSON line of `size` bytes (newline included), as a tool result with a large text. */
function bigLine(size: number): Buffer {
  const envelope = JSON.stringify({ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "" }] } });
  const line = Buffer.alloc(size, "a");
  const [before, after] = envelope.split('""') as [string, string];
  line.write(before + '"', 0, "latin1");
  line.write('"' + after + "\n", size - after.length - 2, "latin1");
  return line;
}

/** Frame `line` through a StdioTransport over a PassThrough, written in `chunkSize` chunks. */
async function frameThroughStdio(line: Buffer, chunkSize: number, expectedMessages = 1): Promise<void> {
  const input = new PassThrough({ highWaterMark: chunkSize });
  const transport = new StdioTransport(input, new PassThrough());
  const receiver = new RecordingReceiver();
  transport.start(receiver);
  await nextTurn();
  for (let at = 0; at < line.length; at += chunkSize) input.write(line.subarray(at, at + chunkSize));
  await receiver.until(() => receiver.messages.length === expectedMessages);
  expect(receiver.problems).to.deep.equal([]);
}

/** The same with the official SDK's ReadBuffer, the way its stdio transports drive it. */
async function frameThroughSdk(line: Buffer, chunkSize: number): Promise<void> {
  const buffer = new ReadBuffer();
  let messages = 0;
  for (let at = 0; at < line.length; at += chunkSize) {
    buffer.append(line.subarray(at, at + chunkSize));
    while (buffer.readMessage() !== null) messages += 1;
  }
  expect(messages).to.equal(1);
}

const MiB = 1024 * 1024;

describe("stdio framing cost (linear time, counted, not timed)", () => {
  it("copies a 16 MiB line once and scans each byte once, in 64 KiB chunks as in 1 MiB chunks", async () => {
    const line = bigLine(16 * MiB);
    const small = await measureWork(() => frameThroughStdio(line, 64 * 1024));
    const large = await measureWork(() => frameThroughStdio(line, MiB));
    for (const work of [small, large]) {
      expect(work.concatCalls).to.equal(1);
      expect(work.bytesCopied).to.equal(line.length - 1); // the line without its '\n'
      expect(work.bytesScanned).to.equal(line.length);
    }
  });

  it("copies nothing when a line arrives whole in one chunk, however many lines it holds", async () => {
    const lines = Buffer.from(Array.from({ length: 1000 }, (_, id) => JSON.stringify({ jsonrpc: "2.0", id }) + "\n").join(""));
    const work = await measureWork(() => frameThroughStdio(lines, lines.length, 1000));
    expect(work.concatCalls).to.equal(0);
    expect(work.bytesScanned).to.equal(lines.length);
  });

  it("tells quadratic framing apart: the SDK's ReadBuffer copies a 4 MiB line about (chunks / 2) times", async () => {
    // The counter must be able to fail: the same measure on the SDK's approach is far above ours.
    const line = bigLine(4 * MiB);
    const chunkSize = 64 * 1024;
    const sdk = await measureWork(() => frameThroughSdk(line, chunkSize));
    const ours = await measureWork(() => frameThroughStdio(line, chunkSize));
    const chunks = line.length / chunkSize;
    expect(sdk.bytesCopied).to.be.greaterThan((chunks / 4) * line.length);
    expect(sdk.bytesScanned).to.be.greaterThan((chunks / 4) * line.length);
    expect(ours.bytesCopied).to.be.lessThan(line.length);
    expect(ours.bytesScanned).to.equal(line.length);
  });
});
