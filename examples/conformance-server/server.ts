// The conformance fixture: the server the official MCP conformance suite expects, with its exact
// tool, resource and prompt names and texts (see ../../../shared/CONFORMANCE.md and the suite's
// scenario sources). Built only on our runtime; main.ts serves it over Streamable HTTP or stdio.
import { createServer, RpcError, type McpServer, type NonceStore, type RequestContext, type TasksOptions } from "../../runtime/index.js";

/** A 1x1 red PNG. */
export const TEST_IMAGE_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
/** A minimal WAV file (a header and two bytes of silence). */
export const TEST_AUDIO_BASE64 = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

/**
 * SEP-1613 and SEP-2106: a 2020-12 input schema that must reach tools/list exactly as written
 * ($schema, $defs with an $anchor, $ref, allOf/anyOf, if/then/else, additionalProperties: false).
 */
export const JSON_SCHEMA_2020_12_INPUT_SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  $defs: {
    address: { $anchor: "addressDef", type: "object", properties: { street: { type: "string" }, city: { type: "string" } } },
  },
  properties: {
    name: { type: "string" },
    address: { $ref: "#/$defs/address" },
    contactMethod: { type: "string", enum: ["phone", "email"] },
    phone: { type: "string" },
    email: { type: "string" },
  },
  allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
  if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
  then: { required: ["phone"] },
  else: { required: ["email"] },
  additionalProperties: false,
} as const;

export interface ConformanceServerOptions {
  /**
   * SEP-1699: closes the HTTP stream that carries a request, so the client reconnects with
   * Last-Event-ID (test_reconnection). Absent over stdio, where there is no such stream.
   */
  readonly closeStream?: (context: RequestContext) => boolean;
  /** Many instances: one secret for cursors and requestState, and one store of requestState nonces. */
  readonly secret?: string;
  readonly nonces?: NonceStore;
  /** Many instances: one store of tasks, so that any instance answers for a task another runs. */
  readonly tasks?: TasksOptions;
  /**
   * Many instances: a tool or prompt toggled on one instance is toggled on all (an application
   * keeps its registrations alike everywhere; here, over the same bus): `publish` sends the change,
   * and each instance applies it with {@link applyChange}. Default: this instance only.
   */
  readonly changes?: { publish(change: Change): Promise<unknown> };
}

export type Change = "tools" | "prompts";

const DYNAMIC_TOOL = "test_dynamic_tool";
const DYNAMIC_PROMPT = "test_dynamic_prompt";

/** Adds the dynamic tool or prompt, or removes it when it is there: tools/list or prompts/list changes. */
export function applyChange(server: McpServer, change: Change): void {
  if (change === "tools" && !server.removeTool(DYNAMIC_TOOL))
    server.tool({ name: DYNAMIC_TOOL, description: "Appears and disappears with test_trigger_tool_change", inputSchema: NO_ARGS }, () => text("dynamic"));
  if (change === "prompts" && !server.removePrompt(DYNAMIC_PROMPT))
    server.prompt({ name: DYNAMIC_PROMPT, description: "Appears and disappears with test_trigger_prompt_change" }, () => ({
      messages: [{ role: "user", content: { type: "text", text: "dynamic" } }],
    }));
}

const NO_ARGS = { type: "object", properties: {} } as const;
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });
const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });

/** The text a sampling result carries: one content block (up to 2025-06-18) or an array (2025-11-25). */
function sampledText(result: Record<string, unknown>): string {
  const content = result.content as { type?: string; text?: string } | { type?: string; text?: string }[] | undefined;
  const blocks = Array.isArray(content) ? content : content ? [content] : [];
  return blocks.find((block) => block.type === "text")?.text ?? "No response";
}

export function createConformanceServer(options: ConformanceServerOptions = {}): McpServer {
  const server = createServer({ name: "mcp-conformance-test-server", version: "1.0.0", secret: options.secret, inputRequired: { nonces: options.nonces }, tasks: options.tasks });
  addTools(server, options);
  addStatelessDiagnostics(server, options);
  addInputRequiredTools(server);
  addTaskTools(server);
  addResources(server);
  addPrompts(server);
  addSkills(server);
  return server;
}

