/**
 * The editor's side of the message bridge: queues one review comment for the assistant.
 *
 *   node --import tsx examples/message-bridge/post-message.ts --file src/app.ts --line 42 --comment "Rename this"
 *
 * An editor binds it to a key, passing the current file and line. The message is written whole
 * to a temporary file and renamed into the queue, so the server never reads half a message.
 */
import { parseArgs } from "node:util";
import { DEFAULT_QUEUE, postMessage } from "./queue.js";

const USAGE = `usage: post-message.ts --file F --line N --comment C [--queue DIR]
  --file F      the file the comment is about
  --line N      the line (1 or more)
  --comment C   the comment
  --queue DIR   the queue (default: $MESSAGE_BRIDGE_QUEUE, else ~/.mcp-message-bridge)`;

function fail(message: string): never {
  process.stderr.write(`post-message: ${message}\n\n${USAGE}\n`);
  process.exit(2);
}

let values;
try {
  values = parseArgs({
    options: {
      file: { type: "string" },
      line: { type: "string" },
      comment: { type: "string" },
      queue: { type: "string", default: DEFAULT_QUEUE },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
  }).values;
} catch (error) {
  fail((error as Error).message);
}
if (values.help) fail("queues a review comment for the assistant");
const { file, line, comment, queue } = values;
if (!file) fail("--file is required");
if (!line || !/^[1-9]\d*$/.test(line)) fail(`--line must be a positive integer${line ? `, not ${line}` : ""}`);
if (comment === undefined || comment.trim() === "") fail("--comment is required");

const name = await postMessage(queue, { file, line: Number(line), comment });
process.stdout.write(`queued ${name} in ${queue}\n`);
