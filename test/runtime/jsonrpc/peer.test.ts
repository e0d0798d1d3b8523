// The JSON-RPC peer on its own, no MCP: two peers on an in-memory pair, or one peer on a scripted
// transport that records what it sends and lets the test inject frames.
import { expect } from "chai";
import fc from "fast-check";
import { ErrorCode, RpcError } from "../../../runtime/jsonrpc/errors.js";
import type { Notification, Request, RequestId } from "../../../runtime/jsonrpc/messages.js";
import { Peer, type InboundRequest, type PeerHandler, type PeerOptions } from "../../../runtime/jsonrpc/peer.js";
import { createMemoryPair } from "../../../runtime/transports/memory.js";
import type { FrameProblem, Receiver, Transport } from "../../../runtime/jsonrpc/transport.js";
import type { LogLevel } from "../../../runtime/util/logger.js";
import { rejection, until } from "../../support/mcp.js";

/** A transport the test drives: what the peer sends lands in `sent`; `deliver` and `problem` feed it. */
class ScriptedTransport implements Transport {
  readonly sent: any[] = []; // eslint-disable-line @typescript-eslint/no-explicit-any
  private receiver!: Receiver;
  closed = false;

  start(receiver: Receiver): void {
    this.receiver = receiver;
  }
  send(message: unknown): Promise<void> {
    if (this.closed) return Promise.reject(new Error("closed"));
    this.sent.push(message);
    return Promise.resolve();
  }
  close(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      this.receiver.closed();
    }
    return Promise.resolve();
  }
  deliver(value: unknown): void {
    this.receiver.message(JSON.parse(JSON.stringify(value)));
  }
  problem(problem: FrameProblem): void {
    this.receiver.malformed(problem);
  }
  /** The other side went away. */
  drop(error?: Error): void {
    this.closed = true;
    this.receiver.closed(error);
  }
}

