// until (runtime/extensions/tasks/until.ts): a wait on a task's record. On workerd a change
// another request writes never resumes the waiting context, so the wait re-reads the store on a
// timer; the workerd conformance run (tools/runtimes/run.mjs, tasks-mrtr-*) is the outside oracle.
import { expect } from "chai";
import { until } from "../../../../runtime/extensions/tasks/until.js";
import { MemoryTaskStore, type TaskRecord } from "../../../../runtime/stores/task-store.js";
import { crossRequestPollMs } from "../../../../runtime/util/platform.js";
import { asWorkerd } from "../../../support/platform.js";

const now = new Date().toISOString();
const record: TaskRecord = { taskId: "t1", status: "working", createdAt: now, lastUpdatedAt: now, ttlMs: null };
/** Long enough for several of workerd's re-reads. */
const SEVERAL_POLLS_MS = 10 * (await asWorkerd(crossRequestPollMs))!;
const completed = (task: TaskRecord) => (task.status === "completed" ? task : undefined);
const gone = () => new Error("gone");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A store whose watch hears nothing (what a waiting context on workerd gets of another request's write), counting its reads. */
class DeafStore extends MemoryTaskStore {
  reads = 0;
  override get(taskId: string): Promise<TaskRecord | undefined> {
    this.reads++;
    return super.get(taskId);
  }
  override watch(): () => void {
    return () => undefined;
  }
}

async function deafStore(): Promise<DeafStore> {
  const store = new DeafStore();
  await store.create(record);
  return store;
}

describe("runtime/extensions/tasks/until", () => {
  it("settles on the change the watch delivers", async () => {
    const store = new MemoryTaskStore();
    await store.create(record);
    const waiting = until(store, "t1", new AbortController().signal, completed, gone);
    await store.update("t1", (task) => ({ ...task, status: "completed" }));
    expect((await waiting).status).to.equal("completed");
  });

  it("on workerd, finds a change its watch never heard by re-reading the store, and stops reading once settled", async () => {
    const store = await deafStore();
    const waiting = asWorkerd(() => until(store, "t1", new AbortController().signal, completed, gone));
    await store.update("t1", (task) => ({ ...task, status: "completed" }));
    expect((await waiting).status).to.equal("completed");
    const reads = store.reads;
    await sleep(SEVERAL_POLLS_MS);
    expect(store.reads, "reads after the wait settled").to.equal(reads);
  });

  it("elsewhere reads once, at the start, and is ended by its signal", async () => {
    const store = await deafStore();
    const controller = new AbortController();
    const waiting = until(store, "t1", controller.signal, completed, gone);
    await sleep(SEVERAL_POLLS_MS);
    expect(store.reads).to.equal(1);
    controller.abort(new Error("stopped"));
    const error = await waiting.then(
      () => undefined,
      (reason: Error) => reason,
    );
    expect(error?.message).to.equal("stopped");
  });

  it("on workerd, rejects with gone() when a re-read finds the task expired", async () => {
    const store = new DeafStore();
    await store.create({ ...record, createdAt: new Date().toISOString(), ttlMs: SEVERAL_POLLS_MS / 2 });
    const error = await asWorkerd(() => until(store, "t1", new AbortController().signal, completed, gone)).then(
      () => undefined,
      (reason: Error) => reason,
    );
    expect(error?.message).to.equal("gone");
  });
});
