// The decoder's oversized lines: whatever the chunking, the byte count is exact and the head and
// tail it keeps are the line's own start and end (its first and last 200 characters, a character
// cut by the 800-byte window aside), in bounded memory.
import { expect } from "chai";
import fc from "fast-check";
import type { FrameProblem } from "../../../runtime/jsonrpc/transport.js";
import { NdjsonDecoder } from "../../../runtime/transports/ndjson-decoder.js";

/** `bytes` pushed in pieces of the given sizes, cycling. */
function push(decoder: NdjsonDecoder, bytes: Buffer, sizes: readonly number[]): void {
  for (let at = 0, k = 0; at < bytes.length; k++) {
    const size = sizes[k % sizes.length]!;
    decoder.push(bytes.subarray(at, at + size));
    at += size;
  }
}

describe("NdjsonDecoder: oversized lines", () => {
  it("reports each with its exact size and its own start and end, whatever the chunking; the next line decodes", () => {
    const unit = fc.constantFrom("a", "é", "😀", " ", "{", '"', "\\", "€");
    fc.assert(
      fc.property(fc.string({ unit, minLength: 1, maxLength: 3000 }), fc.integer({ min: 16, max: 1200 }), fc.array(fc.integer({ min: 1, max: 900 }), { minLength: 1, maxLength: 5 }), fc.boolean(), (text, limit, sizes, crlf) => {
        const line = text.trimEnd() || "x";
        const bytes = Buffer.byteLength(line);
        const problems: FrameProblem[] = [];
        const messages: unknown[] = [];
        const decoder = new NdjsonDecoder({ message: (v) => messages.push(v), malformed: (p) => problems.push(p) }, limit);
        push(decoder, Buffer.from(`${line}${crlf ? "\r\n" : "\n"}{"next":1}\n`), sizes);
        expect(messages).to.deep.include({ next: 1 });
        if (bytes <= limit) return;
        expect(problems).to.have.length(1);
        const problem = problems[0] as Extract<FrameProblem, { kind: "oversized" }>;
        expect([problem.bytes, problem.limit]).to.deep.equal([bytes, limit]);
        // A multi-byte character the window cut shows as U+FFFD at the tail's start; past it, the tail is the line's end.
        const tail = problem.tail!.replace(/^\uFFFD+/, "");
        expect(line.startsWith(problem.head!), "head").to.equal(true);
        expect(line.endsWith(tail), "tail").to.equal(true);
        expect(problem.head!.length).to.be.at.least(Math.min(line.length, 200) - 1);
        expect(tail.length).to.be.at.least(Math.min(line.length, 200) - 4);
        expect(decoder.bufferedBytes).to.equal(0);
      }),
      { numRuns: 1500 },
    );
  });

  it("discards an oversized line pushed a byte at a time in linear time and bounded memory", () => {
    const decoder = new NdjsonDecoder({ message: () => {}, malformed: () => {} }, 1024);
    const one = Buffer.from("x");
    let largest = 0;
    for (let i = 0; i < 200_000; i++) {
      decoder.push(one);
      largest = Math.max(largest, decoder.bufferedBytes);
    }
    expect(largest).to.be.at.most(1025);
  });
});

describe("NdjsonDecoder: byte order marks", () => {
  it("a line that starts with one decodes as its JSON, however the chunks cut it; one elsewhere is a parse problem, and a line of one alone is blank", () => {
    const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
    const lines = Buffer.concat([BOM, Buffer.from('{"a":1}\n'), Buffer.from('{"b":2}\r\n'), BOM, Buffer.from("\n"), Buffer.from("["), BOM, Buffer.from("1]\n"), BOM, Buffer.from('"é"\n')]);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 6 }), (sizes) => {
        const messages: unknown[] = [];
        const problems: FrameProblem[] = [];
        const decoder = new NdjsonDecoder({ message: (value) => messages.push(value), malformed: (problem) => problems.push(problem) });
        push(decoder, lines, sizes);
        decoder.end();
        expect(messages).to.deep.equal([{ a: 1 }, { b: 2 }, "é"]);
        expect(problems.map((p) => p.kind)).to.deep.equal(["parse"]);
      }),
      { numRuns: 200, seed: 31 },
    );
  });
});
