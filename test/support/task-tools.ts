// Task tools shared by the tasks client tests (ours and the official ext-tasks requester): each
// answers through ctx.task(...), so a client that declares the tasks extension gets a task.
import { RpcError, type McpServer } from "../../runtime/index.js";

const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });
const nameSchema = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };

/** Where the test sees the gated tasks: the gates it may open, by name, and the gates whose task was stopped. */
export interface Gates {
  readonly opened: Map<string, () => void>;
  readonly stopped: string[];
}

/** Registers `gated` (waits for its gate or its cancellation), `greet` (asks a name) and `crash` (fails, task required). */
export function registerTaskTools(served: McpServer, gates: Gates): McpServer {
  served.tool(
    { name: "gated", description: "waits for its gate", inputSchema: { type: "object", properties: { gate: { type: "string" } }, required: ["gate"] }, execution: { taskSupport: "optional" } },
    ({ gate }, ctx) =>
      ctx.task(async (task) => {
        await new Promise<void>((resolve) => {
          gates.opened.set(gate as string, resolve);
          task.signal.addEventListener("abort", () => (gates.stopped.push(gate as string), resolve()), { once: true });
        });
        return text(`opened ${gate}`);
      }),
  );
  served.tool({ name: "greet", description: "asks a name, as a task", inputSchema: { type: "object", properties: {} }, execution: { taskSupport: "optional" } }, (_args, ctx) =>
    ctx.task(async (task) => {
      const answer = await task.elicit({ message: "Name?", requestedSchema: nameSchema });
      return text(`Hello, ${String((answer.content as { name?: string }).name)}!`);
    }),
  );
  served.tool({ name: "crash", description: "fails", inputSchema: { type: "object", properties: {} }, execution: { taskSupport: "required" } }, (_args, ctx) =>
    ctx.task(() => {
      throw new RpcError(-32603, "crashed");
    }),
  );
  return served;
}
