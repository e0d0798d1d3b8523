// The server every hosting snippet serves: one tool, and its schema checked at run time (by ajv on
// Node, Bun and Deno, by the interpreter on Workers).
import { createServer } from "../../runtime/index.js";

export function createHelloServer() {
  const server = createServer({ name: "hello", version: "1.0.0" });
  server.tool(
    { name: "greet", description: "Greets someone", inputSchema: { type: "object", properties: { name: { type: "string", minLength: 1 } }, required: ["name"] } },
    ({ name }: { name: string }) => ({ content: [{ type: "text", text: `Hello, ${name}!` }] }),
  );
  return server;
}
