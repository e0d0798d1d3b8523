// `mcp-codegen migrate` on servers written for SDK v1 and v2: what it rewrites, that it loses no
// code, that each manual step is marked where the report says, and how it treats the files it
// writes (only changed ones, never uncommitted work, nothing with --dry-run, whose diff git applies).
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "chai";
import ts from "typescript";
import { migrate } from "../../../codegen/migrate/migrate.js";
import { removeDir, ROOT, runCli, tempDir } from "../../support/project.js";

const FIXTURES = join(ROOT, "test", "fixtures", "migrate");
const V1 = readFileSync(join(FIXTURES, "sdk-v1-server.ts"), "utf8");

/** A temp folder holding `files`, committed to git when `commit`. */
function project(files: Record<string, string>, commit = true): string {
  const dir = tempDir("migrate");
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  if (commit) {
    const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: dir, encoding: "utf8" });
    git("init", "-q");
    git("add", "-A");
    git("commit", "-qm", "before");
  }
  return dir;
}

/** The comments and string literals (template parts too) of a source: what a rewrite must carry over. */
function commentsAndStrings(text: string): string[] {
  const file = ts.createSourceFile("x.ts", text, ts.ScriptTarget.Latest, true);
  const out = new Set<string>();
  const visit = (node: ts.Node): void => {
    for (const ranges of [ts.getLeadingCommentRanges(text, node.getFullStart()), ts.getTrailingCommentRanges(text, node.getEnd())])
      for (const range of ranges ?? []) out.add(text.slice(range.pos, range.end));
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) out.add(node.text);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return [...out];
}

const HTTP_SERVER = `import express from "express";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

const server = new McpServer({ name: "http", version: "1.0.0" });
server.registerTool("ping", { description: "pong" }, async (extra) => ({ content: [{ type: "text", text: String(extra.taskStore) }] }));
const app = express();
app.post("/mcp", async (req, res) => {
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  await server.connect(transport);
  await transport.handleRequest(req, res, req.body);
});
`;

