/**
 * `mcp-codegen migrate` on the official SDK's own example servers that use McpServer, from the
 * packed packages in a fresh project: each example (the compiled .js the SDK v1 package ships; SDK
 * v2's package ships none) is copied in as a user would have it (its relative imports as package
 * imports), committed to git, migrated by the installed CLI, then the original and the port are
 * driven side by side by the SDK's client over stdio: tools/list, tools/call of every tool,
 * resources/list and resources/read of every resource, templates, prompts/list and prompts/get.
 * The answers must be equal, but for what the codemod reported as a manual step. An example whose
 * transport is HTTP is served through its own server factory (getServer), which is where its
 * registrations live; its HTTP plumbing is one of its manual steps.
 */
import { execFileSync, spawn } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { CreateMessageRequestSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { expect } from "chai";
import { npm, packedPackages } from "../../support/packed.js";
import { describeRun, removeDir, ROOT, runChild, tempDir } from "../../support/project.js";
import { startRegistry, type LocalRegistry } from "../../support/registry.js";

const GUIDE = readFileSync(join(ROOT, "docs", "migrate-from-sdk.md"), "utf8");

/** SDK v2's server, as the interop tools pin it. */
const SDK_V2 = (JSON.parse(readFileSync(join(ROOT, "tools", "interop", "package.json"), "utf8")) as { dependencies: Record<string, string> }).dependencies["@modelcontextprotocol/server"]!;

const version = (name: string) => (JSON.parse(readFileSync(join(ROOT, "node_modules", name, "package.json"), "utf8")) as { version: string }).version;

/**
 * Runs an example under the SDK's client, alike for the original and the port: Math.random and
 * the clock fixed, the examples' sleeps cut short, console.log (stdout is the MCP stream) to
 * stderr, any HTTP listener on a free port. `factory` serves `getServer()` over stdio; otherwise
 * the example serves stdio itself.
 */
const HARNESS = `import { pathToFileURL } from "node:url";
let seed = 42;
Math.random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
const FIXED = Date.parse("2026-01-01T00:00:00Z");
const RealDate = Date;
globalThis.Date = class extends RealDate { constructor(...a) { super(...(a.length ? a : [FIXED])); } static now() { return FIXED; } };
const realSetTimeout = globalThis.setTimeout;
globalThis.setTimeout = (fn, ms, ...rest) => realSetTimeout(fn, ms !== undefined && ms <= 5000 ? 0 : ms, ...rest);
console.log = (...args) => console.error(...args);
// Every HTTP listener on a free port of 127.0.0.1 (the examples hard-code 3000), said on stderr.
const http = await import("node:http");
const listen = http.Server.prototype.listen;
http.Server.prototype.listen = function (...args) {
  const callback = args.find((arg) => typeof arg === "function");
  this.once("listening", () => process.stderr.write("harness: listening on " + this.address().port + "\\n"));
  return callback ? listen.call(this, 0, "127.0.0.1", callback) : listen.call(this, 0, "127.0.0.1");
};
const [file, mode] = process.argv.slice(2);
const module = await import(pathToFileURL(file).href);
if (mode === "factory") {
  const server = module.getServer();
  if ("server" in server) {
    const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js");
    await server.connect(new StdioServerTransport());
  } else {
    const { stdio } = await import("@mcp-codegen/runtime");
    await server.listen(stdio());
  }
}
`;

/** A value an input schema accepts: its required properties (and defaults) filled with the simplest values of their types. */
function sample(schema: Record<string, unknown> | undefined): Record<string, unknown> {
  const value = (s: Record<string, unknown>): unknown => {
    if (s.default !== undefined) return s.default;
    if (Array.isArray(s.enum)) return s.enum[0];
    if (s.type === "string") return "alpha";
    if (s.type === "number" || s.type === "integer") return typeof s.minimum === "number" ? s.minimum : 1;
    if (s.type === "boolean") return true;
    if (s.type === "array") return [];
    if (s.type === "object") return sample(s);
    return "alpha";
  };
  const properties = (schema?.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = (schema?.required ?? []) as string[];
  return Object.fromEntries(required.map((name) => [name, value(properties[name] ?? {})]));
}

/** What a server answers, for comparison: JSON Schema dialect markers aside, error texts aside (isError only). */
async function answers(command: readonly string[], cwd: string): Promise<Record<string, unknown>> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [...command], cwd, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return answersOver(transport, () => `${command.join(" ")}: its stderr\n${stderr}`);
}

/** The same answers from an example serving Streamable HTTP itself: run, its port read from the harness's line, reached by the SDK's HTTP client. */
async function answersOverHttp(command: readonly string[], cwd: string): Promise<Record<string, unknown>> {
  const child = spawn(process.execPath, [...command], { cwd, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.stderr.setEncoding("utf8").on("data", (text: string) => {
        stderr += text;
        const found = /harness: listening on (\d+)/.exec(stderr);
        if (found) resolve(Number(found[1]));
      });
      child.on("exit", (code) => reject(new Error(`${command.join(" ")} exited (${code}) before listening:\n${stderr}`)));
    });
    const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`));
    return await answersOver(transport, () => `${command.join(" ")} over HTTP: its stderr\n${stderr}`);
  } finally {
    child.kill();
  }
}

async function answersOver(transport: Transport, describe: () => string): Promise<Record<string, unknown>> {
  const client = new Client({ name: "migrate-differential", version: "1.0.0" }, { capabilities: { sampling: {}, elicitation: { form: {} } } });
  client.setRequestHandler(CreateMessageRequestSchema, () => ({ role: "assistant", model: "fixed", content: { type: "text", text: "a summary" } }));
  client.setRequestHandler(ElicitRequestSchema, () => ({ action: "decline" }));
  const out: Record<string, unknown> = {};
  try {
    await client.connect(transport);
    const capabilities = client.getServerCapabilities() ?? {};
    const strip = (schema: unknown) => {
      if (schema === undefined) return undefined;
      const { $schema: _dialect, ...rest } = schema as Record<string, unknown>;
      return rest;
    };
    if (capabilities.tools) {
      const { tools } = await client.listTools();
      for (const tool of tools.sort((a, b) => a.name.localeCompare(b.name))) {
        const args = sample(tool.inputSchema as Record<string, unknown>);
        const result = await client.callTool({ name: tool.name, arguments: args }).catch((error: Error) => ({ error: error.message }));
        const called = "isError" in result && result.isError ? { isError: true } : result;
        out[`tool ${tool.name}`] = { ...tool, inputSchema: strip(tool.inputSchema), outputSchema: strip(tool.outputSchema), execution: undefined, call: called };
      }
    }
    if (capabilities.resources) {
      const { resources } = await client.listResources();
      for (const resource of resources) out[`resource ${resource.uri}`] = { ...resource, read: await client.readResource({ uri: resource.uri }) };
      const { resourceTemplates } = await client.listResourceTemplates();
      for (const template of resourceTemplates) {
        const completions: Record<string, unknown> = {};
        if (capabilities.completions)
          for (const [, variable] of template.uriTemplate.matchAll(/\{[+#./;?&]?([^}]+)\}/g))
            for (const name of variable!.split(","))
              completions[name] = withoutTotal((await client.complete({ ref: { type: "ref/resource", uri: template.uriTemplate }, argument: { name, value: "" } })).completion);
        out[`template ${template.uriTemplate}`] = { ...template, completions };
      }
    }
    if (capabilities.prompts) {
      const { prompts } = await client.listPrompts();
      for (const prompt of prompts) {
        const args = Object.fromEntries((prompt.arguments ?? []).filter((a) => a.required).map((a) => [a.name, "alpha"]));
        const completions: Record<string, unknown> = {};
        if (capabilities.completions)
          for (const { name } of prompt.arguments ?? [])
            completions[name] = withoutTotal((await client.complete({ ref: { type: "ref/prompt", name: prompt.name }, argument: { name, value: "" } })).completion);
        out[`prompt ${prompt.name}`] = { ...prompt, get: await client.getPrompt({ name: prompt.name, arguments: args }), completions };
      }
    }
  } catch (error) {
    throw new Error(`${(error as Error).message}\n--- ${describe()}`);
  } finally {
    await client.close();
  }
  return JSON.parse(JSON.stringify(out)) as Record<string, unknown>;
}

/** Where two JSON values first differ, as a path and both sides. */
function firstDifference(before: unknown, after: unknown, path = ""): string | undefined {
  if (JSON.stringify(before) === JSON.stringify(after)) return undefined;
  if (typeof before === "object" && before !== null && typeof after === "object" && after !== null)
    for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
      const found = firstDifference((before as Record<string, unknown>)[key], (after as Record<string, unknown>)[key], `${path}/${key}`);
      if (found) return found;
    }
  return `${path || "/"}: before ${JSON.stringify(before)?.slice(0, 400)}, after ${JSON.stringify(after)?.slice(0, 400)}`;
}

/**
 * A completion without its `total`, which is optional: the SDK gives it only from a completer,
 * the runtime always (0 for an argument with none); the values and hasMore are compared.
 */
function withoutTotal(completion: { total?: number }): Record<string, unknown> {
  const { total: _total, ...rest } = completion;
  return rest;
}

interface Outcome {
  readonly example: string;
  readonly steps: readonly string[];
  readonly verdict: "no manual step" | "with steps" | "failed";
  readonly why?: string;
}

describe("migrate: the SDK's example servers, ported and answering as before (packed packages)", function () {
  this.timeout(900_000);
  let registry: LocalRegistry;
  let dir: string;
  const outcomes: Outcome[] = [];
  let examples: string[] = [];
  let report = "";

  before(async function () {
    this.timeout(900_000);
    const packed = packedPackages();
    registry = await startRegistry([packed.runtime, packed.cli]);
    dir = tempDir("migrate-examples");
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "sdk-examples", private: true, type: "module" }));
    const install = await npm(
      [
        "install",
        "--prefer-offline",
        `@mcp-codegen/runtime@${packed.version}`,
        `mcp-codegen@${packed.version}`,
        `@modelcontextprotocol/sdk@${version("@modelcontextprotocol/sdk")}`,
        `zod@${version("zod")}`,
        `express@${version("express")}`,
        `hono@${version("hono")}`,
        `@hono/node-server@${version("@hono/node-server")}`,
        `@modelcontextprotocol/server@${SDK_V2}`,
        `typescript@${version("typescript")}`,
        `@types/node@${version("@types/node")}`,
        `@types/express@${version("@types/express")}`,
      ],
      dir,
      registry.url,
    );
    expect(install.status, describeRun(install)).to.equal(0);
    // The installed SDK's examples that use McpServer, as a user's project holds them.
    const shipped = join(dir, "node_modules", "@modelcontextprotocol", "sdk", "dist", "esm", "examples", "server");
    examples = readdirSync(shipped)
      .filter((name) => name.endsWith(".js") && readFileSync(join(shipped, name), "utf8").includes("new McpServer("))
      .sort();
    mkdirSync(join(dir, "src"));
    for (const name of examples) {
      const text = readFileSync(join(shipped, name), "utf8")
        .replace(/from '\.\.\/\.\.\/([^']+)'/g, "from '@modelcontextprotocol/sdk/$1'")
        .replace(/from '\.\.\/([^']+)'/g, "from '@modelcontextprotocol/sdk/examples/$1'")
        .replace(/from '\.\/([^']+)'/g, "from '@modelcontextprotocol/sdk/examples/server/$1'")
        .replace(/\n\/\/# sourceMappingURL=.*\n?$/, "\n");
      writeFileSync(join(dir, "src", name), text);
    }
    cpSync(join(dir, "src"), join(dir, "original"), { recursive: true });
    writeFileSync(join(dir, "harness.mjs"), HARNESS);
    // The TypeScript servers (SDK v1 and v2), as a user's project holds them: ported in ts/src, kept in ts/original.
    for (const folder of ["src", "original"]) cpSync(join(ROOT, "test", "fixtures", "migrate"), join(dir, "ts", folder), { recursive: true });
    // The guide's TypeScript snippets, each a module of the project, type-checked with the ports.
    mkdirSync(join(dir, "ts", "docs"));
    [...GUIDE.matchAll(/```ts\n([\s\S]*?)```/g)].forEach(([, code], i) => writeFileSync(join(dir, "ts", "docs", `snippet-${i + 1}.ts`), code!));
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, skipLibCheck: true, types: ["node"], outDir: "dist", rootDir: "ts" },
        include: ["ts"],
      }),
    );
    writeFileSync(join(dir, ".gitignore"), "node_modules\n");
    const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, encoding: "utf8" });
    git("init", "-q");
    git("-c", "user.name=t", "-c", "user.email=t@example.com", "add", "-A");
    git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "the SDK's examples");
    const migrate = await runChild(process.execPath, [join(dir, "node_modules", "mcp-codegen", "bin", "mcp-codegen.js"), "migrate", "src"], { cwd: dir, timeoutMs: 300_000 });
    expect(migrate.status, describeRun(migrate)).to.equal(0);
    report = migrate.stdout;
  });

  after(async () => {
    await registry?.close();
    if (outcomes.length > 0) {
      const examples = outcomes.filter((o) => !o.example.endsWith("(TypeScript)"));
      const count = (verdict: Outcome["verdict"]) => examples.filter((o) => o.verdict === verdict).length;
      console.log(`\n  migrate on ${examples.length} SDK v1 examples: ${count("no manual step")} with no manual step, ${count("with steps")} with steps, ${count("failed")} failed`);
      for (const o of outcomes) console.log(`    ${o.example}: ${o.verdict}${o.why ? ` (${o.why})` : ""}${o.steps.length ? `\n      ${o.steps.join("\n      ")}` : ""}`);
    }
    removeDir(dir);
  });

  it("finds the examples, and the report names each one, rewritten", () => {
    expect(examples.length).to.be.greaterThan(5);
    for (const name of examples) expect(report).to.match(new RegExp(`^src/${name.replace(".", "\\.")}: rewrote \\(`, "m"));
  });

  it("each example's manual steps are marked in its code at the line the report gives", () => {
    expect(report).to.match(/^  src\/\S+\.js:\d+:\d+: manual: /m);
    for (const name of examples) {
      const lines = readFileSync(join(dir, "src", name), "utf8").split("\n");
      for (const [, line, what] of report.matchAll(new RegExp(`^  src/${name.replace(".", "\\.")}:(\\d+):\\d+: manual: (.*)$`, "gm")))
        expect(lines[Number(line) - 1], `${name}:${line}`).to.contain(`TODO(mcp-codegen migrate): ${what!}`);
    }
  });

  it("ports TypeScript servers of SDK v1 and v2 with no manual step: the port type-checks (strict, with docs/migrate-from-sdk.md's snippets) and answers as the original", async () => {
    expect(readdirSync(join(dir, "ts", "docs")).length).to.be.greaterThan(2);
    const run = await runChild(process.execPath, [join(dir, "node_modules", "mcp-codegen", "bin", "mcp-codegen.js"), "migrate", "ts/src"], { cwd: dir, timeoutMs: 300_000 });
    expect(run.status, describeRun(run)).to.equal(0);
    expect(run.stdout).to.contain("no manual step left");
    const tsc = await runChild(process.execPath, [join(dir, "node_modules", "typescript", "bin", "tsc"), "-p", "."], { cwd: dir, timeoutMs: 300_000 });
    expect(tsc.status, describeRun(tsc)).to.equal(0);
    for (const name of readdirSync(join(dir, "ts", "src")).map((file) => file.replace(/\.ts$/, ".js"))) {
      const before = await answers(["harness.mjs", join("dist", "original", name), "main"], dir);
      const after = await answers(["harness.mjs", join("dist", "src", name), "main"], dir);
      expect(Object.keys(before).length, name).to.be.greaterThan(2);
      expect(after, name).to.deep.equal(before);
      outcomes.push({ example: `test/fixtures/migrate/${name.replace(/\.js$/, ".ts")} (TypeScript)`, steps: [], verdict: "no manual step" });
    }
  });

  it("every ported example answers the SDK client as the original did, but for what its manual steps name", async () => {
    for (const name of examples) {
      const steps = [...report.matchAll(new RegExp(`^  src/${name.replace(".", "\\.")}:\\d+:\\d+: manual: (.*)$`, "gm"))].map((m) => m[1]!);
      const source = readFileSync(join(dir, "original", name), "utf8");
      const factory = /\bconst getServer = /.test(source);
      for (const folder of ["original", "src"]) if (factory) writeFileSync(join(dir, folder, name), `${readFileSync(join(dir, folder, name), "utf8")}\nexport { getServer };\n`);
      const mode = factory ? "factory" : "main";
      let before: Record<string, unknown>;
      let after: Record<string, unknown>;
      try {
        before = await answers(["harness.mjs", join("original", name), mode], dir);
        after = await answers(["harness.mjs", join("src", name), mode], dir);
      } catch (error) {
        // A port that cannot start before its manual steps are done (it still calls what has no equivalent) counts as with steps, not run.
        const why = (error as Error).message.split("\n")[0]!;
        outcomes.push(steps.length > 0 ? { example: name, steps, verdict: "with steps", why: `not run before its steps are done: ${why}` } : { example: name, steps, verdict: "failed", why });
        continue;
      }
      // What a manual step names (a task tool left to port, a tool using what has no equivalent) is not compared.
      const named = (key: string) => steps.some((step) => step.includes(`(${key.split(" ").slice(1).join(" ")})`) || step.includes(`'${key.split(" ")[1]}'`));
      const expected = Object.fromEntries(Object.entries(before).filter(([key]) => !named(key)));
      after = Object.fromEntries(Object.entries(after).filter(([key]) => !named(key)));
      try {
        expect(after, name).to.deep.equal(expected);
        // An HTTP example with nothing left to port: its own HTTP serving too, the original's and the port's, over the SDK's HTTP client.
        if (factory && steps.length === 0) expect(await answersOverHttp(["harness.mjs", join("src", name), "main"], dir), `${name} over HTTP`).to.deep.equal(await answersOverHttp(["harness.mjs", join("original", name), "main"], dir));
        outcomes.push({ example: name, steps, verdict: steps.length ? "with steps" : "no manual step", why: factory && steps.length === 0 ? "also over its own HTTP" : undefined });
      } catch (error) {
        outcomes.push({ example: name, steps, verdict: "failed", why: `${(error as Error).message.split("\n")[0]!.slice(0, 300)}; first difference: ${firstDifference(expected, after)}` });
      }
    }
    const failed = outcomes.filter((o) => o.verdict === "failed");
    expect(failed, failed.map((o) => `${o.example}: ${o.why}`).join("\n\n")).to.deep.equal([]);
  });
});
