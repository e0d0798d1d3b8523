// A request whose id is already in flight is refused by the peer (runtime/jsonrpc/peer.ts), the one
// place that keeps JSON-RPC ids, the same way over every transport: -32600 for the second, while
// the first runs on and gets its own answer, in its own place; once answered, its id is free again.
// Over Streamable HTTP the refusal goes on the duplicate's own POST, with 400 when it is that
// POST's only answer (spec, Streamable HTTP: a server that cannot accept the input MUST answer
// with an HTTP error status), as the session checked it before.
import { PassThrough } from "node:stream";
import { expect } from "chai";
import { createServer, type McpServer } from "../../../runtime/index.js";
import { createMemoryPair } from "../../../runtime/transports/memory.js";
import { StdioTransport } from "../../../runtime/transports/stdio.js";
import { openSession, post, sessionHeaders, startServer, until, type Running } from "../transports/http/support.js";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Tools for the scenario: `hold` answers once released, `echo` at once. */
function holding(server: McpServer) {
  const waiting = new Map<string, () => void>();
  server.tool({ name: "hold", description: "answers once released", inputSchema: { type: "object", properties: { key: { type: "string" } }, required: ["key"] } }, ({ key }: { key: string }) =>
    new Promise((resolve) => waiting.set(key, () => resolve({ content: [{ type: "text", text: `held ${key}` }] }))),
  );
  return {
    started: (key: string) => waiting.has(key),
    release(key: string) {
      waiting.get(key)!();
      waiting.delete(key);
    },
  };
}

function newServer() {
  const server = createServer({ name: "dup", version: "1.0.0", logger: () => {} });
  server.tool({ name: "echo", description: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } } } }, ({ text }: { text?: string }) => ({
    content: [{ type: "text", text: text ?? "" }],
  }));
  return { server, holds: holding(server) };
}

const INITIALIZE = { jsonrpc: "2.0", id: "init", method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } };
const call = (id: string | number, name: string, args: Record<string, unknown>) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });
const textOf = (message: Json) => (message.result?.content as { text: string }[] | undefined)?.[0]?.text;

/** A raw client end: sends JSON values, keeps every message the server sent. */
interface Raw {
  send(message: unknown): void;
  readonly received: Json[];
}

/** The scenario, on a session-era connection, the same for every transport that carries one JSON-RPC connection. */
async function scenario(raw: Raw, holds: ReturnType<typeof holding>) {
  const answers = (id: unknown) => raw.received.filter((m) => m.id === id && m.method === undefined);
  raw.send(INITIALIZE);
  await until(() => answers("init").length === 1, "initialize answered");
  raw.send({ jsonrpc: "2.0", method: "notifications/initialized" });

  raw.send(call("dup", "hold", { key: "first" }));
  await until(() => holds.started("first"), "the first request to start");
  raw.send(call("dup", "echo", { text: "second" }));
  await until(() => answers("dup").length === 1, "the duplicate refused");
  expect(answers("dup")[0]!.error).to.deep.include({ code: -32600 });
  expect(answers("dup")[0]!.error.message).to.match(/already in flight/);

  holds.release("first");
  await until(() => answers("dup").length === 2, "the first answered");
  expect(textOf(answers("dup")[1]!), "the first request's own answer").to.equal("held first");

  raw.send(call("dup", "echo", { text: "again" }));
  await until(() => answers("dup").length === 3, "the id reused");
  expect(textOf(answers("dup")[2]!), "the id is free again once answered").to.equal("again");
}

describe("jsonrpc: a duplicate in-flight request id is refused by the peer, over every transport", () => {
  it("in memory", async () => {
    const { server, holds } = newServer();
    const [serverEnd, clientEnd] = createMemoryPair();
    server.connect(serverEnd);
    const received: Json[] = [];
    clientEnd.start({ message: (value) => received.push(value as Json), malformed: () => {}, closed: () => {} });
    try {
      await scenario({ send: (message) => void clientEnd.send(message), received }, holds);
    } finally {
      await server.close();
    }
  });

  it("over stdio (newline-delimited JSON on a pair of streams)", async () => {
    const { server, holds } = newServer();
    const input = new PassThrough();
    const output = new PassThrough();
    server.connect(new StdioTransport(input, output));
    const received: Json[] = [];
    let buffered = "";
    output.on("data", (chunk: Buffer) => {
      buffered += chunk.toString("utf8");
      let newline: number;
      while ((newline = buffered.indexOf("\n")) >= 0) {
        const line = buffered.slice(0, newline).trim();
        buffered = buffered.slice(newline + 1);
        if (line !== "") received.push(JSON.parse(line) as Json);
      }
    });
    try {
      await scenario({ send: (message) => void input.write(`${JSON.stringify(message)}\n`), received }, holds);
    } finally {
      input.end();
      await server.close();
    }
  });

  describe("over Streamable HTTP (session era)", () => {
    let running: Running;
    let holds: ReturnType<typeof holding>;
    before(async () => {
      running = await startServer({}, (server) => void (holds = holding(server)));
    });
    after(() => running.close());

    for (const accept of ["application/json, text/event-stream", "text/event-stream"])
      it(`the refusal on the duplicate's own POST with 400; the first's answer on its POST (Accept: ${accept})`, async () => {
        const session = await openSession(running.url);
        const headers = { ...sessionHeaders(session), Accept: accept };
        const key = `http ${accept}`;
        const first = post(running.url, call(7, "hold", { key }), headers);
        await until(() => holds.started(key), "the first request to start");
        const refused = await post(running.url, call(7, "echo", { text: "second" }), headers);
        expect(refused.status).to.equal(400);
        expect(refused.contentType).to.equal("application/json");
        expect((refused.json as Json).id).to.equal(7);
        expect((refused.json as Json).error).to.deep.include({ code: -32600 });

        holds.release(key);
        const answered = await first;
        expect(answered.status).to.equal(200);
        const own = ((answered.json ?? answered.messages.find((m) => (m as Json).id === 7)) as Json | undefined)!;
        expect(textOf(own)).to.equal(`held ${key}`);
        const again = await post(running.url, call(7, "echo", { text: "again" }), headers);
        expect(again.status).to.equal(200);
        expect(textOf((again.json ?? again.messages[0]) as Json)).to.equal("again");
      });

    it("2025-03-26 batches: the duplicate refused inside the batch's answer, its other requests served; the first answered on its own POST", async () => {
      const revision = "2025-03-26";
      const session = await openSession(running.url, revision);
      const headers = sessionHeaders(session, revision);
      const first = post(running.url, call("b", "hold", { key: "batch" }), headers);
      await until(() => holds.started("batch"), "the first request to start");
      const batch = await post(running.url, [call("b", "echo", { text: "dup" }), call("c", "echo", { text: "other" })], headers);
      expect(batch.status).to.equal(200);
      const answers = batch.json as Json[];
      expect(answers.find((m) => m.id === "b")?.error).to.deep.include({ code: -32600 });
      expect(textOf(answers.find((m) => m.id === "c")!)).to.equal("other");

      holds.release("batch");
      const answered = await first;
      expect(textOf(answered.json as Json)).to.equal("held batch");
    });
  });
});
