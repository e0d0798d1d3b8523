/**
 * `mcp-codegen scaffold` end to end, in a temporary folder: scaffold a project, `npm install` it
 * (once: it depends on @mcp-codegen/runtime and mcp-codegen by version, served from the packed
 * tarballs by a local registry), `npm test` it, talk to it with the official SDK client over
 * stdio; then edit its manifest, write code into a stub, scaffold again, and check the code is
 * intact, the new stub exists and the project still passes.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, lstatSync, readFileSync, writeFileSync } from "node:fs";
import { join, sep } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import { expect } from "chai";
import { npm, packedPackages, type Packed } from "../../support/packed.js";
import { describeRun, removeDir, runCli, snapshot, tempDir, type CliRun } from "../../support/project.js";
import { startRegistry, type LocalRegistry } from "../../support/registry.js";

const REVISIONS = ["2025-06-18", "2026-07-28"];

/** The SDK's client, over stdio, against the project's compiled main.js: tool names, and the text of one call. */
async function sdkSession(project: string, call: { name: string; arguments: Record<string, unknown> }): Promise<{ tools: string[]; text: string }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [join(project, "dist", "src", "main.js")], cwd: project, stderr: "pipe" });
  const client = new Client({ name: "scaffold-test", version: "1.0.0" });
  try {
    await client.connect(transport, { timeout: 20_000 });
    const tools = (await client.listTools(undefined, { timeout: 20_000 })).tools.map((t) => t.name);
    const result = (await client.callTool(call, undefined, { timeout: 20_000 })) as { content: { type: string; text?: string }[]; isError?: boolean };
    expect(result.isError, JSON.stringify(result)).not.to.equal(true);
    return { tools, text: result.content.map((c) => c.text ?? "").join("") };
  } finally {
    await client.close();
  }
}

const USER_BODY = `  const times = args.times ?? 1;
  context.log("info", \`echoing \${times} times\`);
  return { content: [{ type: "text", text: shout(args.message).repeat(times) }] };`;
const USER_HELPER = `
// Written by hand: the scaffold must leave this alone.
function shout(text: string): string {
  return text.toUpperCase();
}
`;

