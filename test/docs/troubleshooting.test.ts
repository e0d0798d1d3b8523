/**
 * docs/troubleshooting.md, proven: every message its "Runtime messages" and "CLI messages" tables
 * quote is produced here by its real condition (the runtime in this process on in-memory pairs
 * and a 127.0.0.1 HTTP server, the compiled runtime in a folder without its optional packages,
 * the CLI in temp projects), and what the user gets must contain the quoted text: `…` stands
 * for any text, whitespace runs compare equal, and a placeholder (`tool x`, revision `R`) is read
 * with the value the trigger used. A quoted entry without a trigger fails, and so does a trigger
 * whose entry left the page: the page cannot drift from the code. The section's `sh` transcripts
 * are run command by command and must print what they show. (Entries that name an error class
 * rather than quote a message are checked to be exported by the runtime.)
 */
import { cpSync, existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { expect } from "chai";
import { extensionModule as tasks } from "../../generated/extensions/tasks/module.js";
import { createMemoryPair, createServer, McpClient, type CallOptions, type McpServer } from "../../runtime/index.js";
import { bearerAuth, jwtVerifier } from "../../runtime/auth/index.js";
import { http, HttpClientTransport } from "../../runtime/http.js";
import { silentLogger } from "../../runtime/util/logger.js";
import { CLI_ARGV, describeRun, removeDir, ROOT, runChild, runCliAsync, tempDir, tempProjectRoot } from "../support/project.js";
import { oldCopy, plantOldCopies } from "../support/retired-copies.js";
import { SYNTHETIC, syntheticSchema } from "../support/synthetic-revision.js";
import { tscAsync, writeProjectTsconfig } from "../support/tsc.js";

const PAGE = readFileSync(join(ROOT, "docs", "troubleshooting.md"), "utf8");

/** The first backticked text of each row's first cell, in the page's tables under `heading`. */
function quoted(heading: string): string[] {
  const section = PAGE.slice(PAGE.indexOf(`## ${heading}`), PAGE.indexOf("\n## ", PAGE.indexOf(`## ${heading}`) + 3));
  return section
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .map((line) => /^\| `([^`]+)`/.exec(line)![1]!);
}

/** The `sh` blocks of "CLI messages": each `$ ` line a command run in one fresh folder, the other lines what the last prints (`...`: anything). */
function transcripts(): { commands: string[]; output: string }[] {
  const section = PAGE.slice(PAGE.indexOf("## CLI messages"), PAGE.indexOf("\n## ", PAGE.indexOf("## CLI messages") + 3));
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map(([, text]) => {
    const lines = text!.split("\n");
    return { commands: lines.filter((l) => l.startsWith("$ ")).map((l) => l.slice(2)), output: lines.filter((l) => !l.startsWith("$ ")).join("\n") };
  });
}

/** What the user got for one entry, and the values its placeholders stand for. */
interface Got {
  readonly message: string;
  readonly vars?: Readonly<Record<string, string>>;
}

const squash = (text: string) => text.replace(/\s+/g, " ");

/** Each piece of `quote` between `…` appears in `message`, in order (placeholders read with `vars`). */
function expectQuoted(quote: string, { message, vars = {} }: Got): void {
  let text = quote;
  for (const [name, value] of Object.entries(vars)) text = text.replace(new RegExp(`\\b${name}\\b`, "g"), value);
  let from = 0;
  const got = squash(message);
  for (const piece of text.split("…").map((p) => squash(p).trim()).filter((p) => p !== "")) {
    const at = got.indexOf(piece, from);
    expect(at, `docs/troubleshooting.md quotes \`${quote}\`: "${piece}" is not in what the user gets:\n${message}`).to.be.at.least(0);
    from = at + piece.length;
  }
}

async function thrown(run: () => unknown): Promise<Error & { code?: number }> {
  try {
    await run();
  } catch (error) {
    return error as Error & { code?: number };
  }
  throw new Error("expected a throw");
}

const newServer = (options: Partial<Parameters<typeof createServer>[0]> = {}) => createServer({ name: "t", version: "1.0.0", logger: silentLogger, ...options });

async function connect(server: McpServer, revision: string, options: Record<string, unknown> = {}): Promise<McpClient> {
  const [clientEnd, serverEnd] = createMemoryPair();
  await server.listen(serverEnd);
  return McpClient.connect(clientEnd, { name: "c", version: "1.0.0", revision: revision as "2025-11-25", logger: silentLogger, ...options });
}

