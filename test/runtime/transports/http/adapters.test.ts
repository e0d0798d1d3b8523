// The hosting snippets (examples/hosting, shown in the README) run verbatim behind express,
// fastify and hono, and the official SDK client talks to each over Streamable HTTP: both eras'
// answer shapes (JSON and SSE), a schema-checked tool, and a bad request answered by MCP itself.
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { serve } from "@hono/node-server";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect } from "chai";
import { post, stateless } from "./support.js";

interface Mounted {
  readonly url: string;
  close(): Promise<void>;
}

const ADAPTERS: Record<string, () => Promise<Mounted>> = {
  async express() {
    const { app } = await import("../../../../examples/hosting/express.js");
    const server: Server = await new Promise((resolve) => {
      const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
    });
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, close: () => stop(server) };
  },
  async fastify() {
    const { app } = await import("../../../../examples/hosting/fastify.js");
    const address = await app.listen({ port: 0, host: "127.0.0.1" });
    return { url: `${address}/mcp`, close: () => app.close() };
  },
  async hono() {
    const { app } = await import("../../../../examples/hosting/hono.js");
    const server: Server = await new Promise((resolve) => {
      const listening = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(listening as Server));
    });
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, close: () => stop(server) };
  },
};

function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

for (const [name, mount] of Object.entries(ADAPTERS))
  describe(`transports/http: the ${name} snippet with the SDK client`, () => {
    let mounted: Mounted;
    before(async () => {
      mounted = await mount();
    });
    after(() => mounted.close());

    it("initializes, lists and calls the tool; bad arguments come back as a tool error", async () => {
      const client = new Client({ name: `${name}-test`, version: "1.0.0" });
      const transport = new StreamableHTTPClientTransport(new URL(mounted.url));
      await client.connect(transport);
      try {
        expect(transport.sessionId).to.be.a("string");
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name)).to.deep.equal(["greet"]);
        const result = await client.callTool({ name: "greet", arguments: { name: "Ada" } });
        expect(result.content).to.deep.equal([{ type: "text", text: "Hello, Ada!" }]);
        const invalid = await client.callTool({ name: "greet", arguments: { name: "" } });
        expect(invalid.isError).to.equal(true);
        expect((invalid.content as { text: string }[])[0]!.text).to.match(/Invalid arguments for tool greet: \/name/);
        await transport.terminateSession();
      } finally {
        await client.close();
      }
    });

    it("serves a stateless 2026-07-28 call, and answers bad JSON with -32700 itself", async () => {
      const call = stateless(1, "tools/call", { name: "greet", arguments: { name: "Bo" } });
      const answer = await post(mounted.url, call.body, call.headers);
      expect(answer.status).to.equal(200);
      expect((answer.json as { result: { content: unknown } }).result.content).to.deep.equal([{ type: "text", text: "Hello, Bo!" }]);
      const broken = await post(mounted.url, "{not json", {});
      expect(broken.status).to.equal(400);
      expect((broken.json as { error: { code: number } }).error.code).to.equal(-32700);
    });
  });
