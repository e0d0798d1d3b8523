// The server for bench/memory-abuse.ts, in its own process so that its RSS is its own: the
// runtime of the checkout at <tree> (its TypeScript sources, so a commit's tree measures as it
// was), on Streamable HTTP at 127.0.0.1, with the endpoint's defaults (event store, bounds) and SSE
// answers, so every answer goes through the stream and the event store.
//   node --expose-gc --import tsx bench/memory-abuse/server.ts <tree> [--stdio]
// With --stdio it serves MCP on its stdin and stdout instead, prints its own lines on stderr, and
// collects garbage on SIGUSR2 (stdin is the client's).
// Tools: flood {count, bytes} sends `count` progress notifications of `bytes` each, awaiting each
// (a runtime whose ctx.progress returns nothing is not held back by it), then answers;
// blob {bytes} answers a text of `bytes`. Prints "listening on URL", "flooded" when flood has sent
// everything, and "collected heap <bytes> external <bytes>" after a "gc" line on stdin; warnings go to stderr; stops when stdin ends.
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { collector } from "./collect.js";

const given = process.argv[2];
if (!given) throw new Error("usage: server.ts <tree>");
const tree = resolve(given);
const overStdio = process.argv.includes("--stdio");
/** This bench's own lines: on stdout, or on stderr when stdout carries MCP. */
const say = (line: string) => (overStdio ? process.stderr.write(`${line}\n`) : console.log(line));

/** What this bench uses of the runtime, the same in every tree it measures. */
interface Context {
  progress(progress: number, total?: number, message?: string): unknown;
}
interface Server {
  tool(definition: object, handler: (args: never, ctx: Context) => unknown): unknown;
  listen(endpoint: unknown): Promise<void>;
  close(): Promise<void>;
}
const { createServer } = (await import(pathToFileURL(join(tree, "runtime/index.ts")).href)) as { createServer(options: object): Server };
const { http } = (await import(pathToFileURL(join(tree, "runtime/transports/http/index.ts")).href)) as { http(options: object): { url: string } };
const { stdio } = (await import(pathToFileURL(join(tree, "runtime/transports/stdio.ts")).href)) as { stdio(): unknown };

const server = createServer({ name: "memory-abuse", version: "1.0.0", logger: () => {} });
const sized = { type: "object", properties: { count: { type: "integer" }, bytes: { type: "integer" } }, required: ["bytes"] };
server.tool({ name: "flood", description: "sends many large progress notifications", inputSchema: sized }, async (args: { count: number; bytes: number }, ctx) => {
  const text = "x".repeat(args.bytes);
  for (let i = 1; i <= args.count; i++) await ctx.progress(i, args.count, text);
  say("flooded");
  return { content: [{ type: "text", text: "done" }] };
});
server.tool({ name: "blob", description: "answers a large text", inputSchema: sized }, (args: { bytes: number }) => ({ content: [{ type: "text", text: "x".repeat(args.bytes) }] }));

const collect = collector(say);

if (overStdio) {
  process.on("SIGUSR2", collect);
  await server.listen(stdio());
  say("listening on stdio");
} else {
  const endpoint = http({ port: 0, host: "127.0.0.1", responseMode: "sse", logger: (level: string, message: string) => console.error(`${level}: ${message}`) });
  await server.listen(endpoint);
  say(`listening on ${endpoint.url}`);
  createInterface({ input: process.stdin })
    .on("line", (line) => line === "gc" && collect())
    .on("close", () => void server.close().finally(() => process.exit(0)));
}