/** SEP-2640: one skill with a subdirectory, for the sep-2640-skills-* scenarios. */
function addSkills(server: McpServer): void {
  server.skill("pdf-processing", {
    "SKILL.md": "---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\nlicense: Apache-2.0\nmetadata:\n  version: \"2.1.0\"\n---\n\n# PDF processing\n\nFor forms, read references/FORMS.md.\n",
    "references/FORMS.md": "# Forms\n\nFill every field before assembling.\n",
  });
}

function addTools(server: McpServer, options: ConformanceServerOptions): void {
  // First in tools/list: the suite calls tools[0] with no arguments and expects success.
  server.tool({ name: "test_simple_text", description: "Tests simple text content response", inputSchema: NO_ARGS }, () =>
    text("This is a simple text response for testing."),
  );
  server.tool({ name: "test_image_content", description: "Tests image content response", inputSchema: NO_ARGS }, () => ({
    content: [{ type: "image", data: TEST_IMAGE_BASE64, mimeType: "image/png" }],
  }));
  server.tool({ name: "test_audio_content", description: "Tests audio content response", inputSchema: NO_ARGS }, () => ({
    content: [{ type: "audio", data: TEST_AUDIO_BASE64, mimeType: "audio/wav" }],
  }));
  server.tool({ name: "test_embedded_resource", description: "Tests embedded resource content response", inputSchema: NO_ARGS }, () => ({
    content: [{ type: "resource", resource: { uri: "test://embedded-resource", mimeType: "text/plain", text: "This is an embedded resource content." } }],
  }));
  server.tool(
    { name: "test_multiple_content_types", description: "Tests response with multiple content types (text, image, resource)", inputSchema: NO_ARGS },
    () => ({
      content: [
        { type: "text", text: "Multiple content types test:" },
        { type: "image", data: TEST_IMAGE_BASE64, mimeType: "image/png" },
        { type: "resource", resource: { uri: "test://mixed-content-resource", mimeType: "application/json", text: JSON.stringify({ test: "data", value: 123 }) } },
      ],
    }),
  );
  server.tool({ name: "test_tool_with_logging", description: "Tests tool that emits log messages during execution", inputSchema: NO_ARGS }, async (_args, ctx) => {
    ctx.log("info", "Tool execution started");
    await sleep(50, ctx.signal);
    ctx.log("info", "Tool processing data");
    await sleep(50, ctx.signal);
    ctx.log("info", "Tool execution completed");
    return text("Tool with logging executed successfully");
  });
  server.tool({ name: "test_error_handling", description: "Tests error response handling", inputSchema: NO_ARGS }, () => {
    throw new Error("This tool intentionally returns an error for testing");
  });
  server.tool({ name: "test_tool_with_progress", description: "Tests tool that reports progress notifications", inputSchema: NO_ARGS }, async (_args, ctx) => {
    for (const step of [0, 50, 100]) {
      ctx.progress(step, 100, `Completed step ${step} of 100`);
      if (step < 100) await sleep(50, ctx.signal);
    }
    return text(String(ctx.meta?.progressToken ?? "no progress token"));
  });
  server.tool(
    {
      name: "test_sampling",
      description: "Tests server-initiated sampling (LLM completion request)",
      inputSchema: { type: "object", properties: { prompt: { type: "string", description: "The prompt to send to the LLM" } }, required: ["prompt"] },
    },
    async ({ prompt }: { prompt: string }, ctx) => {
      const result = await ctx.sample({ messages: [{ role: "user", content: { type: "text", text: prompt } }], maxTokens: 100 });
      return text(`LLM response: ${sampledText(result)}`);
    },
  );
  server.tool(
    {
      name: "test_elicitation",
      description: "Tests server-initiated elicitation (user input request)",
      inputSchema: { type: "object", properties: { message: { type: "string", description: "The message to show the user" } }, required: ["message"] },
    },
    async ({ message }: { message: string }, ctx) => {
      const result = await ctx.elicit({
        message,
        requestedSchema: {
          type: "object",
          properties: {
            username: { type: "string", description: "User's response" },
            email: { type: "string", description: "User's email address" },
          },
          required: ["username", "email"],
        },
      });
      return text(`User response: action=${String(result.action)}, content=${JSON.stringify(result.content ?? {})}`);
    },
  );
  server.tool(
    { name: "test_elicitation_sep1034_defaults", description: "Tests elicitation with default values per SEP-1034", inputSchema: NO_ARGS },
    async (_args, ctx) => {
      const result = await ctx.elicit({
        message: "Please review and update the form fields with defaults",
        requestedSchema: {
          type: "object",
          properties: {
            name: { type: "string", description: "User name", default: "John Doe" },
            age: { type: "integer", description: "User age", default: 30 },
            score: { type: "number", description: "User score", default: 95.5 },
            status: { type: "string", description: "User status", enum: ["active", "inactive", "pending"], default: "active" },
            verified: { type: "boolean", description: "Verification status", default: true },
          },
          required: [],
        },
      });
      return text(`Elicitation completed: action=${String(result.action)}, content=${JSON.stringify(result.content ?? {})}`);
    },
  );
  server.tool(
    { name: "test_elicitation_sep1330_enums", description: "Tests elicitation with enum schema improvements per SEP-1330", inputSchema: NO_ARGS },
    async (_args, ctx) => {
      const result = await ctx.elicit({
        message: "Please select options from the enum fields",
        requestedSchema: {
          type: "object",
          properties: {
            untitledSingle: { type: "string", description: "Select one option", enum: ["option1", "option2", "option3"] },
            titledSingle: {
              type: "string",
              description: "Select one option with titles",
              oneOf: [
                { const: "value1", title: "First Option" },
                { const: "value2", title: "Second Option" },
                { const: "value3", title: "Third Option" },
              ],
            },
            legacyEnum: {
              type: "string",
              description: "Select one option (legacy)",
              enum: ["opt1", "opt2", "opt3"],
              enumNames: ["Option One", "Option Two", "Option Three"],
            },
            untitledMulti: {
              type: "array",
              description: "Select multiple options",
              minItems: 1,
              maxItems: 3,
              items: { type: "string", enum: ["option1", "option2", "option3"] },
            },
            titledMulti: {
              type: "array",
              description: "Select multiple options with titles",
              minItems: 1,
              maxItems: 3,
              items: {
                anyOf: [
                  { const: "value1", title: "First Choice" },
                  { const: "value2", title: "Second Choice" },
                  { const: "value3", title: "Third Choice" },
                ],
              },
            },
          },
          required: [],
        },
      });
      return text(`Elicitation completed: action=${String(result.action)}, content=${JSON.stringify(result.content ?? {})}`);
    },
  );
  server.tool(
    {
      name: "json_schema_2020_12_tool",
      description: "Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613)",
      inputSchema: JSON_SCHEMA_2020_12_INPUT_SCHEMA as unknown as { type: "object" },
    },
    (args) => text(`JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`),
  );
  server.tool(
    {
      name: "test_reconnection",
      description:
        "Tests SSE stream disconnection and client reconnection (SEP-1699). Server will close the stream mid-call and send the result after client reconnects.",
      inputSchema: NO_ARGS,
    },
    async (_args, ctx) => {
      options.closeStream?.(ctx);
      await sleep(100, ctx.signal);
      return text("Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure.");
    },
  );
}

