/**
 * A real session with this example, printed message by message, on a throw-away queue:
 *   node --import tsx examples/message-bridge/transcript.ts
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { printTranscripts, within } from "../shared/transcript.js";

const dir = mkdtempSync(join(tmpdir(), "mcp-example-bridge-"));
const queue = join(dir, "queue");
const script = (name: string) => fileURLToPath(new URL(`./${name}`, import.meta.url));
const post = (file: string, line: number, comment: string) =>
  execFileSync(process.execPath, ["--import", "tsx", script("post-message.ts"), "--queue", queue, "--file", file, "--line", String(line), "--comment", comment]);

try {
  await printTranscripts({
    command: process.execPath,
    args: ["--import", "tsx", script("server.ts"), "--queue", queue],
    session: async (client) => {
      await client.callTool({ name: "check_messages", arguments: {} });
      await client.subscribeResource({ uri: "inbox://messages" });
      // The log is sent right after resources/updated: once it is here, both are.
      const logged = new Promise<void>((resolve) => client.setNotificationHandler(LoggingMessageNotificationSchema, () => resolve()));
      post("src/checkout.ts", 42, "This retry loop never gives up; add a limit");
      await within(logged);
      await client.readResource({ uri: "inbox://messages" });
      await client.callTool({ name: "check_messages", arguments: {} });
      await client.callTool({ name: "check_messages", arguments: {} });
    },
    stateless: async (client) => {
      const subscription = client.listen({ resourceSubscriptions: ["inbox://messages"] });
      await subscription.acknowledged;
      const updated = new Promise<void>((resolve) => client.on("notifications/resources/updated", () => resolve()));
      post("README.md", 3, "Typo: recieve");
      await within(updated);
      await client.callTool("check_messages", {}, { logLevel: "info" });
      subscription.close();
      await client.callTool("check_messages", {});
    },
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
