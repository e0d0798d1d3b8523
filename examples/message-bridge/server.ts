/**
 * An editor-to-assistant message bridge. The editor queues review comments with post-message.ts;
 * this server watches the queue, tells subscribers when a message arrives, and hands the
 * messages to the assistant through the check_messages tool, each one exactly once.
 *
 *   node --import tsx examples/message-bridge/server.ts [--queue DIR] [--http [--port N]]
 */
import { parseArgs } from "node:util";
import { createServer } from "../../runtime/index.js";
import { serve, TRANSPORT_FLAGS, TRANSPORT_USAGE, usageError } from "../shared/serve.js";
import { DEFAULT_QUEUE, format, MessageQueue } from "./queue.js";

const USAGE = `usage: server.ts [options]
  --queue DIR   the queue post-message.ts writes to (default: $MESSAGE_BRIDGE_QUEUE, else ~/.mcp-message-bridge)
${TRANSPORT_USAGE}`;

let flags;
try {
  flags = parseArgs({ options: { ...TRANSPORT_FLAGS, queue: { type: "string", default: DEFAULT_QUEUE } }, strict: true }).values;
} catch (error) {
  usageError((error as Error).message, USAGE);
}
if (flags.help) usageError("message-bridge: review comments from the editor, for the assistant", USAGE, 0);

const INBOX = "inbox://messages";
const NEWS = "New message from the editor";

const server = createServer({
  name: "message-bridge",
  version: "1.0.0",
  instructions:
    "The user sends you review comments from their editor. Call check_messages to receive them (each is delivered once); " +
    `subscribe to ${INBOX} to hear when one arrives.`,
});

const queue = new MessageQueue(flags.queue, {
  arrived: () => {
    server.notifyResourceUpdated(INBOX);
    server.log("info", NEWS, "message-bridge");
  },
  problem: (message) => {
    process.stderr.write(`message-bridge: ${message}\n`);
    server.log("warning", message, "message-bridge");
  },
});
await queue.open();

server.tool(
  {
    name: "check_messages",
    title: "Check messages from the editor",
    description:
      "Returns the review comments the user sent from their editor since the last check, oldest first, and removes them " +
      'from the queue: each message is returned once. Each is shown as "File: ... / Line: ... / Comment: ...". ' +
      'Answers "No new messages" when there are none.',
    inputSchema: { type: "object", properties: {} },
    outputSchema: {
      type: "object",
      properties: {
        messages: {
          type: "array",
          items: {
            type: "object",
            properties: { file: { type: "string" }, line: { type: "integer" }, comment: { type: "string" }, postedAt: { type: "string" } },
            required: ["file", "line", "comment", "postedAt"],
          },
        },
      },
      required: ["messages"],
    },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
  async (_args, context) => {
    const messages = await queue.claimAll();
    if (messages.length === 0) return { content: [{ type: "text", text: "No new messages" }], structuredContent: { messages: [] } };
    // The inbox changed for everyone who watches it.
    server.notifyResourceUpdated(INBOX);
    // Session-era clients heard of each message as it arrived. A 2026-07-28 client can only get
    // log messages on a request that asked for them: it gets them here, one per message.
    if (context.era === "stateless") for (let i = 0; i < messages.length; i++) context.log("info", NEWS, "message-bridge");
    return {
      content: [{ type: "text", text: messages.map(format).join("\n\n") }],
      structuredContent: { messages: messages.map(({ file, line, comment, postedAt }) => ({ file, line, comment, postedAt })) },
    };
  },
);

server.resource(
  {
    uri: INBOX,
    name: "inbox",
    title: "Messages from the editor",
    description: `The review comments waiting to be checked, oldest first (reading does not consume them). Subscribe to hear when one arrives.`,
    mimeType: "text/plain",
  },
  async (uri) => {
    const messages = await queue.pending();
    return { contents: [{ uri, mimeType: "text/plain", text: messages.length === 0 ? "No new messages" : messages.map(format).join("\n\n") }] };
  },
);

await serve(server, {
  name: "message-bridge",
  http: flags.http,
  port: flags.port,
  defaultPort: 3103,
  host: flags.host,
  cleanup: () => queue.close(),
});