/** The diagnostic tools of the 2026-07-28 server-stateless scenario. */
function addStatelessDiagnostics(server: McpServer, options: ConformanceServerOptions): void {
  server.tool(
    { name: "test_missing_capability", description: "Needs the client's sampling capability: without it, -32021 (stateless) or an error result", inputSchema: NO_ARGS },
    async (_args, ctx) => {
      const result = await ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "ping" } }], maxTokens: 10 }, { key: "sample" });
      return text(`LLM response: ${sampledText(result)}`);
    },
  );
  server.tool({ name: "test_streaming_elicitation", description: "Asks the user through the response stream (InputRequiredResult, never a request)", inputSchema: NO_ARGS }, async (_args, ctx) => {
    const result = await ctx.elicit(
      { message: "What is your name?", requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } },
      { key: "user_name" },
    );
    return text(`User response: ${JSON.stringify(result.content ?? {})}`);
  });
  server.tool({ name: "test_logging_tool", description: "Logs three messages: only sent when the request asked for a log level", inputSchema: NO_ARGS }, (_args, ctx) => {
    ctx.log("info", "Tool execution started");
    ctx.log("info", "Tool processing data");
    ctx.log("info", "Tool execution completed");
    return text("Tool with logging executed successfully");
  });
  // SEP-2243: `region` is mirrored in the Mcp-Param-Region header, which the runtime checks.
  server.tool(
    {
      name: "test_custom_headers",
      description: "Echoes a region that the client also sends as the Mcp-Param-Region header",
      inputSchema: { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } }, required: ["region"] },
    },
    ({ region }: { region: string }) => text(`region=${region}`),
  );
  const change = async (what: Change) => (options.changes ? await options.changes.publish(what) : applyChange(server, what));
  server.tool({ name: "test_trigger_tool_change", description: "Adds or removes a tool, so that tools/list changes", inputSchema: NO_ARGS }, async () => {
    await change("tools");
    return text("tools changed");
  });
  server.tool({ name: "test_trigger_prompt_change", description: "Adds or removes a prompt, so that prompts/list changes", inputSchema: NO_ARGS }, async () => {
    await change("prompts");
    return text("prompts changed");
  });
}

