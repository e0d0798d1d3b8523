// Tasks served (runtime/tasks): one tool handler, `ctx.task`, answered as the
// io.modelcontextprotocol/tasks extension in 2026-07-28 and as 2025-11-25's experimental tasks.
// Lifecycle, input_required answered mid-flight, cancellation, failures, TTL expiry, and the
// precise errors for bad task ids and clients that did not negotiate tasks. The conformance suite's
// ten tasks scenarios (tools/conformance/run.mjs) are the outside oracle; 2025-11-25 answers are
// also checked against that revision's generated validators.
import { expect } from "chai";
import { createServer, McpClient, RpcError, type McpServer } from "../../../../runtime/index.js";
import { createMemoryPair } from "../../../../runtime/transports/memory.js";
import { quiet, rejectionOf } from "../../../support/features-server.js";
import { expectValid, until } from "../../../support/mcp.js";

const TASKS = "io.modelcontextprotocol/tasks";
const NO_ARGS = { type: "object", properties: {} } as const;
const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });
const nameSchema = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };

/** A gate per call of "work", opened by the test: the task finishes exactly when told to. */
const gates = new Map<string, () => void>();
let aborted: string[] = [];

function tasksServer(options: { ttlMs?: number } = {}): McpServer {
  const server = createServer({ name: "tasks", version: "1.0.0", logger: quiet, tasks: { pollIntervalMs: 20, ...options } });
  server.tool(
    { name: "work", description: "waits for its gate", inputSchema: { type: "object", properties: { gate: { type: "string" } }, required: ["gate"] }, execution: { taskSupport: "optional" } },
    ({ gate }, ctx) =>
      ctx.task(async (task) => {
        await new Promise<void>((resolve) => {
          gates.set(gate, resolve);
          task.signal.addEventListener("abort", () => (aborted.push(gate), resolve()), { once: true });
        });
        await task.status(`gate ${gate} opened`);
        return text(`done ${gate} (task ${task.taskId ?? "inline"})`);
      }),
  );
  server.tool({ name: "ask", description: "asks two things at once", inputSchema: NO_ARGS, execution: { taskSupport: "optional" } }, (_args, ctx) =>
    ctx.task(async (task) => {
      const [first, second] = await Promise.all([
        task.elicit({ message: "first?", requestedSchema: nameSchema }, { key: "first" }),
        task.elicit({ message: "second?", requestedSchema: nameSchema }, { key: "second" }),
      ]);
      const name = (answer: Record<string, unknown>) => String((answer.content as { name?: string } | undefined)?.name);
      return text(`${name(first)} and ${name(second)}`);
    }),
  );
  server.tool({ name: "must", description: "only as a task", inputSchema: NO_ARGS, execution: { taskSupport: "required" } }, (_args, ctx) => ctx.task(() => text("ran")));
  server.tool({ name: "boom", description: "a JSON-RPC error", inputSchema: NO_ARGS, execution: { taskSupport: "optional" } }, (_args, ctx) =>
    ctx.task(() => {
      throw new RpcError(-32603, "it broke", { why: "test" });
    }),
  );
  server.tool({ name: "oops", description: "a tool error", inputSchema: NO_ARGS, execution: { taskSupport: "optional" } }, (_args, ctx) =>
    ctx.task(() => {
      throw new Error("bad input");
    }),
  );
  return server;
}

