// The tasks extension (2026-07-28) served by our server, driven by its official requester,
// @modelcontextprotocol/ext-tasks (tools/interop): its session over the SDK v2 Client, with the
// host-owned raw dispatch it requires for V2 task traffic posting straight to our Streamable HTTP
// endpoint. It creates tasks through tools/call, polls tasks/get, answers input_required through
// tasks/update and cancels through tasks/cancel.
import { expect } from "chai";
import { createServer, type McpServer } from "../../runtime/index.js";
import { NAMED_BY } from "../../runtime/transports/http/headers.js";
import { http, type HttpEndpoint } from "../../runtime/transports/http/index.js";
import { quiet, rejectionOf } from "../support/features-server.js";
import { until } from "../support/mcp.js";
import { registerTaskTools } from "../support/task-tools.js";
import { interopPeers } from "./support/peers.js";

type Any = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const REVISION = "2026-07-28";
const TASKS = "io.modelcontextprotocol/tasks";
/** Gates opened by the test, by name; and the gates whose task was stopped. */
const gates = new Map<string, () => void>();
const stopped: string[] = [];

function server(): McpServer {
  const served = createServer({ name: "ext-tasks-interop", version: "1.0.0", logger: quiet, tasks: { pollIntervalMs: 20 } });
  served.tool({ name: "square", description: "squares n, as a task", inputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] }, execution: { taskSupport: "optional" } }, ({ n }, ctx) =>
    ctx.task(async () => ({ content: [{ type: "text" as const, text: String((n as number) ** 2) }] })),
  );
  return registerTaskTools(served, { opened: gates, stopped });
}

/** A 2026-07-28 POST of one JSON-RPC request, with the routing headers its body implies (SEP-2243); the response from JSON or from the SSE stream. */
function rawDispatch(url: string) {
  let next = 0;
  return async (request: Any) => {
    const message = { jsonrpc: "2.0", id: `ext-${++next}`, ...request };
    const param = NAMED_BY[message.method];
    const named = param === undefined ? undefined : message.params?.[param];
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": REVISION,
        "mcp-method": message.method,
        ...(typeof named === "string" && { "mcp-name": named }),
      },
      body: JSON.stringify(message),
    });
    const body = await response.text();
    const reply = (response.headers.get("content-type") ?? "").startsWith("text/event-stream")
      ? body
          .split("\n")
          .filter((line) => line.startsWith("data:"))
          .map((line) => JSON.parse(line.slice(5)))
          .find((m) => m.id === message.id)
      : JSON.parse(body);
    return reply.error ? { kind: "error", error: reply.error } : { kind: "result", result: reply.result };
  };
}

