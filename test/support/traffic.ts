/**
 * fast-check arbitraries of MCP traffic for the fuzzing property tests: well-formed
 * JSON-RPC messages of the methods a server answers, the same messages mutated one way or another
 * (a field dropped or of the wrong type, an id no request may have, nesting past the limit), and
 * raw garbage. Request ids are left out: the tests number them, so that each request can be
 * matched with its one answer.
 */
import fc from "fast-check";
import { createServer, type McpServer } from "../../runtime/index.js";

export type Message = Record<string, unknown>;

export const REVISIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] as const;

const text = fc.string({ maxLength: 40 });
const json = fc.jsonValue({ maxDepth: 3 });

/** A request's method and params (no jsonrpc, no id). */
export const request: fc.Arbitrary<Message> = fc.oneof(
  fc.record({ method: fc.constant("initialize"), params: fc.record({ protocolVersion: fc.constantFrom(...REVISIONS, "1999-01-01"), capabilities: fc.constant({}), clientInfo: fc.constant({ name: "fuzz", version: "1" }) }) }),
  fc.constant({ method: "ping" }),
  fc.constant({ method: "tools/list" }),
  fc.record({ method: fc.constant("tools/call"), params: fc.record({ name: fc.constantFrom("echo", "fail", "progress", "missing"), arguments: fc.oneof(fc.record({ text }), json) }) }),
  fc.record({ method: fc.constant("tools/call"), params: fc.record({ name: fc.constant("progress"), arguments: fc.constant({}), _meta: fc.record({ progressToken: fc.oneof(text, fc.integer()) }) }) }),
  fc.record({ method: fc.constant("resources/read"), params: fc.record({ uri: fc.oneof(fc.constant("test://a"), text) }) }),
  fc.record({ method: fc.constant("prompts/get"), params: fc.record({ name: fc.oneof(fc.constant("hello"), text) }) }),
  fc.record({ method: fc.constant("logging/setLevel"), params: fc.record({ level: fc.constantFrom("debug", "info", "emergency", "loud") }) }),
  fc.record({ method: fc.constantFrom("tasks/get", "tasks/result", "tasks/cancel"), params: fc.record({ taskId: text }) }),
  fc.record({ method: fc.oneof(text, fc.constantFrom("completion/complete", "resources/subscribe", "sampling/createMessage")), params: fc.option(fc.dictionary(text, json), { nil: undefined }) }),
);

/** A notification: method and params, never an id. */
export const notification: fc.Arbitrary<Message> = fc.oneof(
  fc.constant({ jsonrpc: "2.0", method: "notifications/initialized" }),
  fc.record({ jsonrpc: fc.constant("2.0"), method: fc.constant("notifications/cancelled"), params: fc.record({ requestId: fc.oneof(fc.integer(), text), reason: text }) }),
  fc.record({ jsonrpc: fc.constant("2.0"), method: fc.constant("notifications/progress"), params: fc.record({ progressToken: text, progress: fc.double() }) }),
  fc.record({ jsonrpc: fc.constant("2.0"), method: fc.oneof(text, fc.constant("notifications/roots/list_changed")) }),
);

/** Answers to requests the server never sent, and other responses out of nowhere. */
export const response: fc.Arbitrary<Message> = fc.oneof(
  fc.record({ jsonrpc: fc.constant("2.0"), id: fc.oneof(fc.integer(), text), result: fc.dictionary(text, json) }),
  fc.record({ jsonrpc: fc.constant("2.0"), id: fc.oneof(fc.integer(), text, fc.constant(null)), error: fc.record({ code: fc.integer(), message: text }) }),
);

/** One way to break a message; the id is the caller's and is kept (or dropped, as "id" says). */
export const mutation = fc.constantFrom("jsonrpc", "jsonrpc-1.0", "method-number", "params-array", "params-string", "id-null", "id-object", "id-float", "id-bool", "result-too", "deep", "extra") ;
export type Mutation = typeof mutation extends fc.Arbitrary<infer M> ? M : never;

/** `message` broken by `how`. */
export function mutate(message: Message, how: Mutation): Message {
  const m = { ...message };
  switch (how) {
    case "jsonrpc":
      delete m.jsonrpc;
      break;
    case "jsonrpc-1.0":
      m.jsonrpc = "1.0";
      break;
    case "method-number":
      m.method = 42;
      break;
    case "params-array":
      m.params = [1, 2];
      break;
    case "params-string":
      m.params = "params";
      break;
    case "id-null":
      m.id = null;
      break;
    case "id-object":
      m.id = { id: 1 };
      break;
    case "id-float":
      m.id = 1.5;
      break;
    case "id-bool":
      m.id = true;
      break;
    case "result-too":
      m.result = {};
      break;
    case "deep": {
      let deep: unknown = 1;
      for (let i = 0; i < 200; i++) deep = [deep];
      m.params = { deep };
      break;
    }
    case "extra":
      m.__proto__extra = { constructor: "x" };
      break;
  }
  return m;
}

