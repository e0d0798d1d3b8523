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
/** When each tasks/get was sent and when its answer arrived (performance.now()), recorded by the client's fetch. */
const polls: { sent: number; answered: number }[] = [];

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

  it("callTool follows the task to its result, answering the question through the handlers", async () => {
    const client = await connect();
    try {
      let taskId: string | undefined;
      const result = await client.callTool("greet", {}, { onTask: (id) => (taskId = id) });
      expect(result.content).to.deep.equal([{ type: "text", text: "Hello, Ada!" }]);
      expect(taskId).to.be.a("string");
      expect((await client.getTask(taskId!)).status).to.equal("completed");
    } finally {
      await client.close();
    }
  });

  it("polls tasks/get no faster than the task's pollInterval", async () => {
    const client = await connect();
    try {
      polls.length = 0;
      const call = client.callTool("gated", { gate: "interval" }, {});
      // Several polls of a task that is still working, then the gate opens.
      await until(() => gates.has("interval") && polls.length >= 5, 30_000, "five polls");
      gates.get("interval")!();
      expect((await call).content).to.deep.equal([{ type: "text", text: "opened interval" }]);
      // Each poll is sent at least pollInterval after the answer to the one before (less 1 ms:
      // timers round to whole milliseconds); measured from the answer, the server's time to answer cannot fill the gap.
      const gaps = polls.slice(1).map((poll, i) => poll.sent - polls[i]!.answered);
      for (const gap of gaps) expect(gap, `gaps between polls (ms): ${gaps.map((g) => g.toFixed(1)).join(", ")}`).to.be.at.least(POLL_MS - 1);
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

/** fetch, noting when it sends each tasks/get request (by its Mcp-Method header) and when the answer comes. */
const countingFetch: typeof fetch = async (input, init) => {
  if (new Headers(init?.headers).get("mcp-method") !== "tasks/get") return fetch(input, init);
  const poll = { sent: performance.now(), answered: Infinity };
  polls.push(poll);
  const response = await fetch(input, init);
  poll.answered = performance.now();
  return response;
};