/** Records log lines. */
function recordingLogger(): { lines: [LogLevel, string][]; logger: (level: LogLevel, message: string) => void } {
  const lines: [LogLevel, string][] = [];
  return { lines, logger: (level, message) => lines.push([level, message]) };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

function deferred<T = unknown>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

/** A handler from a table of methods; unknown methods are -32601. */
function handler(methods: Record<string, (params: Record<string, unknown>, inbound: InboundRequest) => unknown>, extra: Partial<PeerHandler> = {}): PeerHandler {
  return {
    request: (request: Request, inbound: InboundRequest) => {
      const method = Object.prototype.hasOwnProperty.call(methods, request.method) ? methods[request.method] : undefined;
      if (!method) throw new RpcError(ErrorCode.MethodNotFound, `no ${request.method}`);
      return method(request.params ?? {}, inbound);
    },
    notification: () => {},
    ...extra,
  };
}

describe("jsonrpc Peer", () => {
  describe("correlation", () => {
    it("correlates concurrent requests both ways, answered out of order", async () => {
      const [a, b] = createMemoryPair();
      const waits = new Map<string, ReturnType<typeof deferred>>();
      const wait = (params: Record<string, unknown>) => {
        const d = deferred();
        waits.set(String(params.n), d);
        return d.promise;
      };
      const left = new Peer(a, handler({ wait, double: (p) => ({ n: (p.n as number) * 2 }) }));
      const right = new Peer(b, handler({ wait, triple: (p) => ({ n: (p.n as number) * 3 }) }));
      const fromLeft = [1, 2, 3].map((n) => left.request("wait", { n }));
      const fromRight = [1, 2, 3].map((n) => right.request("double", { n }));
      const tripled = left.request("triple", { n: 5 });
      await until(() => waits.size === 3, 2_000, "three waits");
      for (const n of ["3", "1", "2"]) waits.get(n)!.resolve({ answer: Number(n) * 10 });
      expect(await Promise.all(fromLeft)).to.deep.equal([{ answer: 10 }, { answer: 20 }, { answer: 30 }]);
      expect(await Promise.all(fromRight)).to.deep.equal([{ n: 2 }, { n: 4 }, { n: 6 }]);
      expect(await tripled).to.deep.equal({ n: 15 });
      await left.close();
    });

    it("numbers its requests 1, 2, 3... and sends params only when given", async () => {
      const transport = new ScriptedTransport();
      const peer = new Peer(transport, handler({}));
      void peer.request("a", undefined);
      void peer.request("b", { x: 1 });
      expect(transport.sent).to.deep.equal([
        { jsonrpc: "2.0", id: 1, method: "a" },
        { jsonrpc: "2.0", id: 2, method: "b", params: { x: 1 } },
      ]);
      await peer.close();
    });

    it("rejects with the RpcError the other side answered, code, message and data intact", async () => {
      const [a, b] = createMemoryPair();
      const left = new Peer(a, handler({}));
      new Peer(b, handler({ fail: () => Promise.reject(new RpcError(-32042, "custom", { why: [1] })) }), { logger: () => {} });
      const error = await rejection(left.request("fail", {}));
      expect(error).to.be.instanceOf(RpcError);
      expect(error.toJSON()).to.deep.equal({ code: -32042, message: "custom", data: { why: [1] } });
      const missing = await rejection(left.request("nothing", {}));
      expect(missing.code).to.equal(-32601);
      await left.close();
    });

    it("turns a handler's plain throw into -32603 naming the method, and logs the stack", async () => {
      const transport = new ScriptedTransport();
      const log = recordingLogger();
      new Peer(
        transport,
        handler({
          boom: () => {
            throw new TypeError("kaput");
          },
        }),
        { logger: log.logger },
      );
      transport.deliver({ jsonrpc: "2.0", id: 7, method: "boom" });
      await flush();
      expect(transport.sent).to.deep.equal([{ jsonrpc: "2.0", id: 7, error: { code: -32603, message: "Internal error in boom: kaput" } }]);
      expect(log.lines.some(([level, line]) => level === "error" && line.includes("TypeError: kaput"))).to.equal(true);
    });

    it("ignores a response to an unknown id (and one to an id it already settled), and logs it", async () => {
      const transport = new ScriptedTransport();
      const log = recordingLogger();
      const peer = new Peer(transport, handler({}), { logger: log.logger });
      const request = peer.request("x", {});
      transport.deliver({ jsonrpc: "2.0", id: 1, result: { first: true } });
      expect(await request).to.deep.equal({ first: true });
      transport.deliver({ jsonrpc: "2.0", id: 1, result: { second: true } });
      transport.deliver({ jsonrpc: "2.0", id: "1", result: {} }); // "1" is not 1
      transport.deliver({ jsonrpc: "2.0", id: 99, error: { code: -1, message: "x" } });
      expect(transport.sent).to.have.length(1); // only our request: nothing answers a response
      expect(log.lines.filter(([, line]) => line.includes("unknown request id")).map(([, line]) => line)).to.deep.equal([
        "ignored a response to unknown request id 1",
        'ignored a response to unknown request id "1"',
        "ignored a response to unknown request id 99",
      ]);
      // Still working.
      const next = peer.request("y", {});
      transport.deliver({ jsonrpc: "2.0", id: 2, result: { ok: 1 } });
      expect(await next).to.deep.equal({ ok: 1 });
    });

    it("answers each request exactly once; a duplicate in-flight id is -32600 and does not disturb the first", async () => {
      const transport = new ScriptedTransport();
      const slow = deferred();
      let calls = 0;
      new Peer(
        transport,
        handler({
          slow: () => {
            calls += 1;
            return slow.promise;
          },
        }),
      );
      transport.deliver({ jsonrpc: "2.0", id: "a", method: "slow" });
      transport.deliver({ jsonrpc: "2.0", id: "a", method: "slow" });
      await flush();
      expect(calls).to.equal(1);
      expect(transport.sent).to.deep.equal([{ jsonrpc: "2.0", id: "a", error: { code: -32600, message: 'Invalid Request: request id "a" is already in flight' } }]);
      slow.resolve({ done: true });
      await flush();
      expect(transport.sent.slice(1)).to.deep.equal([{ jsonrpc: "2.0", id: "a", result: { done: true } }]);
      // Finished: the id may be used again.
      transport.deliver({ jsonrpc: "2.0", id: "a", method: "slow" });
      await flush();
      expect(calls).to.equal(2);
    });
  });

  describe("timeouts and cancellation", () => {
    it("times a request out with -32001 and the timeout in data, calls the cancel hook once, and ignores the late answer", async () => {
      const transport = new ScriptedTransport();
      const cancels: [RequestId, string, string][] = [];
      const log = recordingLogger();
      const peer = new Peer(transport, handler({}), { cancel: (...args) => cancels.push(args), logger: log.logger });
      const error = await rejection(peer.request("slow/op", {}, { timeoutMs: 40 }));
      expect(error).to.be.instanceOf(RpcError);
      expect(error.toJSON()).to.deep.equal({ code: -32001, message: "slow/op timed out after 40 ms", data: { timeout: 40 } });
      expect(cancels).to.deep.equal([[1, "slow/op", "slow/op timed out after 40 ms"]]);
      transport.deliver({ jsonrpc: "2.0", id: 1, result: {} });
      expect(log.lines.map(([, line]) => line)).to.include("ignored a response to unknown request id 1");
      expect(cancels).to.have.length(1);
    });

    it("uses the peer's default timeout, and a per-request one over it", async () => {
      const transport = new ScriptedTransport();
      const peer = new Peer(transport, handler({}), { requestTimeoutMs: 30 });
      const byDefault = await rejection(peer.request("a", {}));
      expect(byDefault.data).to.deep.equal({ timeout: 30 });
      const longer = peer.request("b", {}, { timeoutMs: 10_000 });
      await new Promise((resolve) => setTimeout(resolve, 60));
      transport.deliver({ jsonrpc: "2.0", id: 2, result: { late: "but in time" } });
      expect(await longer).to.deep.equal({ late: "but in time" });
    });

    it("an answered request is not cancelled, and its timer does not fire later", async () => {
      const transport = new ScriptedTransport();
      const cancels: unknown[] = [];
      const peer = new Peer(transport, handler({}), { cancel: (...args) => cancels.push(args) });
      const request = peer.request("a", {}, { timeoutMs: 30 });
      transport.deliver({ jsonrpc: "2.0", id: 1, result: { ok: true } });
      expect(await request).to.deep.equal({ ok: true });
      await new Promise((resolve) => setTimeout(resolve, 60));
      expect(cancels).to.deep.equal([]);
    });

    it("aborting the signal rejects with its reason and calls the cancel hook; an aborted signal sends nothing", async () => {
      const transport = new ScriptedTransport();
      const cancels: [RequestId, string, string][] = [];
      const peer = new Peer(transport, handler({}), { cancel: (...args) => cancels.push(args) });
      const controller = new AbortController();
      const request = peer.request("long", {}, { signal: controller.signal });
      const reason = new Error("user pressed stop");
      controller.abort(reason);
      expect(await rejection(request)).to.equal(reason);
      expect(cancels).to.deep.equal([[1, "long", "user pressed stop"]]);

      const before = transport.sent.length;
      const error = await rejection(peer.request("never", {}, { signal: AbortSignal.abort() }));
      expect(error.name).to.equal("AbortError");
      expect(transport.sent).to.have.length(before);
      expect(cancels).to.have.length(1);
    });

    it("cancelInbound aborts the handler's signal and the request is never answered; unknown ids are ignored", async () => {
      const transport = new ScriptedTransport();
      const done = deferred();
      let signal: AbortSignal | undefined;
      const peer = new Peer(
        transport,
        handler({
          work: (_params, inbound) => {
            signal = inbound.signal;
            return done.promise;
          },
        }),
      );
      transport.deliver({ jsonrpc: "2.0", id: 5, method: "work" });
      expect(peer.cancelInbound(5, "client gave up")).to.equal(true);
      expect(signal!.aborted).to.equal(true);
      expect((signal!.reason as Error).message).to.equal("client gave up");
      done.resolve({ too: "late" });
      await flush();
      expect(transport.sent).to.deep.equal([]);
      expect(peer.cancelInbound(5)).to.equal(false);
      expect(peer.cancelInbound("nope")).to.equal(false);
    });
  });

  describe("closing", () => {
    it("close rejects pending requests, aborts in-flight handlers on the other side, and later requests reject", async () => {
      const [a, b] = createMemoryPair();
      let handlerSignal: AbortSignal | undefined;
      const closedWith: (Error | undefined)[] = [];
      const left = new Peer(a, handler({}), { logger: () => {} });
      const right = new Peer(
        b,
        handler(
          {
            hang: (_params, inbound) => {
              handlerSignal = inbound.signal;
              return new Promise(() => {});
            },
          },
          { closed: (error) => closedWith.push(error) },
        ),
        { logger: () => {} },
      );
      const pending = left.request("hang", {});
      await until(() => handlerSignal !== undefined, 2_000, "the handler to start");
      await left.close();
      const error = await rejection(pending);
      expect(error).to.be.instanceOf(RpcError);
      expect(error.code).to.equal(ErrorCode.InternalError);
      expect(error.message).to.match(/connection closed/);
      await until(() => handlerSignal!.aborted, 2_000, "the handler's abort");
      expect(closedWith).to.deep.equal([undefined]);
      expect(left.closed).to.equal(true);
      expect(right.closed).to.equal(true);
      expect((await rejection(left.request("again", {}))).message).to.match(/connection closed/);
      expect((await rejection(right.request("again", {}))).message).to.match(/connection closed/);
    });

    it("a transport that drops with an error rejects pending requests naming it", async () => {
      const transport = new ScriptedTransport();
      const closed: (Error | undefined)[] = [];
      const peer = new Peer(transport, handler({}, { closed: (error) => closed.push(error) }));
      const pending = peer.request("a", {});
      transport.drop(new Error("EPIPE"));
      expect((await rejection(pending)).message).to.equal("connection closed: EPIPE");
      expect(closed.map((e) => e?.message)).to.deep.equal(["EPIPE"]);
    });

    it("a handler that finishes after the connection closed sends nothing", async () => {
      const transport = new ScriptedTransport();
      const done = deferred();
      new Peer(transport, handler({ work: () => done.promise }));
      transport.deliver({ jsonrpc: "2.0", id: 1, method: "work" });
      transport.drop();
      done.resolve({ late: true });
      await flush();
      expect(transport.sent).to.deep.equal([]);
    });
  });

  describe("inbound traffic", () => {
    function scripted(options: PeerOptions = {}, extra: Partial<PeerHandler> = {}) {
      const transport = new ScriptedTransport();
      const notifications: Notification[] = [];
      const peer = new Peer(transport, handler({ ping: () => ({}) }, { notification: (n) => notifications.push(n), ...extra }), { logger: () => {}, ...options });
      return { transport, notifications, peer };
    }

    it("a frame that is not JSON: -32700 with id null; an oversized one: -32600 with its size and the limit", async () => {
      const { transport } = scripted();
      transport.problem({ kind: "parse", message: "Unexpected token" });
      transport.problem({ kind: "oversized", bytes: 5000, limit: 4096 });
      await flush();
      expect(transport.sent).to.deep.equal([
        { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: Unexpected token" } },
        {
          jsonrpc: "2.0",
          id: null,
          error: { code: -32600, message: "Invalid Request: a message of 5000 bytes exceeds the limit of 4096 bytes", data: { bytes: 5000, limit: 4096 } },
        },
      ]);
    });

    it("an oversized frame whose ends name it: a request is refused with its id, an answer fails its request unsent, an unknown answer is dropped; each is logged", async () => {
      const log = recordingLogger();
      const { transport, peer } = scripted({ logger: log.logger });
      const size = { kind: "oversized", bytes: 5000, limit: 4096 } as const;
      transport.problem({ ...size, head: '{"jsonrpc":"2.0","id":"r1","method":"tools/call","params":{"pad":"xxx', tail: 'xxx"}}' });
      transport.problem({ ...size, head: '{"method":"tools/call","params":{"pad":"xx', tail: 'xx"}},"jsonrpc":"2.0","id":9}' });
      const answer = peer.request("tools/call", {});
      transport.problem({ ...size, head: '{"result":{"content":[{"type":"text","text":"xxx', tail: 'xxx"}]},"jsonrpc":"2.0","id":1}' });
      const error = await rejection(answer);
      expect(error).to.be.instanceOf(RpcError).with.property("code", -32600);
      expect((error as RpcError).message).to.equal("the answer to tools/call: a message of 5000 bytes exceeds the limit of 4096 bytes (maxMessageBytes)");
      transport.problem({ ...size, head: '{"jsonrpc":"2.0","id":44,"result":{"pad":"x', tail: 'x"}}' });
      await flush();
      const refusal = (id: unknown) => ({ jsonrpc: "2.0", id, error: { code: -32600, message: "Invalid Request: a message of 5000 bytes exceeds the limit of 4096 bytes", data: { bytes: 5000, limit: 4096 } } });
      // Sent: the two refusals and our own request, never an answer to an answer.
      expect(transport.sent).to.deep.equal([refusal("r1"), refusal(9), { jsonrpc: "2.0", id: 1, method: "tools/call", params: {} }]);
      expect(log.lines).to.deep.equal([
        ["warn", 'refused tools/call (id "r1"): a message of 5000 bytes exceeds the limit of 4096 bytes (maxMessageBytes)'],
        ["warn", "refused tools/call (id 9): a message of 5000 bytes exceeds the limit of 4096 bytes (maxMessageBytes)"],
        ["warn", "dropped a response to unknown request id 44: a message of 5000 bytes exceeds the limit of 4096 bytes (maxMessageBytes)"],
      ]);
    });

    it("maxConcurrentRequests counts a cancelled request until its handler stops: cancelling does not make room", async () => {
      const release: (() => void)[] = [];
      const transport = new ScriptedTransport();
      let calls = 0;
      const peer = new Peer(
        transport,
        handler({ slow: () => (calls++, new Promise((resolve) => release.push(() => resolve({})))) }),
        { logger: () => {}, maxConcurrentRequests: 2 },
      );
      for (let id = 1; id <= 4; id++) {
        transport.deliver({ jsonrpc: "2.0", id, method: "slow" });
        peer.cancelInbound(id); // as notifications/cancelled does; the handler ignores its signal
      }
      await flush();
      expect(calls).to.equal(2);
      expect(transport.sent.map((m) => [m.id, m.error?.data])).to.deep.equal([
        [3, { maxConcurrentRequests: 2 }],
        [4, { maxConcurrentRequests: 2 }],
      ]);
      release.shift()!(); // one handler stops: room for one
      await flush();
      transport.deliver({ jsonrpc: "2.0", id: 5, method: "slow" });
      await flush();
      expect(calls).to.equal(3);
      for (const go of release) go();
    });

    it("maxConcurrentRequests must be at least 1", () => {
      for (const bad of [0, -1, Number.NaN]) expect(() => scripted({ maxConcurrentRequests: bad })).to.throw(RangeError, /maxConcurrentRequests must be at least 1/);
    });

    it("an id that is neither a string nor an integer JSON keeps exactly (a fraction, beyond 2^53): -32600 with id null; a safe integer is answered", async () => {
      const { transport } = scripted();
      transport.deliver({ jsonrpc: "2.0", id: 1.5, method: "ping" });
      transport.deliver({ jsonrpc: "2.0", id: 2 ** 53, method: "ping" });
      transport.deliver({ jsonrpc: "2.0", id: 2 ** 53 - 1, method: "ping" });
      await flush();
      const refusal = { code: -32600, message: "Invalid Request: id must be a string or an integer (of at most 2^53 - 1 in magnitude, which JavaScript numbers keep exactly)" };
      expect(transport.sent).to.deep.equal([
        { jsonrpc: "2.0", id: null, error: refusal },
        { jsonrpc: "2.0", id: null, error: refusal },
        { jsonrpc: "2.0", id: 2 ** 53 - 1, result: {} },
      ]);
    });

    it("counts what is not JSON-RPC (not JSON, or JSON of another shape), keeps the first and the last, and says so each time: strays", async () => {
      const told: unknown[] = [];
      const { transport, peer } = scripted({ onStray: (strays) => told.push(strays) });
      transport.deliver({ jsonrpc: "2.0", id: 1, method: "ping" });
      expect(peer.strays).to.equal(undefined);
      transport.problem({ kind: "parse", message: "Unexpected token 'S'", excerpt: "Starting up" });
      transport.deliver({ level: "info" });
      transport.problem({ kind: "parse", message: "Unexpected token 'r'" });
      transport.problem({ kind: "oversized", bytes: 5000, limit: 4096 });
      expect(peer.strays).to.deep.equal({ count: 3, first: "Starting up", last: "Unexpected token 'r'", why: "Unexpected token 'r'" });
      expect(told).to.deep.equal([
        { count: 1, first: "Starting up", last: "Starting up", why: "Unexpected token 'S'" },
        { count: 2, first: "Starting up", last: '{"level":"info"}' },
        { count: 3, first: "Starting up", last: "Unexpected token 'r'", why: "Unexpected token 'r'" },
      ]);
      // What is kept is bounded: a peer lives as long as its session, a message may be MiBs.
      const big = scripted();
      big.transport.deliver({ jsonrpc: "2.0", id: 1.5, method: "ping", params: { pad: "x".repeat(1_000_000) } });
      expect(big.peer.strays!.first.length).to.be.at.most(200);
      // The last is the start of its JSON text, made without the rest (a frame may be MiBs).
      fc.assert(
        fc.property(fc.jsonValue({ maxDepth: 4 }), fc.string({ minLength: 150, maxLength: 400 }), (value, long) => {
          for (const stray of [{ level: "info", value }, { list: [value, long] }, { long, value }]) {
            const one = scripted();
            one.transport.deliver(stray);
            expect(one.peer.strays!.last).to.equal(JSON.stringify(stray).slice(0, 200));
          }
        }),
        { numRuns: 300 },
      );
      const other = scripted();
      other.transport.deliver({ level: "info" });
      expect(other.peer.strays).to.deep.equal({ count: 1, first: '{"level":"info"}', last: '{"level":"info"}' });
    });

    it("notifications reach the handler and never get a response, even when the handler throws", async () => {
      const log = recordingLogger();
      const { transport, notifications } = scripted(
        { logger: log.logger },
        {
          notification: (n) => {
            notifications.push(n);
            if (n.method === "explode") throw new Error("listener bug");
          },
        },
      );
      transport.deliver({ jsonrpc: "2.0", method: "note", params: { a: 1 } });
      transport.deliver({ jsonrpc: "2.0", method: "explode" });
      transport.deliver({ jsonrpc: "2.0", method: "ping" }); // a request method, without an id: a notification
      await flush();
      expect(notifications.map((n) => n.method)).to.deep.equal(["note", "explode", "ping"]);
      expect(transport.sent).to.deep.equal([]);
      expect(log.lines.some(([level, line]) => level === "error" && line.includes("listener bug"))).to.equal(true);
    });

    it("batches: one -32600 when not accepted; otherwise an array of the answers, none for notifications", async () => {
      let accept = false;
      const { transport } = scripted({}, { acceptsBatch: () => accept });
      const batch = [
        { jsonrpc: "2.0", id: 1, method: "ping" },
        { jsonrpc: "2.0", method: "note" },
        { jsonrpc: "2.0", id: 2, method: "missing" },
        17,
      ];
      transport.deliver(batch);
      await flush();
      expect(transport.sent).to.deep.equal([{ jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request: JSON-RPC batches are not part of the MCP revision this connection speaks" } }]);
      accept = true;
      transport.deliver(batch);
      transport.deliver([{ jsonrpc: "2.0", method: "note" }]);
      transport.deliver([]);
      await flush();
      expect(transport.sent.slice(1)).to.deep.equal([
        [
          { jsonrpc: "2.0", id: 1, result: {} },
          { jsonrpc: "2.0", id: 2, error: { code: -32601, message: "no missing" } },
          { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request: a JSON-RPC message must be an object" } },
        ],
        { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request: an empty batch" } },
      ]);
    });

    it("a batch waits for its slowest member and answers once, in member order of completion", async () => {
      const slow = deferred();
      const transport = new ScriptedTransport();
      new Peer(transport, { ...handler({ ping: () => ({}), slow: () => slow.promise }), acceptsBatch: () => true });
      transport.deliver([
        { jsonrpc: "2.0", id: "s", method: "slow" },
        { jsonrpc: "2.0", id: "p", method: "ping" },
      ]);
      await flush();
      expect(transport.sent).to.deep.equal([]);
      slow.resolve({ slow: true });
      await flush();
      expect(transport.sent).to.deep.equal([
        [
          { jsonrpc: "2.0", id: "p", result: {} },
          { jsonrpc: "2.0", id: "s", result: { slow: true } },
        ],
      ]);
    });

    it("a request whose id is __proto__ or constructor is served like any other", async () => {
      const { transport } = scripted();
      for (const id of ["__proto__", "constructor", "hasOwnProperty"]) transport.deliver({ jsonrpc: "2.0", id, method: "ping" });
      await flush();
      expect(transport.sent.map((m) => m.id)).to.deep.equal(["__proto__", "constructor", "hasOwnProperty"]);
      expect(transport.sent.every((m) => JSON.stringify(m.result) === "{}")).to.equal(true);
    });
  });
});
