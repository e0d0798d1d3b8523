// Interop with the official SDK v2 (@modelcontextprotocol/client and /server 2.4, tools/interop),
// both eras, stdio and Streamable HTTP:
//   - the SDK v2 Client against our conformance fixture (examples/conformance-server);
//   - our McpClient against an SDK v2 McpServer (tools/interop/sdk-v2-server.mjs).
import { spawn, type ChildProcess } from "node:child_process";
import { expect } from "chai";
import { McpClient, spawnStdio } from "../../runtime/index.js";
import { HttpClientTransport } from "../../runtime/transports/http/index.js";
import { tsxArgs, within } from "../support/mcp.js";
import { interopPeers, SDK_V2_SERVER } from "./support/peers.js";

type Any = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const FIXTURE = new URL("../../examples/conformance-server/main.ts", import.meta.url).pathname;
const WAIT_MS = 30_000;
const quiet = () => {};

/** Starts `node <args>` and resolves with the URL it prints as "listening on URL". */
async function listening(args: string[]): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, args, { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  const url = await within(
    WAIT_MS,
    new Promise<string>((resolve, reject) => {
      child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
        if (stderr.length < 100_000) stderr += chunk;
        const found = /listening on (http:\/\/\S+)/.exec(stderr);
        if (found) resolve(found[1]!);
      });
      child.once("exit", (code) => reject(new Error(`exited ${code}: ${stderr}`)));
    }),
    "the server to listen",
  );
  return { url, child };
}

function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

const text = (result: Any) => (result.content as { type: string; text?: string }[]).map((c) => c.text).join("");

describe("interop: the SDK v2 client against our conformance fixture", function () {
  let peers: Any;
  let http: { url: string; child: ChildProcess } | undefined;

  before(async function () {
    peers = await interopPeers(this);
    http = await listening(tsxArgs(FIXTURE, "--port", "0"));
  });
  after(() => stop(http?.child));

  const transports: Record<string, () => Any> = {
    stdio: () => new peers.StdioClientTransport({ command: process.execPath, args: tsxArgs(FIXTURE), stderr: "ignore" }),
    HTTP: () => new peers.StreamableHTTPClientTransport(new URL(http!.url)),
  };
  for (const [name, transport] of Object.entries(transports))
    for (const [era, negotiation, expected] of [
      ["session", undefined, "2025-11-25"],
      ["stateless", { mode: "auto" }, "2026-07-28"],
    ] as const)
      it(`${name}, ${era} era: negotiates ${expected}, lists, calls with progress, answers elicitation`, async () => {
        const client = new peers.Client({ name: "sdk-v2", version: "2.4.0" }, { capabilities: { elicitation: {} }, ...(negotiation && { versionNegotiation: negotiation }) });
        client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { username: "ada", email: "a@b.c" } }));
        await client.connect(transport());
        try {
          expect(client.getNegotiatedProtocolVersion()).to.equal(expected);
          const { tools } = await client.listTools();
          expect(tools.map((t: Any) => t.name)).to.include.members(["test_simple_text", "test_tool_with_progress", "test_elicitation"]);
          expect(text(await client.callTool({ name: "test_simple_text", arguments: {} }))).to.match(/simple text/i);
          const progress: number[] = [];
          await client.callTool({ name: "test_tool_with_progress", arguments: {} }, { onprogress: (p: Any) => progress.push(p.progress) });
          expect(progress.length).to.be.greaterThan(0);
          expect(text(await client.callTool({ name: "test_elicitation", arguments: { message: "who?" } }))).to.include("action=accept");
        } finally {
          await client.close();
        }
      });
});

describe("interop: our McpClient against an SDK v2 McpServer", function () {
  let http: { url: string; child: ChildProcess } | undefined;

  before(async function () {
    await interopPeers(this);
    http = await listening([SDK_V2_SERVER, "--http"]);
  });
  after(() => stop(http?.child));

  const transports: Record<string, () => Promise<Any>> = {
    stdio: () => spawnStdio(process.execPath, [SDK_V2_SERVER], { stderr: "ignore" }),
    HTTP: async () => new HttpClientTransport(http!.url),
  };
  it("stdio, revision auto, against a hand-wired 2025-era server: discover is refused, initialize follows", async () => {
    const client = await McpClient.connect(await spawnStdio(process.execPath, [SDK_V2_SERVER, "--legacy"], { stderr: "ignore" }), { name: "ours", version: "1.0.0", logger: quiet });
    expect([client.era, client.revision]).to.deep.equal(["session", "2025-11-25"]);
    expect(text(await client.callTool("echo", { text: "hi" }))).to.equal("hi");
    await client.close();
  });

  for (const [name, transport] of Object.entries(transports))
    for (const [revision, era, expected] of [
      ["auto", "stateless", "2026-07-28"],
      ["2025-11-25", "session", "2025-11-25"],
      ["2025-03-26", "session", "2025-03-26"],
    ] as const)
      it(`${name}, revision ${revision}: speaks ${expected}, lists every page, calls, reads, gets`, async () => {
        const client = await McpClient.connect(await transport(), { name: "ours", version: "1.0.0", revision, logger: quiet });
        try {
          expect(client.era).to.equal(era);
          expect(client.revision).to.equal(expected);
          expect(client.serverInfo.name).to.equal("sdk-v2");
          const tools = (await client.listTools({ all: true })).items;
          expect(tools.map((t) => t.name)).to.have.members(["echo", "route"]);
          expect(text(await client.callTool("echo", { text: "hi" }))).to.equal("hi");
          const route = tools.find((t) => t.name === "route")!;
          expect((route.inputSchema.properties as Any).region["x-mcp-header"]).to.equal("Region");
          // SEP-2243 over HTTP at 2026-07-28: the SDK refuses a call whose Mcp-Param-Region is missing (-32020).
          expect(text(await client.callTool("route", { region: "eu-west" }))).to.equal("region eu-west");
          expect((await client.readResource("note://one")).contents[0]).to.deep.include({ text: "one" });
          expect((await client.getPrompt("greet", { name: "Ada" })).messages[0]!.content).to.deep.equal({ type: "text", text: "Hello Ada" });
        } finally {
          await client.close();
        }
      });
});
