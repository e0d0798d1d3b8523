// Issue 13 item 3, stdio: a client that sends requests but stops reading our output. What waits to
// be written is bounded by maxBufferedBytes: reading stops until it drains, and once the client
// reads again every request is answered, none dropped.
import { expect } from "chai";
import { PassThrough, Writable } from "node:stream";
import { createServer } from "../../../runtime/index.js";
import { StdioTransport } from "../../../runtime/transports/stdio.js";
import { silentLogger } from "../../../runtime/util/logger.js";

const REQUESTS = 2_000;
const ANSWER_BYTES = 8 * 1024;
const MAX_BUFFERED = 256 * 1024;

/** A reader that takes nothing until `release()`, like a client that stopped reading its pipe. */
class StuckReader extends Writable {
  private held: (() => void)[] = [];
  private stuck = true;
  answers = 0;

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.answers += chunk.toString("utf8").split("\n").length - 1;
    if (this.stuck) this.held.push(done);
    else done();
  }

  release(): void {
    this.stuck = false;
    for (const done of this.held.splice(0)) done();
  }

  hold(): void {
    this.stuck = true;
  }
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** Turns of the event loop until `done`, for at most 30 s: how many turns it takes depends on the machine's load. */
async function until(done: () => boolean): Promise<void> {
  for (const deadline = Date.now() + 30_000; !done() && Date.now() < deadline; ) await turn();
}

describe("stdio: backpressure", function () {
  this.timeout(60_000);

  it("stops reading once maxBufferedBytes wait to be written, and answers every request once the reader is back", async () => {
    const server = createServer({ name: "bp", version: "1", logger: silentLogger });
    server.tool({ name: "big", inputSchema: { type: "object" } }, () => ({ content: [{ type: "text", text: "x".repeat(ANSWER_BYTES) }] }));
    const input = new PassThrough();
    const output = new StuckReader();
    const transport = new StdioTransport(input, output, { maxBufferedBytes: MAX_BUFFERED });
    await server.listen(transport);

    input.write(`${JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } } })}\n`);
    await until(() => output.answers > 0); // initialize loads its revision
    expect(output.answers).to.equal(1);
    for (let id = 1; id <= REQUESTS; id++) input.write(`${JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "big", arguments: {} } })}\n`);
    for (let turns = 0; turns < 200 && !transport.readingPaused; turns++) await turn();
    for (let turns = 0; turns < 50; turns++) await turn(); // let whatever was already read be answered

    expect(transport.readingPaused, "reading paused").to.equal(true);
    // Bounded: the mark, plus the answers to what one chunk of input had already delivered.
    const oneChunkOfAnswers = (input.readableHighWaterMark / 80) * (ANSWER_BYTES + 100);
    expect(transport.bufferedBytes).to.be.at.least(MAX_BUFFERED).and.at.most(MAX_BUFFERED + oneChunkOfAnswers);
    // Most requests were never read: they wait in the input, on the client's side of the pipe.
    expect(input.readableLength + input.writableLength).to.be.greaterThan((REQUESTS / 2) * 80);

    output.release();
    await until(() => output.answers >= REQUESTS + 1);
    expect(output.answers, "every request answered").to.equal(REQUESTS + 1);
    expect(transport.readingPaused).to.equal(false);
    await server.close();
  });

  const initialize = `${JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } } })}\n`;
  const call = (id: number) => `${JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "flood", arguments: {}, _meta: { progressToken: "p" } } })}\n`;
  const PROGRESS = 200;
  const PAYLOAD = "x".repeat(16 * 1024);

  it("ctx.progress waits for the reader: an awaiting handler is held with at most one message unwritten per write the reader took", async () => {
    const server = createServer({ name: "bp", version: "1", logger: silentLogger });
    let started = 0;
    let finished = false;
    server.tool({ name: "flood", inputSchema: { type: "object" } }, async (_args, ctx) => {
      for (let i = 1; i <= PROGRESS; i++) {
        started++;
        await ctx.progress(i, PROGRESS, PAYLOAD);
      }
      finished = true;
      return { content: [{ type: "text", text: "done" }] };
    });
    const input = new PassThrough();
    const output = new StuckReader();
    const transport = new StdioTransport(input, output, { maxBufferedBytes: MAX_BUFFERED, stuckTimeoutMs: 600_000 });
    await server.listen(transport);
    input.write(initialize);
    await until(() => output.answers > 0);
    output.release();
    output.hold();
    input.write(call(1));
    await until(() => started > 0);
    for (let turns = 0; turns < 100; turns++) await turn();
    expect(finished, "the handler waits for the reader").to.equal(false);
    expect(started * PAYLOAD.length, "bytes sent, none read").to.be.at.most(2 * PAYLOAD.length);
    expect(transport.bufferedBytes).to.be.at.most(2 * (PAYLOAD.length + 200));
    output.release();
    await until(() => finished && output.answers >= PROGRESS + 2);
    expect(output.answers, "every progress and the answer").to.equal(PROGRESS + 2);
    await server.close();
  });

  it("a reader stuck over maxBufferedBytes for stuckTimeoutMs is cut off: the transport closes with why, the handler is aborted", async () => {
    const server = createServer({ name: "bp", version: "1", logger: silentLogger });
    let aborted = false;
    server.tool({ name: "flood", inputSchema: { type: "object" } }, async (_args, ctx) => {
      ctx.signal.addEventListener("abort", () => (aborted = true));
      // Not awaited: only such sends get past the bound.
      for (let i = 1; i <= PROGRESS; i++) void ctx.session.notify("notifications/message", { level: "info", data: PAYLOAD });
      await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve));
      return { content: [] };
    });
    const input = new PassThrough();
    const output = new StuckReader();
    const transport = new StdioTransport(input, output, { maxBufferedBytes: MAX_BUFFERED, stuckTimeoutMs: 50 });
    let closedWith: Error | undefined;
    // What the transport tells its receiver when it closes.
    const start = transport.start.bind(transport);
    transport.start = (receiver) => start({ ...receiver, closed: (error) => ((closedWith = error), receiver.closed(error)) });
    await server.listen(transport);
    input.write(initialize);
    await until(() => output.answers > 0);
    output.release();
    output.hold();
    input.write(call(1));
    await until(() => aborted);
    expect(aborted, "the handler is aborted").to.equal(true);
    expect(closedWith?.message).to.match(/read nothing for 50 ms with \d+ bytes waiting \(limit 262144\); disconnected/);
    expect(output.destroyed, "the output is destroyed").to.equal(true);
    await server.close();
  });
});
