// An SDK v2 McpServer for test/interop, both eras from one set of handlers:
//   node sdk-v2-server.mjs            serves stdio, both eras (serveStdio)
//   node sdk-v2-server.mjs --legacy   serves stdio hand-wired (McpServer + StdioServerTransport): 2025 era only
//   node sdk-v2-server.mjs --http     serves Streamable HTTP (createMcpHandler) on a free port of
//                                     127.0.0.1 and prints "listening on <url>" to stderr
import { createServer } from "node:http";
import * as z from "zod/v4";
import { createMcpHandler, McpServer, serveStdio, StdioServerTransport } from "./peers.mjs";

function sdkServer() {
  const server = new McpServer({ name: "sdk-v2", version: "2.4.0" }, { capabilities: { logging: {} } });
  server.registerTool("echo", { description: "Returns its text", inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({ content: [{ type: "text", text }] }));
  server.registerTool(
    "route",
    { description: "Echoes a region sent as a header", inputSchema: z.object({ region: z.string().meta({ "x-mcp-header": "Region" }) }) },
    ({ region }) => ({ content: [{ type: "text", text: `region ${region}` }] }),
  );
  server.registerResource("note", "note://one", { mimeType: "text/plain" }, (uri) => ({ contents: [{ uri: uri.href, mimeType: "text/plain", text: "one" }] }));
  server.registerPrompt("greet", { argsSchema: z.object({ name: z.string() }) }, ({ name }) => ({ messages: [{ role: "user", content: { type: "text", text: `Hello ${name}` } }] }));
  return server;
}

if (process.argv.includes("--http")) {
  const handler = createMcpHandler(() => sdkServer());
  const http = createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    const body = chunks.length > 0 && req.method !== "GET" && req.method !== "HEAD" ? Buffer.concat(chunks) : undefined;
    const response = await handler.fetch(new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body }));
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body) for await (const chunk of response.body) res.write(chunk);
    res.end();
  });
  http.listen(0, "127.0.0.1", () => console.error(`listening on http://127.0.0.1:${http.address().port}/mcp`));
} else if (process.argv.includes("--legacy")) {
  await sdkServer().connect(new StdioServerTransport());
} else {
  serveStdio(() => sdkServer());
}