/** Whether `m` is a request the server must answer with exactly one response carrying its id. */
export function answerable(m: unknown): m is Message & { id: string | number } {
  if (typeof m !== "object" || m === null || Array.isArray(m)) return false;
  const r = m as Message;
  return r.jsonrpc === "2.0" && typeof r.method === "string" && (typeof r.id === "string" || (typeof r.id === "number" && Number.isInteger(r.id))) && r.result === undefined && r.error === undefined;
}

/** What may come back: a JSON-RPC 2.0 response (exactly one of result and error, a well-formed error), or a message of the server's own. */
export function validOutbound(m: unknown): string | undefined {
  if (typeof m !== "object" || m === null) return "not an object";
  if (Array.isArray(m)) return m.length === 0 ? "an empty batch" : m.map(validOutbound).find((e) => e !== undefined);
  const r = m as Message;
  if (r.jsonrpc !== "2.0") return "jsonrpc is not 2.0";
  if (typeof r.method === "string") return undefined; // the server's notification or request
  if (!("id" in r)) return "a response without id";
  if (("result" in r) === ("error" in r)) return "not exactly one of result and error";
  if ("error" in r) {
    const e = r.error as { code?: unknown; message?: unknown } | null;
    if (typeof e !== "object" || e === null || !Number.isInteger(e.code) || typeof e.message !== "string") return `a malformed error ${JSON.stringify(e)}`;
  } else if (typeof r.result !== "object" || r.result === null || Array.isArray(r.result)) return "a result that is not an object";
  return undefined;
}

/** One item of traffic: a request to number, a message sent as is, a mutated request, or raw text. */
export type Item =
  | { readonly kind: "request"; readonly message: Message }
  | { readonly kind: "as-is"; readonly message: unknown }
  | { readonly kind: "mutated"; readonly message: Message; readonly how: Mutation }
  | { readonly kind: "raw"; readonly text: string };

export const item: fc.Arbitrary<Item> = fc.oneof(
  { weight: 6, arbitrary: request.map((message) => ({ kind: "request" as const, message })) },
  { weight: 2, arbitrary: fc.oneof(notification, response).map((message) => ({ kind: "as-is" as const, message })) },
  { weight: 1, arbitrary: fc.array(request, { maxLength: 3 }).map((batch) => ({ kind: "as-is" as const, message: batch.map((m, i) => ({ jsonrpc: "2.0", id: `b${i}`, ...m })) })) },
  { weight: 3, arbitrary: fc.tuple(request, mutation).map(([message, how]) => ({ kind: "mutated" as const, message, how })) },
  { weight: 1, arbitrary: fc.oneof(fc.string({ maxLength: 60 }), json.map((v) => JSON.stringify(v))).map((text) => ({ kind: "raw" as const, text })) },
);

/** The item as a JSON-RPC message (or raw text), requests numbered from `next()`. */
export function materialize(one: Item, next: () => number): { readonly body: unknown; readonly raw?: string } {
  switch (one.kind) {
    case "request":
      return { body: { jsonrpc: "2.0", id: next(), ...one.message } };
    case "as-is":
      return { body: one.message };
    case "mutated":
      return { body: mutate({ jsonrpc: "2.0", id: next(), ...one.message }, one.how) };
    case "raw":
      return { body: undefined, raw: one.text };
  }
}

/**
 * The server the fuzzing tests aim at: tools that answer, fail and send progress and logs, a
 * resource and a prompt; with `tasks`, also a tool answered as a task.
 */
export function fuzzServer(options: { tasks?: boolean } = {}): McpServer {
  const server = createServer({ name: "fuzz", version: "1", logger: () => {}, ...(options.tasks && { tasks: {} }) });
  if (options.tasks)
    server.tool({ name: "quick", inputSchema: { type: "object" }, execution: { taskSupport: "optional" } }, (_args, ctx) => ctx.task(async () => ({ content: [{ type: "text" as const, text: "done" }] })));
  server.tool({ name: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } } } }, ({ text }: { text?: string }) => ({ content: [{ type: "text", text: text ?? "" }] }));
  server.tool({ name: "fail", inputSchema: { type: "object" } }, () => {
    throw new Error("it fails");
  });
  server.tool({ name: "progress", inputSchema: { type: "object" } }, async (_args, ctx) => {
    await ctx.progress(1, 2);
    await ctx.log("info", "halfway");
    await ctx.progress(2, 2);
    return { content: [{ type: "text", text: "done" }] };
  });
  server.resource({ uri: "test://a", name: "a", mimeType: "text/plain" }, (uri) => ({ contents: [{ uri, mimeType: "text/plain", text: "A" }] }));
  server.prompt({ name: "hello" }, () => ({ messages: [{ role: "user", content: { type: "text", text: "hello" } }] }));
  return server;
}
