/**
 * ResponseStream (runtime/transports/http/stream.ts) in JSON mode, on a Reply that records what
 * is sent: what a POST's answer holds while it waits for its last response, and its status.
 */
import { expect } from "chai";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { statusOfResponse } from "../../../../runtime/transports/http/errors.js";
import type { Reply } from "../../../../runtime/transports/http/reply.js";
import { ResponseStream } from "../../../../runtime/transports/http/stream.js";

/** A Reply that records each whole answer. */
function recording(): { reply: Reply; sent: { status: number; body: string | undefined }[] } {
  const sent: { status: number; body: string | undefined }[] = [];
  const reply = {
    started: false,
    ended: false,
    send(status: number, _headers: Readonly<Record<string, string>>, body?: string) {
      reply.started = reply.ended = true;
      sent.push({ status, body });
    },
    respond: () => {},
    open: () => void (reply.started = true),
    write: () => {},
    end: () => void (reply.ended = true),
    onClose: () => () => {},
    room: () => undefined,
    onCutOff: () => {},
  };
  return { reply, sent };
}

const jsonStream = (reply: Reply, ids: number[]) =>
  new ResponseStream("s", reply, ids, { json: true, sse: true, sseFirst: false, headers: {}, statusOf: statusOfResponse }, { finished: () => {}, disconnected: () => {} });

describe("transports/http/stream", () => {
  it("a JSON answer to a batch holds each response's text, not the response itself, until the last one comes", async () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const { reply, sent } = recording();
    const stream = jsonStream(reply, [1, 2]);
    const first = (() => {
      const response = { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "x".repeat(1000) }] } };
      stream.write(response);
      return new WeakRef(response);
    })();
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    expect(first.deref(), "the first response is still held").to.equal(undefined);
    expect(sent).to.deep.equal([]);
    stream.write({ jsonrpc: "2.0", id: 2, error: { code: -32602, message: "bad" } });
    expect(sent).to.have.length(1);
    // A body of several answers goes with 200, whatever each says.
    expect(sent[0]!.status).to.equal(200);
    expect(JSON.parse(sent[0]!.body!)).to.deep.equal([
      { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "x".repeat(1000) }] } },
      { jsonrpc: "2.0", id: 2, error: { code: -32602, message: "bad" } },
    ]);
  });

  it("one response, or one batch of responses, goes with its own status", () => {
    for (const [message, status] of [
      [{ jsonrpc: "2.0", id: 1, error: { code: -32602, message: "bad" } }, 400],
      [{ jsonrpc: "2.0", id: 1, error: { code: -32601, message: "no such method" } }, 404],
      [{ jsonrpc: "2.0", id: 1, result: {} }, 200],
    ] as const) {
      const { reply, sent } = recording();
      jsonStream(reply, [1]).write(message);
      expect(sent.map((s) => [s.status, JSON.parse(s.body!)])).to.deep.equal([[status, message]]);
    }
    // Answers of a batch given as one array, spread into the body with those written alone.
    const { reply, sent } = recording();
    const stream = jsonStream(reply, [1, 2, 3]);
    stream.write([{ jsonrpc: "2.0", id: 1, result: {} }, { jsonrpc: "2.0", id: 2, result: {} }]);
    stream.write({ jsonrpc: "2.0", id: 3, result: {} });
    expect(sent[0]!.status).to.equal(200);
    expect((JSON.parse(sent[0]!.body!) as { id: number }[]).map((m) => m.id)).to.deep.equal([1, 2, 3]);
  });
});