/**
 * SEP-2663, the io.modelcontextprotocol/tasks extension (and 2025-11-25's tasks): the fixtures the
 * tasks-* scenarios name. Tools that declare `execution.taskSupport` finish later through
 * `ctx.task`; one that is "required" refuses a client that cannot take a task.
 */
function addTaskTools(server: McpServer): void {
  const optional = { taskSupport: "optional" } as const;
  const required = { taskSupport: "required" } as const;
  server.tool(
    { name: "greet", description: "Greets at once (never a task)", inputSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } },
    ({ name }) => text(`Hello, ${name}!`),
  );
  server.tool(
    {
      name: "slow_compute",
      description: "Sleeps `seconds`, then answers; as a task when the client can take one",
      inputSchema: { type: "object", properties: { seconds: { type: "number", minimum: 0 }, label: { type: "string" } }, required: ["seconds"] },
      execution: optional,
    },
    ({ seconds, label }, ctx) =>
      ctx.task(async (task) => {
        await sleep(seconds * 1000, task.signal);
        return text(`Computed ${label ?? "result"} after ${seconds} s`);
      }),
  );
  server.tool({ name: "failing_job", description: "A task whose tool reports an error after a second", inputSchema: NO_ARGS, execution: required }, (_args, ctx) =>
    ctx.task(async (task) => {
      await sleep(1000, task.signal);
      return { ...text("The job failed: the input could not be processed"), isError: true };
    }),
  );
  server.tool({ name: "protocol_error_job", description: "A task that ends in a JSON-RPC error", inputSchema: NO_ARGS, execution: optional }, (_args, ctx) =>
    ctx.task(async () => {
      throw new RpcError(-32603, "The job crashed: internal error");
    }),
  );
  const confirmSchema = { type: "object", properties: { confirm: { type: "boolean" } }, required: ["confirm"] };
  server.tool(
    {
      name: "confirm_delete",
      description: "A task that asks the user to confirm, then deletes",
      inputSchema: { type: "object", properties: { filename: { type: "string" } }, required: ["filename"] },
      execution: optional,
    },
    ({ filename }, ctx) =>
      ctx.task(async (task) => {
        const answer = await task.elicit({ message: `Delete ${filename}?`, requestedSchema: confirmSchema });
        const confirmed = answer.action === "accept" && (answer.content as { confirm?: unknown } | undefined)?.confirm === true;
        return text(confirmed ? `Deleted ${filename}` : `Kept ${filename}`);
      }),
  );
  server.tool({ name: "multi_input", description: "A task that asks two questions at once", inputSchema: NO_ARGS, execution: optional }, (_args, ctx) =>
    ctx.task(async (task) => {
      const nameSchema = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };
      const [first, second] = await Promise.all([
        task.elicit({ message: "Your name?", requestedSchema: nameSchema }),
        task.elicit({ message: "Proceed?", requestedSchema: confirmSchema }),
      ]);
      return text(`Answers: ${first.action}, ${second.action}`);
    }),
  );
  server.tool({ name: "test_tool_with_task", description: "Asks the user's name (InputRequiredResult), then finishes as a task", inputSchema: NO_ARGS, execution: required }, async (_args, ctx) => {
    const answer = await ctx.elicit({ message: "What is your name?", requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } }, { key: "user_name" });
    const name = String((answer.content as { name?: unknown } | undefined)?.name ?? "stranger");
    return ctx.task(async () => text(`Hello, ${name}! (from a task)`));
  });
}

