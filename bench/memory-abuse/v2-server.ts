// The peer of server.ts for bench/memory-abuse.ts: the same tools and lines on the official SDK v2
// (@modelcontextprotocol/server 2.4 + @modelcontextprotocol/node, tools/bench-peers), with its
// defaults, as its docs set it up: over HTTP one McpServer and NodeStreamableHTTPServerTransport
// per session, SSE answers (no event store: v2 has none by default); over stdio serveStdio.
//   node --expose-gc --import tsx bench/memory-abuse/v2-server.ts [--stdio]
// flood awaits each ctx.mcpReq.notify, as server.ts awaits each ctx.progress.
import { randomUUID } from "node:crypto";
import { createServer as createHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createInterface } from "node:readline";
import { readJson } from "../../test/support/sdk-http-server.js";
import { PEERS } from "../support/peers.js";
import { collector } from "./collect.js";

const overStdio = process.argv.includes("--stdio");
const say = (line: string) => (overStdio ? process.stderr.write(`${line}\n`) : console.log(line));

/* eslint-disable @typescript-eslint/no-explicit-any */
const { McpServer } = await import(`${PEERS}/@modelcontextprotocol/server/dist/index.mjs`);
const zod: any = await import(`${PEERS}/zod/index.js`);

function create(): any {
  const server = new McpServer({ name: "memory-abuse-v2", version: "1.0.0" }, { capabilities: { tools: {} } });
  const sized = zod.object({ count: zod.number().int().optional(), bytes: zod.number().int() });
  server.registerTool("flood", { description: "sends many large progress notifications", inputSchema: sized }, async (args: { count: number; bytes: number }, ctx: any) => {
    const text = "x".repeat(args.bytes);
    const progressToken = ctx.mcpReq._meta?.progressToken;
    for (let i = 1; i <= args.count; i++) await ctx.mcpReq.notify({ method: "notifications/progress", params: { progressToken, progress: i, total: args.count, message: text } });
    say("flooded");
    return { content: [{ type: "text", text: "done" }] };
  });
  server.registerTool("blob", { description: "answers a large text", inputSchema: sized }, (args: { bytes: number }) => ({ content: [{ type: "text", text: "x".repeat(args.bytes) }] }));
  return server;
}

const collect = collector(say);

if (overStdio) {
  const { serveStdio } = await import(`${PEERS}/@modelcontextprotocol/server/dist/stdio.mjs`);
  process.on("SIGUSR2", collect);
  serveStdio(create);
  say("listening on stdio");
} else {
  const { NodeStreamableHTTPServerTransport } = await import(`${PEERS}/@modelcontextprotocol/node/dist/index.mjs`);
  const sessions = new Map<string, any>();
  const http = createHttpServer((req, res) => {
    void (async () => {
      const body = await readJson(req);
      if (body instanceof SyntaxError) return void res.writeHead(400).end();
      const sessionId = req.headers["mcp-session-id"];
      const known = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
      if (known) return known.handleRequest(req, res, body);
      if (sessionId !== undefined) return void res.writeHead(404).end();
      const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id: string) => void sessions.set(id, transport) });
      await create().connect(transport);
      await transport.handleRequest(req, res, body);
    })().catch((error: unknown) => {
      console.error(`error: ${String(error)}`);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  say(`listening on http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
  createInterface({ input: process.stdin })
    .on("line", (line) => line === "gc" && collect())
    .on("close", () => {
      http.closeAllConnections();
      process.exit(0);
    });
}
