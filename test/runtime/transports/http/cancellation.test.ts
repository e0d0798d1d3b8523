// Issue 13, item 2: a request cancelled over HTTP in a session. Its handler is aborted, its POST's
// answer ends, its id can be used again, and the session, idle again, expires.
import { expect } from "chai";
import { openSession, post, sessionHeaders, startServer, until, type Running } from "./support.js";

describe("transports/http: a cancelled request (session era)", () => {
  let running: Running;
  let aborted = 0;
  let started = 0;
  before(async () => {
    running = await startServer({ sessionIdleTimeoutMs: 300 }, (server) =>
      server.tool({ name: "wait", description: "waits until cancelled", inputSchema: { type: "object" } }, (_args, ctx) =>
        new Promise((_resolve, reject) => {
          started++;
          const stop = () => {
            aborted++;
            reject(new Error("cancelled"));
          };
          if (ctx.signal.aborted) stop();
          else ctx.signal.addEventListener("abort", stop);
        }),
      ),
    );
  });
  after(() => running.close());

  for (const accept of ["application/json, text/event-stream", "text/event-stream"])
    it(`ends the request's answer, frees its id and lets the session expire (Accept: ${accept})`, async () => {
      const session = await openSession(running.url);
      const headers = { ...sessionHeaders(session), Accept: accept };
      const before = aborted;
      const call = post(running.url, { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "wait", arguments: {} } }, headers);
      const startedBefore = started;
      await until(() => started === startedBefore + 1, "the handler to start");
      // The call is in flight: its id cannot be reused yet.
      const reused = await post(running.url, { jsonrpc: "2.0", id: 5, method: "ping" }, headers);
      expect(reused.status).to.equal(400);
      expect((reused.json as { error: { code: number } }).error.code).to.equal(-32600);

      const cancel = await post(running.url, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 5, reason: "test" } }, headers);
      expect(cancel.status, "a notification is accepted with 202, whatever Accept says").to.equal(202);
      const answer = await call;
      expect(answer.status, "the POST's answer ends").to.be.oneOf([200, 202]);
      expect(answer.messages.filter((m) => (m as { id?: unknown }).id === 5), "and carries no response for the cancelled id").to.deep.equal([]);
      await until(() => aborted === before + 1, "the handler to be aborted");

      const again = await post(running.url, { jsonrpc: "2.0", id: 5, method: "ping" }, headers);
      expect(again.status, "the id is free again").to.equal(200);
      expect(((again.json ?? again.messages[0]) as { result: unknown }).result).to.deep.equal({});

      await until(() => running.endpoint.sessionCount === 0, "the idle session to expire");
      const gone = await post(running.url, { jsonrpc: "2.0", id: 6, method: "ping" }, headers);
      expect(gone.status).to.equal(404);
    });
});
