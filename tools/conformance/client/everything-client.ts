// The conformance suite's client under test: McpClient, driven per scenario the way the suite's
// README and the official SDK's harness (test/conformance/src/everythingClient.ts in
// modelcontextprotocol/typescript-sdk) define it.
//
//   MCP_CONFORMANCE_SCENARIO=<name> [MCP_CONFORMANCE_CONTEXT=<json>] [MCP_CONFORMANCE_PROTOCOL_VERSION=<rev>] \
//     node dist/tools/conformance/client/everything-client.js <server-url>   (compiled by `make build`)
//
// Exits 0 when the scenario's steps ran, 1 (with the error on stderr) otherwise. The verdict is the
// suite's: it judges what its mock server saw.
import { McpClient, SkillsClient, type ClientOptions } from "../../../runtime/index.js";
import { HttpClientTransport } from "../../../runtime/http.js";

type Scenario = (url: string) => Promise<void>;

const IDENTITY = { name: "mcp-codegen-conformance-client", version: "1.0.0" };
const MODERN = "2026-07-28";

/** The revision to open with: what the run pins, else auto-negotiation for 2026-07-28 runs and scenarios. */
function revision(modernOnly = false): ClientOptions["revision"] {
  const pinned = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION;
  if (modernOnly || pinned === MODERN) return "auto";
  return (pinned as ClientOptions["revision"]) ?? "2025-11-25";
}

async function connect(url: string, options: Partial<ClientOptions> & { localDiscover?: boolean } = {}): Promise<McpClient> {
  const { localDiscover, ...rest } = options;
  const transport = new HttpClientTransport(url, localDiscover ? { fetch: answerDiscoverLocally() } : {});
  return McpClient.connect(transport, { ...IDENTITY, revision: revision(), ...rest });
}

/**
 * Some 2026-07-28 mock servers implement only the calls they judge and answer server/discover
 * with -32601: as the SDK's harness does, discovery is answered here and everything else goes to
 * the mock.
 */
function answerDiscoverLocally(): typeof fetch {
  return async (input, init) => {
    if (typeof init?.body === "string") {
      const message = JSON.parse(init.body) as { id?: unknown; method?: string };
      if (message.method === "server/discover")
        return Response.json({
          jsonrpc: "2.0",
          id: message.id,
          result: {
            resultType: "complete",
            ttlMs: 0,
            cacheScope: "private",
            supportedVersions: [MODERN],
            capabilities: { tools: { listChanged: true }, resources: {}, prompts: {} },
            _meta: { "io.modelcontextprotocol/serverInfo": { name: "local", version: "1.0.0" } },
          },
        });
    }
    return fetch(input, init);
  };
}

function context(): Record<string, unknown> {
  const raw = process.env.MCP_CONFORMANCE_CONTEXT;
  return raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
}

async function listAndCall(url: string, tool: string, args: Record<string, unknown>, options: Partial<ClientOptions> = {}): Promise<void> {
  const client = await connect(url, options);
  try {
    const { items } = await client.listTools({ all: true });
    if (items.some((t) => t.name === tool)) await client.callTool(tool, args);
    else if (tool !== "add_numbers") throw new Error(`the server does not list ${tool}`);
  } finally {
    await client.close();
  }
}

