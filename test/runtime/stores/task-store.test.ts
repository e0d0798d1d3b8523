// The TaskStore contract, in memory and in a real redis-server (two connections sharing it):
// read-modify-write, watchers told of every change made through any store, tasks never returned
// past their ttl. Then the point of a shared store: two server instances on one Redis, a task
// started on A and followed, answered and finished through B (McpClient resuming it by id).
import { expect } from "chai";
import { createServer, McpClient, type McpServer } from "../../../runtime/index.js";
import { RedisTaskStore } from "../../../runtime/stores/redis-task-store.js";
import { MemoryTaskStore, type TaskStore } from "../../../runtime/stores/task-store.js";
import type { TaskRecord } from "../../../runtime/stores/task-store.js";
import { createMemoryPair } from "../../../runtime/transports/memory.js";
import { quiet } from "../../support/features-server.js";
import { until } from "../../support/mcp.js";
import { redisForSuite } from "../../support/redis-server.js";

const task = (taskId: string, ttlMs: number | null, createdAt = new Date()): TaskRecord => ({
  taskId,
  status: "working",
  createdAt: createdAt.toISOString(),
  lastUpdatedAt: createdAt.toISOString(),
  ttlMs,
});

describe("stores: tasks", () => {
  const { connect } = redisForSuite();

  const contract = (name: string, make: () => Promise<[TaskStore, TaskStore]>) =>
    describe(name, () => {
      it("creates, gets, updates through a change function, and tells watchers (of either store) until they unsubscribe", async () => {
        const [one, other] = await make();
        await one.create(task("a", 60_000));
        const seen: string[] = [];
        const stop = other.watch("a", (current) => seen.push(current.status));
        // The watch is live once it has delivered the record as it is (Redis: after subscribing).
        await until(() => seen.length > 0 || one instanceof MemoryTaskStore);
        seen.length = 0;
        const updated = await one.update("a", (current) => ({ ...current, status: "input_required" }));
        expect(updated?.status).to.equal("input_required");
        expect((await other.get("a"))?.status).to.equal("input_required");
        await until(() => seen.includes("input_required"));
        // No change: nothing written, the record as it is.
        expect((await one.update("a", () => undefined))?.status).to.equal("input_required");
        stop();
        expect(await one.update("missing", (current) => current)).to.equal(undefined);
      });

      it("concurrent changes through both stores all land (none lost)", async () => {
        const [one, other] = await make();
        await one.create({ ...task("count", 60_000), inputResponses: {} });
        await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            (i % 2 ? one : other).update("count", (current) => ({ ...current, inputResponses: { ...current.inputResponses, [`k${i}`]: i } })),
          ),
        );
        expect(Object.keys((await one.get("count"))!.inputResponses!)).to.have.length(20);
      });

      it("never returns a task past its ttl, keeps one with a null ttl", async () => {
        const [one, other] = await make();
        const anHourAgo = new Date(Date.now() - 3_600_000);
        await one.create(task("forever", null, anHourAgo));
        await one.create(task("fresh", 60_000));
        await one.create(task("old", 1_000, anHourAgo));
        expect(await other.get("old")).to.equal(undefined);
        expect(await other.update("old", (current) => ({ ...current, status: "cancelled" }))).to.equal(undefined);
        expect((await other.get("forever"))?.taskId).to.equal("forever");
        expect((await other.get("fresh"))?.taskId).to.equal("fresh");
      });
    });

  contract("MemoryTaskStore (one process)", async () => {
    const store = new MemoryTaskStore();
    return [store, store];
  });
  contract("RedisTaskStore (two connections to one redis-server)", async () => {
    const prefix = `test-${Math.random().toString(36).slice(2)}:`;
    return [new RedisTaskStore(await connect(), prefix), new RedisTaskStore(await connect(), prefix)];
  });

  it("RedisTaskStore: Redis expires the task at createdAt + ttlMs", async () => {
    const connection = await connect();
    const store = new RedisTaskStore(connection, "ttl:");
    const record = task("t", 60_000);
    await store.create(record);
    expect(Number(await connection.commands.sendCommand(["PEXPIRETIME", "ttl:task:t"]))).to.equal(Date.parse(record.createdAt) + 60_000);
  });

  describe("two server instances sharing Redis", () => {
    const servers: McpServer[] = [];
    const clients: McpClient[] = [];
    after(async () => {
      await Promise.all(clients.map((client) => client.close()));
      await Promise.all(servers.map((server) => server.close()));
    });
    const instance = async (name: string) => {
      const server = createServer({ name, version: "1.0.0", logger: quiet, tasks: { store: new RedisTaskStore(await connect(), "shared:"), pollIntervalMs: 20 } });
      server.tool({ name: "greet", description: "asks a name, as a task", inputSchema: { type: "object", properties: {} }, execution: { taskSupport: "optional" } }, (_args, ctx) =>
        ctx.task(async (running) => {
          const answer = await running.elicit({ message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } });
          return { content: [{ type: "text" as const, text: `Hello, ${String((answer.content as { name?: string }).name)}, from ${name}` }] };
        }),
      );
      servers.push(server);
      return server;
    };
    const client = async (server: McpServer, handlers = {}, capabilities = {}) => {
      const [clientEnd, serverEnd] = createMemoryPair();
      await server.listen(serverEnd);
      const connected = await McpClient.connect(clientEnd, { name: "t", version: "1", revision: "2026-07-28", handlers, capabilities, logger: quiet });
      clients.push(connected);
      return connected;
    };

    it("a task started on A is read, answered and finished through B: McpClient resumes it there by id", async () => {
      const [a, b] = [await instance("A"), await instance("B")];
      // On A, a client that may be asked (it declares elicitation) but has no handler to answer:
      // it starts the task, learns its id, and leaves.
      const onA = await client(a, {}, { elicitation: {} });
      let taskId: string | undefined;
      const started = onA.callTool("greet", {}, { onTask: (id) => (taskId = id) }).catch((error: Error) => error);
      await until(() => taskId !== undefined);
      await onA.close();
      await started;

      const onB = await client(b, { elicitation: () => ({ action: "accept", content: { name: "Ada" } }) });
      const result = await onB.awaitTask(taskId!);
      // The work ran on A; the question was asked and answered through B.
      expect(result.content).to.deep.equal([{ type: "text", text: "Hello, Ada, from A" }]);
      expect((await onB.getTask(taskId!)).status).to.equal("completed");
    });
  });
});
