// The Vercel AI SDK's MCP client (@ai-sdk/mcp, tools/interop) against our conformance fixture
// (examples/conformance-server) over Streamable HTTP: list, call, its tool set, resources, prompts.
import { spawn, type ChildProcess } from "node:child_process";
import { expect } from "chai";
import { tsxArgs, within } from "../support/mcp.js";
import { interopPeers } from "./support/peers.js";

type Any = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const FIXTURE = new URL("../../examples/conformance-server/main.ts", import.meta.url).pathname;

describe("interop: the AI SDK MCP client against our conformance fixture over HTTP", function () {
  let peers: Any;
  let child: ChildProcess | undefined;
  let url = "";

  before(async function () {
    peers = await interopPeers(this);
    child = spawn(process.execPath, tsxArgs(FIXTURE, "--port", "0"), { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    url = await within(
      30_000,
      new Promise<string>((resolve, reject) => {
        child!.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
          if (stderr.length < 100_000) stderr += chunk;
          const found = /listening on (http:\/\/\S+)/.exec(stderr);
          if (found) resolve(found[1]!);
        });
        child!.once("exit", (code) => reject(new Error(`the fixture exited ${code}: ${stderr}`)));
      }),
      "the fixture to listen",
    );
  });
  after(
    () =>
      new Promise<void>((resolve) => {
        if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  );

  it("lists and calls tools, builds its tool set, reads a resource and gets a prompt", async () => {
    const client = await peers.createAiSdkMcpClient({ transport: { type: "http", url } });
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t: Any) => t.name)).to.include.members(["test_simple_text", "test_image_content"]);
      const result = await client.callTool({ name: "test_simple_text", arguments: {} });
      expect(result.content[0].text).to.match(/simple text/i);
      const toolSet = await client.tools();
      expect(Object.keys(toolSet)).to.include("test_simple_text");
      const executed = await toolSet.test_simple_text.execute({}, { toolCallId: "1", messages: [] });
      expect(JSON.stringify(executed)).to.match(/simple text/i);
      const { resources } = await client.listResources();
      const first = resources[0];
      expect((await client.readResource({ uri: first.uri })).contents[0].uri).to.equal(first.uri);
      const { prompts } = await client.listPrompts();
      const simple = prompts.find((p: Any) => p.name === "test_simple_prompt");
      expect(simple, "test_simple_prompt is listed").to.not.equal(undefined);
      expect((await client.getPrompt({ name: "test_simple_prompt", arguments: {} })).messages.length).to.be.greaterThan(0);
    } finally {
      await client.close();
    }
  });
});