const scenarios: Record<string, Scenario> = {
  initialize: async (url) => {
    const client = await connect(url);
    await client.listTools();
    await client.close();
  },
  tools_call: (url) => listAndCall(url, "add_numbers", { a: 5, b: 3 }),
  "elicitation-sep1034-client-defaults": (url) =>
    listAndCall(url, "test_client_elicitation_defaults", {}, {
      capabilities: { elicitation: { form: {} } },
      // Accept with nothing filled in: McpClient fills the schema's defaults (SEP-1034).
      handlers: { elicitation: () => ({ action: "accept", content: {} }) },
    }),
  "sse-retry": (url) => listAndCall(url, "test_reconnection", {}),
  "request-metadata": async (url) => {
    const client = await connect(url, { revision: "auto", capabilities: { roots: { listChanged: true }, sampling: {}, elicitation: {} } });
    await client.close();
  },
  "sep-2322-client-request-state": async (url) => {
    const client = await connect(url, {
      revision: "auto",
      localDiscover: true,
      handlers: { elicitation: () => ({ action: "accept", content: { confirmed: true } }) },
    });
    try {
      await client.callTool("test_mrtr_echo_state");
      await client.callTool("test_mrtr_no_state");
      await client.callTool("test_mrtr_unrelated");
      await client.callTool("test_mrtr_no_result_type");
    } finally {
      await client.close();
    }
  },
  "http-standard-headers": async (url) => {
    const client = await connect(url, { revision: "auto", localDiscover: true });
    try {
      const tool = (await client.listTools()).items[0];
      if (tool) await client.callTool(tool.name, {});
      const resource = (await client.listResources()).items[0];
      if (resource) await client.readResource(resource.uri);
      const prompt = (await client.listPrompts()).items[0];
      if (prompt) await client.getPrompt(prompt.name, {});
    } finally {
      await client.close();
    }
  },
  "http-custom-headers": async (url) => {
    const client = await connect(url, { revision: "auto", localDiscover: true });
    try {
      await client.listTools({ all: true });
      const calls = (context().toolCalls ?? []) as { name: string; arguments: Record<string, unknown> }[];
      for (const call of calls) await client.callTool(call.name, call.arguments);
    } finally {
      await client.close();
    }
  },
  "http-invalid-tool-headers": async (url) => {
    const client = await connect(url, { revision: "auto", localDiscover: true, logger: () => {} });
    try {
      // listTools leaves out every tool whose x-mcp-header annotation is invalid (SEP-2243).
      for (const tool of (await client.listTools({ all: true })).items) await client.callTool(tool.name, { region: "us-west1" });
    } finally {
      await client.close();
    }
  },
  "json-schema-ref-no-deref": async (url) => {
    const client = await connect(url, { revision: "auto" });
    await client.listTools({ all: true });
    await client.close();
  },
  "json-schema-2020-12-preservation": async (url) => {
    const client = await connect(url);
    try {
      const focal = (await client.listTools({ all: true })).items.find((t) => t.name === "json_schema_2020_12_tool");
      if (!focal) throw new Error("the server does not list json_schema_2020_12_tool");
      await client.callTool("json_schema_echo", { schema: focal.inputSchema });
    } finally {
      await client.close();
    }
  },
  // SEP-2640 skills (an extension), through SkillsClient: listing reads no file; loading a skill
  // reads its SKILL.md, verified (size, digest, frontmatter) before anything else of it is read.
  "sep-2640-client-no-prefetch": async (url) => {
    const client = await connect(url);
    try {
      await new SkillsClient(client).list();
    } finally {
      await client.close();
    }
  },
  "sep-2640-client-verify-digest": loadFirstSkill,
  "sep-2640-client-verify-size": loadFirstSkill,
  "sep-2640-client-verify-frontmatter": loadFirstSkill,
};

/** Loads the first listed skill, then reads its other files; a verification failure stops it (exit 1). */
async function loadFirstSkill(url: string): Promise<void> {
  const client = await connect(url);
  try {
    const skills = new SkillsClient(client);
    const skill = (await skills.list()).skills[0];
    if (!skill) throw new Error("skills/list returned no skill");
    await skills.read(skill);
    if (skill.resources !== "dynamic") for (const file of skill.resources) if (file.uri !== skill.uri) await skills.read(skill, file.uri);
  } finally {
    await client.close();
  }
}

const name = process.env.MCP_CONFORMANCE_SCENARIO;
const url = process.argv[2];
const scenario = name ? scenarios[name] : undefined;
if (!scenario || !url) {
  console.error(`usage: MCP_CONFORMANCE_SCENARIO=<scenario> everything-client <server-url>; scenarios: ${Object.keys(scenarios).join(", ")}`);
  process.exit(1);
}
try {
  await scenario(url);
  process.exit(0);
} catch (error) {
  console.error(`${name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
}