describe("mcp-codegen scaffold, end to end", function () {
  this.timeout(300_000);
  let dir: string;
  let project: string;
  let installed: CliRun;
  let httpProject: string;
  let httpInstalled: CliRun;
  let packed: Packed;
  let registry: LocalRegistry;

  before(async function () {
    this.timeout(600_000); // `make pack` first, when the tarballs are older than the sources
    packed = packedPackages();
    registry = await startRegistry([packed.runtime, packed.cli]);
    dir = tempDir("scaffold");
    project = join(dir, "weather");
    const run = runCli(["scaffold", project, "--name", "weather", "--revisions", REVISIONS.join(",")]);
    expect(run.status, describeRun(run)).to.equal(0);
    // The http project (tested below) is independent: both installs run side by side.
    httpProject = join(dir, "web");
    const http = runCli(["scaffold", httpProject, "--name", "web", "--transport", "http", "--revisions", "2025-11-25"]);
    expect(http.status, describeRun(http)).to.equal(0);
    [installed, httpInstalled] = await Promise.all([npm(["install", "--prefer-offline"], project, registry.url), npm(["install", "--prefer-offline"], httpProject, registry.url)]);
  });
  after(async () => {
    await registry?.close();
    removeDir(dir);
  });

  it("writes a complete project: manifest, generated types, one stub per entry, a test, a README, package.json on the published packages", () => {
    for (const path of [
      "mcp.server.json",
      "package.json",
      "tsconfig.json",
      "README.md",
      "src/main.ts",
      "src/generated/types.ts",
      "src/generated/manifest.ts",
      "src/generated/server.ts",
      "src/tools/echo.ts",
      "src/resources/readme.ts",
      "src/templates/note.ts",
      "src/prompts/summarize.ts",
      "test/stubs.test.ts",
    ])
      expect(existsSync(join(project, path)), path).to.equal(true);
    const manifest = JSON.parse(readFileSync(join(project, "mcp.server.json"), "utf8")) as Record<string, unknown>;
    expect(manifest).to.include({ name: "weather", transport: "stdio" });
    expect(manifest.revisions).to.deep.equal(REVISIONS);
    const pkg = JSON.parse(readFileSync(join(project, "package.json"), "utf8")) as Record<"dependencies" | "devDependencies", Record<string, string>>;
    expect(pkg.dependencies["@mcp-codegen/runtime"]).to.equal(`^${packed.version}`);
    expect(pkg.devDependencies["mcp-codegen"]).to.equal(`^${packed.version}`);
    const types = readFileSync(join(project, "src/generated/types.ts"), "utf8");
    // The types server.tool infers from the schema (issue 18): not a second, hand-made description.
    expect(types).to.contain('export type EchoArgs = ToolArguments<(typeof tools)["echo"]["inputSchema"]>;');
    expect(readFileSync(join(project, "src/generated/server.ts"), "utf8")).to.contain('server.tool(manifest.tools["echo"], echoTool);');
    expect(readFileSync(join(project, "src/tools/echo.ts"), "utf8")).to.contain(
      "export default async function echoTool(\n  args: EchoArgs,\n  context: RequestContext,\n): Promise<EchoResult> {",
    );
  });

  it("npm install gets the packed packages by version, as copies, not links", () => {
    expect(installed.status, describeRun(installed)).to.equal(0);
    for (const name of ["@mcp-codegen/runtime", "mcp-codegen"]) {
      const folder = join(project, "node_modules", name);
      expect(lstatSync(folder).isSymbolicLink(), name).to.equal(false);
      expect((JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as { version: string }).version, name).to.equal(packed.version);
    }
  });

  it("the manifest's $schema names the installed package's mcp.server.schema.json, and the manifest is valid under it (ajv)", () => {
    const manifest = JSON.parse(readFileSync(join(project, "mcp.server.json"), "utf8")) as { $schema: string };
    const schemaFile = join(project, manifest.$schema);
    expect(schemaFile.startsWith(join(project, "node_modules", "mcp-codegen") + sep), manifest.$schema).to.equal(true);
    const validate = new Ajv2020({ strict: true, allErrors: true }).compile(JSON.parse(readFileSync(schemaFile, "utf8")) as object);
    expect(validate(manifest), JSON.stringify(validate.errors)).to.equal(true);
    expect(validate({ ...manifest, tols: [] }), "an unknown key").to.equal(false);
  });

  it("npm test compiles the project and calls every stub through the runtime, for each revision", async () => {
    const run = await npm(["test"], project);
    expect(run.status, describeRun(run)).to.equal(0);
    for (const revision of REVISIONS) expect(run.stdout).to.contain(`every stub through the runtime, MCP ${revision}`);
    for (const name of ["tools/call echo", "resources/read readme", "resources/read note (weather://notes/example)", "prompts/get summarize"])
      expect(run.stdout).to.contain(name);
    expect(run.stdout).to.match(/^# pass 10$/m);
    expect(run.stdout).to.match(/^# fail 0$/m);
  });

  it("an official SDK Client lists and calls the scaffolded tools over stdio", async () => {
    const session = await sdkSession(project, { name: "echo", arguments: { message: "hi" } });
    expect(session.tools).to.deep.equal(["echo"]);
    expect(session.text).to.equal('echo is not implemented yet (arguments: {"message":"hi"})');
  });

  describe("after editing the manifest and a stub, scaffold again", () => {
    let run: CliRun;
    let userStub: string;
    before(() => {
      const manifestPath = join(project, "mcp.server.json");
      const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as Record<string, unknown[]> & { tools: Record<string, unknown>[] };
      manifest.tools[0]!.description = "Echoes a message back, louder.";
      manifest.tools.push({
        name: "get_forecast",
        description: "The forecast for a city.",
        // Common keywords at the top level (issue 18, item 1): they must compile in src/generated/manifest.ts.
        inputSchema: {
          type: "object",
          title: "Forecast request",
          description: "Which city, how many days",
          additionalProperties: false,
          $defs: { day: { type: "integer", minimum: 1, maximum: 7 } },
          properties: { city: { type: "string" }, days: { type: "integer", minimum: 1, maximum: 7 } },
          required: ["city"],
        },
        outputSchema: { type: "object", properties: { city: { type: "string" }, highs: { type: "array", items: { type: "number" } } }, required: ["city", "highs"] },
      });
      // A $ref to the whole schema (recursion) is beyond inference: this tool gets json-schema-to-typescript's interface instead.
      manifest.tools.push({
        name: "lookup",
        inputSchema: { type: "object", $defs: { id: { type: "string", minLength: 1 } }, properties: { id: { $ref: "#/$defs/id" }, parent: { $ref: "#" } }, required: ["id"] },
        example: { id: "n1" },
      });
      manifest.prompts = [];
      writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));

      const stubPath = join(project, "src/tools/echo.ts");
      const stub = readFileSync(stubPath, "utf8");
      const body = /(\): Promise<EchoResult> \{\n)([^]*?)(\n\}\n)/.exec(stub)!;
      userStub = `${stub.slice(0, body.index + body[1]!.length)}${USER_BODY}${body[3]}${USER_HELPER}`;
      writeFileSync(stubPath, userStub);
      run = runCli(["scaffold", project]);
    });

    it("reports the new stub, the merged one and the removed entry", () => {
      expect(run.status, describeRun(run)).to.equal(0);
      expect(run.stdout).to.match(/^updated .*weather: weather, stdio, 3 tools, 1 resource, 1 template, 0 prompts$/m);
      expect(run.stdout).to.contain("+ src/tools/get-forecast.ts  (new stub)");
      expect(run.stdout).to.contain("~ src/tools/echo.ts  (kept your code; brought in line: doc comment)");
      expect(run.stdout).to.contain("! src/prompts/summarize.ts: no longer in mcp.server.json; kept, not registered");
    });

    it("keeps the user's code byte for byte; only the doc comment's first paragraph follows the manifest", () => {
      const now = readFileSync(join(project, "src/tools/echo.ts"), "utf8");
      expect(now).to.equal(userStub.replace("The tool `echo`: Echoes a message back, a number of times.", "The tool `echo`: Echoes a message back, louder."));
      expect(now).to.contain(USER_BODY).and.to.contain(USER_HELPER);
    });

    it("writes the new stub, updates the types, and keeps the removed prompt's stub unregistered", () => {
      expect(readFileSync(join(project, "src/tools/get-forecast.ts"), "utf8")).to.contain("export default async function getForecastTool(");
      const types = readFileSync(join(project, "src/generated/types.ts"), "utf8");
      expect(types).to.contain('export type GetForecastArgs = ToolArguments<(typeof tools)["get_forecast"]["inputSchema"]>;');
      // Its result: the served revisions' tools/call result, with structuredContent as its outputSchema says.
      expect(types).to.match(/export type GetForecastResult = ToolResult<\s*\(typeof tools\)\["get_forecast"\]\["outputSchema"\],\s*ServedToolResult\s*>;/);
      expect(types).to.match(/export interface LookupArgs \{[^}]*id: Id;/s);
      expect(readFileSync(join(project, "src/generated/server.ts"), "utf8")).to.contain('server.tool<T.LookupArgs>(manifest.tools["lookup"], lookupTool);');
      expect(types).to.match(/@deprecated The prompt `summarize` is no longer in mcp.server.json/);
      expect(existsSync(join(project, "src/prompts/summarize.ts"))).to.equal(true);
      expect(readFileSync(join(project, "src/generated/server.ts"), "utf8")).not.to.contain("summarize");
    });

    it("the project still compiles and passes, and the SDK client sees the new tool and runs the user's code", async () => {
      const test = await npm(["test"], project);
      expect(test.status, describeRun(test)).to.equal(0);
      expect(test.stdout).to.contain("tools/call get_forecast");
      expect(test.stdout).to.match(/^# fail 0$/m);
      const session = await sdkSession(project, { name: "echo", arguments: { message: "hi", times: 2 } });
      expect(session.tools).to.deep.equal(["echo", "get_forecast", "lookup"]);
      expect(session.text).to.equal("HIHI");
    });

    it("a stub edited to the wrong argument or result type fails the project's compile, at the stub", () => {
      const stubPath = join(project, "src/tools/get-forecast.ts");
      const stub = readFileSync(stubPath, "utf8");
      try {
        // days is an integer, city a string (inputSchema); structuredContent.city must be a string (outputSchema).
        const wrong = stub.replace("  return {", "  args.city.toFixed();\n  return {").replace(/structuredContent: \{ city: "example",/, "structuredContent: { city: args.days,");
        expect(wrong).to.contain("args.city.toFixed()").and.to.contain("city: args.days,");
        writeFileSync(stubPath, wrong);
        const tsc = spawnSync(process.execPath, [join(project, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json", "--noEmit"], { cwd: project, encoding: "utf8" });
        expect(tsc.status, tsc.stdout).to.equal(2);
        expect(tsc.stdout).to.match(/^src\/tools\/get-forecast\.ts\(\d+,\d+\): error TS2551: Property 'toFixed' does not exist on type 'string'/m);
        expect(tsc.stdout).to.match(/^src\/tools\/get-forecast\.ts\(\d+,\d+\): error TS2322: Type .*structuredContent: \{ city: number \| undefined;/m);
      } finally {
        writeFileSync(stubPath, stub);
      }
    });

    it("a run with nothing to change writes nothing", () => {
      const before = snapshot(join(project, "src"));
      const again = runCli(["scaffold", project]);
      expect(again.status, describeRun(again)).to.equal(0);
      expect(again.stdout).not.to.match(/^\s+[+~] /m);
      expect(snapshot(join(project, "src"))).to.deep.equal(before);
    });
  });

  describe("refusals", () => {
    it("a folder that is not empty and has no manifest, options given to an existing project, a broken manifest", () => {
      const stranger = tempDir("scaffold-stranger");
      try {
        writeFileSync(join(stranger, "notes.txt"), "mine\n");
        const notEmpty = runCli(["scaffold", stranger, "--name", "x"]);
        expect(notEmpty.status, describeRun(notEmpty)).to.equal(1);
        expect(notEmpty.stderr).to.contain("is not empty and has no mcp.server.json");
      } finally {
        removeDir(stranger);
      }
      const unknown = runCli(["scaffold", join(dir, "other"), "--name", "other", "--revisions", "2025-06-18,1999-01-01"]);
      expect(unknown.status, describeRun(unknown)).to.equal(1);
      expect(unknown.stderr).to.contain("unknown MCP revision 1999-01-01 in --revisions (pinned: 2024-11-05, ");
      expect(unknown.stderr).to.contain("generate it into the project first: mcp-codegen generate --out src/mcp --schema <schema.json> --name 1999-01-01");
      expect(existsSync(join(dir, "other"))).to.equal(false);
      // A typo, before --name is missed: the revision it likely meant.
      const typo = runCli(["scaffold", join(dir, "other"), "--revisions", "2025-11-2"]);
      expect(typo.status, describeRun(typo)).to.equal(1);
      expect(typo.stderr).to.contain('unknown MCP revision 2025-11-2 (did you mean "2025-11-25"?) in --revisions');

      const options = runCli(["scaffold", project, "--name", "other"]);
      expect(options.status, describeRun(options)).to.equal(1);
      expect(options.stderr).to.contain("is a scaffolded project already: change name in mcp.server.json");

      const manifestPath = join(project, "mcp.server.json");
      const good = readFileSync(manifestPath, "utf8");
      const before = snapshot(join(project, "src"));
      try {
        const broken = JSON.parse(good) as { tools: Record<string, unknown>[] };
        const at = broken.tools.push({ name: "bad name!", inputSchema: { type: "string" } }) - 1;
        writeFileSync(manifestPath, JSON.stringify(broken));
        const run = runCli(["scaffold", project]);
        expect(run.status, describeRun(run)).to.equal(1);
        expect(run.stderr).to.contain("has 2 problems").and.to.contain(`#/tools/${at}/name: "bad name!" does not match ^[A-Za-z0-9_.-]{1,128}$; use 1 to 128 of A-Z a-z 0-9 _ . -`);
        expect(run.stderr).to.contain(`#/tools/${at}/inputSchema/type: must be "object", not "string"`);
        expect(snapshot(join(project, "src"))).to.deep.equal(before);
      } finally {
        writeFileSync(manifestPath, good);
      }
    });
  });

  describe("with --transport http", () => {
    before(() => expect(httpInstalled.status, describeRun(httpInstalled)).to.equal(0));

    it("compiles, passes its test, and serves Streamable HTTP on 127.0.0.1 to the SDK client", async () => {
      const test = await npm(["test"], httpProject);
      expect(test.status, describeRun(test)).to.equal(0);
      const server = spawn(process.execPath, [join(httpProject, "dist", "src", "main.js")], { cwd: httpProject, env: { ...process.env, PORT: "0" }, stdio: ["ignore", "ignore", "pipe"] });
      try {
        const url = await new Promise<string>((resolveUrl, reject) => {
          let err = "";
          const timer = setTimeout(() => reject(new Error(`no URL on stderr in 20 s: ${err}`)), 20_000);
          server.stderr!.setEncoding("utf8").on("data", (text: string) => {
            err += text;
            const found = /http:\/\/127\.0\.0\.1:\d+\/mcp/.exec(err);
            if (found) {
              clearTimeout(timer);
              resolveUrl(found[0]);
            }
          });
        });
        const client = new Client({ name: "scaffold-test", version: "1.0.0" });
        await client.connect(new StreamableHTTPClientTransport(new URL(url)), { timeout: 20_000 });
        try {
          expect((await client.listTools(undefined, { timeout: 20_000 })).tools.map((t) => t.name)).to.deep.equal(["echo"]);
        } finally {
          await client.close();
        }
      } finally {
        server.kill();
      }
    });
  });
});
