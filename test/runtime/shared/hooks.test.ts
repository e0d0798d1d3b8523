// Hooks: one interceptor around every request and notification, in and out, on the server and the
// client; composable (the first outermost), async-safe (context set around next() reaches the
// handler), able to answer without the handler (a cache) or refuse (a denial).
import { AsyncLocalStorage } from "node:async_hooks";
import { expect } from "chai";
import { createMemoryPair, createServer, ErrorCode, McpClient, RpcError, type ClosedConnection, type Exchange, type Hook, type McpServer } from "../../../runtime/index.js";
import { silentLogger } from "../../../runtime/util/logger.js";

const REVISIONS = ["2025-11-25", "2026-07-28"] as const;

interface Seen {
  readonly side: string;
  readonly direction: string;
  readonly kind: string;
  readonly method: string;
  readonly id: unknown;
  readonly revision: string | undefined;
  readonly outcome: "result" | "error";
  readonly value: unknown;
  readonly ms: number;
}

/** A hook that records every exchange it sees, with its outcome. */
function recorder(into: Seen[]): Hook {
  return async (exchange, next) => {
    const record = (outcome: Seen["outcome"], value: unknown) =>
      into.push({ side: exchange.side, direction: exchange.direction, kind: exchange.kind, method: exchange.method, id: exchange.id, revision: exchange.revision, outcome, value, ms: performance.now() - exchange.startedAt });
    try {
      const result = await next();
      record("result", result);
      return result;
    } catch (error) {
      record("error", error);
      throw error;
    }
  };
}

function newServer(hooks: Hook[], storage?: AsyncLocalStorage<string>): McpServer {
  const server = createServer({ name: "hooked", version: "1.0.0", logger: silentLogger, hooks });
  server.tool({ name: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } } } }, ({ text }: { text?: string }, context) => {
    context.progress(1, 1);
    return { content: [{ type: "text", text: `${text ?? ""}${storage ? `|${storage.getStore() ?? "none"}` : ""}` }] };
  });
  return server;
}

async function pair(revision: string, serverHooks: Hook[], clientHooks: Hook[], storage?: AsyncLocalStorage<string>) {
  const server = newServer(serverHooks, storage);
  const [serverEnd, clientEnd] = createMemoryPair();
  server.connect(serverEnd);
  const client = await McpClient.connect(clientEnd, { name: "c", version: "1.0.0", revision, logger: silentLogger, hooks: clientHooks });
  return { server, client };
}

const text = (result: unknown) => ((result as { content: { text: string }[] }).content[0]!.text);