async function connect(server: McpServer, revision: "2026-07-28" | "2025-11-25" | "2025-06-18", capabilities: Record<string, unknown> = {}, handlers = {}): Promise<McpClient> {
  const [clientEnd, serverEnd] = createMemoryPair();
  await server.listen(serverEnd);
  return McpClient.connect(clientEnd, { name: "t", version: "1", revision, capabilities, handlers, validate: "off", cache: false, tasks: false, logger: quiet });
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** tasks/get until `done` says so; bounded. */
async function poll(client: McpClient, taskId: string, done: (task: Json) => boolean): Promise<Json> {
  for (let i = 0; i < 200; i++) {
    const task = await client.request<Json>("tasks/get", { taskId });
    if (done(task)) return task;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`task ${taskId} never got there`);
}
const terminal = (task: Json) => ["completed", "failed", "cancelled"].includes(task.status);

describe("tasks, 2026-07-28 (io.modelcontextprotocol/tasks)", () => {
  let server: McpServer;
  let client: McpClient;
  let plain: McpClient;
  before(async () => {
    server = tasksServer();
    client = await connect(server, "2026-07-28", { extensions: { [TASKS]: {} }, elicitation: {} });
    plain = await connect(server, "2026-07-28", { elicitation: {} });
  });
  after(async () => {
    await client.close();
    await plain.close();
    await server.close();
  });
  beforeEach(() => (aborted = []));

  it("advertises the extension under capabilities.extensions, and not 2025-11-25's tasks slot", async () => {
    const discovered = await client.request<Json>("server/discover", {});
    expect(discovered.capabilities.extensions).to.deep.equal({ [TASKS]: {} });
    expect(discovered.capabilities).not.to.have.property("tasks");
  });

  it("answers CreateTaskResult at once, then tasks/get follows the task to its inlined result", async () => {
    const created = await client.request<Json>("tools/call", { name: "work", arguments: { gate: "a" } });
    expect(created).to.include({ resultType: "task", status: "working", ttlMs: 3_600_000, pollIntervalMs: 20 });
    expect(created.taskId).to.match(/^[0-9a-f-]{36}$/);
    expect(Date.parse(created.createdAt)).to.be.a("number").and.not.NaN;
    expect(created).not.to.have.any.keys("task", "result", "error", "inputRequests", "requestState");

    const working = await client.request<Json>("tasks/get", { taskId: created.taskId });
    expect(working).to.include({ resultType: "complete", taskId: created.taskId, status: "working" });
    expect(working).not.to.have.any.keys("result", "error");

    await until(() => gates.has("a"));
    gates.get("a")!();
    const done = await poll(client, created.taskId, terminal);
    expect(done).to.include({ status: "completed", statusMessage: "gate a opened" });
    expect(done.result.content[0].text).to.equal(`done a (task ${created.taskId})`);
    // The inlined result is the tool's 2026-07-28 CallToolResult, so it carries resultType too.
    expect(done.result.resultType).to.equal("complete");
  });

  it("the same handler answers at once, inline, a request that did not declare the extension", async () => {
    const running = plain.request<Json>("tools/call", { name: "work", arguments: { gate: "inline" } });
    await until(() => gates.has("inline"));
    gates.get("inline")!();
    const result = await running;
    expect(result).to.include({ resultType: "complete" });
    expect(result.content[0].text).to.equal("done inline (task inline)");
    expect(result).not.to.have.property("taskId");
  });

  it("input_required mid-flight: questions in inputRequests, answered in parts by tasks/update, unknown keys ignored", async () => {
    const { taskId } = await client.request<Json>("tools/call", { name: "ask", arguments: {} });
    const waiting = await poll(client, taskId, (task) => Object.keys(task.inputRequests ?? {}).length === 2);
    expect(waiting.status).to.equal("input_required");
    expect(waiting.inputRequests.first).to.deep.include({ method: "elicitation/create" });
    expect(waiting.inputRequests.first.params.message).to.equal("first?");

    const bad = await rejectionOf(client.request("tasks/update", { taskId, inputResponses: { first: { action: "maybe" } } }));
    expect(bad.code).to.equal(-32602);
    expect(bad.message).to.contain('inputResponses["first"]').and.contain("ElicitResult");

    const ack = await client.request<Json>("tasks/update", { taskId, inputResponses: { first: { action: "accept", content: { name: "Ada" } }, nobody: { x: 1 } } });
    expect(ack).to.include({ resultType: "complete" });
    expect(ack).not.to.have.any.keys("taskId", "status");
    const half = await client.request<Json>("tasks/get", { taskId });
    expect(half.status).to.equal("input_required");
    expect(Object.keys(half.inputRequests)).to.deep.equal(["second"]);

    await client.request("tasks/update", { taskId, inputResponses: { second: { action: "accept", content: { name: "Grace" } } } });
    const done = await poll(client, taskId, terminal);
    expect(done.status).to.equal("completed");
    expect(done.result.content[0].text).to.equal("Ada and Grace");
  });

  it("tasks/cancel: an empty ack, the task cancelled, its work's signal aborted; again on a cancelled task, the same ack", async () => {
    const { taskId } = await client.request<Json>("tools/call", { name: "work", arguments: { gate: "c" } });
    await until(() => gates.has("c"));
    const ack = await client.request<Json>("tasks/cancel", { taskId });
    expect(ack).to.include({ resultType: "complete" });
    expect(ack).not.to.have.any.keys("taskId", "status");
    const cancelled = await client.request<Json>("tasks/get", { taskId });
    expect(cancelled.status).to.equal("cancelled");
    await until(() => aborted.includes("c"));
    expect(await client.request<Json>("tasks/cancel", { taskId })).to.include({ resultType: "complete" });
    // The work ended after the cancellation: the task stays cancelled.
    expect((await client.request<Json>("tasks/get", { taskId })).status).to.equal("cancelled");
  });

  it("a JSON-RPC error fails the task with it; a tool error completes it with isError", async () => {
    const boom = await client.request<Json>("tools/call", { name: "boom", arguments: {} });
    const failed = await poll(client, boom.taskId, terminal);
    expect(failed.status).to.equal("failed");
    expect(failed.error).to.deep.equal({ code: -32603, message: "it broke", data: { why: "test" } });
    expect(failed).not.to.have.property("result");

    const oops = await client.request<Json>("tools/call", { name: "oops", arguments: {} });
    const completed = await poll(client, oops.taskId, terminal);
    expect(completed.status).to.equal("completed");
    expect(completed.result).to.deep.include({ isError: true });
    expect(completed.result.content[0].text).to.equal("bad input");
  });

  it("bad task ids and bad params: -32602, precisely", async () => {
    for (const method of ["tasks/get", "tasks/cancel"]) {
      const error = await rejectionOf(client.request(method, { taskId: "no-such-task" }));
      expect(error.code, method).to.equal(-32602);
      expect(error.message, method).to.contain('no task "no-such-task"');
    }
    expect((await rejectionOf(client.request("tasks/update", { taskId: "no-such-task", inputResponses: {} }))).code).to.equal(-32602);
    const missing = await rejectionOf(client.request("tasks/get", {}));
    expect(missing.code).to.equal(-32602);
    expect(missing.message).to.contain("Invalid params for tasks/get").and.contain("taskId");
    const notObject = await rejectionOf(client.request("tasks/update", { taskId: "x", inputResponses: [] }));
    expect(notObject.message).to.contain("/inputResponses");
  });

  it("a client that did not declare the extension: -32021 naming it on tasks/*; a required tool refused the same way", async () => {
    for (const method of ["tasks/get", "tasks/update", "tasks/cancel"]) {
      const error = await rejectionOf(plain.request(method, { taskId: "x", inputResponses: {} }));
      expect(error.code, method).to.equal(-32021);
      expect(error.data, method).to.deep.equal({ requiredCapabilities: { extensions: { [TASKS]: {} } } });
    }
    const required = await rejectionOf(plain.request("tools/call", { name: "must", arguments: {} }));
    expect(required.code).to.equal(-32021);
    expect(required.data).to.deep.equal({ requiredCapabilities: { extensions: { [TASKS]: {} } } });
  });

  it("status notifications: subscriptions/listen with taskIds honours the caller's tasks and sends each change as a DetailedTask", async () => {
    const { taskId } = await client.request<Json>("tools/call", { name: "work", arguments: { gate: "n" } });
    const seen: Json[] = [];
    const stop = client.on("notifications/tasks", (params) => seen.push(params));
    const subscription = client.listen({ taskIds: [taskId, "no-such-task"] });
    try {
      expect(await subscription.acknowledged).to.deep.equal({ taskIds: [taskId] });
      await until(() => gates.has("n"));
      gates.get("n")!();
      await until(() => seen.some((task) => task.status === "completed"));
      const completed = seen.find((task) => task.status === "completed")!;
      expect(completed).to.include({ taskId });
      expect(completed.result.content[0].text).to.equal(`done n (task ${taskId})`);
      expect(completed._meta["io.modelcontextprotocol/subscriptionId"]).to.not.equal(undefined);
    } finally {
      subscription.close();
      stop();
    }
    const refused = plain.listen({ taskIds: [taskId] });
    expect((await rejectionOf(refused.acknowledged)).code).to.equal(-32021);
  });

  it("2025-11-25's tasks/result and tasks/list do not exist here: -32601", async () => {
    for (const method of ["tasks/result", "tasks/list"]) expect((await rejectionOf(client.request(method, { taskId: "x" }))).code, method).to.equal(-32601);
  });
});

describe("tasks, 2025-11-25 (experimental core tasks), same handlers", () => {
  let server: McpServer;
  let client: McpClient;
  const statuses: Json[] = [];
  before(async () => {
    server = tasksServer();
    client = await connect(server, "2025-11-25", { elicitation: {} }, { elicitation: (params: Json) => ({ action: "accept", content: { name: `re:${params.message}` } }) });
    client.on("notifications/tasks/status", (params) => statuses.push(params));
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  it("advertises the tasks capability for tools/call", () => {
    expect(client.serverCapabilities?.tasks).to.deep.equal({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
  });

  it("a task-augmented tools/call: CreateTaskResult, tasks/get, tasks/result waits for the result, tasks/list, status notifications", async () => {
    const created = await client.request<Json>("tools/call", { name: "work", arguments: { gate: "s" }, task: { ttl: 60_000 } });
    expectValid("2025-11-25", "CreateTaskResult", created);
    expect(created.task).to.include({ status: "working", ttl: 60_000, pollInterval: 20 });
    const { taskId } = created.task;

    const got = await client.request<Json>("tasks/get", { taskId });
    expectValid("2025-11-25", "GetTaskResult", got);
    expect(got).to.include({ taskId, status: "working" });
    const listed = await client.request<Json>("tasks/list", {});
    expectValid("2025-11-25", "ListTasksResult", listed);
    expect(listed.tasks.map((task: Json) => task.taskId)).to.include(taskId);

    const result = client.request<Json>("tasks/result", { taskId });
    await until(() => gates.has("s"));
    gates.get("s")!();
    const answered = await result;
    expect(answered.content[0].text).to.equal(`done s (task ${taskId})`);
    expect(answered._meta["io.modelcontextprotocol/related-task"]).to.deep.equal({ taskId });
    await until(() => statuses.some((status) => status.taskId === taskId && status.status === "completed"));
    expectValid("2025-11-25", "TaskStatusNotificationParams", statuses.find((status) => status.taskId === taskId));
  });

  it("a task's questions go to the client as requests tied to the task", async () => {
    const { task } = await client.request<Json>("tools/call", { name: "ask", arguments: {}, task: {} });
    const answered = await client.request<Json>("tasks/result", { taskId: task.taskId });
    expect(answered.content[0].text).to.equal("re:first? and re:second?");
  });

  it("failed: tasks/result is the JSON-RPC error; tasks/cancel of a finished task, and unknown ids: -32602", async () => {
    const { task } = await client.request<Json>("tools/call", { name: "boom", arguments: {}, task: {} });
    const error = await rejectionOf(client.request("tasks/result", { taskId: task.taskId }));
    expect(error.code).to.equal(-32603);
    expect(error.message).to.equal("it broke");
    const cancel = await rejectionOf(client.request("tasks/cancel", { taskId: task.taskId }));
    expect(cancel.code).to.equal(-32602);
    expect(cancel.message).to.contain("already failed");
    expect((await rejectionOf(client.request("tasks/get", { taskId: "nope" }))).code).to.equal(-32602);
  });

  it("tasks/cancel of a running task answers the cancelled task and stops the work", async () => {
    const { task } = await client.request<Json>("tools/call", { name: "work", arguments: { gate: "sc" }, task: {} });
    await until(() => gates.has("sc"));
    const cancelled = await client.request<Json>("tasks/cancel", { taskId: task.taskId });
    expectValid("2025-11-25", "CancelTaskResult", cancelled);
    expect(cancelled.status).to.equal("cancelled");
    await until(() => aborted.includes("sc"));
  });

  it("a required tool called without params.task: -32601; without params.task an optional one answers inline", async () => {
    expect((await rejectionOf(client.request("tools/call", { name: "must", arguments: {} }))).code).to.equal(-32601);
    const inline = await client.request<Json>("tools/call", { name: "oops", arguments: {} });
    expect(inline).to.deep.include({ isError: true });
  });

  it("a revision without tasks neither advertises nor serves them", async () => {
    const old = await connect(server, "2025-06-18");
    try {
      expect(old.serverCapabilities).not.to.have.property("tasks");
      expect((await rejectionOf(old.request("tasks/get", { taskId: "x" }))).code).to.equal(-32601);
    } finally {
      await old.close();
    }
  });
});

describe("tasks: TTL", () => {
  it("a task is kept its ttlMs, then forgotten: tasks/get says -32602", async () => {
    const server = tasksServer({ ttlMs: 150 });
    const client = await connect(server, "2026-07-28", { extensions: { [TASKS]: {} } });
    try {
      const { taskId, ttlMs } = await client.request<Json>("tools/call", { name: "oops", arguments: {} });
      expect(ttlMs).to.equal(150);
      expect((await poll(client, taskId, terminal)).status).to.equal("completed");
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await rejectionOf(client.request("tasks/get", { taskId }))).code).to.equal(-32602);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
