// The README's quick start: a complete MCP server, for every revision, over stdio or (--http) Streamable HTTP.
import { parseArgs } from "node:util";
import { createServer, stdio } from "../../runtime/index.js";
import { http } from "../../runtime/http.js";

const server = createServer({ name: "quickstart", version: "1.0.0" });

server.tool(
  {
    name: "add",
    description: "Adds two numbers",
    inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
  },
  ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }), // a, b: number, inferred from the schema
);

server.resource({ uri: "note://hello", name: "hello", mimeType: "text/plain" }, (uri) => ({
  contents: [{ uri, mimeType: "text/plain", text: "Hello from mcp-codegen" }],
}));

server.prompt({ name: "greet", arguments: [{ name: "name", required: true }] }, ({ name }) => ({
  messages: [{ role: "user", content: { type: "text", text: `Say hello to ${name}.` } }],
}));

const { values } = parseArgs({ options: { http: { type: "boolean" }, port: { type: "string", default: "3000" } } });
if (!values.http) await server.listen(stdio());
else {
  const endpoint = http({ port: Number(values.port) }); // 127.0.0.1 only, unless you pass host
  await server.listen(endpoint);
  console.error(`quickstart: serving MCP over Streamable HTTP at ${endpoint.url}`);
}
