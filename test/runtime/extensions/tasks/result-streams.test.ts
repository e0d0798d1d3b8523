// 2025-11-25 over Streamable HTTP: a task's question (elicitation while the task is
// input_required) goes on the stream of the client's tasks/result request, as the tasks
// specification's "Input Required Status" says, not on the GET stream. Seen from the client's
// side: a fetch that records which HTTP answer carried each message.
import { expect } from "chai";
import { createServer, McpClient, type McpServer } from "../../../../runtime/index.js";
import { http, HttpClientTransport, type HttpEndpoint } from "../../../../runtime/transports/http/index.js";
import { quiet } from "../../../support/features-server.js";
import { until } from "../../../support/mcp.js";
import { registerTaskTools } from "../../../support/task-tools.js";
import { interopPeers } from "../../../interop/support/peers.js";

type Any = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Each HTTP exchange: the method the POST carried (GET for the GET stream), and the SSE text of its answer, as it arrives. */
interface Exchange {
  readonly method: string;
  text: string;
}

function recordingFetch(exchanges: Exchange[]): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const body = typeof init?.body === "string" ? (JSON.parse(init.body) as { method?: string }) : undefined;
    const exchange: Exchange = { method: (init?.method ?? "GET") === "GET" ? "GET" : (body?.method ?? "(response)"), text: "" };
    exchanges.push(exchange);
    if (!response.body || !(response.headers.get("content-type") ?? "").includes("text/event-stream")) return response;
    const [mine, theirs] = response.body.tee();
    void (async () => {
      const reader = mine.getReader();
      const decoder = new TextDecoder();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        exchange.text += decoder.decode(value, { stream: true });
      }
    })().catch(() => {});
    return new Response(theirs, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** Which exchanges carried an elicitation/create request. */
const carriers = (exchanges: Exchange[]) => exchanges.filter((e) => e.text.includes('"method":"elicitation/create"')).map((e) => e.method);

describe("tasks, 2025-11-25 over Streamable HTTP: a task's questions go on the tasks/result stream", function () {
  this.timeout(60_000);
  let served: McpServer;
  let endpoint: HttpEndpoint;
  before(async () => {
    endpoint = http({ port: 0, logger: quiet });
    served = registerTaskTools(createServer({ name: "tasks", version: "1.0.0", logger: quiet, tasks: { pollIntervalMs: 20 } }), { opened: new Map(), stopped: [] });
    await served.listen(endpoint);
  });
  after(() => served.close());

  it("McpClient: the question arrives on its tasks/result POST, none on the GET stream", async () => {
    const exchanges: Exchange[] = [];
    const client = await McpClient.connect(new HttpClientTransport(endpoint.url, { fetch: recordingFetch(exchanges) }), {
      name: "t",
      version: "1",
      revision: "2025-11-25",
      logger: quiet,
      handlers: { elicitation: () => ({ action: "accept", content: { name: "Ada" } }) },
    });
    try {
      const result = await client.callTool("greet", {}, { task: { ttl: 60_000 } });
      expect(result.content).to.deep.equal([{ type: "text", text: "Hello, Ada!" }]);
      expect(carriers(exchanges)).to.deep.equal(["tasks/result"]);
    } finally {
      await client.close();
    }
  });

  it("SDK v2 client (tools/interop): with a GET stream open, the question still comes on tasks/result", async function () {
    const peers = await interopPeers(this);
    const exchanges: Exchange[] = [];
    const client = new peers.Client({ name: "sdk-v2", version: "2.4.0" }, { capabilities: { elicitation: {}, tasks: {} } });
    client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { name: "Ada" } }));
    await client.connect(new peers.StreamableHTTPClientTransport(new URL(endpoint.url), { fetch: recordingFetch(exchanges) }));
    try {
      await until(() => exchanges.some((e) => e.method === "GET"), 10_000, "the SDK's GET stream");
      // A CreateTaskResult: the SDK's tools/call schema wants a CallToolResult, so the request takes a schema that accepts any value.
      const anything = { "~standard": { version: 1, vendor: "test", validate: (value: unknown) => ({ value }) } };
      const created: Any = await client.request({ method: "tools/call", params: { name: "greet", arguments: {}, task: { ttl: 60_000 } } }, anything);
      const taskId = created.task.taskId as string;
      // The requestor's part: poll, and call tasks/result once the task needs input.
      let status = created.task.status as string;
      for (let polls = 0; status === "working" && polls < 500; polls++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        status = ((await client.request({ method: "tasks/get", params: { taskId } }, anything)) as Any).status;
      }
      expect(status).to.equal("input_required");
      const result: Any = await client.request({ method: "tasks/result", params: { taskId } }, anything);
      expect(result.content).to.deep.equal([{ type: "text", text: "Hello, Ada!" }]);
      expect(carriers(exchanges)).to.deep.equal(["tasks/result"]);
    } finally {
      await client.close();
    }
  });
});