describe("migrate: the codemod", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));
  const temp = (files: Record<string, string>, commit = true) => {
    const dir = project(files, commit);
    dirs.push(dir);
    return dir;
  };

  it("rewrites a typical SDK v1 server with no manual step, keeping every comment and string", () => {
    const dir = temp({ "src/server.ts": V1 });
    const report = migrate({ dir });
    expect(report.files.map((f) => [f.path, f.steps])).to.deep.equal([["src/server.ts", []]]);
    const after = readFileSync(join(dir, "src", "server.ts"), "utf8");
    expect(after).not.to.contain("@modelcontextprotocol/");
    // Nothing of the user's is lost: every comment and string literal but the SDK's module names is still there.
    for (const kept of commentsAndStrings(V1).filter((s) => !s.startsWith("@modelcontextprotocol/"))) expect(after, JSON.stringify(kept)).to.contain(kept);
    // The registrations, in this runtime's API; zod raw shapes as z.object, passed as Standard Schema.
    expect(after).to.contain('import { createServer, stdio } from "@mcp-codegen/runtime";');
    // The SDK's result type as the handler's declared return goes: the result is checked as inferred.
    expect(after).to.contain("async ({ name, text, tags }, extra) => {");
    expect(after).to.contain('createServer({ name: "notes", version: "1.0.0", info: { title: "Notes" }, instructions: "Keeps notes." })');
    expect(after).to.contain("inputSchema: z.object({ name: z.string().min(1), text: z.string(), tags: z.array(z.string()).default([]) })");
    expect(after).to.contain("outputSchema: z.object({ count: z.number().int() })");
    expect(after).to.contain('server.tool({ name: "count_notes", description: "Counts the notes", inputSchema: { type: "object", properties: {} } }, async () =>');
    // The handler's context: extra.sendNotification, server.server.notification, extra._meta.
    expect(after).to.contain('await extra.notify("notifications/message", { level: "info", data: `added ${name} (${tags.length} tags)` });');
    expect(after).to.contain('await server.notify("notifications/resources/list_changed");');
    expect(after).to.contain("extra.meta?.progressToken").and.contain("extra.sessionId");
    // The URL the SDK passed is the URI string here.
    expect(after).to.contain("contents: [{ uri: uri, ").and.not.contain("uri.href");
    // The template keeps its list and complete callbacks; the prompt's zod arguments become the protocol's, its completable a completer.
    expect(after).to.match(/server\.resourceTemplate\(\s*\{ uriTemplate: "notes:\/\/note\/\{name\}", name: "note", mimeType: "text\/plain" \},/);
    // The SDK's list answers { resources }; this runtime's, the resources.
    // listed with the template's metadata under each resource, as the SDK lists them.
    expect(after).to.contain("list: async () => [...notes.keys()].map((name) => ({ uri: `notes://note/${name}`, name })).map((resource) => ({ mimeType: \"text/plain\", ...resource })),\n    complete: ");
    expect(after).to.contain('arguments: [{ name: "name", description: "the note", required: true }, { name: "style", required: false }]');
    expect(after).to.contain("{\n    complete: { name: (value) => [...notes.keys()].filter((name) => name.startsWith(value)) },\n  },\n);");
    expect(after).to.contain("const transport = stdio();\nawait server.listen(transport);");
    // Told, not silent: the hand-declared capabilities that go.
    expect(report.files[0]!.notes.map((n) => n.message)).to.deep.equal([
      "capabilities are declared from what is registered (logging always): the declaration was dropped",
      "the handler's declared return type Promise<CallToolResult> went: the result is checked as inferred, against the outputSchema too",
    ]);
  });

  it("rewrites an SDK v2 server: z.object schemas kept, ctx.mcpReq's fields, serveStdio", () => {
    const dir = temp({ "server.ts": readFileSync(join(FIXTURES, "sdk-v2-server.ts"), "utf8") });
    const report = migrate({ dir });
    expect(report.files[0]!.steps).to.deep.equal([]);
    const after = readFileSync(join(dir, "server.ts"), "utf8");
    expect(after).to.contain('import { createServer, stdio, McpServer } from "@mcp-codegen/runtime";');
    expect(after).to.contain('inputSchema: z.object({ text: z.string() })');
    expect(after).to.contain('await ctx.log("info", `echo ${text}`);').and.contain("ctx.signal.aborted").and.contain("typeof ctx.requestId");
    expect(after).not.to.contain("ctx.mcpReq.").and.not.to.contain("list: undefined");
    expect(after).to.contain('server.prompt({ name: "greet", arguments: [{ name: "name", required: true }] }');
    expect(after).to.contain("sdkServer().listen(stdio());");
  });

  it("marks each manual step in the code, above its statement, at the line and column it reports", () => {
    const dir = temp({ "http.ts": HTTP_SERVER });
    const [file] = migrate({ dir }).files;
    const lines = readFileSync(join(dir, "http.ts"), "utf8").split("\n");
    expect(file!.steps.map((s) => s.what)).to.deep.equal(['tool "ping": extra.taskStore has no equivalent', "new StreamableHTTPServerTransport(...)"]);
    for (const step of file!.steps) {
      const line = lines[step.line - 1]!;
      expect(line.indexOf("//") + 1, line).to.equal(step.column);
      expect(line.trim()).to.equal(`// TODO(mcp-codegen migrate): ${step.what}: ${step.todo}`);
    }
    // Above the statement holding what it names.
    expect(lines[file!.steps[1]!.line]).to.contain("new StreamableHTTPServerTransport(");
    // The SDK's transport is still imported for the code left to port; McpServer is not.
    expect(lines.join("\n")).to.contain('import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";').and.not.contain("import { McpServer");
  });

  it("serves the SDK's HTTP routes (a transport per session from a server factory) with httpHandler or fetchHandler, saying what went", () => {
    const dir = temp({
      "express.ts": `import express from "express";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

const getServer = () => new McpServer({ name: "http", version: "1.0.0" });
const app = express();
const postHandler = async (req: express.Request, res: express.Response) => {
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  const server = getServer();
  await server.connect(transport);
  await transport.handleRequest(req, res, req.body);
};
app.post("/mcp", checkAuth, postHandler);
app.get("/health", (_req, res) => res.send("ok"));
`,
      "hono.ts": `import { Hono } from "hono";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";

function makeServer() {
  return new McpServer({ name: "web", version: "1.0.0" });
}
const app = new Hono();
app.all("/mcp", async (c) => {
  const transport = new WebStandardStreamableHTTPServerTransport();
  await makeServer().connect(transport);
  return transport.handleRequest(c.req.raw);
});
`,
    });
    const report = migrate({ dir });
    expect(report.files.flatMap((f) => f.steps)).to.deep.equal([]);
    const express = readFileSync(join(dir, "express.ts"), "utf8");
    expect(express).to.contain('import { httpHandler } from "@mcp-codegen/runtime/http";').and.not.contain("StreamableHTTPServerTransport").and.not.contain("postHandler");
    expect(express).to.contain('const mcpHttp = httpHandler(getServer());\napp.post("/mcp", checkAuth, (req, res) => mcpHttp(req, res, req.body));\napp.get("/health"');
    const hono = readFileSync(join(dir, "hono.ts"), "utf8");
    expect(hono).to.contain('import { fetchHandler } from "@mcp-codegen/runtime/http";').and.contain('const mcpHttp = fetchHandler(makeServer());\napp.all("/mcp", (c) => mcpHttp(c.req.raw));');
    expect(report.files.map((f) => f.notes.map((n) => n.message))).to.deep.equal([
      [`the POST routes of "/mcp" go to httpHandler(getServer()): one server for every session, whose ids, streams and resumability the runtime keeps; the SDK's per-session handlers postHandler went with them`],
      [`the ALL routes of "/mcp" go to fetchHandler(makeServer()): one server for every session, whose ids, streams and resumability the runtime keeps; the SDK's per-session handlers went with them`],
    ]);
  });

  it("turns the guide's worked port (docs/migrate-from-sdk.md) into the very code the guide shows", () => {
    const [before, after] = [...readFileSync(join(ROOT, "docs", "migrate-from-sdk.md"), "utf8").matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
    const dir = temp({ "server.ts": before! });
    expect(migrate({ dir }).files[0]!.steps).to.deep.equal([]);
    expect(readFileSync(join(dir, "server.ts"), "utf8")).to.equal(after);
  });

  it("warns when the project resolves zod 3, whose schemas the runtime refuses, and not with zod 4", () => {
    const zod3 = temp({ "src/server.ts": V1, "node_modules/zod/package.json": JSON.stringify({ name: "zod", version: "3.25.76" }) });
    const [warning, ...others] = migrate({ dir: join(zod3, "src"), dryRun: true }).warnings;
    expect(others).to.deep.equal([]);
    expect(warning).to.contain("is zod 3.25.76").and.contain("npm install zod@4");
    const zod4 = temp({ "src/server.ts": V1, "node_modules/zod/package.json": JSON.stringify({ name: "zod", version: "4.1.0" }) });
    expect(migrate({ dir: join(zod4, "src"), dryRun: true }).warnings).to.deep.equal([]);
  });

  it("leaves a file that does not parse as it is, saying where it breaks", () => {
    const broken = `${V1}\nserver.registerTool("oops", {\n`;
    const dir = temp({ "broken.ts": broken, "good.ts": V1 });
    const run = runCli(["migrate", dir]);
    expect(run.status, run.stderr).to.equal(0);
    expect(run.stdout).to.match(/\/broken\.ts: not rewritten: it does not parse: \d+:\d+: .+; fix it first$/m);
    expect(readFileSync(join(dir, "broken.ts"), "utf8")).to.equal(broken);
    expect(readFileSync(join(dir, "good.ts"), "utf8")).to.contain("createServer(");
  });

  it("writes only the files it changes", () => {
    const dir = temp({ "a.ts": V1, "b.ts": "export const b = 1;\n", "c.ts": 'import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\nexport type S = McpServer;\n' });
    const before = Object.fromEntries(["b.ts", "c.ts"].map((f) => [f, statSync(join(dir, f)).mtimeMs]));
    const report = migrate({ dir });
    expect(report.files.map((f) => [f.path, f.diff === ""])).to.deep.equal([["a.ts", false], ["c.ts", false]]);
    expect(statSync(join(dir, "b.ts")).mtimeMs).to.equal(before["b.ts"]);
    expect(readFileSync(join(dir, "c.ts"), "utf8")).to.equal('import { McpServer } from "@mcp-codegen/runtime";\nexport type S = McpServer;\n');
  });

  it("--dry-run writes nothing and prints a diff that git applies to give what the rewrite writes", () => {
    const dir = temp({ "src/server.ts": V1, "src/http.ts": HTTP_SERVER });
    const dry = runCli(["migrate", join(dir, "src"), "--dry-run"]);
    expect(dry.status, dry.stderr).to.equal(0);
    expect(execFileSync("git", ["status", "--porcelain"], { cwd: dir, encoding: "utf8" })).to.equal("");
    const copy = temp({}, false);
    cpSync(join(dir, "src"), join(copy, "src"), { recursive: true });
    const patch = dry.stdout.slice(0, dry.stdout.lastIndexOf("\n", dry.stdout.search(/^\S+: would rewrite/m)) + 1);
    // A changed line reads as diff -u prints it: the old line, then the new.
    expect(patch).to.match(/^-import .*"@modelcontextprotocol\/sdk\/server\/mcp\.js";\n(-.*\n)*\+import /m);
    const apply = spawnSync("git", ["apply", "--directory=src", "-"], { cwd: copy, input: patch, encoding: "utf8" });
    expect(apply.status, apply.stderr).to.equal(0);
    migrate({ dir });
    for (const file of ["server.ts", "http.ts"]) expect(readFileSync(join(copy, "src", file), "utf8"), file).to.equal(readFileSync(join(dir, "src", file), "utf8"));
  });

  it("refuses files with uncommitted changes, and a folder outside git, unless --force", () => {
    const dir = temp({ "server.ts": V1 });
    writeFileSync(join(dir, "server.ts"), `${V1}// my work in progress\n`);
    const refused = runCli(["migrate", dir]);
    expect(refused.status).to.equal(1);
    expect(refused.stderr).to.contain("uncommitted").and.contain(" M server.ts").and.contain("--force");
    expect(readFileSync(join(dir, "server.ts"), "utf8")).to.contain("new McpServer(");
    const forced = runCli(["migrate", dir, "--force"]);
    expect(forced.status, forced.stderr).to.equal(0);
    expect(readFileSync(join(dir, "server.ts"), "utf8")).to.contain("createServer(").and.contain("// my work in progress");

    const outside = temp({ "server.ts": V1 }, false);
    const notGit = runCli(["migrate", outside]);
    expect(notGit.status).to.equal(1);
    expect(notGit.stderr).to.contain("not in a git repository");
  });

  it("says so when nothing imports the SDK's server, and a missing folder is an error naming it", () => {
    const dir = temp({ "a.ts": "export const a = 1;\n" });
    const none = runCli(["migrate", dir]);
    expect(none.status).to.equal(0);
    expect(none.stdout).to.contain("nothing to migrate");
    const help = runCli(["migrate", "--help"]);
    expect(help.status).to.equal(0);
    expect(help.stdout).to.contain("Usage: mcp-codegen migrate <dir> [--dry-run] [--force]").and.contain("--dry-run").and.contain("--force");
    const missing = runCli(["migrate", join(dir, "nope")]);
    expect(missing.status).to.equal(1);
    expect(missing.stderr).to.contain("nope: no such file or folder");
  });
});
