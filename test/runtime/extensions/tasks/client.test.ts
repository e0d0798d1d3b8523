// McpClient and tasks (runtime/extensions/tasks/client.ts), end to end against our server: the client
// declares the tasks extension, follows a CreateTaskResult by polling at the task's interval,
// answers input_required through its handlers, cancels when its signal aborts, and resumes a task
// by id from a new connection. 2026-07-28 over Streamable HTTP (tasks/* carry Mcp-Name, which the
// endpoint checks), 2025-11-25 in memory.
import { expect } from "chai";
import { createServer, McpClient, RpcError, type McpServer } from "../../../../runtime/index.js";
import { createMemoryPair } from "../../../../runtime/transports/memory.js";
import { http, HttpClientTransport, type HttpEndpoint } from "../../../../runtime/transports/http/index.js";
import { quiet, rejectionOf } from "../../../support/features-server.js";
import { until } from "../../../support/mcp.js";
import { registerTaskTools } from "../../../support/task-tools.js";

const POLL_MS = 40;
/** Gates opened by the test, by name; and the gates whose task was stopped. */
const gates = new Map<string, () => void>();
const stopped: string[] = [];
/** Every tasks/get the server saw: method handlers cannot be replaced, so the tool's work counts its polls through the store instead. */
let polls = 0;

const server = (): McpServer => registerTaskTools(createServer({ name: "tasks", version: "1.0.0", logger: quiet, tasks: { pollIntervalMs: POLL_MS } }), { opened: gates, stopped });

const elicitation = { elicitation: () => ({ action: "accept", content: { name: "Ada" } }) };

describe("McpClient with tasks, 2026-07-28 over Streamable HTTP", () => {
  let served: McpServer;
  let endpoint: HttpEndpoint;
  before(async () => {
    endpoint = http({ port: 0 });
    served = server();
    await served.listen(endpoint);
  });
  after(() => served.close());

  const connect = (options: { tasks?: boolean } = {}) =>
    McpClient.connect(new HttpClientTransport(endpoint.url, { fetch: countingFetch }), { name: "t", version: "1", revision: "2026-07-28", handlers: elicitation, logger: quiet, ...options });

  it("callTool follows the task to its result, answering the question through the handlers, polling no faster than pollIntervalMs", async () => {
    const client = await connect();
    try {
      let taskId: string | undefined;
      polls = 0;
      const started = Date.now();
      const result = await client.callTool("greet", {}, { onTask: (id) => (taskId = id) });
      const elapsed = Date.now() - started;
      expect(result.content).to.deep.equal([{ type: "text", text: "Hello, Ada!" }]);
      expect(taskId).to.be.a("string");
      expect((await client.getTask(taskId!)).status).to.equal("completed");
      // Polls are at least POLL_MS apart: never more than one per interval, plus the first.
      expect(polls).to.be.at.least(1).and.at.most(Math.floor(elapsed / POLL_MS) + 1);
    } finally {
      await client.close();
    }
  });

  it("a failed task rejects with its JSON-RPC error", async () => {
    const client = await connect();
    try {
      const error = await rejectionOf(client.callTool("crash"));
      expect(error).to.be.instanceOf(RpcError);
      expect(error.code).to.equal(-32603);
      expect(error.message).to.equal("crashed");
    } finally {
      await client.close();
    }
  });

  it("aborting the call cancels the task on the server", async () => {
    const client = await connect();
    try {
      const controller = new AbortController();
      let taskId: string | undefined;
      const call = client.callTool("gated", { gate: "abort" }, { signal: controller.signal, onTask: (id) => (taskId = id) });
      await until(() => gates.has("abort") && taskId !== undefined);
      controller.abort(new Error("the user gave up"));
      expect((await rejectionOf(call)).message).to.equal("the user gave up");
      await until(() => stopped.includes("abort"));
      expect((await client.getTask(taskId!)).status).to.equal("cancelled");
    } finally {
      await client.close();
    }
  });

  it("resumes by task id from a new connection after the first one closed", async () => {
    const first = await connect();
    let taskId: string | undefined;
    const call = first.callTool("gated", { gate: "resume" }, { onTask: (id) => (taskId = id) });
    await until(() => gates.has("resume") && taskId !== undefined);
    await first.close();
    await rejectionOf(call);

    const second = await connect();
    try {
      const resumed = second.awaitTask(taskId!);
      gates.get("resume")!();
      expect((await resumed).content).to.deep.equal([{ type: "text", text: "opened resume" }]);
    } finally {
      await second.close();
    }
  });

  it("with tasks: false the client does not declare the extension, and the same tool answers inline", async () => {
    const client = await connect({ tasks: false });
    try {
      const call = client.callTool("gated", { gate: "inline" });
      await until(() => gates.has("inline"));
      gates.get("inline")!();
      expect((await call).content).to.deep.equal([{ type: "text", text: "opened inline" }]);
      expect((await rejectionOf(client.getTask("any"))).code).to.equal(-32021);
    } finally {
      await client.close();
    }
  });
});

describe("McpClient with tasks, 2025-11-25", () => {
  it("a task-augmented callTool: followed through tasks/get and tasks/result, its question answered by the handlers", async () => {
    const served = server();
    const [clientEnd, serverEnd] = createMemoryPair();
    await served.listen(serverEnd);
    const client = await McpClient.connect(clientEnd, { name: "t", version: "1", revision: "2025-11-25", handlers: elicitation, logger: quiet });
    try {
      let taskId: string | undefined;
      const result = await client.callTool("greet", {}, { task: { ttl: 60_000 }, onTask: (id) => (taskId = id) });
      expect(result.content).to.deep.equal([{ type: "text", text: "Hello, Ada!" }]);
      expect((await client.getTask(taskId!)).status).to.equal("completed");
      expect((await rejectionOf(client.callTool("crash", {}, { task: {} }))).message).to.equal("crashed");
    } finally {
      await client.close();
      await served.close();
    }
  });
});

/** fetch, counting the tasks/get requests (by their Mcp-Method header) it carries. */
const countingFetch: typeof fetch = (input, init) => {
  const headers = new Headers(init?.headers);
  if (headers.get("mcp-method") === "tasks/get") polls++;
  return fetch(input, init);
};