/** SEP-2322 (2026-07-28): tools that ask the client, answered through InputRequiredResult rounds. */
function addInputRequiredTools(server: McpServer): void {
  const nameSchema = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };
  const askName = (ctx: RequestContext, key = "user_name", message = "What is your name?") => ctx.elicit({ message, requestedSchema: nameSchema }, { key });
  const contentOf = (result: Record<string, unknown>) => (result.content ?? {}) as Record<string, unknown>;

  server.tool({ name: "test_input_required_result_elicitation", description: "Asks the user's name (one elicitation round)", inputSchema: NO_ARGS }, async (_args, ctx) => {
    const answer = await askName(ctx);
    return text(`Hello, ${String(contentOf(answer).name ?? "stranger")}!`);
  });
  server.tool({ name: "test_input_required_result_sampling", description: "Asks the client's model a question (one sampling round)", inputSchema: NO_ARGS }, async (_args, ctx) => {
    const answer = await ctx.sample(
      { messages: [{ role: "user", content: { type: "text", text: "What is the capital of France?" } }], maxTokens: 100 },
      { key: "capital_question" },
    );
    return text(`Sampling response: ${sampledText(answer)}`);
  });
  server.tool({ name: "test_input_required_result_list_roots", description: "Asks the client for its roots (one roots/list round)", inputSchema: NO_ARGS }, async (_args, ctx) => {
    const answer = await ctx.listRoots({ key: "client_roots" });
    const roots = (answer.roots ?? []) as { uri: string }[];
    return text(`Client roots: ${roots.map((root) => root.uri).join(", ") || "(none)"}`);
  });
  server.tool({ name: "test_input_required_result_request_state", description: "One round whose signed requestState must come back", inputSchema: NO_ARGS }, async (_args, ctx) => {
    const answer = await ctx.elicit(
      { message: "Please confirm", requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] } },
      { key: "confirm" },
    );
    return text(`state-ok: the requestState came back intact; confirmed=${String(contentOf(answer).ok)}`);
  });
  server.tool({ name: "test_input_required_result_multiple_inputs", description: "Asks three things in one round", inputSchema: NO_ARGS }, async (_args, ctx) => {
    const [name, greeting, roots] = await Promise.all([
      askName(ctx),
      ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "Generate a greeting" } }], maxTokens: 50 }, { key: "greeting" }),
      ctx.listRoots({ key: "client_roots" }),
    ]);
    return text(`name=${String(contentOf(name).name)}, greeting=${sampledText(greeting)}, roots=${((roots.roots ?? []) as unknown[]).length}`);
  });
  server.tool({ name: "test_input_required_result_multi_round", description: "Asks twice, one question per round", inputSchema: NO_ARGS }, async (_args, ctx) => {
    const name = await askName(ctx, "step1", "Step 1: What is your name?");
    const color = await ctx.elicit(
      { message: "Step 2: What is your favorite color?", requestedSchema: { type: "object", properties: { color: { type: "string" } }, required: ["color"] } },
      { key: "step2" },
    );
    return text(`name=${String(contentOf(name).name)}, color=${String(contentOf(color).color)}`);
  });
  server.tool({ name: "test_input_required_result_tampered_state", description: "A round whose requestState is HMAC-signed: altered, it is refused", inputSchema: NO_ARGS }, async (_args, ctx) => {
    const answer = await askName(ctx);
    return text(`Hello, ${String(contentOf(answer).name)}!`);
  });
  server.tool(
    { name: "test_input_required_result_capabilities", description: "Asks only what the client declared it can answer", inputSchema: NO_ARGS },
    async (_args, ctx) => {
      const declared = ctx.client.capabilities;
      const answers: string[] = [];
      const asks: Promise<void>[] = [];
      if (declared.elicitation !== undefined) asks.push(askName(ctx).then((a) => void answers.push(`name=${String(contentOf(a).name)}`)));
      if (declared.sampling !== undefined)
        asks.push(
          ctx
            .sample({ messages: [{ role: "user", content: { type: "text", text: "Say hello" } }], maxTokens: 20 }, { key: "greeting" })
            .then((a) => void answers.push(`greeting=${sampledText(a)}`)),
        );
      if (declared.roots !== undefined) asks.push(ctx.listRoots({ key: "client_roots" }).then(() => void answers.push("roots")));
      await Promise.all(asks);
      return text(`Answered: ${answers.join(", ") || "nothing to ask"}`);
    },
  );
  server.prompt(
    { name: "test_input_required_result_prompt", description: "A prompt that asks the user for context first (InputRequiredResult on prompts/get)" },
    async (_args, ctx) => {
      const answer = await ctx.elicit(
        { message: "What context should the prompt use?", requestedSchema: { type: "object", properties: { context: { type: "string" } }, required: ["context"] } },
        { key: "user_context" },
      );
      return { messages: [{ role: "user", content: { type: "text", text: `Use this context: ${String(contentOf(answer).context)}` } }] };
    },
  );
}

