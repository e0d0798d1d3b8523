// MemoryTaskStore, the default TaskStore: read-modify-write, watchers told of every change, and
// tasks forgotten once their ttl has passed (never returned after it, swept on create).
import { expect } from "chai";
import { MemoryTaskStore } from "../../../runtime/stores/task-store.js";
import type { TaskRecord } from "../../../runtime/tasks/task.js";

const task = (taskId: string, ttlMs: number | null, createdAt = new Date()): TaskRecord => ({
  taskId,
  status: "working",
  createdAt: createdAt.toISOString(),
  lastUpdatedAt: createdAt.toISOString(),
  ttlMs,
});

describe("MemoryTaskStore", () => {
  it("creates, gets, updates through a change function, and tells watchers until they unsubscribe", async () => {
    const store = new MemoryTaskStore();
    await store.create(task("a", 60_000));
    const seen: string[] = [];
    const stop = store.watch("a", (current) => seen.push(current.status));
    const updated = await store.update("a", (current) => ({ ...current, status: "input_required" }));
    expect(updated?.status).to.equal("input_required");
    expect((await store.get("a"))?.status).to.equal("input_required");
    // No change: nothing written, nobody told, the record as it is.
    expect((await store.update("a", () => undefined))?.status).to.equal("input_required");
    stop();
    await store.update("a", (current) => ({ ...current, status: "completed" }));
    expect(seen).to.deep.equal(["input_required"]);
    expect(await store.update("missing", (current) => current)).to.equal(undefined);
  });

  it("never returns a task past its ttl, keeps one with a null ttl", async () => {
    const store = new MemoryTaskStore();
    const anHourAgo = new Date(Date.now() - 3_600_000);
    await store.create(task("old", 1_000, anHourAgo));
    await store.create(task("forever", null, anHourAgo));
    await store.create(task("fresh", 60_000));
    expect(await store.get("old")).to.equal(undefined);
    expect(await store.update("old", (current) => ({ ...current, status: "cancelled" }))).to.equal(undefined);
    expect((await store.get("forever"))?.taskId).to.equal("forever");
    expect((await store.get("fresh"))?.taskId).to.equal("fresh");
  });
});
