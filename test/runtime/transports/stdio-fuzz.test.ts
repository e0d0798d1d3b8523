// Issue 32 item 7, stdio: random and mutated traffic at the framing (whole lines, garbage lines,
// each cut into chunks at random places) into a real server. Properties: nothing throws, the
// transport closes once the input ends (no hang), every line written back is a valid JSON-RPC
// message, and every request is answered exactly once. fast-check prints the seed and the
// shrunk traffic on failure; rerun with that seed to replay it.
import { expect } from "chai";
import fc from "fast-check";
import { PassThrough, Writable } from "node:stream";
import { StdioTransport } from "../../../runtime/transports/stdio.js";
import { answerable, fuzzServer, item, materialize, validOutbound } from "../../support/traffic.js";


/** Collects the lines the server writes. */
class Lines extends Writable {
  private rest = "";
  readonly lines: string[] = [];
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    const parts = (this.rest + chunk.toString("utf8")).split("\n");
    this.rest = parts.pop()!;
    this.lines.push(...parts);
    done();
  }
}

describe("stdio: fuzzing the framing (fast-check)", function () {
  this.timeout(120_000);

  it("answers every request exactly once with a valid JSON-RPC message, whatever else arrives, and closes at EOF", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(item, { minLength: 1, maxLength: 25 }), fc.array(fc.integer({ min: 1, max: 200 }), { minLength: 1, maxLength: 8 }), fc.boolean(), async (items, cuts, initializeFirst) => {
        let id = 0;
        const traffic = items.map((one) => materialize(one, () => ++id));
        if (initializeFirst) traffic.unshift({ body: { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "f", version: "1" } } } });
        const text = traffic.map((t) => `${t.raw ?? JSON.stringify(t.body)}\n`).join("");
        const expected = traffic.map((t) => t.body).filter(answerable).map((m) => m.id);

        const server = fuzzServer();
        const input = new PassThrough();
        const output = new Lines();
        const transport = new StdioTransport(input, output, { endGraceMs: 2_000, stuckTimeoutMs: 600_000 });
        let closedWith: Error | undefined | null = null;
        const start = transport.start.bind(transport);
        transport.start = (receiver) => start({ ...receiver, closed: (error) => ((closedWith = error), receiver.closed(error)) });
        await server.listen(transport);
        // The bytes, cut at random places (inside characters and lines too).
        const bytes = Buffer.from(text, "utf8");
        let at = 0;
        for (let i = 0; at < bytes.length; i++) {
          const size = cuts[i % cuts.length]!;
          input.write(bytes.subarray(at, at + size));
          at += size;
          await new Promise((resolve) => setImmediate(resolve));
        }
        input.end();
        for (const deadline = Date.now() + 20_000; closedWith === null && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 2));
        await server.close();

        expect(closedWith, "the transport closed, without an error, once the input ended").to.equal(undefined);
        const messages = output.lines.map((line) => JSON.parse(line) as unknown);
        for (const m of messages) expect(validOutbound(m), JSON.stringify(m)).to.equal(undefined);
        const answered = messages.flatMap((m) => (Array.isArray(m) ? m : [m])).filter((m) => (m as { method?: unknown }).method === undefined).map((m) => (m as { id: unknown }).id);
        for (const request of expected) expect(answered.filter((a) => a === request), `answers to request ${request}`).to.have.length(1);
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 150) },
    );
  });
});
