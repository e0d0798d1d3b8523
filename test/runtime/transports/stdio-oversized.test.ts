// A message over the size limit over stdio, both ways, between real processes: none of it is kept,
// yet the request it is or answers is settled at once, by the id its ends carry (writers put the
// id first, as we and Python do, or last, as the official SDKs do), not left to time out.
import { expect } from "chai";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { McpClient, RpcError } from "../../../runtime/index.js";
import { spawnStdio } from "../../../runtime/transports/stdio-child.js";
import { silentLogger } from "../../../runtime/util/logger.js";
import { EVERYTHING, rejection, SDK_STDIO_SERVER, tsxArgs } from "../../support/mcp.js";

const LIMIT = 4096;
/** Far beyond the test's own timeout: an answer that came from a timeout would fail the test first. */
const PATIENT_MS = 120_000;

describe("stdio: a message over the size limit", function () {
  this.timeout(30_000);

  for (const [server, args] of [
    ["our server (id first)", tsxArgs(EVERYTHING)],
    ["the SDK's server (id last)", tsxArgs(SDK_STDIO_SERVER)],
  ] as const) {
    it(`McpClient: an answer over its maxMessageBytes fails its call at once; the next call works (${server})`, async () => {
      const transport = await spawnStdio(process.execPath, [...args], { stderr: "ignore", maxMessageBytes: LIMIT });
      const client = await McpClient.connect(transport, {
        name: "c",
        version: "1",
        revision: "2025-11-25",
        requestTimeoutMs: PATIENT_MS,
        logger: silentLogger,
      });
      try {
        const error = await rejection(client.callTool("echo", { text: "x".repeat(LIMIT) }));
        expect(error).to.be.instanceOf(RpcError);
        expect((error as RpcError).code).to.equal(-32600);
        expect((error as RpcError).message).to.match(new RegExp(`^the answer to tools/call: a message of \\d+ bytes exceeds the limit of ${LIMIT} bytes`));
        expect((error as RpcError).data).to.deep.include({ limit: LIMIT });
        const small = await client.callTool("echo", { text: "fits" });
        expect(small.content).to.deep.equal([{ type: "text", text: "fits" }]);
      } finally {
        await client.close();
      }
    });
  }

  it("our server: an oversized request from the SDK's client is refused with its id (-32600), not left to the SDK's timeout", async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: tsxArgs(EVERYTHING, `--max-message-bytes=${LIMIT}`), stderr: "pipe" });
    let stderr = "";
    transport.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: "sdk", version: "1" });
    await client.connect(transport);
    try {
      const error = await rejection(client.callTool({ name: "echo", arguments: { text: "x".repeat(LIMIT) } }, undefined, { timeout: PATIENT_MS }));
      expect(error).to.be.instanceOf(McpError);
      expect((error as McpError).code).to.equal(-32600);
      expect((error as McpError).message).to.match(new RegExp(`a message of \\d+ bytes exceeds the limit of ${LIMIT} bytes`));
      const small = await client.callTool({ name: "echo", arguments: { text: "fits" } });
      expect(small.content).to.deep.equal([{ type: "text", text: "fits" }]);
      // The server's operator is told too, on stderr.
      expect(stderr).to.match(new RegExp(`refused tools/call \\(id \\d+\\): a message of \\d+ bytes exceeds the limit of ${LIMIT} bytes`));
    } finally {
      await client.close();
    }
  });
});
