/**
 * A real session with this example, printed message by message, on a throw-away database:
 *   node --import tsx examples/database/transcript.ts
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { printTranscripts, within } from "../shared/transcript.js";

const dir = mkdtempSync(join(tmpdir(), "mcp-example-db-"));
const db = join(dir, "example.sqlite");
const script = (name: string) => fileURLToPath(new URL(`./${name}`, import.meta.url));
const admin = (sql: string) => execFileSync(process.execPath, ["--import", "tsx", script("admin.ts"), "--db", db, "exec", sql]);
const attempt = <T>(promise: Promise<T>) => promise.catch((error: Error) => error);

try {
  await printTranscripts({
    command: process.execPath,
    args: ["--import", "tsx", script("server.ts"), "--db", db],
    session: async (client) => {
      await client.setLoggingLevel("info");
      await client.callTool({ name: "sql_query", arguments: { query: "SELECT username, role FROM users WHERE role != 'contributor' ORDER BY username" } });
      await client.callTool({ name: "sql_query", arguments: { query: "SELECT language, count(*) AS n FROM snippets GROUP BY language ORDER BY n DESC", limit: 3 } });
      await client.callTool({ name: "sql_query", arguments: { query: "DELETE FROM users" } });
      await client.callTool({ name: "sql_query", arguments: { query: "SELEC 1" } });
      await client.callTool({ name: "sql_query", arguments: { query: "SELECT 1", limit: 0 } });
      await client.callTool({ name: "sql_query", arguments: { query: "SELECT 1", limit: 5000 } });
      await client.readResource({ uri: "doc://readme" });
      await client.readResource({ uri: "user://alice/profile" });
      await attempt(client.readResource({ uri: "user://nobody/profile" }));
      await client.getPrompt({ name: "code_review", arguments: { language: "TypeScript" } });
      await client.getPrompt({ name: "code_review", arguments: { language: "SQL", style: "security" } });
      await client.subscribeResource({ uri: "user://alice/profile" });
      const updated = new Promise<void>((resolve) => client.setNotificationHandler(ResourceUpdatedNotificationSchema, () => resolve()));
      admin("UPDATE users SET bio = 'On leave until May' WHERE username = 'alice'");
      await within(updated);
      await client.readResource({ uri: "user://alice/profile" });
    },
    stateless: async (client) => {
      await client.callTool("sql_query", { query: "SELECT count(*) AS users FROM users" }, { logLevel: "info" });
      await client.callTool("sql_query", { query: "DROP TABLE users" });
      await attempt(client.readResource("user://nobody/profile"));
      const subscription = client.listen({ resourceSubscriptions: ["user://bob/profile"] });
      await subscription.acknowledged;
      const updated = new Promise<void>((resolve) => client.on("notifications/resources/updated", () => resolve()));
      admin("UPDATE snippets SET stars = stars + 1 WHERE user_id = (SELECT id FROM users WHERE username = 'bob')");
      await within(updated);
      subscription.close();
      await client.readResource("user://bob/profile");
    },
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