describe("interop: the official ext-tasks requester against our tasks server, 2026-07-28 over Streamable HTTP", function () {
  let peers: Any;
  let served: McpServer;
  let endpoint: HttpEndpoint;

  before(async function () {
    peers = await interopPeers(this);
    endpoint = http({ port: 0 });
    served = server();
    await served.listen(endpoint);
  });
  after(() => served?.close());

  async function session(options: Any = {}) {
    const clientInfo = { name: "ext-tasks", version: "0.2.2" };
    const client = new peers.Client(clientInfo, { capabilities: { elicitation: {} }, versionNegotiation: { mode: "auto" } });
    await client.connect(new peers.StreamableHTTPClientTransport(new URL(endpoint.url)));
    const tasks = peers.createTaskSessionFromClient(client, {
      endpointId: "ours",
      rawDispatch: rawDispatch(endpoint.url),
      v2RequestFraming: { protocolVersion: REVISION, clientInfo, clientCapabilities: { elicitation: {} } },
      ...options,
    });
    return { client, tasks, close: async () => (await tasks.close(), await client.close()) };
  }

  it("negotiates 2026-07-28 and sees the tasks extension", async () => {
    const { client, tasks, close } = await session();
    try {
      expect(client.getNegotiatedProtocolVersion()).to.equal(REVISION);
      expect(client.getServerCapabilities().extensions?.[TASKS]).to.deep.equal({});
      expect(tasks.capabilities).to.deep.include({ execution: true, cancellation: true, inputResponses: true });
    } finally {
      await close();
    }
  });

  it("creates a task through tools/call, polls it to completion and reads the result", async () => {
    const { tasks, close } = await session();
    try {
      const execution = await tasks.callTool("square", { n: 7 }, { task: { preference: "require" } });
      expect(execution.kind).to.equal("task");
      const { outcome, lastTask } = await execution.settle();
      expect(outcome.status).to.equal("completed");
      expect(peers.resultFromTaskOutcome(outcome).content).to.deep.equal([{ type: "text", text: "49" }]);
      expect(lastTask?.status).to.equal("completed");
      const snapshot = await tasks.task(execution.handle.taskId).snapshot();
      expect(snapshot.status).to.equal("completed");
    } finally {
      await close();
    }
  });

  it("answers input_required through tasks/update with the requester's input handler", async () => {
    const asked: Any[] = [];
    const { tasks, close } = await session({
      onInputRequest: async (request: Any, context: Any) => {
        asked.push({ kind: request.kind, message: request.params.message, delivery: context.delivery, scope: context.scope });
        return { action: "accept", content: { name: "Ada" } };
      },
    });
    try {
      const execution = await tasks.callTool("greet", {}, { task: { preference: "require" } });
      const statuses: string[] = [];
      const { outcome } = await execution.settle({ onEvent: (event: Any) => event.type === "task" && statuses.push(event.task.status) });
      expect(peers.resultFromTaskOutcome(outcome).content).to.deep.equal([{ type: "text", text: "Hello, Ada!" }]);
      expect(asked).to.deep.equal([{ kind: "elicitation", message: "Name?", delivery: "task-update", scope: "task" }]);
      expect(statuses).to.include("input_required");
    } finally {
      await close();
    }
  });

  it("a failed task settles as failed with its JSON-RPC error", async () => {
    const { tasks, close } = await session();
    try {
      const execution = await tasks.callTool("crash", {});
      expect(execution.kind).to.equal("task");
      const { outcome } = await execution.settle();
      expect(outcome.status).to.equal("failed");
      expect(outcome.error).to.be.instanceOf(peers.TaskFailedError);
      expect([outcome.error.code, outcome.error.message]).to.deep.equal([-32603, "crashed"]);
    } finally {
      await close();
    }
  });

  it("cancels through tasks/cancel: the work is stopped and the task settles as cancelled", async () => {
    const { tasks, close } = await session();
    try {
      const execution = await tasks.callTool("gated", { gate: "cancel" }, { task: { preference: "require" } });
      await until(() => gates.has("cancel"));
      await execution.cancel();
      await until(() => stopped.includes("cancel"));
      const { outcome } = await execution.settle();
      expect(outcome.status).to.equal("cancelled");
      expect(await rejectionOf(Promise.resolve().then(() => peers.resultFromTaskOutcome(outcome)))).to.be.instanceOf(peers.TaskCancelledError);
      expect((await tasks.task(execution.handle.taskId).snapshot()).status).to.equal("cancelled");
    } finally {
      await close();
    }
  });

  it("cancels a task by id from a second session (cancelTask)", async () => {
    const first = await session();
    const second = await session();
    try {
      const execution = await first.tasks.callTool("gated", { gate: "by-id" }, { task: { preference: "require" } });
      await until(() => gates.has("by-id"));
      await second.tasks.cancelTask(execution.handle.taskId);
      await until(() => stopped.includes("by-id"));
      expect((await first.tasks.task(execution.handle.taskId).snapshot()).status).to.equal("cancelled");
      expect((await execution.settle()).outcome.status).to.equal("cancelled");
    } finally {
      await first.close();
      await second.close();
    }
  });
});
