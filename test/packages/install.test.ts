/**
 * The packed packages (`make pack`), installed as a user installs them: into fresh projects
 * outside this checkout, by name and version, from a local registry that serves the two tarballs
 * and forwards everything else to the real one. Nothing here runs from the checkout's sources.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { expect } from "chai";
import { installedPackages, npm, packedPackages, type Packed } from "../support/packed.js";
import { describeRun, removeDir, ROOT, runCli, tempDir, type CliRun } from "../support/project.js";
import { startRegistry, tarballManifest, type LocalRegistry } from "../support/registry.js";
import { oldCopy, plantOldCopies } from "../support/retired-copies.js";
import { SYNTHETIC, syntheticSchema } from "../support/synthetic-revision.js";

const PINNED = JSON.parse(readFileSync(join(ROOT, "spec", "pinned.json"), "utf8")) as {
  revisions: Record<string, { files: Record<string, string> }>;
  extensions?: Record<string, { folder: string; files: Record<string, string> }>;
};
const REVISIONS = Object.keys(PINNED.revisions).sort();
const EXTENSIONS = Object.entries(PINNED.extensions ?? {}).map(([id, entry]) => ({ id, ...entry }));
const GENERATOR_PACKAGES = ["prettier", "ts-morph", "json-schema-to-typescript", "code-block-writer", "typescript", "tsx"];

/** The start of a script that lists every file it loads in `loaded` (a resolve hook). */
const RECORD_LOADED = `
        import { register } from "node:module";
        const loaded = new Set();
        const { port1, port2 } = new MessageChannel();
        port1.on("message", (url) => loaded.add(url)).unref();
        register("data:text/javascript," + encodeURIComponent("let p; export function initialize(d) { p = d.port; } export async function resolve(s, c, n) { const r = await n(s, c); p.postMessage(r.url); return r; }"), { data: { port: port2 }, transferList: [port2] });`;

