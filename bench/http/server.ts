// One Streamable HTTP server for bench/http.ts, in its own process (so the load generator and the
// server each get a core): ours or the official SDK's, answering tools/call of an echo tool.
//   node --import tsx bench/http/server.ts ours|sdk json|sse
// Prints "listening on URL" on stdout; stops on SIGTERM or when stdin closes.
import * as z from "zod";
import { httpRuntime, runtime } from "../support/ours.js";
import { startSdkHttpServer } from "../../test/support/sdk-http-server.js";

const { createServer } = runtime;
const { http } = httpRuntime;
const [impl, mode] = process.argv.slice(2);
if ((impl !== "ours" && impl !== "sdk") || (mode !== "json" && mode !== "sse")) throw new Error("usage: server.ts ours|sdk json|sse");

let url: string;
let close: () => Promise<void>;
if (impl === "ours") {
  const server = createServer({ name: "bench-ours", version: "1.0.0", revisions: ["2025-11-25"] });
  server.tool({ name: "echo", description: "Returns its text", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } }, ({ text }: { text: string }) => ({
    content: [{ type: "text", text }],
  }));
  // No event store, like the SDK server here (it has none unless given one): the same work per call.
  const endpoint = http({ port: 0, responseMode: mode === "sse" ? "sse" : "auto", eventStore: false });
  await server.listen(endpoint);
  url = endpoint.url;
  close = () => server.close();
} else {
  const sdk = await startSdkHttpServer({
    enableJsonResponse: mode === "json",
    setup: (server) =>
      server.registerTool("echo", { description: "Returns its text", inputSchema: { text: z.string() } }, ({ text }) => ({ content: [{ type: "text", text }] })),
  });
  url = sdk.url;
  close = () => sdk.close();
}
process.stdout.write(`listening on ${url}\n`);
const stop = () => void close().finally(() => process.exit(0));
process.once("SIGTERM", stop);
process.stdin.on("end", stop).resume();
