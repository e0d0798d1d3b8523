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

describe("McpClient with tasks, 2025-11-25, input_required", () => {
  // The tasks specification, "Input Required Status": the requestor SHOULD call tasks/result when
  // it sees input_required (server-everything delivers the task's questions only there). The
  // handler answers only once the server has received that tasks/result: polling tasks/get alone never answers.
  /** The ids of the tasks/result requests the server received. */
  const results: unknown[] = [];
  const statuses: unknown[] = [];
  const served = () => {
    const seen = (exchange: { direction: string; kind: string; method: string; params: Record<string, unknown> | undefined }) =>
      exchange.direction === "incoming" && exchange.kind === "request" && exchange.method === "tasks/result" && results.push(exchange.params?.taskId);
    const server = registerTaskTools(
      createServer({ name: "tasks", version: "1.0.0", logger: quiet, tasks: { pollIntervalMs: POLL_MS }, hooks: [(exchange, next) => (seen(exchange), next())] }),
      { opened: gates, stopped },
    );
    // Asks, then works on until its gate opens.
    return server.tool({ name: "ask-then-wait", description: "asks, then waits for its gate", inputSchema: { type: "object", properties: {} }, execution: { taskSupport: "optional" } }, (_args, ctx) =>
      ctx.task(async (task) => {
        const answer = await task.elicit({ message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } });
        await new Promise<void>((resolve) => gates.set("after-answer", resolve));
        return { content: [{ type: "text" as const, text: `Bye, ${String((answer.content as { name?: string }).name)}!` }] };
      }),
    );
  };
  const connect = async (options: { requestTimeoutMs?: number } = {}) => {
    results.length = statuses.length = 0;
    const server = served();
    const [clientEnd, serverEnd] = createMemoryPair();
    await server.listen(serverEnd);
    const handlers = {
      elicitation: async (params: Record<string, unknown>) => {
        const asking = (params._meta as Record<string, { taskId: string }>)["io.modelcontextprotocol/related-task"]!.taskId;
        statuses.push((await client.getTask(asking)).status);
        await until(() => results.includes(asking), 10_000, "tasks/result while the task waits for input");
        return { action: "accept" as const, content: { name: "Ada" } };
      },
    };
    const client = await McpClient.connect(clientEnd, { name: "t", version: "1", revision: "2025-11-25", handlers, logger: quiet, ...options });
    return { client, close: () => client.close().then(() => server.close()) };
  };

  it("a task waiting for input: the client calls tasks/result, then answers the question and gets the result", async () => {
    const { client, close } = await connect();
    try {
      let taskId: string | undefined;
      const result = await client.callTool("greet", {}, { task: { ttl: 60_000 }, onTask: (id) => (taskId = id) });
      expect(result.content).to.deep.equal([{ type: "text", text: "Hello, Ada!" }]);
      expect(statuses).to.deep.equal(["input_required"]);
      expect(results).to.deep.equal([taskId]);
    } finally {
      await close();
    }
  });

  // tasks/result answers when the task is over: while the task may still live (its ttl), the
  // client waits for it, whatever its requestTimeoutMs.
  it("a task that works on after its answer for longer than requestTimeoutMs still gives its result", async () => {
    const REQUEST_TIMEOUT_MS = 500;
    const { client, close } = await connect({ requestTimeoutMs: REQUEST_TIMEOUT_MS });
    try {
      const call = client.callTool("ask-then-wait", {}, { task: { ttl: 60_000 } }).then(
        (result) => ({ result }),
        (error: Error) => ({ error }),
      );
      await until(() => gates.has("after-answer"), 10_000, "the task answered");
      // The task works on for three times the request timeout.
      await new Promise((resolve) => setTimeout(resolve, 3 * REQUEST_TIMEOUT_MS));
      gates.get("after-answer")!();
      const outcome = await call;
      expect("error" in outcome ? outcome.error.message : undefined).to.equal(undefined);
      expect("result" in outcome && outcome.result.content).to.deep.equal([{ type: "text", text: "Bye, Ada!" }]);
      expect(statuses).to.deep.equal(["input_required"]);
    } finally {
      await close();
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
