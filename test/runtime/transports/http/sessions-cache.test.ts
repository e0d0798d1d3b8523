// Each instance keeps the session records it serves (runtime/transports/http/sessions.ts): a change
// on one instance must be seen at once on another, never a stale copy. Two endpoints in this
// process, each with its own connections to one real redis-server (as two instances would have),
// and requests sent straight to one then the other, with no wait between them.
import { expect } from "chai";
import { connectRedis, type RedisConnection } from "../../../../runtime/stores/redis-connection.js";
import { RedisEventBus } from "../../../../runtime/stores/redis-event-bus.js";
import { RedisEventStore } from "../../../../runtime/stores/redis-event-store.js";
import { RedisSessionStore } from "../../../../runtime/stores/redis-session-store.js";
import { startRedis, type RedisServer } from "../../../support/redis-server.js";
import { openSession, post, sessionHeaders, startServer, type Running } from "./support.js";

const ROUNDS = 12;
const LEVELS = ["error", "debug"] as const;

describe("transports/http/sessions: a session's record cached by each instance, on Redis", function () {
  let redis: RedisServer;
  const connections: RedisConnection[] = [];
  let instances: Running[] = [];
  let id = 10;

  before(async () => {
    redis = await startRedis();
    instances = await Promise.all(
      ["a", "b"].map(async () => {
        const connection = await connectRedis(redis.url);
        connections.push(connection);
        const shared = { sessions: new RedisSessionStore(connection.commands), events: new RedisEventStore(connection.commands), bus: new RedisEventBus(connection) };
        return startServer(shared, (server) =>
          server.tool({ name: "log", inputSchema: { type: "object" } }, (_args, ctx) => {
            ctx.log("debug", "a debug line");
            ctx.log("error", "an error line");
            return { content: [{ type: "text", text: "logged" }] };
          }),
        );
      }),
    );
  });
  after(async () => {
    await Promise.all(instances.map((instance) => instance.close()));
    await Promise.all(connections.map((connection) => connection.close()));
    await redis?.stop();
  });

  const call = async (url: string, sessionId: string, method: string, params: Record<string, unknown>) => {
    const answer = await post(url, { jsonrpc: "2.0", id: ++id, method, params }, sessionHeaders(sessionId));
    expect(answer.status, `${method}: ${answer.text}`).to.equal(200);
    const messages = answer.json === undefined ? answer.messages : [answer.json];
    const response = messages.find((m) => (m as { id?: unknown }).id === id) as { result?: unknown; error?: unknown };
    expect(response?.error, `${method} failed`).to.equal(undefined);
    return messages;
  };
  const loggedLevels = (messages: unknown[]) =>
    messages.filter((m) => (m as { method?: string }).method === "notifications/message").map((m) => (m as { params: { level: string } }).params.level);

  it("logging/setLevel on one instance rules the very next call on the other, every time, both ways", async () => {
    const sessionId = await openSession(instances[0]!.url);
    // Both instances serve the session first, so that each holds a copy to go stale.
    for (const instance of instances) expect(loggedLevels(await call(instance.url, sessionId, "tools/call", { name: "log" }))).to.have.length.greaterThan(0);
    for (let round = 0; round < ROUNDS; round++) {
      const [changer, reader] = round % 2 ? [instances[1]!, instances[0]!] : [instances[0]!, instances[1]!];
      const level = LEVELS[round % LEVELS.length]!;
      await call(changer.url, sessionId, "logging/setLevel", { level });
      const seen = loggedLevels(await call(reader.url, sessionId, "tools/call", { name: "log" }));
      expect(seen, `round ${round}: set to ${level} on one instance, called on the other`).to.deep.equal(level === "error" ? ["error"] : ["debug", "error"]);
    }
  });

  it("a session deleted on one instance is gone on the other at once", async () => {
    const sessionId = await openSession(instances[0]!.url);
    await call(instances[1]!.url, sessionId, "ping", {});
    await call(instances[0]!.url, sessionId, "ping", {});
    const deleted = await fetch(instances[0]!.url, { method: "DELETE", headers: sessionHeaders(sessionId) });
    expect(deleted.status).to.equal(200);
    const after = await post(instances[1]!.url, { jsonrpc: "2.0", id: ++id, method: "ping", params: {} }, sessionHeaders(sessionId));
    expect(after.status, "the other instance's copy was dropped").to.equal(404);
  });
});