function tarballFiles(tarball: string): string[] {
  const list = spawnSync("tar", ["-tzf", tarball], { encoding: "utf8" });
  expect(list.status, list.stderr).to.equal(0);
  return list.stdout.split("\n").filter(Boolean).map((path) => path.replace(/^package\//, ""));
}

function run(command: string, args: readonly string[], cwd: string): CliRun {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", timeout: 120_000, env: { ...process.env, npm_config_update_notifier: "false" } });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
}

/** A server written before the bump: its tool result lacks the field the next revision requires, and it does not answer tools/validate. */
const BUMP_BEFORE = `import { createServer, stdio } from "@mcp-codegen/runtime";
import { mcp_2026_12_01 } from "./mcp/index.js";

export const server = createServer({ name: "bump", version: "1.0.0", revisions: ["2025-11-25", mcp_2026_12_01] });
server.tool({ name: "echo", inputSchema: { type: "object" } }, () => ({ content: [{ type: "text", text: "hi" }] }));
server.handle("tools/validate", () => ({}));
if (process.argv.includes("--stdio")) await server.listen(stdio());
`;

/** The same server after the fixes the compiler asked for. */
const BUMP_AFTER = `import { createServer, stdio } from "@mcp-codegen/runtime";
import { mcp_2026_12_01 } from "./mcp/index.js";

export const server = createServer({ name: "bump", version: "1.0.0", revisions: ["2025-11-25", mcp_2026_12_01] });
server.tool({ name: "echo", inputSchema: { type: "object" } }, () => ({ content: [{ type: "text", text: "hi" }], summary: "said hi" }));
server.handle("tools/validate", (params) => ({ valid: params.name === "echo" }));
if (process.argv.includes("--stdio")) await server.listen(stdio());
`;

/** McpClient from the installed runtime, at the pinned revision and at the generated one. */
const BUMP_CLIENT = `import { McpClient, spawnStdio } from "@mcp-codegen/runtime";
import { mcp_2026_12_01 } from "./dist/src/mcp/index.js";

const answers = {};
for (const revision of ["2025-11-25", mcp_2026_12_01]) {
  const client = await McpClient.connect(await spawnStdio(process.execPath, ["dist/src/bump.js", "--stdio"]), { name: "bump-client", version: "1.0.0", revision });
  const name = typeof revision === "string" ? revision : revision.revision;
  answers[name] = { call: await client.callTool("echo", {}) };
  if (name !== "2025-11-25") answers[name].validate = await client.request("tools/validate", { name: "echo", arguments: {} });
  await client.close();
}
console.log(JSON.stringify(answers));
`;

const JS_SERVER = `import { createServer, stdio } from "@mcp-codegen/runtime";

const server = createServer({ name: "plain-js", version: "1.0.0" });
server.tool(
  {
    name: "add",
    description: "Adds two numbers",
    inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
  },
  ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }),
);
await server.listen(stdio());
`;

/** A tool whose inputSchema is a zod 4 schema (item 1 of issue 27): the user installs zod, the runtime does not depend on it. */
const ZOD_SERVER = `import { createServer, stdio } from "@mcp-codegen/runtime";
import * as z from "zod";

const server = createServer({ name: "zod-tool", version: "1.0.0" });
server.tool(
  { name: "greet", inputSchema: z.object({ name: z.string().min(1), times: z.number().int().default(2) }) },
  ({ name, times }) => ({ content: [{ type: "text", text: Array(times).fill(name).join(" ") }] }),
);
await server.listen(stdio());
`;

/** Every entry point of @mcp-codegen/runtime's manifest, as a subpath ("" for the package itself), its wildcards expanded to the pinned revisions and extensions. */
const ENTRY_POINTS = Object.keys((JSON.parse(readFileSync(join(ROOT, "packages", "runtime", "package.json"), "utf8")) as { exports: Record<string, unknown> }).exports)
  .filter((key) => key !== "./package.json")
  .flatMap((key) => (key === "./revisions/*" ? REVISIONS.map((r) => `/revisions/${r}`) : key === "./extensions/*" ? EXTENSIONS.map((e) => `/${e.folder}`) : [key.slice(1)]));

/** Type-checks under each moduleResolution; the one error must be the deliberate one in src/wrong.ts. */
const TS_FILES: Record<string, string> = {
  // A zod schema types the handler by its output: the default makes \`times\` a number, and a wrong use is an error.
  "src/zod.ts": ZOD_SERVER.replace("await server.listen(stdio());", `server.tool({ name: "typed", inputSchema: z.object({ n: z.number().default(1) }) }, ({ n }) => {
  const sure: number = n;
  // @ts-expect-error n is a number, not a string
  const wrong: string = n;
  return { content: [{ type: "text", text: \`\${sure}\${wrong}\` }] };
});
await server.listen(stdio());`),
  "src/server.ts": `import { createServer, stdio, type RequestContext } from "@mcp-codegen/runtime";
import { http } from "@mcp-codegen/runtime/http";
import type { CallToolResult } from "@mcp-codegen/runtime/revisions/2025-11-25";
import { isCallToolResult, REVISION } from "@mcp-codegen/runtime/revisions/2026-07-28";

const stateless: "2026-07-28" = REVISION;

function add({ a, b }: { a: number; b: number }, context: RequestContext): CallToolResult {
  const result: CallToolResult = { content: [{ type: "text", text: \`\${a + b} (\${context.revision}, \${stateless})\` }] };
  if (!isCallToolResult(result)) throw new Error("not a CallToolResult");
  return result;
}

const server = createServer({ name: "typed", version: "1.0.0" });
server.tool({ name: "add", inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] } }, add);
await server.listen(process.env.PORT ? http({ port: Number(process.env.PORT) }) : stdio());
`,
  // A CommonJS module reaches the ESM-only package through import(), typed from the same .d.ts files.
  "src/consumer.cts": `export async function serverAndTransport(): Promise<string> {
  const { createServer } = await import("@mcp-codegen/runtime");
  const { HttpClientTransport } = await import("@mcp-codegen/runtime/http");
  const server = createServer({ name: "cjs", version: "1.0.0" });
  const tool: (typeof server)["tool"] = server.tool;
  return \`\${typeof tool}:\${HttpClientTransport.name}\`;
}
`,
  // Every entry point's types: under nodenext (skipLibCheck off) each .d.ts an export reaches is read, so one the package left out (packages/pack.ts, pruneTypes) is an error.
  "src/every-entry.ts": [
    ...ENTRY_POINTS.map((entry, i) => `import type * as entry${i} from "@mcp-codegen/runtime${entry}";`),
    `export type Entries = [${ENTRY_POINTS.map((_, i) => `typeof entry${i}`).join(", ")}];`,
  ].join("\n"),
  "src/wrong.ts": `import type { CallToolResult } from "@mcp-codegen/runtime/revisions/2025-11-25";

export const wrong: CallToolResult = { content: [{ type: "text", txt: "a typo" }] };
`,
};

/** nodenext checks our .d.ts files too (skipLibCheck off); bundler as bundler templates set it up (on: faster). */
function tsconfig(module: string, moduleResolution: string, skipLibCheck: boolean): string {
  return JSON.stringify({
    compilerOptions: { target: "ES2022", lib: ["ES2023"], module, moduleResolution, strict: true, noEmit: true, skipLibCheck, types: ["node"] },
    include: ["src"],
  });
}

describe("the packed packages, installed as a user installs them", function () {
  this.timeout(600_000);
  let packed: Packed;
  let registry: LocalRegistry;
  let dir: string;

  before(async function () {
    packed = packedPackages();
    registry = await startRegistry([packed.runtime, packed.cli]);
    dir = tempDir("packages");
  });
  after(async () => {
    await registry?.close();
    removeDir(dir);
  });

  describe("the tarballs", () => {
    it("@mcp-codegen/runtime holds compiled JavaScript and .d.ts only: the runtime and every pinned revision, no sources, tests or tools", () => {
      const files = tarballFiles(packed.runtime);
      for (const folder of ["test/", "bench/", "tools/", "examples/", "codegen/", "spec/", "runtime/", "generated/", "dist/codegen/", "dist/spec/"])
        expect(files.filter((f) => f.startsWith(folder)), folder).to.deep.equal([]);
      expect(files.filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))).to.deep.equal([]);
      expect(files.filter((f) => f.endsWith(".map"))).to.deep.equal([]);
      for (const path of ["package.json", "README.md", "dist/runtime/index.js", "dist/runtime/index.d.ts", "dist/runtime/http.js", "dist/generated/LICENSE"])
        expect(files, path).to.include(path);
      for (const revision of REVISIONS) expect(files, revision).to.include.members([`dist/generated/${revision}/index.js`, `dist/generated/${revision}/index.d.ts`]);
      // Each pinned extension, with the licence of the repository it comes from.
      for (const { folder } of EXTENSIONS)
        expect(files, folder).to.include.members([`dist/generated/${folder}/index.js`, `dist/generated/${folder}/index.d.ts`, `dist/generated/${folder}/LICENSE`]);
    });

    it("@mcp-codegen/runtime depends on nothing (ajv is an optional peer), and every export names a file it ships", () => {
      const manifest = tarballManifest(packed.runtime);
      expect(Object.keys(manifest.dependencies ?? {})).to.deep.equal([]);
      expect(manifest.exports).to.include.keys(".", "./http", "./contract", "./revisions/*", "./extensions/*", "./package.json");
      const files = tarballFiles(packed.runtime);
      for (const [entry, target] of Object.entries(manifest.exports ?? {}))
        for (const file of typeof target === "string" ? [target] : Object.values(target))
          if (!file.includes("*")) expect(files, `exports["${entry}"]`).to.include(file.replace(/^\.\//, ""));
    });

    it("mcp-codegen holds the bin, the compiled generator, the pinned schemas (matching their sha256) and upstream's LICENSE; it depends on the runtime at its version", () => {
      const files = tarballFiles(packed.cli);
      for (const folder of ["test/", "bench/", "tools/", "examples/", "runtime/", "generated/", "dist/generated/"])
        expect(files.filter((f) => f.startsWith(folder)), folder).to.deep.equal([]);
      // Of the runtime, only the compiled modules the generator runs itself (the RFC 6570 parser), none of its entry points.
      const runtimeFiles = files.filter((f) => f.startsWith("dist/runtime/"));
      expect(runtimeFiles.length).to.be.greaterThan(0);
      expect(runtimeFiles).to.not.include("dist/runtime/index.js");
      for (const file of runtimeFiles) expect(readFileSync(join(ROOT, file), "utf8"), file).to.not.include("//# sourceMappingURL=bundle");
      expect(runtimeFiles.filter((f) => !existsSync(join(ROOT, f)))).to.deep.equal([]);
      expect(files).to.include.members(["bin/mcp-codegen.js", "dist/codegen/cli.js", "spec/pinned.json", "spec/LICENSE", "dist/runtime/support/validation.js"]);
      for (const revision of REVISIONS) {
        const schema = spawnSync("tar", ["-xzOf", packed.cli, `package/spec/${revision}/schema.json`]);
        expect(schema.status, `spec/${revision}/schema.json`).to.equal(0);
        expect(createHash("sha256").update(schema.stdout).digest("hex"), revision).to.equal(PINNED.revisions[revision]!.files["schema.json"]);
      }
      const manifest = tarballManifest(packed.cli);
      expect(manifest.version).to.equal(packed.version);
      expect(manifest.dependencies?.["@mcp-codegen/runtime"]).to.equal(packed.version);
    });
  });

  describe("a project that installs only @mcp-codegen/runtime", () => {
    let project: string;
    let packages: string[];
    before(async () => {
      project = join(dir, "runtime-only");
      writeFiles(project, { "package.json": JSON.stringify({ name: "runtime-only", private: true, type: "module" }) });
      const install = await npm(["install", `@mcp-codegen/runtime@${packed.version}`], project, registry.url);
      expect(install.status, describeRun(install)).to.equal(0);
      packages = installedPackages(project);
    });

    it("gets the runtime alone, nothing of the generator: 1 package", () => {
      const names = packages.map((p) => p.slice(0, p.lastIndexOf("@")));
      expect(names.sort()).to.deep.equal(["@mcp-codegen/runtime"]);
      for (const name of GENERATOR_PACKAGES) expect(names).not.to.include(name);
      expect(packages.length).to.equal(1); // the size in MB is bench/install-size.ts's
    });

    it("a plain-JavaScript stdio server answers the official SDK client: tools/list and tools/call", async () => {
      writeFiles(project, { "server.mjs": JS_SERVER });
      const client = new Client({ name: "packages-test", version: "1.0.0" });
      await client.connect(new StdioClientTransport({ command: process.execPath, args: ["server.mjs"], cwd: project, stderr: "pipe" }), { timeout: 30_000 });
      try {
        const { tools } = await client.listTools(undefined, { timeout: 30_000 });
        expect(tools.map((t) => t.name)).to.deep.equal(["add"]);
        const [a, b] = [Math.round(Math.random() * 1000) / 10, Math.round(Math.random() * 1000)];
        const result = (await client.callTool({ name: "add", arguments: { a, b } }, undefined, { timeout: 30_000 })) as { content: { text?: string }[]; isError?: boolean };
        expect(result.isError).not.to.equal(true);
        expect(result.content[0]?.text).to.equal(String(a + b));
      } finally {
        await client.close();
      }
    });

    it("a zod 4 tool (zod installed by the user) answers the official SDK client: zod's JSON Schema in tools/list, zod's output to the handler, zod's refusal as a tool error", async () => {
      const install = await npm(["install", "--prefer-offline", "zod@^4"], project, registry.url);
      expect(install.status, describeRun(install)).to.equal(0);
      writeFiles(project, { "zod-server.mjs": ZOD_SERVER });
      const client = new Client({ name: "packages-test", version: "1.0.0" });
      await client.connect(new StdioClientTransport({ command: process.execPath, args: ["zod-server.mjs"], cwd: project, stderr: "pipe" }), { timeout: 30_000 });
      try {
        const { tools } = await client.listTools(undefined, { timeout: 30_000 });
        // zod's own conversion, computed by the project's zod, not written here.
        const expected = run(process.execPath, ["--input-type=module", "-e", `import * as z from "zod"; process.stdout.write(JSON.stringify(z.toJSONSchema(z.object({ name: z.string().min(1), times: z.number().int().default(2) }), { io: "input" })))`], project);
        expect(expected.status, describeRun(expected)).to.equal(0);
        expect(tools[0]!.inputSchema).to.deep.equal(JSON.parse(expected.stdout));
        const result = (await client.callTool({ name: "greet", arguments: { name: "ana" } }, undefined, { timeout: 30_000 })) as { content: { text?: string }[]; isError?: boolean };
        expect(result.content[0]?.text).to.equal("ana ana");
        const refused = (await client.callTool({ name: "greet", arguments: { name: "" } }, undefined, { timeout: 30_000 })) as { content: { text?: string }[]; isError?: boolean };
        expect(refused.isError).to.equal(true);
        expect(refused.content[0]?.text).to.match(/^Invalid arguments for tool greet: \/name: /);
      } finally {
        await client.close();
      }
    });

    it("otel() from /otel asks for the optional @opentelemetry/api until it is installed; then, with the SDK, a client span and its server span share a trace", async () => {
      const script = `
        const { trace, context, propagation } = await import("@opentelemetry/api");
        const { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } = await import("@opentelemetry/sdk-trace-base");
        const { AsyncLocalStorageContextManager } = await import("@opentelemetry/context-async-hooks");
        const { W3CTraceContextPropagator } = await import("@opentelemetry/core");
        const { createMemoryPair, createServer, McpClient } = await import("@mcp-codegen/runtime");
        const { otel } = await import("@mcp-codegen/runtime/otel");
        const exporter = new InMemorySpanExporter();
        trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
        context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
        propagation.setGlobalPropagator(new W3CTraceContextPropagator());
        const server = createServer({ name: "s", version: "1.0.0", hooks: [otel()] });
        server.tool({ name: "add", inputSchema: { type: "object" } }, () => ({ content: [{ type: "text", text: "2" }] }));
        const [a, b] = createMemoryPair();
        await server.listen(b);
        const client = await McpClient.connect(a, { name: "c", version: "1.0.0", revision: "2026-07-28", hooks: [otel()] });
        await client.callTool("add", {});
        const spans = exporter.getFinishedSpans().filter((s) => s.name === "tools/call add");
        console.log(JSON.stringify(spans.map((s) => ({ kind: s.kind, trace: s.spanContext().traceId, span: s.spanContext().spanId, parent: s.parentSpanContext?.spanId, tool: s.attributes["gen_ai.tool.name"] }))));
        await client.close();
        await server.close();`;
      const otelOnly = `await import("@mcp-codegen/runtime/otel");`;
      const without = run(process.execPath, ["--input-type=module", "-e", otelOnly], project);
      expect(without.status, describeRun(without)).to.not.equal(0);
      expect(without.stderr).to.contain("@opentelemetry/api");
      const install = await npm(
        ["install", "--prefer-offline", "@opentelemetry/api@^1.9.0", "@opentelemetry/sdk-trace-base@^2.12.1", "@opentelemetry/context-async-hooks@^2.12.1", "@opentelemetry/core@^2.12.1"],
        project,
        registry.url,
      );
      expect(install.status, describeRun(install)).to.equal(0);
      const node = run(process.execPath, ["--input-type=module", "-e", script], project);
      expect(node.status, describeRun(node)).to.equal(0);
      const spans = JSON.parse(node.stdout) as { kind: number; trace: string; span: string; parent?: string; tool: string }[];
      const client = spans.find((s) => s.kind === 2)!; // SpanKind.CLIENT
      const server = spans.find((s) => s.kind === 1)!; // SpanKind.SERVER
      expect(client.tool).to.equal("add");
      expect(server.trace).to.equal(client.trace);
      expect(server.parent).to.equal(client.span);
    });

    it("serves a skill (SEP-2640) and an MCP App view, and SkillsClient reads the skill verified, from plain JavaScript; skills ask for the optional yaml until it is installed", async () => {
      const script = `
        import { appResource, appToolMeta, createMemoryPair, createServer, McpClient, SkillsClient } from "@mcp-codegen/runtime";
        const server = createServer({ name: "s", version: "1.0.0" }).skill("hello", { "SKILL.md": "---\\nname: hello\\ndescription: Says hello\\n---\\nHi.\\n" });
        server.tool({ name: "view", inputSchema: { type: "object" }, _meta: appToolMeta({ resourceUri: "ui://hello/view.html" }) }, () => ({ content: [] }));
        appResource(server, { uri: "ui://hello/view.html", name: "view" }, "<p>hi</p>");
        const [a, b] = createMemoryPair();
        await server.listen(b);
        const client = await McpClient.connect(a, { name: "c", version: "1.0.0", revision: "2026-07-28" });
        const skills = new SkillsClient(client);
        const [skill] = (await skills.list()).skills;
        const file = await skills.read(skill);
        const view = (await client.readResource("ui://hello/view.html")).contents[0];
        console.log(JSON.stringify({ uri: skill.uri, verified: file.verified, body: file.body, mimeType: view.mimeType, meta: (await client.listTools()).items[0]._meta }));
        await client.close();
        await server.close();`;
      // SKILL.md frontmatter is read with yaml, an optional peer: without it, skill() says what to install.
      const without = run(process.execPath, ["--input-type=module", "-e", script], project);
      expect(without.status, describeRun(without)).to.not.equal(0);
      expect(without.stderr).to.contain("skill hello: SKILL.md:").and.contain("npm install yaml");
      const install = await npm(["install", "--prefer-offline", "yaml@^2.9.1"], project, registry.url);
      expect(install.status, describeRun(install)).to.equal(0);
      const node = run(process.execPath, ["--input-type=module", "-e", script], project);
      expect(node.status, describeRun(node)).to.equal(0);
      expect(JSON.parse(node.stdout)).to.deep.equal({
        uri: "skill://hello/SKILL.md",
        verified: true,
        body: "Hi.\n",
        mimeType: "text/html;profile=mcp-app",
        meta: { ui: { resourceUri: "ui://hello/view.html" }, "ui/resourceUri": "ui://hello/view.html" },
      });
    });

    it("the main entry loads as esbuild's bundle (the entry and its shared chunks), and the entry points share its classes: our client over /http's transport, served by /http, both eras", () => {
      // A resolve hook lists every file loaded; the round trip crosses the main entry (createServer,
      // McpClient, RpcError) and /http, whose bundle shares the main entry's chunks.
      const script = `
        ${RECORD_LOADED}
        const { createServer, McpClient, RpcError } = await import("@mcp-codegen/runtime");
        await new Promise((r) => setTimeout(r, 100));
        const mainFiles = [...loaded].filter((u) => u.includes("/dist/")).map((u) => u.replace(/.*\\/dist\\//, "")).sort();
        const { http, HttpClientTransport } = await import("@mcp-codegen/runtime/http");
        const server = createServer({ name: "bundle", version: "1.0.0" });
        server.tool({ name: "add", inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] } }, ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }));
        const endpoint = http({ port: 0 });
        await server.listen(endpoint);
        const answers = [];
        for (const revision of ["2025-11-25", "2026-07-28"]) {
          const client = await McpClient.connect(new HttpClientTransport(endpoint.url), { name: "c", version: "1", revision });
          const sum = await client.callTool("add", { a: 2, b: 3 });
          const refused = await client.callTool("nope", {}).catch((e) => e);
          answers.push([revision, sum.content[0].text, refused instanceof RpcError, refused.code]);
          await client.close();
        }
        await server.close();
        console.log(JSON.stringify({ mainFiles, answers }));
        process.exit(0);`;
      const node = run(process.execPath, ["--input-type=module", "-e", script], project);
      expect(node.status, describeRun(node)).to.equal(0);
      const out = JSON.parse(node.stdout) as { mainFiles: string[]; answers: unknown[][] };
      // The entry and the one chunk all entries share: no other runtime file, however many entry points the package has. Not the
      // chunks loaded on first use (the JSON Schema compiler: see the stdio server's test), nor /support's (with a revision's validators).
      const chunks = readdirSync(join(project, "node_modules", "@mcp-codegen", "runtime", "dist", "runtime", "chunks")).map((name) => `runtime/chunks/${name}`);
      expect(out.mainFiles.filter((file) => !chunks.includes(file)), out.mainFiles.join(", ")).to.deep.equal(["runtime/index.js"]);
      expect(out.mainFiles, out.mainFiles.join(", ")).to.have.length(2);
      expect(out.answers.map(([revision, sum, isRpcError]) => [revision, sum, isRpcError])).to.deep.equal([
        ["2025-11-25", "5", true],
        ["2026-07-28", "5", true],
      ]);
    });

    it("a revision's start-up files are one module in the package, and its public entry, its full validators and the runtime share one copy of its tables and functions", () => {
      const script = `
        const revision = await import("@mcp-codegen/runtime/revisions/2025-11-25");
        const full = await revision.revisionModule.loadValidators();
        console.log(JSON.stringify({
          tables: revision.revisionModule.methods === revision.METHODS,
          startup: revision.revisionModule.validators.InitializeRequest.is === full.InitializeRequest.is && full.InitializeRequest.is === revision.isInitializeRequest,
          later: typeof full.CallToolRequest.is,
        }));`;
      const node = run(process.execPath, ["--input-type=module", "-e", script], project);
      expect(node.status, describeRun(node)).to.equal(0);
      expect(JSON.parse(node.stdout)).to.deep.equal({ tables: true, startup: true, later: "function" });
      const folder = join(project, "node_modules", "@mcp-codegen", "runtime", "dist", "generated", "2025-11-25");
      for (const file of ["protocol.js", "startup.js"]) expect(readFileSync(join(folder, file), "utf8"), file).to.match(/^export \{ [\w, ]+ \} from "\.\/module\.js";\n$/);
    });

    it("a stdio server loads its latest revision's start-up validators as it starts listening, answers initialize and tools/list without loading the JSON Schema compiler; the first tool call loads it and checks the arguments with it", () => {
      // The server over the stdio transport (on in-process pipes), spoken to in raw JSON lines; the
      // resolve hook lists every file loaded by each answer. The compiler is found by what it
      // defines, not by its chunk's name.
      const script = `
        ${RECORD_LOADED}
        const { readFileSync } = await import("node:fs");
        const { PassThrough } = await import("node:stream");
        const { createServer, StdioTransport } = await import("@mcp-codegen/runtime");
        const server = createServer({ name: "lazy", version: "1.0.0", logger: () => {} });
        server.tool({ name: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } }, ({ text }) => ({ content: [{ type: "text", text }] }));
        const input = new PassThrough(), output = new PassThrough();
        const lines = [];
        let buffered = "";
        output.setEncoding("utf8").on("data", (text) => { buffered += text; for (let at; (at = buffered.indexOf("\\n")) >= 0; buffered = buffered.slice(at + 1)) lines.push(JSON.parse(buffered.slice(0, at))); });
        await server.listen(new StdioTransport(input, output));
        await new Promise((r) => setTimeout(r, 100));
        const atListen = [...loaded].filter((u) => u.includes("/dist/generated/")).map((u) => u.replace(/.*\\/dist\\//, "")).sort();
        const answer = async (message) => {
          const before = lines.length;
          input.write(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\\n");
          for (const deadline = Date.now() + 10_000; lines.length === before && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 5));
          await new Promise((r) => setTimeout(r, 100)); // the hook's last messages
          return lines[before];
        };
        const compilers = () => [...loaded].filter((u) => u.includes("/dist/") && readFileSync(new URL(u), "utf8").includes("function compileSchema(")).map((u) => u.replace(/.*\\/dist\\//, ""));
        const initialized = await answer({ id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } } });
        const atInitialize = compilers();
        input.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\\n");
        const listed = await answer({ id: 2, method: "tools/list" });
        const atList = compilers();
        const called = await answer({ id: 3, method: "tools/call", params: { name: "echo", arguments: { text: 5 } } });
        console.log(JSON.stringify({ atListen, revision: initialized.result.protocolVersion, tools: listed.result.tools.map((t) => t.name), atInitialize, atList, atCall: compilers(), called: called.result }));
        process.exit(0);`;
      const node = run(process.execPath, ["--input-type=module", "-e", script], project);
      expect(node.status, describeRun(node)).to.equal(0);
      const out = JSON.parse(node.stdout) as { atListen: string[]; revision: string; tools: string[]; atInitialize: string[]; atList: string[]; atCall: string[]; called: { isError?: boolean; content: { text: string }[] } };
      // Listening, before any message, it loads the revision a client asking for its latest gets, and only what answers initialize.
      // One file: pack bundles the revision's start-up files (its protocol tables and start-up validators) into module.js.
      expect(out.atListen).to.deep.equal(["generated/2025-11-25/module.js"]);
      expect([out.revision, out.tools]).to.deep.equal(["2025-11-25", ["echo"]]);
      expect(out.atInitialize, "loaded by initialize").to.deep.equal([]);
      expect(out.atList, "loaded by tools/list").to.deep.equal([]);
      expect(out.atCall, "loaded by the first tools/call").to.have.length(1);
      expect(out.called.isError).to.equal(true);
      expect(out.called.content[0]!.text).to.match(/^Invalid arguments for tool echo: \/text: /);
    });

    it("serves a tool as a 2026-07-28 task from the main entry alone: the bundle imports the tasks extension's module lazily, from inside the package", () => {
      const script = `
        import { createMemoryPair, createServer, McpClient } from "@mcp-codegen/runtime";
        const server = createServer({ name: "tasks", version: "1.0.0", revisions: ["2026-07-28"], logger: () => {} });
        server.tool({ name: "must", inputSchema: { type: "object", properties: {} }, execution: { taskSupport: "required" } }, (_args, ctx) => ctx.task(() => ({ content: [{ type: "text", text: "ran" }] })));
        const [clientEnd, serverEnd] = createMemoryPair();
        await server.listen(serverEnd);
        const client = await McpClient.connect(clientEnd, { name: "c", version: "1", revision: "2026-07-28", capabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } }, validate: "off", tasks: false, logger: () => {} });
        const created = await client.request("tools/call", { name: "must", arguments: {} });
        let task;
        for (const deadline = Date.now() + 10_000; task?.status !== "completed" && Date.now() < deadline; ) {
          await new Promise((r) => setTimeout(r, 20));
          task = await client.request("tasks/get", { taskId: created.taskId });
        }
        await client.close();
        await server.close();
        console.log(JSON.stringify({ created: created.resultType, status: task.status, text: task.result?.content[0].text }));`;
      const node = run(process.execPath, ["--input-type=module", "-e", script], project);
      expect(node.status, describeRun(node)).to.equal(0);
      expect(JSON.parse(node.stdout)).to.deep.equal({ created: "task", status: "completed", text: "ran" });
    });

    it("a CommonJS module loads the main entry and /http through import()", () => {
      const script = `
        Promise.all([import("@mcp-codegen/runtime"), import("@mcp-codegen/runtime/http")]).then(([main, http]) => {
          const server = main.createServer({ name: "cjs", version: "1.0.0" });
          console.log(JSON.stringify({ tool: typeof server.tool, transport: typeof http.HttpClientTransport }));
        });`;
      writeFiles(project, { "consumer.cjs": script });
      const node = run(process.execPath, ["consumer.cjs"], project);
      expect(node.status, describeRun(node)).to.equal(0);
      expect(JSON.parse(node.stdout)).to.deep.equal({ tool: "function", transport: "function" });
    });

    it("every class any entry point exports keeps its name through bundling (constructor.name, what logs and stack traces show)", () => {
      const script = `
        import { readFileSync } from "node:fs";
        const manifest = JSON.parse(readFileSync("node_modules/@mcp-codegen/runtime/package.json", "utf8"));
        const entries = Object.keys(manifest.exports).filter((entry) => !entry.endsWith(".json") && !entry.includes("*"));
        const classes = [];
        const wrong = [];
        const peers = Object.keys(manifest.peerDependencies ?? {});
        const needPeers = [];
        for (const entry of entries) {
          let module;
          try {
            module = await import(entry === "." ? "@mcp-codegen/runtime" : "@mcp-codegen/runtime" + entry.slice(1));
          } catch (error) {
            // An entry of an optional peer this project did not install (/otel): nothing of it loads.
            if (error.code === "ERR_MODULE_NOT_FOUND" && peers.some((peer) => error.message.includes("'" + peer + "'"))) {
              needPeers.push(entry);
              continue;
            }
            throw error;
          }
          for (const [name, value] of Object.entries(module)) {
            if (typeof value !== "function" || !/^class\\b/.test(Function.prototype.toString.call(value))) continue;
            classes.push(name);
            if (value.name !== name) wrong.push(entry + ": " + name + " is named " + value.name);
          }
        }
        console.log(JSON.stringify({ classes: classes.length, wrong, needPeers }));`;
      writeFiles(project, { "class-names.mjs": script });
      const node = run(process.execPath, ["class-names.mjs"], project);
      expect(node.status, describeRun(node)).to.equal(0);
      const { classes, wrong, needPeers } = JSON.parse(node.stdout) as { classes: number; wrong: string[]; needPeers: string[] };
      expect(wrong).to.deep.equal([]);
      expect(classes).to.be.at.least(10); // RpcError, McpClient, HttpClientTransport, ...
      // /otel loads once its optional peer is installed (an earlier test here may have): none other needs one.
      expect(needPeers.filter((entry) => entry !== "./otel")).to.deep.equal([]);
    });

    it("/support, what generated modules import, loads without the main entry; every revision's default handlers throw its one MethodNotFound", () => {
      const script = `
        ${RECORD_LOADED}
        const support = await import("@mcp-codegen/runtime/support");
        await new Promise((r) => setTimeout(r, 100));
        const files = [...loaded].filter((u) => u.includes("/dist/")).map((u) => u.replace(/.*\\/dist\\//, "")).sort();
        const thrown = {};
        for (const revision of ${JSON.stringify(REVISIONS)}) {
          const m = await import("@mcp-codegen/runtime/revisions/" + revision);
          try { m.defaultServerHandlers()["tools/list"]({}, {}); } catch (error) { thrown[revision] = [error instanceof support.MethodNotFound, error.code, m.MethodNotFound === support.MethodNotFound]; }
        }
        console.log(JSON.stringify({ files, thrown, email: [support.isEmail("a@example.com"), support.isEmail("nope")] }));`;
      const node = run(process.execPath, ["--input-type=module", "-e", script], project);
      expect(node.status, describeRun(node)).to.equal(0);
      const out = JSON.parse(node.stdout) as { files: string[]; thrown: Record<string, unknown>; email: boolean[] };
      expect(out.files.filter((file) => !file.startsWith("runtime/chunks/"))).to.deep.equal(["runtime/support/index.js"]);
      expect(out.files.length, out.files.join(", ")).to.equal(2);
      for (const revision of REVISIONS) expect(out.thrown[revision], revision).to.deep.equal([true, -32601, true]);
      expect(out.email).to.deep.equal([true, false]);
    });

    it("every pinned revision is an entry point that loads at run time with its validators", () => {
      const script = `
        const out = {};
        for (const revision of ${JSON.stringify(REVISIONS)}) {
          const m = await import("@mcp-codegen/runtime/revisions/" + revision);
          out[revision] = { revision: m.REVISION, valid: m.isTool({ name: "t", inputSchema: { type: "object" } }), invalid: m.isTool({ name: 1 }) };
        }
        console.log(JSON.stringify(out));`;
      const node = run(process.execPath, ["--input-type=module", "-e", script], project);
      expect(node.status, describeRun(node)).to.equal(0);
      const out = JSON.parse(node.stdout) as Record<string, unknown>;
      for (const revision of REVISIONS) expect(out[revision], revision).to.deep.equal({ revision, valid: true, invalid: false });
    });

    it("serves the tasks extension from @mcp-codegen/runtime/extensions/tasks: negotiated, a round trip, -32602 with the path of bad params", () => {
      const script = `
        import { createMemoryPair, createServer, McpClient } from "@mcp-codegen/runtime";
        import { extensionModule as tasks, EXTENSION } from "@mcp-codegen/runtime/extensions/tasks";
        const server = createServer({ name: "tasks", version: "1.0.0", revisions: ["2026-07-28"], extensions: [tasks], logger: () => {} });
        server.handle("tasks/cancel", () => ({ resultType: "complete" }));
        const [clientEnd, serverEnd] = createMemoryPair();
        await server.listen(serverEnd);
        const client = await McpClient.connect(clientEnd, { name: "c", version: "1", revision: "2026-07-28", extensions: [tasks], logger: () => {} });
        const out = { id: EXTENSION, declared: client.serverExtension(EXTENSION), cancelled: await client.requestExtension(tasks, "tasks/cancel", { taskId: "t1" }) };
        out.bad = await client.request("tasks/cancel", { taskId: 5 }).catch((error) => ({ code: error.code, path: error.data.issues[0].path }));
        await client.close();
        await server.close();
        console.log(JSON.stringify(out));`;
      const node = run(process.execPath, ["--input-type=module", "-e", script], project);
      expect(node.status, describeRun(node)).to.equal(0);
      const out = JSON.parse(node.stdout) as { id: string; declared: unknown; cancelled: { resultType: string }; bad: unknown };
      expect(out.id).to.equal("io.modelcontextprotocol/tasks");
      expect(out.declared).to.deep.equal({});
      expect(out.cancelled.resultType).to.equal("complete");
      expect(out.bad).to.deep.equal({ code: -32602, path: "/params/taskId" });
    });
  });

  describe("a TypeScript server", () => {
    let project: string;
    before(async () => {
      project = join(dir, "runtime-only");
      writeFiles(project, { ...TS_FILES, "tsconfig.nodenext.json": tsconfig("nodenext", "nodenext", false), "tsconfig.bundler.json": tsconfig("preserve", "bundler", true) });
      // With the optional peers whose types /auth and /otel name, as a user of those entry points installs them.
      const peers = Object.entries(tarballManifest(packed.runtime).peerDependencies ?? {})
        .filter(([name]) => ["oauth4webapi", "jose", "@opentelemetry/api"].includes(name))
        .map(([name, range]) => `${name}@${range}`);
      const install = await npm(["install", "--save-dev", "--prefer-offline", "typescript@~6.0.3", "@types/node@^20.19.0", "zod@^4", ...peers], project, registry.url);
      expect(install.status, describeRun(install)).to.equal(0);
    });

    for (const resolution of ["nodenext", "bundler"])
      it(`type-checks under moduleResolution ${resolution}; a wrong CallToolResult is an error`, () => {
        const tsc = run(process.execPath, [join(project, "node_modules", "typescript", "bin", "tsc"), "-p", `tsconfig.${resolution}.json`], project);
        const errors = tsc.stdout.split("\n").filter((line) => /error TS\d+/.test(line));
        expect(tsc.status, describeRun(tsc)).to.equal(2);
        expect(errors, describeRun(tsc)).to.have.length(1);
        expect(errors[0]).to.match(/^src\/wrong\.ts\(3,\d+\): error TS\d+: .*'txt' does not exist in type 'TextContent'/);
      });
  });

  describe("the mcp-codegen CLI", () => {
    let project: string;
    before(async () => {
      project = join(dir, "runtime-only");
      const install = await npm(["install", "--save-dev", "--prefer-offline", `mcp-codegen@${packed.version}`], project, registry.url);
      expect(install.status, describeRun(install)).to.equal(0);
    });

    it("npx mcp-codegen --version prints the package's version, --help every command", () => {
      const version = run("npx", ["mcp-codegen", "--version"], project);
      expect(version.status, describeRun(version)).to.equal(0);
      expect(version.stdout.trim()).to.equal(packed.version);
      const help = run("npx", ["mcp-codegen", "--help"], project);
      expect(help.status, describeRun(help)).to.equal(0);
      for (const command of ["generate", "check", "diff", "spec add", "spec fetch", "scaffold"]) expect(help.stdout).to.match(new RegExp(`^\\s+${command}\\b`, "m"));
    });

    it("npx mcp-codegen diff reads the pinned schemas the package ships, and reports what the checkout's CLI reports", () => {
      const [from, to] = REVISIONS.slice(-2) as [string, string];
      const installed = run("npx", ["mcp-codegen", "diff", from, to, "--json"], project);
      expect(installed.status, describeRun(installed)).to.equal(0);
      const checkout = runCli(["diff", from, to, "--json"]);
      expect(checkout.status, describeRun(checkout)).to.equal(0);
      expect(JSON.parse(installed.stdout)).to.deep.equal(JSON.parse(checkout.stdout));
    });


    it("generate without --out refuses to write into the installed package (node_modules), naming what a project runs instead", () => {
      const refused = run("npx", ["mcp-codegen", "generate"], project);
      expect(refused.status, describeRun(refused)).to.equal(2);
      expect(refused.stderr).to.contain("an installed package does not write").and.contain("generate --out src/mcp --revision R");
      expect(existsSync(join(project, "node_modules", "mcp-codegen", "generated"))).to.equal(false);
    });

    it("upgrading a folder 0.2.0 wrote: generate --out removes its support copy and says so, keeps an edited one with a warning; check flags what is left", () => {
      const generated = run("npx", ["mcp-codegen", "generate", "--out", "src/upgraded", "--revision", "2025-11-25"], project);
      expect(generated.status, describeRun(generated)).to.equal(0);
      const folder = join(project, "src", "upgraded");
      plantOldCopies(folder, ["validation.ts", "method-not-found.ts"], "files");
      writeFileSync(join(folder, "method-not-found.ts"), `${oldCopy("method-not-found.ts")}// mine\n`);
      const flagged = run("npx", ["mcp-codegen", "check", "--out", "src/upgraded"], project);
      expect(flagged.status, describeRun(flagged)).to.equal(1);
      expect(flagged.stderr, flagged.stderr).to.contain("src/upgraded/validation.ts: left by an earlier mcp-codegen: generated code imports @mcp-codegen/runtime/support now");
      const upgraded = run("npx", ["mcp-codegen", "generate", "--out", "src/upgraded"], project);
      expect(upgraded.status, describeRun(upgraded)).to.equal(0);
      expect(upgraded.stdout).to.contain("removed src/upgraded/validation.ts");
      expect(upgraded.stderr).to.contain("warning: src/upgraded/method-not-found.ts: left by an earlier mcp-codegen and edited since");
      expect(existsSync(join(folder, "validation.ts"))).to.equal(false);
      expect(readFileSync(join(folder, "method-not-found.ts"), "utf8")).to.contain("// mine");
      const left = run("npx", ["mcp-codegen", "check", "--out", "src/upgraded"], project);
      expect(left.status, describeRun(left)).to.equal(1);
      expect(left.stderr).to.contain("src/upgraded/method-not-found.ts: left by an earlier mcp-codegen and edited since").and.not.contain("validation.ts");
    });

    describe("npx mcp-codegen scaffold", () => {
      let scaffolded: string;
      let scaffold: CliRun;
      let install: CliRun;
      before(async () => {
        scaffolded = join(dir, "weather");
        scaffold = run("npx", ["mcp-codegen", "scaffold", scaffolded, "--name", "weather", "--revisions", "2025-11-25,2026-07-28"], project);
        expect(scaffold.status, describeRun(scaffold)).to.equal(0);
        install = await npm(["install", "--prefer-offline"], scaffolded, registry.url);
      });

      it("writes a project that depends on both packages by version, not file:", () => {
        expect(scaffold.status, describeRun(scaffold)).to.equal(0);
        const pkg = JSON.parse(readFileSync(join(scaffolded, "package.json"), "utf8")) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
        expect(pkg.dependencies["@mcp-codegen/runtime"]).to.equal(`^${packed.version}`);
        expect(pkg.devDependencies["mcp-codegen"]).to.equal(`^${packed.version}`);
        expect(JSON.stringify(pkg)).not.to.contain("file:");
      });

      it("installs from the registry, and its npm test passes for each revision", async () => {
        expect(install.status, describeRun(install)).to.equal(0);
        const lock = readFileSync(join(scaffolded, "package-lock.json"), "utf8");
        expect(lock).to.contain(`"node_modules/@mcp-codegen/runtime": {\n      "version": "${packed.version}"`);
        const test = await npm(["test"], scaffolded);
        expect(test.status, describeRun(test)).to.equal(0);
        for (const revision of ["2025-11-25", "2026-07-28"]) expect(test.stdout).to.contain(`every stub through the runtime, MCP ${revision}`);
        expect(test.stdout).to.match(/^# fail 0$/m);
      });

      // The version-bump flow, from the installed packages: a synthetic next revision generated into
      // the scaffolded project with `generate --out`; the compiler flags the handlers it reaches, by
      // field; `server.handle` implements its new method; after the fix, the SDK client and McpClient
      // get correct answers at the old and the new revision.
      it("a synthetic next revision: generate --out, tsc names the field, server.handle serves the new method, both revisions answer", async () => {
        expect(install.status, describeRun(install)).to.equal(0);
        writeFileSync(join(scaffolded, "next-schema.json"), syntheticSchema());
        const generated = run("npx", ["mcp-codegen", "generate", "--out", "src/mcp", "--schema", "next-schema.json", "--name", SYNTHETIC], scaffolded);
        expect(generated.status, describeRun(generated)).to.equal(0);
        expect(run("npx", ["mcp-codegen", "check", "--out", "src/mcp"], scaffolded).status).to.equal(0);

        const tsc = () => run(process.execPath, [join(scaffolded, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json", "--pretty", "false"], scaffolded);
        writeFileSync(join(scaffolded, "src", "bump.ts"), BUMP_BEFORE);
        const before = tsc();
        expect(before.status, describeRun(before)).to.not.equal(0);
        const blocks = before.stdout.split(/\n(?=\S)/);
        expect(blocks.filter((b) => b.trim() && !b.startsWith("src/bump.ts")), "only the user's handlers fail").to.deep.equal([]);
        expect(blocks.find((b) => b.startsWith("src/bump.ts(5,")), before.stdout).to.match(/Property 'summary' is missing/);
        expect(blocks.find((b) => b.startsWith("src/bump.ts(6,")), before.stdout).to.match(/valid: boolean/);

        writeFileSync(join(scaffolded, "src", "bump.ts"), BUMP_AFTER);
        const after = tsc();
        expect(after.status, describeRun(after)).to.equal(0);

        // McpClient, from the installed runtime, at both revisions.
        writeFileSync(join(scaffolded, "bump-client.mjs"), BUMP_CLIENT);
        const client = run(process.execPath, ["bump-client.mjs"], scaffolded);
        expect(client.status, describeRun(client)).to.equal(0);
        const answers = JSON.parse(client.stdout) as Record<string, { call: Record<string, unknown>; validate?: Record<string, unknown> }>;
        expect(answers["2025-11-25"]!.call.content).to.deep.equal([{ type: "text", text: "hi" }]);
        expect(answers[SYNTHETIC]!.call).to.include({ summary: "said hi", resultType: "complete" });
        expect(answers[SYNTHETIC]!.validate).to.include({ valid: true, resultType: "complete" });

        // The official SDK client (2025-11-25).
        const sdk = new Client({ name: "bump-sdk", version: "1.0.0" });
        await sdk.connect(new StdioClientTransport({ command: process.execPath, args: ["dist/src/bump.js", "--stdio"], cwd: scaffolded, stderr: "ignore" }));
        try {
          const called = await sdk.callTool({ name: "echo", arguments: {} });
          expect(called.content).to.deep.equal([{ type: "text", text: "hi" }]);
        } finally {
          await sdk.close();
        }
      });
    });
  });
});
