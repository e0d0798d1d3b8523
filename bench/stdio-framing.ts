// Framing cost of the stdio transport for large messages, next to its floor and to the SDK's approach.
//
//   node --import tsx bench/stdio-framing.ts [--quick]
//
// One message (a tools/call result whose text is a base64 payload) goes through a real
// StdioTransport pair over in-process streams: send (JSON.stringify + "\n", UTF-8 encode) ->
// re-cut into 64 KiB chunks, as a pipe delivers them -> frame, decode, JSON.parse on the other side.
// The floor is JSON.stringify + JSON.parse of the same message, with no transport at all; the next
// column adds the UTF-8 encode and decode that any byte transport must do. What ours adds beyond
// that is stream plumbing and one join of the line's chunks.
//
// For comparison, the official SDK's ReadBuffer (@modelcontextprotocol/sdk/shared/stdio.js, used
// as is) gets the same chunks. It appends each chunk to one buffer with Buffer.concat and scans the
// whole buffer for '\n' after each: both copies and scans grow with the square of the line's size.
// Its transports also refuse any line over 10 MiB by default (STDIO_DEFAULT_MAX_BUFFER_SIZE, which
// here is lifted to time 16 MiB); 64 MiB would copy about 32 GiB and is not run.

import { randomBytes } from "node:crypto";
import { PassThrough, Transform, type TransformCallback } from "node:stream";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { StdioTransport } from "../runtime/transports/stdio.js";
import { record } from "./support/results.js";
import { collectGarbage } from "./support/gc.js";

const KiB = 1024;
const MiB = 1024 * KiB;
const CHUNK = 64 * KiB;
const QUICK = process.argv.includes("--quick");

/** Each measurement stops after this many runs or this much time, whichever comes first (at least one run). */
const MAX_RUNS = QUICK ? 3 : 7;
const TIME_BUDGET_MS = QUICK ? 5_000 : 20_000;

/** A tools/call result carrying `payloadBytes` of base64 text. */
function toolResult(payloadBytes: number): JSONRPCMessage {
  const text = randomBytes(Math.ceil((payloadBytes * 3) / 4)).toString("base64").slice(0, payloadBytes);
  return { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text }], isError: false } };
}

/** Cuts whatever is written into `size`-byte chunks (views, not copies), as reads from a pipe arrive. */
class Rechunk extends Transform {
  chunks = 0;
  constructor(private readonly size: number) {
    super({ highWaterMark: size });
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    for (let at = 0; at < chunk.length; at += this.size) {
      this.chunks += 1;
      this.push(chunk.subarray(at, at + this.size));
    }
    done();
  }
}

/** Median of the run times (ms), with at most MAX_RUNS runs and about TIME_BUDGET_MS in all. */
async function median(run: () => Promise<void> | void): Promise<{ ms: number; runs: number; times: number[] }> {
  const times: number[] = [];
  const started = performance.now();
  while (times.length < MAX_RUNS && (times.length === 0 || performance.now() - started < TIME_BUDGET_MS)) {
    collectGarbage();
    const t0 = performance.now();
    await run();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)]!, runs: times.length, times };
}

/** The floor: the message turned into JSON text and back, nothing else. */
function floor(message: object): void {
  const text = JSON.stringify(message);
  if (JSON.parse(text) === null) throw new Error("unreachable");
}

/** What any byte transport must at least do: the floor plus UTF-8 encoding and decoding, in one piece. */
function bytesFloor(message: object): void {
  const bytes = Buffer.from(JSON.stringify(message), "utf8");
  if (JSON.parse(bytes.toString("utf8")) === null) throw new Error("unreachable");
}

/** Send `message` through one StdioTransport and receive it on another, over 64 KiB chunks. */
function stdioRoundTrip(message: object): Promise<void> {
  return new Promise((resolve, reject) => {
    const wire = new Rechunk(CHUNK);
    const sender = new StdioTransport(new PassThrough(), wire);
    const receiver = new StdioTransport(wire, new PassThrough());
    const deadline = setTimeout(() => reject(new Error("round trip did not finish in 60 s")), 60_000);
    receiver.start({
      message(value) {
        clearTimeout(deadline);
        if ((value as { id?: unknown }).id !== 1) reject(new Error("wrong message"));
        else if (wire.chunks < 2 && JSON.stringify(message).length > CHUNK) reject(new Error("the message was not chunked"));
        else resolve();
      },
      malformed: (problem) => reject(new Error(`malformed: ${JSON.stringify(problem)}`)),
      closed: () => {},
    });
    sender.start({ message() {}, malformed() {}, closed() {} });
    sender.send(message).catch(reject);
  });
}

/** The SDK's way: serialize, then its ReadBuffer fed 64 KiB chunks, reading after each append as its transports do. */
function sdkRoundTrip(message: JSONRPCMessage): void {
  const bytes = Buffer.from(serializeMessage(message), "utf8");
  const buffer = new ReadBuffer({ maxBufferSize: Number.POSITIVE_INFINITY });
  let received = 0;
  for (let at = 0; at < bytes.length; at += CHUNK) {
    buffer.append(bytes.subarray(at, at + CHUNK));
    while (buffer.readMessage() !== null) received += 1;
  }
  if (received !== 1) throw new Error(`SDK ReadBuffer delivered ${received} messages`);
}

function format(ms: number): string {
  return ms >= 100 ? `${ms.toFixed(0)} ms` : `${ms.toFixed(1)} ms`;
}

const SIZES_MIB = QUICK ? [1, 4, 16] : [1, 4, 16, 64];
const SDK_SIZES_MIB = new Set([1, 4, 16]);

console.log(`stdio framing, one message of N MiB of base64 text, ${CHUNK / KiB} KiB chunks, median of up to ${MAX_RUNS} runs`);
console.log(`node ${process.version}\n`);
const header = ["payload", "floor (stringify+parse)", "+ UTF-8 encode/decode", "ours (send+frame+parse)", "ours / floor", "SDK ReadBuffer", "SDK / floor"];
console.log(header.join(" | "));
console.log(header.map((h) => "-".repeat(h.length)).join(" | "));
for (const sizeMiB of SIZES_MIB) {
  let message: JSONRPCMessage | undefined = toolResult(sizeMiB * MiB);
  const base = await median(() => floor(message!));
  const withBytes = await median(() => bytesFloor(message!));
  const ours = await median(() => stdioRoundTrip(message!));
  const sdk = SDK_SIZES_MIB.has(sizeMiB) ? await median(() => sdkRoundTrip(message!)) : undefined;
  message = undefined;
  const measured = { ours, v1: sdk, floor: base, "floor + UTF-8": withBytes };
  for (const [contender, figure] of Object.entries(measured))
    if (figure) record({ bench: "stdio-framing", measure: `${sizeMiB} MiB message`, contender, unit: "ms", median: figure.ms, runs: figure.times });
  console.log(
    [
      `${sizeMiB} MiB`,
      format(base.ms),
      format(withBytes.ms),
      format(ours.ms),
      `${(ours.ms / base.ms).toFixed(2)}x`,
      sdk ? `${format(sdk.ms)} (${sdk.runs} runs)` : "not run (~32 GiB of copies)",
      sdk ? `${(sdk.ms / base.ms).toFixed(1)}x` : "-",
    ].join(" | "),
  );
}
console.log("\nThe SDK's transports refuse lines over 10 MiB by default (its ReadBuffer cap is lifted here to time 16 MiB).");
