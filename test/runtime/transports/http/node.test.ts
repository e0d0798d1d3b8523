// The node:http adapter's streamed answers: a stream's head waits for the rest of the event-loop
// turn, so a quick SSE answer leaves whole (with its Content-Length), while a stream whose answer
// takes longer still gets its head at once, before anything is written to it.
import { expect } from "chai";
import { JSON_AND_SSE, openSession, read, sessionHeaders, startServer, type Running } from "./support.js";

describe("transports/http: node:http streamed answers", () => {
  let running: Running;
  let release: (() => void) | undefined;
  let entered = false;
  before(async () => {
    running = await startServer({ responseMode: "sse", eventStore: false }, (server) =>
      server.tool({ name: "held", description: "answers once released", inputSchema: { type: "object" } }, async () => {
        entered = true;
        await new Promise<void>((resolve) => (release = resolve));
        return { content: [{ type: "text", text: "released" }] };
      }),
    );
  });
  after(() => running.close());

  const call = (session: string, id: number, name: string, args: Record<string, unknown> = {}) =>
    fetch(running.url, {
      method: "POST",
      headers: { ...sessionHeaders(session), "Content-Type": "application/json", Accept: JSON_AND_SSE },
      body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } }),
      signal: AbortSignal.timeout(10_000),
    });

  it("sends an SSE answer ready within the turn whole, with its Content-Length", async () => {
    const session = await openSession(running.url);
    const answer = await read(await call(session, 2, "echo", { text: "quick" }));
    expect(answer.status).to.equal(200);
    expect(answer.contentType).to.match(/^text\/event-stream/);
    expect(answer.headers.get("transfer-encoding")).to.equal(null);
    expect(Number(answer.headers.get("content-length"))).to.equal(Buffer.byteLength(answer.text));
    expect(answer.messages).to.deep.equal([{ jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: "quick" }] } }]);
  });

  it("sends the head of a stream whose answer takes longer before the answer, then streams it", async () => {
    const session = await openSession(running.url);
    entered = false;
    const response = await call(session, 3, "held");
    // The head arrived while the tool still waits: nothing was written to the stream yet.
    expect(entered).to.equal(true);
    expect(release).to.be.a("function");
    expect(response.status).to.equal(200);
    expect(response.headers.get("content-type")).to.match(/^text\/event-stream/);
    expect(response.headers.get("content-length")).to.equal(null);
    release!();
    const answer = await read(response);
    expect(answer.messages).to.deep.equal([{ jsonrpc: "2.0", id: 3, result: { content: [{ type: "text", text: "released" }] } }]);
  });
});
