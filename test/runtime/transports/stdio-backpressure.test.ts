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
});
