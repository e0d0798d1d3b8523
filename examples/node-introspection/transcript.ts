/**
 * A real session with this example, printed message by message:
 *   node --import tsx examples/node-introspection/transcript.ts
 */
import { fileURLToPath } from "node:url";
import { printTranscripts } from "../shared/transcript.js";

const server = fileURLToPath(new URL("./server.ts", import.meta.url));
const attempt = <T>(promise: Promise<T>) => promise.catch((error: Error) => error);

await printTranscripts({
  command: process.execPath,
  args: ["--import", "tsx", server, "--timeout-ms", "500"],
  session: async (client) => {
    await client.listTools();
    await client.callTool({ name: "evaluate", arguments: { expression: "[1, 2, 3].map((x) => x * x)" } });
    await client.callTool({ name: "evaluate", arguments: { expression: "typeof process" } });
    await client.callTool({ name: "evaluate", arguments: { expression: "JSON.parse('{oops')" } });
    await client.callTool({ name: "evaluate", arguments: { expression: "while (true) {}" } });
    await client.readResource({ uri: "node://system/version" });
    await client.listResourceTemplates();
    await client.readResource({ uri: "node://module/os" });
    await attempt(client.readResource({ uri: "node://module/left-pad" }));
    await client.getPrompt({ name: "review-module", arguments: { name: "path" } });
    await attempt(client.getPrompt({ name: "review-module", arguments: {} }));
  },
  stateless: async (client) => {
    await client.callTool("evaluate", { expression: "Math.max(...[3, 1, 4, 1, 5])" });
    await client.callTool("evaluate", { expression: "while (true) {}" });
    await client.readResource("node://system/version");
    await attempt(client.readResource("node://module/left-pad"));
    await client.getPrompt("review-module", { name: "path" });
  },
});
