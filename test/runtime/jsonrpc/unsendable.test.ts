/**
 * A handler's result that JSON has no text for (a BigInt, a cycle, a throwing toJSON) still gets
 * its request an answer: -32603 naming why, over stdio and over Streamable HTTP (a JSON body, an
 * SSE stream, the stateless era), and the server goes on serving. Before, HTTP threw out of the
 * response writer (the process died) and stdio logged a warning and answered nothing.
 */
import { expect } from "chai";
import { PassThrough } from "node:stream";
import { createServer, McpClient, RpcError, type McpServer } from "../../../runtime/index.js";
import { HttpClientTransport, http } from "../../../runtime/http.js";
import { StdioTransport } from "../../../runtime/transports/stdio.js";
import { LATEST_SESSION, STATELESS } from "../transports/http/support.js";

const cycle: Record<string, unknown> = {};
cycle.self = cycle;
const BAD: Record<string, { value: unknown; reason: RegExp }> = {
  bigint: { value: 10n, reason: /BigInt/ },
  cycle: { value: cycle, reason: /circular/ },
  toJSON: { value: { toJSON: () => { throw new Error("toJSON refused"); } }, reason: /toJSON refused/ },
};

function newServer(logged: string[]): McpServer {
  const server = createServer({ name: "unsendable", version: "1.0.0", revisions: [LATEST_SESSION, STATELESS], logger: (level, message) => logged.push(`${level} ${message}`) });
  for (const [name, { value }] of Object.entries(BAD))
    server.tool({ name, inputSchema: { type: "object" } }, () => ({ content: [{ type: "text", text: name }], structuredContent: { value } }));
  server.tool({ name: "echo", inputSchema: { type: "object" } }, () => ({ content: [{ type: "text", text: "still here" }] }));
  return server;
}

async function expectAnswered(client: McpClient, logged: string[]): Promise<void> {
  for (const [name, { reason }] of Object.entries(BAD)) {
    const error = await client.callTool(name, {}).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error, name).to.be.instanceOf(RpcError);
    expect((error as RpcError).code, `${name}: ${(error as Error).message}`).to.equal(-32603);
    expect((error as RpcError).message, name).to.contain("the result is not JSON").and.match(reason);
  }
  expect(logged.filter((line) => line.startsWith("error a handler's result is not JSON"))).to.have.length(Object.keys(BAD).length);
  const after = (await client.callTool("echo", {})) as { content: { text: string }[] };
  expect(after.content[0]!.text).to.equal("still here");
}

describe("jsonrpc/peer: a result JSON cannot carry is answered with -32603", function () {
  this.timeout(30_000);

  it("over stdio", async () => {
    const logged: string[] = [];
    const server = newServer(logged);
    const [toServer, toClient] = [new PassThrough(), new PassThrough()];
    server.connect(new StdioTransport(toServer, toClient));
    const client = await McpClient.connect(new StdioTransport(toClient, toServer), { name: "c", version: "1", revision: LATEST_SESSION as never, logger: () => {} });
    try {
      await expectAnswered(client, logged);
    } finally {
      await client.close();
      await server.close();
    }
  });

  for (const revision of [LATEST_SESSION, STATELESS])
    for (const sse of [false, true])
      it(`over Streamable HTTP, ${revision}, ${sse ? "an SSE stream" : "a JSON body"}`, async () => {
        const logged: string[] = [];
        const server = newServer(logged);
        const endpoint = http({ port: 0, host: "127.0.0.1", ...(sse ? { responseMode: "sse" as const } : {}) });
        await server.listen(endpoint);
        const client = await McpClient.connect(new HttpClientTransport(endpoint.url), { name: "c", version: "1", revision: revision as never, logger: () => {} });
        try {
          await expectAnswered(client, logged);
        } finally {
          await client.close();
          await server.close();
        }
      });
});
