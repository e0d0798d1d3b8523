/**
 * A live-system introspection server, modelled on one that exposes a running Smalltalk image:
 * this one exposes the running Node.js process. Evaluate expressions in an isolated context,
 * read the Node.js version, describe any built-in module, and get a prompt that reviews one.
 *
 *   node --import tsx examples/node-introspection/server.ts [--timeout-ms N] [--http [--port N]]
 */
import { parseArgs } from "node:util";
import { createServer, resourceNotFound, RpcError, ErrorCode } from "../../runtime/index.js";
import { serve, TRANSPORT_FLAGS, TRANSPORT_USAGE, usageError } from "../shared/serve.js";
import { EvaluationLimiter, evaluateLimited, stopEvaluations } from "./evaluate.js";
import { describeModule, moduleJson, moduleNames } from "./modules.js";

const USAGE = `usage: server.ts [options]
  --timeout-ms N      time limit of one evaluation (default 2000)
  --memory-mb N       heap limit of one evaluation (default 64)
  --max-evaluations N evaluations running at once (default 2)
  --max-queued N      calls waiting for an evaluator; past that, refused at once (default 16)
${TRANSPORT_USAGE}`;

let flags;
try {
  flags = parseArgs({
    options: {
      ...TRANSPORT_FLAGS,
      "timeout-ms": { type: "string", default: "2000" },
      "memory-mb": { type: "string", default: "64" },
      "max-evaluations": { type: "string", default: "2" },
      "max-queued": { type: "string", default: "16" },
    },
    strict: true,
  }).values;
} catch (error) {
  usageError((error as Error).message, USAGE);
}
if (flags.help) usageError("node-introspection: an MCP server that exposes this Node.js process", USAGE, 0);
const timeoutMs = Number(flags["timeout-ms"]);
const memoryMb = Number(flags["memory-mb"]);
const maxEvaluations = Number(flags["max-evaluations"]);
const maxQueued = Number(flags["max-queued"]);
if (!Number.isInteger(timeoutMs) || timeoutMs < 1) usageError(`--timeout-ms must be a positive integer, not ${flags["timeout-ms"]}`, USAGE);
if (!Number.isInteger(memoryMb) || memoryMb < 8) usageError(`--memory-mb must be an integer of at least 8, not ${flags["memory-mb"]}`, USAGE);
if (!Number.isInteger(maxEvaluations) || maxEvaluations < 1)
  usageError(`--max-evaluations must be a positive integer, not ${flags["max-evaluations"]}`, USAGE);
if (!Number.isInteger(maxQueued) || maxQueued < 0) usageError(`--max-queued must be a non-negative integer, not ${flags["max-queued"]}`, USAGE);
/** Each evaluator is a process: calls beyond these wait, and beyond the queue are refused rather than queued without bound. */
const limiter = new EvaluationLimiter(maxEvaluations, maxQueued);

const server = createServer({
  name: "node-introspection",
  version: "1.0.0",
  instructions:
    "This server exposes a running Node.js process. Use evaluate for quick JavaScript computations " +
    "(an empty sandbox: no require, no process, no file system, no timers), read node://system/version, " +
    "and read node://module/{name} to see what a built-in module exports.",
});

server.tool(
  {
    name: "evaluate",
    title: "Evaluate a JavaScript expression",
    description:
      `Evaluates a JavaScript expression in a fresh, empty QuickJS context and returns its value as text. ` +
      `The context has only the language's built-ins (no require, process, file system, network or timers). ` +
      `Each evaluation is limited to ${timeoutMs} ms and ${memoryMb} MB; a promise shows its value if it settled within the evaluation.`,
    inputSchema: {
      type: "object",
      properties: { expression: { type: "string", description: "JavaScript, e.g. [1, 2, 3].map((x) => x * x)" } },
      required: ["expression"],
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  async ({ expression }: { expression: string }, context) => {
    const evaluation = await evaluateLimited(limiter, expression, { timeoutMs, memoryMb, signal: context.signal });
    return evaluation.ok ? { content: [{ type: "text", text: evaluation.text }] } : { content: [{ type: "text", text: evaluation.text }], isError: true };
  },
);

server.resource(
  {
    uri: "node://system/version",
    name: "version",
    title: "Node.js version",
    description: "The version of Node.js (and of V8) this server runs on, and its platform",
    mimeType: "text/plain",
  },
  (uri) => ({
    contents: [
      {
        uri,
        mimeType: "text/plain",
        text: `Node.js ${process.version}\nV8 ${process.versions.v8}\nplatform ${process.platform}-${process.arch}\n`,
      },
    ],
  }),
);

server.resourceTemplate(
  {
    uriTemplate: "node://module/{name}",
    name: "module",
    title: "Built-in module",
    description: "A built-in Node.js module: its exported names and their kinds (class, function, object, ...), as JSON",
    mimeType: "application/json",
  },
  (uri, { name }, context) => {
    const described = typeof name === "string" ? describeModule(name) : undefined;
    if (!described) throw resourceNotFound(uri, context);
    return { contents: [{ uri, mimeType: "application/json", text: moduleJson(described) }] };
  },
  { complete: { name: (prefix) => moduleNames().filter((name) => name.startsWith(prefix)) } },
);

server.prompt<{ name: string }>(
  {
    name: "review-module",
    title: "Review a built-in module",
    description: "Asks for a review of a built-in Node.js module's API, with the module's description attached",
    arguments: [{ name: "name", description: "A built-in module, e.g. fs or node:path", required: true }],
  },
  ({ name }) => {
    const described = describeModule(name);
    if (!described) throw new RpcError(ErrorCode.InvalidParams, `Invalid params: ${name} is not a built-in Node.js module`, { name });
    const uri = `node://module/${encodeURIComponent(described.name)}`;
    return {
      description: `Review of node:${described.name}`,
      messages: [
        {
          role: "user",
          content: {
            type: "text",
            text:
              `Review the API of the Node.js built-in module node:${described.name}. Its exports are attached. ` +
              `Group them by purpose, point out legacy or deprecated ones and what replaces them, ` +
              `and show the three a newcomer should learn first, with a one-line example each.`,
          },
        },
        {
          role: "user",
          content: { type: "resource", resource: { uri, mimeType: "application/json", text: moduleJson(described) } },
        },
      ],
    };
  },
  { complete: { name: (prefix) => moduleNames().filter((name) => name.startsWith(prefix)) } },
);

await serve(server, {
  name: "node-introspection",
  http: flags.http,
  port: flags.port,
  defaultPort: 3101,
  host: flags.host,
  cleanup: stopEvaluations,
});