describe("runtime/shared/hooks", () => {
  for (const revision of REVISIONS)
    describe(revision, () => {
      it("a server hook and a client hook each see the call both ways, with the id, the revision and the result", async () => {
        const serverSeen: Seen[] = [];
        const clientSeen: Seen[] = [];
        const { server, client } = await pair(revision, [recorder(serverSeen)], [recorder(clientSeen)]);
        try {
          const result = await client.callTool("echo", { text: "hi" }, { onProgress: () => {} });
          expect(text(result)).to.equal("hi");
          const serverCall = serverSeen.find((seen) => seen.method === "tools/call")!;
          expect(serverCall).to.include({ side: "server", direction: "incoming", kind: "request", revision, outcome: "result" });
          expect(text(serverCall.value)).to.equal("hi");
          expect(serverCall.ms).to.be.at.least(0);
          const clientCall = clientSeen.find((seen) => seen.method === "tools/call")!;
          expect(clientCall).to.include({ side: "client", direction: "outgoing", kind: "request", revision, outcome: "result" });
          // The id the client's request went out with is the one the server saw.
          expect(clientCall.id).to.be.a("number").and.to.equal(serverCall.id);
          // Progress: a notification out of the server, into the client.
          expect(serverSeen.some((seen) => seen.method === "notifications/progress" && seen.direction === "outgoing" && seen.kind === "notification")).to.equal(true);
          expect(clientSeen.some((seen) => seen.method === "notifications/progress" && seen.direction === "incoming")).to.equal(true);
          if (revision === "2025-11-25") {
            expect(serverSeen.map((seen) => `${seen.direction} ${seen.method}`)).to.include.members(["incoming initialize", "incoming notifications/initialized"]);
            expect(clientSeen.map((seen) => `${seen.direction} ${seen.method}`)).to.include.members(["outgoing initialize", "outgoing notifications/initialized"]);
          } else expect(clientSeen.map((seen) => seen.method)).to.include("server/discover");
        } finally {
          await client.close();
          await server.close();
        }
      });

      it("errors reach the hook as the RpcError the other side gets: an unknown method, invalid params", async () => {
        const serverSeen: Seen[] = [];
        const clientSeen: Seen[] = [];
        const { server, client } = await pair(revision, [recorder(serverSeen)], [recorder(clientSeen)]);
        try {
          const unknown = await client.request("no/such", {}).catch((error: unknown) => error);
          const invalid = await client.callTool("echo", { text: 42 }).catch((error: unknown) => error);
          expect((unknown as RpcError).code).to.equal(ErrorCode.MethodNotFound);
          for (const seen of [serverSeen, clientSeen]) {
            const failed = seen.find((entry) => entry.method === "no/such")!;
            expect(failed.outcome).to.equal("error");
            expect((failed.value as RpcError).code).to.equal(ErrorCode.MethodNotFound);
          }
          // Invalid tool arguments: a -32602 error or an isError result, as the revision says; the hook sees the same as the caller.
          const serverCall = serverSeen.find((entry) => entry.method === "tools/call")!;
          if (invalid instanceof RpcError) expect((serverCall.value as RpcError).code).to.equal(invalid.code);
          else expect((serverCall.value as { isError?: boolean }).isError).to.equal(true);
        } finally {
          await client.close();
          await server.close();
        }
      });
    });

  it("hooks compose: the first is the outermost, on the way in and on the way out", async () => {
    const order: string[] = [];
    const named =
      (name: string): Hook =>
      async (exchange, next) => {
        if (exchange.method !== "tools/call") return next();
        order.push(`${name} in`);
        const result = await next();
        order.push(`${name} out`);
        return result;
      };
    const { server, client } = await pair("2025-11-25", [named("s1"), named("s2")], [named("c1"), named("c2")]);
    try {
      await client.callTool("echo", {});
      expect(order).to.deep.equal(["c1 in", "c2 in", "s1 in", "s2 in", "s2 out", "s1 out", "c2 out", "c1 out"]);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it("a hook short-circuits: a denial is the error the caller gets, a cached answer skips the handler", async () => {
    let handled = 0;
    const deny: Hook = (exchange, next) => {
      if (exchange.method === "tools/call" && (exchange.params?.arguments as { text?: string } | undefined)?.text === "secret")
        throw new RpcError(ErrorCode.InvalidRequest, "denied by policy");
      return next();
    };
    const cache = new Map<string, unknown>();
    const cached: Hook = async (exchange, next) => {
      if (exchange.method !== "tools/call") return next();
      const key = JSON.stringify(exchange.params?.arguments);
      if (cache.has(key)) return cache.get(key);
      handled++;
      const result = await next();
      cache.set(key, result);
      return result;
    };
    const { server, client } = await pair("2025-11-25", [deny, cached], []);
    try {
      const refused = await client.callTool("echo", { text: "secret" }).catch((error: unknown) => error);
      expect(refused).to.be.instanceOf(RpcError);
      expect((refused as RpcError).code).to.equal(ErrorCode.InvalidRequest);
      expect((refused as RpcError).message).to.equal("denied by policy");
      expect(text(await client.callTool("echo", { text: "a" }))).to.equal("a");
      expect(text(await client.callTool("echo", { text: "a" }))).to.equal("a");
      expect(handled).to.equal(1);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it("an outgoing hook may change what is sent; the handler runs inside next(), so async context set around it reaches the handler", async () => {
    const storage = new AsyncLocalStorage<string>();
    const stamp: Hook = (exchange, next) => {
      if (exchange.method !== "tools/call") return next();
      const meta = { ...(exchange.params?._meta as Record<string, unknown> | undefined), "example.com/stamp": "from-client" };
      exchange.params = { ...exchange.params, _meta: meta };
      return next();
    };
    const scope: Hook = (exchange, next) => {
      const stamped = (exchange.params?._meta as Record<string, unknown> | undefined)?.["example.com/stamp"];
      return typeof stamped === "string" ? storage.run(stamped, next) : next();
    };
    const { server, client } = await pair("2026-07-28", [scope], [stamp], storage);
    try {
      expect(text(await client.callTool("echo", { text: "x" }))).to.equal("x|from-client");
    } finally {
      await client.close();
      await server.close();
    }
  });

  for (const revision of REVISIONS)
    it(`${revision}: a hook's closed() hears of each side's connection closing once, with its era and revision`, async () => {
      const heard: ClosedConnection[] = [];
      const watcher = Object.assign((_exchange: Exchange, next: () => Promise<unknown>) => next(), { closed: (connection: ClosedConnection) => void heard.push(connection) });
      const { server, client } = await pair(revision, [watcher], [watcher]);
      await client.callTool("echo", {});
      expect(heard).to.deep.equal([]);
      await client.close();
      await server.close();
      const era = revision === "2026-07-28" ? "stateless" : "session";
      expect(heard.map((c) => [c.side, c.era, c.revision, c.error]).sort()).to.deep.equal([
        ["client", era, revision, undefined],
        ["server", era, revision, undefined],
      ]);
      for (const connection of heard) expect(connection.durationMs).to.be.greaterThan(0);
    });

  it("a hook that calls next() twice gets an error the second time, and the request is served once", async () => {
    let second: unknown;
    const twice: Hook = async (exchange: Exchange, next) => {
      if (exchange.method !== "tools/call") return next();
      const result = await next();
      second = await next().catch((error: unknown) => error);
      return result;
    };
    const { server, client } = await pair("2025-11-25", [twice], []);
    try {
      expect(text(await client.callTool("echo", { text: "once" }))).to.equal("once");
      expect((second as Error).message).to.match(/called next\(\) twice for tools\/call/);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
