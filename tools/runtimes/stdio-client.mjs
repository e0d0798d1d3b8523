// The official SDK client (v1) spawns `argv` as a stdio server, initializes, lists the tools and
// calls one; exits 0 with a one-line summary when every answer is as expected.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [command, ...args] = process.argv.slice(2);
const client = new Client({ name: "runtimes-stdio", version: "1.0.0" });
const transport = new StdioClientTransport({ command, args, cwd: new URL(".", import.meta.url).pathname, stderr: "inherit" });
const timer = setTimeout(() => {
  console.log("no answer within 45 s");
  process.exit(1);
}, 45_000);
try {
  await client.connect(transport);
  const { tools } = await client.listTools();
  const result = await client.callTool({ name: "test_simple_text", arguments: {} });
  const text = result.content?.[0]?.text;
  if (!tools.some((t) => t.name === "test_simple_text") || typeof text !== "string") throw new Error(`unexpected answers: ${JSON.stringify({ tools: tools.length, result })}`);
  console.log(`${client.getServerVersion()?.name}: ${tools.length} tools, test_simple_text -> ${JSON.stringify(text)}`);
  await client.close();
  clearTimeout(timer);
  process.exit(0);
} catch (error) {
  console.log(`failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