function addResources(server: McpServer): void {
  server.resource(
    { uri: "test://static-text", name: "static-text", title: "Static Text Resource", description: "A static text resource for testing", mimeType: "text/plain" },
    (uri) => ({ contents: [{ uri, mimeType: "text/plain", text: "This is the content of the static text resource." }] }),
  );
  server.resource(
    { uri: "test://static-binary", name: "static-binary", title: "Static Binary Resource", description: "A static binary resource (image) for testing", mimeType: "image/png" },
    (uri) => ({ contents: [{ uri, mimeType: "image/png", blob: TEST_IMAGE_BASE64 }] }),
  );
  server.resource(
    { uri: "test://watched-resource", name: "watched-resource", title: "Watched Resource", description: "A resource clients can subscribe to", mimeType: "text/plain" },
    (uri) => ({ contents: [{ uri, mimeType: "text/plain", text: "Watched resource content" }] }),
  );
  server.resourceTemplate(
    {
      uriTemplate: "test://template/{id}/data",
      name: "template",
      title: "Resource Template",
      description: "A resource template with parameter substitution",
      mimeType: "application/json",
    },
    (uri, { id }) => ({ contents: [{ uri, mimeType: "application/json", text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${String(id)}` }) }] }),
  );
}

function addPrompts(server: McpServer): void {
  server.prompt({ name: "test_simple_prompt", title: "Simple Test Prompt", description: "A simple prompt without arguments" }, () => ({
    messages: [{ role: "user", content: { type: "text", text: "This is a simple prompt for testing." } }],
  }));
  server.prompt(
    {
      name: "test_prompt_with_arguments",
      title: "Prompt With Arguments",
      description: "A prompt with required arguments",
      arguments: [
        { name: "arg1", description: "First test argument", required: true },
        { name: "arg2", description: "Second test argument", required: true },
      ],
    },
    ({ arg1, arg2 }) => ({ messages: [{ role: "user", content: { type: "text", text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` } }] }),
    { complete: { arg1: (value) => ["paris", "park", "party", "test", "testing"].filter((candidate) => candidate.startsWith(value)) } },
  );
  server.prompt(
    {
      name: "test_prompt_with_embedded_resource",
      title: "Prompt With Embedded Resource",
      description: "A prompt that includes an embedded resource",
      arguments: [{ name: "resourceUri", description: "URI of the resource to embed", required: true }],
    },
    ({ resourceUri }) => ({
      messages: [
        { role: "user", content: { type: "resource", resource: { uri: resourceUri!, mimeType: "text/plain", text: "Embedded resource content for testing." } } },
        { role: "user", content: { type: "text", text: "Please process the embedded resource above." } },
      ],
    }),
  );
  server.prompt({ name: "test_prompt_with_image", title: "Prompt With Image", description: "A prompt that includes image content" }, () => ({
    messages: [
      { role: "user", content: { type: "image", data: TEST_IMAGE_BASE64, mimeType: "image/png" } },
      { role: "user", content: { type: "text", text: "Please analyze the image above." } },
    ],
  }));
}

export { RpcError };