/** A tool's call on a fresh in-memory pair at `revision`: the error, or the result's text when it is an error result. */
async function callError(server: McpServer, tool: string, args: Record<string, unknown>, revision = "2025-11-25", options: Record<string, unknown> = {}, call: CallOptions = {}): Promise<string> {
  const client = await connect(server, revision, options);
  try {
    const result = (await client.callTool(tool, args, call)) as { isError?: boolean; content: { text: string }[] };
    if (result.isError) return result.content[0]!.text;
    throw new Error(`${tool} answered: ${JSON.stringify(result)}`);
  } catch (error) {
    return `${(error as Error).message} (${(error as { code?: number }).code})`;
  } finally {
    await client.close();
    await server.close();
  }
}

/** A project folder per CLI entry, under one temp folder. */
let projects: string;
let count = 0;
function project(files: Record<string, string> = {}): string {
  const dir = join(projects, `p${count++}`);
  mkdirSync(dir, { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}
async function cli(cwd: string, ...args: string[]): Promise<string> {
  const run = await runCliAsync(args, { cwd });
  return `${run.stdout}\n${run.stderr}`;
}
const MANIFEST = { name: "weather", version: "1.0.0", tools: [{ name: "forecast", inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } }] };
const manifest = (tools: unknown[]) => JSON.stringify({ ...MANIFEST, tools }, null, 2);
const tool = (inputSchema: unknown, extra: Record<string, unknown> = {}) => ({ name: "t", inputSchema, ...extra });

/**
 * The compiled runtime (dist/, `make build`) copied into a folder where neither `yaml` nor `redis`
 * resolves, as in a project that did not install the optional peers; `script` runs there and prints.
 */
async function withoutOptionalPeers(script: string): Promise<string> {
  const dir = join(projects, `bare${count++}`);
  for (const part of ["runtime", "generated"]) {
    expect(existsSync(join(ROOT, "dist", part)), "dist/ (run `make build`)").to.equal(true);
    cpSync(join(ROOT, "dist", part), join(dir, part), { recursive: true });
  }
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  writeFileSync(join(dir, "main.js"), script);
  const run = await runChild(process.execPath, ["main.js"], { cwd: dir, timeoutMs: 60_000 });
  return `${run.stdout}\n${run.stderr}`;
}

/** A server whose tool asks the client (elicitation), which the test clients do not declare. */
const asking = () =>
  newServer().tool({ name: "ask", inputSchema: { type: "object" } }, async (_args, ctx) => {
    await ctx.elicit({ message: "name?", requestedSchema: { type: "object", properties: { n: { type: "string" } } } });
    return { content: [] };
  });

/** Entries that name an error class: exported by the runtime's entry points. */
const CLASSES = ["SkillVerificationError", "OAuthFlowError"];

const RUNTIME: Record<string, () => Promise<Got>> = {
  'invalid tool name "…": use 1 to 128 of A-Z a-z 0-9 _ . -': async () => ({ message: (await thrown(() => newServer().tool({ name: "bad name!", inputSchema: { type: "object" } }, () => ({ content: [] })))).message }),
  'tool x: its inputSchema must be a JSON Schema object with "type": "object"': async () => ({
    message: (await thrown(() => newServer().tool({ name: "x", inputSchema: { type: "string" } as never }, () => ({ content: [] })))).message,
  }),
  "tool x is already registered": async () => {
    const server = newServer().tool({ name: "x", inputSchema: { type: "object" } }, () => ({ content: [] }));
    return { message: (await thrown(() => server.tool({ name: "x", inputSchema: { type: "object" } }, () => ({ content: [] })))).message };
  },
  "unknown MCP revision R (pinned: …; pass a generated module to serve another)": async () => ({ message: (await thrown(() => newServer({ revisions: ["1999-01-01" as never] }))).message, vars: { R: "1999-01-01" } }),
  "M is served by the runtime itself; use the server API (tool, resource, prompt...)": async () => ({ message: (await thrown(() => newServer().handle("tools/call" as never, (() => ({})) as never))).message, vars: { M: "tools/call" } }),
  'invalid URI template "…": unbalanced braces': async () => ({ message: (await thrown(() => newServer().resourceTemplate({ name: "n", uriTemplate: "notes://{id" }, () => ({ contents: [] })))).message }),
  "Unknown tool: x": async () => ({ message: await callError(newServer().tool({ name: "y", inputSchema: { type: "object" } }, () => ({ content: [] })), "x", {}) }),
  "tool x declares an outputSchema but returned no structuredContent": async () => ({
    message: await callError(newServer().tool({ name: "x", inputSchema: { type: "object" }, outputSchema: { type: "object" } }, () => ({ content: [] }) as never), "x", {}),
  }),
  "tool x returned structuredContent that does not match its outputSchema: …": async () => ({
    message: await callError(
      newServer().tool({ name: "x", inputSchema: { type: "object" }, outputSchema: { type: "object", properties: { n: { type: "number" } } } }, () => ({ content: [], structuredContent: { n: "one" } }) as never),
      "x",
      {},
    ),
  }),
  "progress must increase: 2 after 3": async () => ({
    message: await callError(
      newServer().tool({ name: "p", inputSchema: { type: "object" } }, async (_args, ctx) => {
        await ctx.progress(3);
        await ctx.progress(2);
        return { content: [] };
      }),
      "p",
      {},
      "2025-11-25",
      {},
      { onProgress: () => {} },
    ),
  }),
  "the client did not declare the elicitation capability, so tools/call cannot send it elicitation/create": async () => ({ message: await callError(asking(), "ask", {}) }),
  "Missing required client capability: …": async () => ({ message: await callError(asking(), "ask", {}, "2026-07-28") }),
  "… timed out after N ms": async () => {
    const server = newServer().tool({ name: "slow", inputSchema: { type: "object" } }, (_args, ctx) => new Promise((resolve) => ctx.signal.addEventListener("abort", () => resolve({ content: [] }))));
    const client = await connect(server, "2025-11-25");
    try {
      return { message: (await thrown(() => client.callTool("slow", {}, { timeoutMs: 50 }))).message, vars: { N: "50" } };
    } finally {
      await client.close();
      await server.close();
    }
  },
  "no MCP era works with this server: server/discover at … failed (…), then initialize at … failed (…)": async () => {
    // An HTTP server that is no MCP endpoint: every request is 404.
    const plain: Server = createHttpServer((_req, res) => res.writeHead(404).end("not here"));
    await new Promise<void>((resolve) => plain.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(plain.address() as AddressInfo).port}/mcp`;
      return { message: (await thrown(() => McpClient.connect(new HttpClientTransport(url), { name: "c", version: "1", logger: silentLogger }))).message };
    } finally {
      await new Promise((resolve) => plain.close(resolve));
    }
  },
  "the server answered nothing within N ms (connectTimeoutMs): …": async () => {
    // A server that reads every message and answers none.
    const [clientEnd, serverEnd] = createMemoryPair();
    serverEnd.start({ message: () => {}, malformed: () => {}, closed: () => {} });
    const error = await thrown(() => McpClient.connect(clientEnd, { name: "c", version: "1", connectTimeoutMs: 200, logger: silentLogger }));
    return { message: `${error.message} (${error.code})`, vars: { N: "200" } };
  },
  "the server requires authorization (HTTP 401: …); WWW-Authenticate: …": async () => {
    // Our endpoint with bearerAuth, and a client with no token.
    const server = newServer();
    let auth: ReturnType<typeof bearerAuth> | undefined;
    const endpoint = http({ port: 0, logger: silentLogger, auth: { authenticate: (r) => auth!.authenticate(r), routes: (r) => auth!.routes(r) } });
    await server.listen(endpoint);
    auth = bearerAuth({
      verifier: jwtVerifier({ issuer: "https://as.example.test", audience: endpoint.url, jwksUrl: "http://127.0.0.1:9/jwks" }),
      resourceMetadata: { resource: endpoint.url, authorizationServers: ["https://as.example.test"] },
    });
    try {
      return { message: (await thrown(() => McpClient.connect(new HttpClientTransport(endpoint.url), { name: "c", version: "1", logger: silentLogger }))).message };
    } finally {
      await server.close();
    }
  },
  "… failed: the server no longer knows session … and a new session could not be started: initialize at … failed (…)": async () => {
    // A session-era server restarted on the same port as one that speaks only the stateless era.
    const first = newServer();
    const endpoint = http({ port: 0, logger: silentLogger });
    await first.listen(endpoint);
    const client = await McpClient.connect(new HttpClientTransport(endpoint.url), { name: "c", version: "1", revision: "2025-11-25", logger: silentLogger });
    const port = Number(new URL(endpoint.url).port);
    await first.close();
    const second = newServer({ revisions: ["2026-07-28"] });
    await second.listen(http({ port, logger: silentLogger }));
    try {
      return { message: (await thrown(() => client.ping())).message };
    } finally {
      await client.close();
      await second.close();
    }
  },
  "the server does not speak R": async () => {
    // A server of another implementation that speaks only a revision this client does not know.
    const other: Server = createHttpServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString()));
      req.on("end", () => {
        const { id } = JSON.parse(body) as { id: number };
        const result = { resultType: "complete", cacheScope: "public", ttlMs: 0, supportedVersions: ["2099-01-01"], capabilities: {}, serverInfo: { name: "future", version: "1" } };
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id, result }));
      });
    });
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(other.address() as AddressInfo).port}/mcp`;
      const error = await thrown(() => McpClient.connect(new HttpClientTransport(url), { name: "c", version: "1", revision: "2026-07-28", logger: silentLogger }));
      return { message: `${error.message} (${error.code})`, vars: { R: "2026-07-28" } };
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  },
  "the server did not declare the extension X: it may not be used": async () => {
    const server = newServer();
    const client = await connect(server, "2025-11-25");
    try {
      return { message: (await thrown(() => client.requestExtension(tasks, "tasks/get", { taskId: "t1" }))).message, vars: { X: "io.modelcontextprotocol/tasks" } };
    } finally {
      await client.close();
      await server.close();
    }
  },
  'SKILL.md frontmatter is read with the "yaml" package, an optional peer dependency …: install it (npm install yaml)': async () => ({
    message: await withoutOptionalPeers(
      `import { createServer } from "./runtime/index.js";\ntry { createServer({ name: "s", version: "1" }).skill("a", { "SKILL.md": "---\\nname: a\\ndescription: A\\n---\\n" }); console.log("no error"); } catch (e) { console.log(e.message); }\n`,
    ),
  }),
  "the Redis stores need the redis package (npm install redis): …": async () => ({
    message: await withoutOptionalPeers(`import { connectRedis } from "./runtime/redis.js";\ntry { await connectRedis({ url: "redis://127.0.0.1:1" }); console.log("no error"); } catch (e) { console.log(e.message); }\n`),
  }),
};

/** A project whose src/mcp 0.2.0 wrote, with its two support copies, method-not-found.ts edited since. */
async function upgradedFrom020(): Promise<string> {
  const dir = project();
  const generated = await runCliAsync(["generate", "--out", "src/mcp", "--revision", "2025-11-25"], { cwd: dir });
  expect(generated.status, describeRun(generated)).to.equal(0);
  plantOldCopies(join(dir, "src", "mcp"), ["validation.ts", "method-not-found.ts"], "files");
  writeFileSync(join(dir, "src", "mcp", "method-not-found.ts"), `${oldCopy("method-not-found.ts")}// mine\n`);
  return dir;
}

const TOOL_ENUM = { type: "object", properties: { priority: { enum: ["low", "high"] } }, required: ["priority"] };

const CLI: Record<string, () => Promise<Got>> = {
  'mcp.server.json has N problems (nothing was changed): #/tols: unknown key (did you mean "tools"?)': async () => {
    const dir = project({ "mcp.server.json": JSON.stringify({ name: "w", version: "1.0.0", tols: [], resources: 3 }) });
    return { message: await cli(dir, "scaffold", "."), vars: { N: "2" } };
  },
  '#/tools/0/inputSchema/properties/p/type: "strng" is not one of … (did you mean "string"?)': async () => ({
    message: await cli(project({ "mcp.server.json": manifest([tool({ type: "object", properties: { p: { type: "strng" } } })]) }), "scaffold", "."),
  }),
  '#/tools/0/inputSchema/properties/p/$ref: $ref "#/$defs/Nope" names no place in this schema …': async () => ({
    message: await cli(project({ "mcp.server.json": manifest([tool({ type: "object", properties: { p: { $ref: "#/$defs/Nope" } } })]) }), "scaffold", "."),
  }),
  '#/tools/0: cannot make arguments that satisfy its inputSchema …; add an "example"': async () => ({
    message: await cli(project({ "mcp.server.json": manifest([tool({ type: "object", properties: { p: { type: "object", minProperties: 1 } }, required: ["p"] })]) }), "scaffold", "."),
  }),
  '#/tools/1/name: "bad name!" does not match ^[A-Za-z0-9_.-]{1,128}$; use 1 to 128 of …': async () => ({
    message: await cli(project({ "mcp.server.json": manifest([MANIFEST.tools[0], { ...tool({ type: "object" }), name: "bad name!" }]) }), "scaffold", "."),
  }),
  '#/tools/0/inputSchema/properties/at/$ref: $ref "https://example.com/point.json" names no place in this schema nor in a remote document you supplied (--tools-remotes <file.json>, …': async () => ({
    message: await cli(project({ "mcp.server.json": manifest([tool({ type: "object", properties: { at: { $ref: "https://example.com/point.json" } } })]) }), "generate", "--tools", "mcp.server.json", "--out", "src/validators"),
  }),
  "#/tools/0/inputSchema/anyOf/1/$ref: refers back to #/tools/0/inputSchema in place, with no property or item between: …": async () => ({
    message: await cli(project({ "mcp.server.json": manifest([tool({ type: "object", anyOf: [{ required: ["a"] }, { $ref: "#" }] })]) }), "generate", "--tools", "mcp.server.json", "--out", "src/validators"),
  }),
  'mcp.server.json #/tools/0/inputSchema/$vocabulary: "$vocabulary" is not supported by the build-time validator compiler: …': async () => ({
    message: await cli(project({ "mcp.server.json": manifest([tool({ type: "object", $vocabulary: {} })]) }), "generate", "--tools", "mcp.server.json", "--out", "src/validators"),
  }),
  'warning: mcp.server.json #/tools/0/inputSchema/propertes: unknown keyword "propertes" (did you mean "properties"?)': async () => ({
    message: await cli(project({ "mcp.server.json": manifest([tool({ type: "object", propertes: {} })]) }), "generate", "--tools", "mcp.server.json", "--out", "src/validators"),
  }),
  "mcp.server.json:4:1: not valid JSON: …": async () => ({ message: await cli(project({ "mcp.server.json": '{\n  "name": "w",\n  "version": "1.0.0",\n}\n' }), "scaffold", ".") }),
  "tasks.schema.json #/$defs/Result: Result is also defined by MCP 2026-07-28 …, differently": async () => {
    const document = JSON.parse(readFileSync(join(ROOT, "spec", "extensions", "tasks", "schema.json"), "utf8")) as { $defs: Record<string, { required?: string[] }> };
    document.$defs.Result!.required = [];
    const dir = project({ "tasks.schema.json": JSON.stringify(document) });
    return { message: await cli(dir, "generate", "--out", "src/mcp", "--extension", "tasks.schema.json", "--name", "io.modelcontextprotocol/tasks") };
  },
  'src/main.ts: mcp.server.json says "transport": "http", but this file (yours, so not rewritten) does not start it': async () => {
    const dir = project();
    const scaffolded = await runCliAsync(["scaffold", "weather", "--name", "weather"], { cwd: dir });
    expect(scaffolded.status, describeRun(scaffolded)).to.equal(0);
    const path = join(dir, "weather", "mcp.server.json");
    writeFileSync(path, JSON.stringify({ ...JSON.parse(readFileSync(path, "utf8")), transport: "http" }, null, 2));
    // src/main.ts is the user's once edited: scaffold no longer rewrites it.
    const main = join(dir, "weather", "src", "main.ts");
    writeFileSync(main, `// mine\n${readFileSync(main, "utf8")}`);
    return { message: await cli(join(dir, "weather"), "scaffold", ".") };
  },
  "… is on this machine: a fresh clone could not fetch … Pass --url … or --local": async () => {
    // In the mcp-codegen checkout (--root), where spec/ must be fetchable again by a fresh clone.
    const dir = project({ "next/schema.json": syntheticSchema() });
    const root = tempProjectRoot("troubleshooting-root", ["2026-07-28"]);
    try {
      return { message: await cli(dir, "spec", "add", SYNTHETIC, "--from", "next", "--root", root) };
    } finally {
      removeDir(root);
    }
  },
  'mcp-codegen: unknown command "genrate" (did you mean "generate"?)': async () => ({ message: await cli(project(), "genrate") }),
  "src/mcp/2026-12-01/protocol.ts: edited by hand": async () => {
    const dir = project({ "next.json": syntheticSchema() });
    const generated = await runCliAsync(["generate", "--out", "src/mcp", "--schema", "next.json", "--name", SYNTHETIC], { cwd: dir });
    expect(generated.status, describeRun(generated)).to.equal(0);
    const protocol = join(dir, "src", "mcp", SYNTHETIC, "protocol.ts");
    writeFileSync(protocol, `${readFileSync(protocol, "utf8")}// mine\n`);
    return { message: await cli(dir, "check") };
  },
  "src/mcp/validation.ts: left by an earlier mcp-codegen: generated code imports @mcp-codegen/runtime/support now …": async () => ({ message: await cli(await upgradedFrom020(), "check") }),
  "warning: src/mcp/method-not-found.ts: left by an earlier mcp-codegen and edited since (…), so it is kept: …": async () => ({ message: await cli(await upgradedFrom020(), "generate", "--out", "src/mcp") }),
  'Invalid arguments for tool t: /priority: must be one of "low", "high"': async () => ({
    message: await callError(newServer().tool({ name: "t", inputSchema: TOOL_ENUM as never }, () => ({ content: [] })), "t", { priority: "urgent" }),
  }),
  "error TS2322 … Property 'summary' is missing …": async () => {
    // A server written before the bump, type-checked after the new revision is generated beside it.
    const dir = project({
      "next.json": syntheticSchema(),
      "src/server.ts": `import { createServer } from "@mcp-codegen/runtime";
import { ${"mcp_" + SYNTHETIC.replaceAll("-", "_")} } from "./mcp/index.js";

export const server = createServer({ name: "bump", version: "1.0.0", revisions: [${"mcp_" + SYNTHETIC.replaceAll("-", "_")}] });
server.tool({ name: "echo", inputSchema: { type: "object" } }, () => ({ content: [{ type: "text", text: "hi" }] }));
`,
    });
    const generated = await runCliAsync(["generate", "--out", "src/mcp", "--schema", "next.json", "--name", SYNTHETIC], { cwd: dir });
    expect(generated.status, describeRun(generated)).to.equal(0);
    writeProjectTsconfig(dir);
    const run = await tscAsync(["-p", dir, "--pretty", "false"], dir);
    return { message: `${run.stdout}\n${run.stderr}` };
  },
  'the handler for tools/call (tool "x") returned an invalid CallToolResult …': async () => ({
    message: await callError(newServer().tool({ name: "x", inputSchema: { type: "object" } }, () => ({ content: [{ type: "text" }] }) as never), "x", {}),
  }),
};

describe("docs/troubleshooting.md: every quoted message is what the user gets", function () {
  this.timeout(300_000);
  before(() => {
    projects = tempDir("troubleshooting");
  });
  after(() => removeDir(projects));

  for (const [heading, triggers] of [
    ["Runtime messages", RUNTIME],
    ["CLI messages", CLI],
  ] as const) {
    const quotes = quoted(heading).filter((q) => !CLASSES.includes(q));
    it(`${heading}: every quoted message has a trigger here, and every trigger an entry on the page`, () => {
      expect(quotes.length).to.be.greaterThan(10);
      expect(quotes.filter((q) => !(q in triggers)), "entries nothing here produces").to.deep.equal([]);
      expect(Object.keys(triggers).filter((q) => !quotes.includes(q)), "triggers whose entry left the page").to.deep.equal([]);
    });
    for (const [quote, trigger] of Object.entries(triggers)) it(`${heading}: \`${quote}\``, async () => expectQuoted(quote, await trigger()));
  }

  for (const [i, block] of transcripts().entries())
    it(`CLI messages: the transcript #${i + 1} (${block.commands.at(-1)}) is what the commands print`, async () => {
      const dir = join(projects, `transcript${i}`);
      mkdirSync(dir, { recursive: true });
      let last = "";
      for (const command of block.commands) {
        const run = await runChild("bash", ["-c", command.replaceAll("npx mcp-codegen", `${JSON.stringify(process.execPath)} ${CLI_ARGV.map((a) => JSON.stringify(a)).join(" ")}`)], {
          cwd: dir,
          timeoutMs: 120_000,
        });
        last = `${run.stdout}${run.stderr}`;
      }
      const expected = block.output.replaceAll("/path/to/project", realpathSync(dir));
      let from = 0;
      for (const piece of expected.split(/^\.\.\.\n?/m).filter((p) => p.trim() !== "")) {
        const at = last.indexOf(piece, from);
        expect(at, `docs/troubleshooting.md's transcript shows:\n${piece}\nthe commands printed:\n${last}`).to.be.at.least(0);
        from = at + piece.length;
      }
    });

  it("the entries naming an error class name one the runtime exports", async () => {
    expect(quoted("Runtime messages").filter((q) => /^\w+$/.test(q))).to.deep.equal(CLASSES);
    const entries = await Promise.all(["index.js", "auth/index.js"].map((file) => import(`../../runtime/${file}`) as Promise<Record<string, unknown>>));
    for (const name of CLASSES) expect(entries.some((exports) => typeof exports[name] === "function"), name).to.equal(true);
  });
});
