import { expect } from "chai";
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { ERAS, connect, connectHttp, exampleCommand, httpServer, rejection, text, type Api, type HttpServer, type SdkSession, type StatelessSession } from "./support.js";

const run = promisify(execFile);
/** Short, so that the runaway-query case stays quick; nothing below depends on its exact value. */
const LIMIT_MS = 500;

/** The admin command, as a user runs it: a separate process that rewrites the file. */
async function admin(db: string, ...args: string[]): Promise<string> {
  const { command, args: argv } = exampleCommand("database", "admin.ts", ["--db", db, ...args]);
  return (await run(command, argv, { timeout: 30_000 })).stdout;
}

function rows(result: { structuredContent?: unknown }): unknown[][] {
  return (result.structuredContent as { rows: unknown[][] }).rows;
}

for (const { era, label } of ERAS) {
  describe(`examples/database, ${label}`, function () {
    let dir: string;
    let db: string;
    let api: Api;
    let sdk: SdkSession | undefined;
    let stateless: StatelessSession | undefined;

    before(async function () {
      dir = await mkdtemp(join(tmpdir(), "mcp-example-db-"));
      db = join(dir, "example.sqlite");
      ({ api, sdk, stateless } = await connect(era, "database", ["--db", db, "--query-timeout-ms", String(LIMIT_MS)]));
    });
    after(async function () {
      await api?.close();
      await rm(dir, { recursive: true, force: true });
    });

    it("generated its data set into the file it was given", async function () {
      const bytes = await readFile(db);
      expect(bytes.subarray(0, 16).toString("latin1")).to.equal("SQLite format 3\0");
    });

    it("lists the tool, the resource, the template and the prompt", async function () {
      if (sdk) expect(sdk.transport.protocolVersion, "negotiated by the SDK client").to.equal("2025-11-25");
      const [tool] = await api.listTools();
      expect(tool!.name).to.equal("sql_query");
      const properties = (tool!.inputSchema as { properties: Record<string, unknown> }).properties;
      expect(properties.limit).to.deep.include({ type: "integer", minimum: 1, maximum: 1000, default: 100 });
      expect(tool!.inputSchema).to.deep.include({ required: ["query"] });
      expect((await api.listResources()).map((r) => [r.uri, r.mimeType])).to.deep.equal([["doc://readme", "text/markdown"]]);
      expect((await api.listTemplates()).map((t) => t.uriTemplate)).to.deep.equal(["user://{username}/profile"]);
      const [prompt] = await api.listPrompts();
      expect(prompt!.name).to.equal("code_review");
      expect((prompt!.arguments as { name: string; required: boolean }[]).map((a) => [a.name, a.required])).to.deep.equal([
        ["language", true],
        ["style", false],
      ]);
    });

    describe("sql_query", function () {
      it("returns rows as a table and as structured content", async function () {
        const result = await api.callTool("sql_query", { query: "SELECT username, role FROM users WHERE role = 'admin' ORDER BY username" });
        expect(result.isError).to.not.equal(true);
        expect(result.structuredContent).to.deep.equal({
          columns: ["username", "role"],
          rows: [
            ["alice", "admin"],
            ["trent", "admin"],
          ],
          rowCount: 2,
          truncated: false,
        });
        expect(text(result)).to.equal("| username | role |\n|---|---|\n| alice | admin |\n| trent | admin |\n(2 rows)");
      });

      it("returns at most limit rows, 100 by default, and says when there were more", async function () {
        const hundredFifty = "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n LIMIT 150) SELECT x FROM n";
        const byDefault = await api.callTool("sql_query", { query: hundredFifty });
        expect(rows(byDefault)).to.have.length(100);
        expect(byDefault.structuredContent).to.include({ rowCount: 100, truncated: true });
        expect(text(byDefault)).to.match(/\(100 rows; the query has more: raise limit/);
        const all = await api.callTool("sql_query", { query: hundredFifty, limit: 1000 });
        expect(all.structuredContent).to.include({ rowCount: 150, truncated: false });
        expect(rows(all).at(-1)).to.deep.equal([150]);
        const five = await api.callTool("sql_query", { query: "SELECT id FROM snippets ORDER BY id", limit: 5 });
        expect(rows(five)).to.deep.equal([[1], [2], [3], [4], [5]]);
        expect(five.structuredContent).to.include({ truncated: true });
        const exactly = await api.callTool("sql_query", { query: "SELECT id FROM users", limit: 12 });
        expect(exactly.structuredContent).to.include({ rowCount: 12, truncated: false });
      });

      it("refuses writes with the database's message, and nothing changes", async function () {
        for (const query of ["DELETE FROM users", "UPDATE users SET role = 'admin'", "CREATE TABLE t (x)", "DROP TABLE snippets", "CREATE TEMP TABLE t (x)"]) {
          const result = await api.callTool("sql_query", { query });
          expect(result.isError, query).to.equal(true);
          expect(text(result), query).to.equal("attempt to write a readonly database");
        }
        // Turning read-only off is itself harmless: it is on again for the next query.
        await api.callTool("sql_query", { query: "PRAGMA query_only = OFF" });
        expect(text(await api.callTool("sql_query", { query: "DELETE FROM users" }))).to.equal("attempt to write a readonly database");
        const count = await api.callTool("sql_query", { query: "SELECT (SELECT count(*) FROM users), (SELECT count(*) FROM snippets)" });
        expect(rows(count)).to.deep.equal([[12, 48]]);
      });

      it("reports a syntax error with the database's message", async function () {
        const result = await api.callTool("sql_query", { query: "SELEC username FROM users" });
        expect(result.isError).to.equal(true);
        expect(text(result)).to.equal('near "SELEC": syntax error');
        const missing = await api.callTool("sql_query", { query: "SELECT nope FROM users" });
        expect(missing.isError).to.equal(true);
        expect(text(missing)).to.equal("no such column: nope");
      });

      it("runs one statement at a time", async function () {
        const result = await api.callTool("sql_query", { query: "SELECT 1; DELETE FROM users" });
        expect(result.isError).to.equal(true);
        expect(text(result)).to.equal("run one statement at a time: the query holds more than one");
        const trailing = await api.callTool("sql_query", { query: "SELECT 1; -- done\n" });
        expect(rows(trailing)).to.deep.equal([[1]]);
      });

      it("rejects limit 0, 5000 and 2.5 as invalid arguments", async function () {
        for (const [limit, message] of [
          [0, "/limit: must be >= 1"],
          [5000, "/limit: must be <= 1000"],
          [2.5, "/limit: must be integer, found number"],
        ] as const) {
          const result = await api.callTool("sql_query", { query: "SELECT 1", limit });
          expect(result.isError, String(limit)).to.equal(true);
          expect(text(result)).to.equal(`Invalid arguments for tool sql_query: ${message}`);
        }
        const noQuery = await api.callTool("sql_query", { limit: 10 });
        expect(text(noQuery)).to.match(/^Invalid arguments for tool sql_query: .*query/);
      });

      it("stops a query that never ends at the time limit, then answers the next one", async function () {
        const forever = await api.callTool("sql_query", { query: "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n" });
        expect(forever.isError).to.equal(true);
        expect(text(forever)).to.equal(`the query ran longer than the ${LIMIT_MS} ms limit and was stopped`);
        expect(rows(await api.callTool("sql_query", { query: "SELECT count(*) FROM users" }))).to.deep.equal([[12]]);
      });
    });

    it("reads doc://readme: the tables, their columns and row counts", async function () {
      const { contents } = await api.readResource("doc://readme");
      expect(contents[0]).to.include({ uri: "doc://readme", mimeType: "text/markdown" });
      const readme = contents[0]!.text as string;
      expect(readme).to.include("### users (12 rows)").and.include("### snippets (48 rows)").and.include("username     TEXT NOT NULL UNIQUE");
    });

    describe("user://{username}/profile", function () {
      it("reads a profile from the database", async function () {
        const { contents } = await api.readResource("user://carol/profile");
        expect(contents[0]).to.include({ uri: "user://carol/profile", mimeType: "application/json" });
        const profile = JSON.parse(contents[0]!.text as string);
        expect(profile).to.include({ username: "carol", display_name: "Carol Chen", email: "carol@example.com", role: "maintainer" });
        const counted = await api.callTool("sql_query", {
          query: "SELECT count(*), coalesce(sum(stars), 0) FROM snippets WHERE user_id = (SELECT id FROM users WHERE username = 'carol')",
        });
        expect([profile.snippets, profile.stars]).to.deep.equal(rows(counted)[0]);
      });

      it(`answers an unknown user with the era's not-found error (${era === "session" ? -32002 : -32602})`, async function () {
        const error = await rejection(api.readResource("user://nobody/profile"));
        expect(error.code).to.equal(api.notFound);
        expect(error.message).to.include("Resource not found: user://nobody/profile");
      });

      it("completes usernames from the database", async function () {
        expect(await api.complete({ type: "ref/resource", uri: "user://{username}/profile" }, { name: "username", value: "j" })).to.deep.equal(["judy"]);
      });
    });

    describe("code_review", function () {
      it("uses the default style when none is given", async function () {
        const prompt = await api.getPrompt("code_review", { language: "Go" });
        expect(prompt.description).to.equal("Go code review (default)");
        const content = prompt.messages[0]!.content as { type: string; text: string };
        expect(content.text).to.equal(
          "Please review the Go code I share next, as an experienced Go reviewer. Point out bugs, unclear names and missing error handling, most important first.",
        );
      });

      it("follows a given style", async function () {
        const prompt = await api.getPrompt("code_review", { language: "SQL", style: "security" });
        expect(prompt.description).to.equal("SQL code review (security)");
        expect((prompt.messages[0]!.content as { text: string }).text).to.include("injection");
      });

      it("rejects a missing language and an unknown style with -32602", async function () {
        const missing = await rejection(api.getPrompt("code_review", { style: "concise" }));
        expect(missing.code).to.equal(-32602);
        expect(missing.message).to.include("missing required argument: language");
        const style = await rejection(api.getPrompt("code_review", { language: "Go", style: "shouty" }));
        expect(style.code).to.equal(-32602);
        expect(style.message).to.include("style must be one of default, concise, thorough, security, not shouty");
      });

      it("completes styles", async function () {
        expect(await api.complete({ type: "ref/prompt", name: "code_review" }, { name: "style", value: "t" })).to.deep.equal(["thorough"]);
      });
    });

    describe("logging", function () {
      if (era === "session") {
        it("declares the logging capability", function () {
          expect(sdk!.client.getServerCapabilities()).to.have.property("logging");
        });

        it("sends a log message per query, at or above the level the client set", async function () {
          await sdk!.client.setLoggingLevel("info");
          const counted = "SELECT count(*) FROM users /* logged */";
          await api.callTool("sql_query", { query: counted });
          const log = await api.notifications.wait("notifications/message", (p) => (p.data as { query?: string }).query === counted);
          expect(log).to.deep.equal({ level: "info", logger: "sql_query", data: { query: counted, rows: 1, truncated: false } });

          await sdk!.client.setLoggingLevel("warning");
          const quiet = "SELECT 1 /* below the level */";
          const failing = "SELEC 1 /* a warning */";
          await api.callTool("sql_query", { query: quiet });
          await api.callTool("sql_query", { query: failing });
          const warning = await api.notifications.wait("notifications/message", (p) => (p.data as { query?: string }).query === failing);
          expect(warning).to.deep.include({ level: "warning", logger: "sql_query" });
          // Messages arrive in the order they were sent: had the info message been sent, it would be here already.
          expect(api.notifications.of("notifications/message").filter((p) => (p.data as { query?: string }).query === quiet)).to.deep.equal([]);
          await sdk!.client.setLoggingLevel("debug");
        });
      } else {
        it("declares the logging capability", async function () {
          const discovered = await stateless!.client.request("server/discover");
          expect(discovered.capabilities).to.have.property("logging");
        });

        it("sends log messages only for a request that asked for them, on that request", async function () {
          const unasked = "SELECT 1 /* no logLevel */";
          const asked = "SELECT 2 /* logLevel info */";
          await api.callTool("sql_query", { query: unasked });
          await api.callTool("sql_query", { query: asked }, { logLevel: "info" });
          const log = await api.notifications.wait("notifications/message", (p) => (p.data as { query?: string }).query === asked);
          expect(log).to.deep.include({ level: "info", logger: "sql_query" });
          expect(api.notifications.of("notifications/message").filter((p) => (p.data as { query?: string }).query === unasked)).to.deep.equal([]);
          const frames = stateless!.transcript.messages.filter(
            ({ message }) => (message as { method?: string; params?: { data?: { query?: string } } }).params?.data?.query === asked,
          );
          expect(frames).to.have.length(1);
        });
      }
    });

    describe("resources/updated when a row behind a subscribed profile changes", function () {
      const updates = () => api.notifications.of("notifications/resources/updated").map((p) => p.uri);

      if (era === "session") {
        it("notifies a subscriber after the admin command changes the user's row, and not for others", async function () {
          await sdk!.client.subscribeResource({ uri: "user://alice/profile" });
          await admin(db, "exec", "UPDATE users SET bio = 'Changed by bob''s admin' WHERE username = 'bob'");
          expect(await admin(db, "exec", "UPDATE users SET bio = 'On leave until May' WHERE username = 'alice'")).to.include("1 row changed");
          await api.notifications.wait("notifications/resources/updated", (p) => p.uri === "user://alice/profile");
          expect(updates()).to.deep.equal(["user://alice/profile"]);
          const profile = JSON.parse((await api.readResource("user://alice/profile")).contents[0]!.text as string);
          expect(profile.bio).to.equal("On leave until May");
          const log = await api.notifications.wait("notifications/message", (p) => (p.data as { event?: string }).event === "database changed", 1);
          expect(log).to.deep.include({ level: "info", logger: "database" });
        });

        it("notifies when a row of another table behind the profile changes", async function () {
          await admin(db, "exec", "UPDATE snippets SET stars = stars + 100 WHERE user_id = (SELECT id FROM users WHERE username = 'alice')");
          await api.notifications.wait("notifications/resources/updated", (p) => p.uri === "user://alice/profile", 2);
          expect(updates()).to.deep.equal(["user://alice/profile", "user://alice/profile"]);
        });

        it("stops after resources/unsubscribe", async function () {
          await sdk!.client.unsubscribeResource({ uri: "user://alice/profile" });
          await sdk!.client.subscribeResource({ uri: "user://carol/profile" });
          await admin(db, "exec", "UPDATE users SET bio = 'unsubscribed' WHERE username = 'alice'");
          await admin(db, "exec", "UPDATE users SET bio = 'subscribed' WHERE username = 'carol'");
          await api.notifications.wait("notifications/resources/updated", (p) => p.uri === "user://carol/profile");
          expect(updates()).to.deep.equal(["user://alice/profile", "user://alice/profile", "user://carol/profile"]);
        });
      } else {
        it("notifies a subscriptions/listen stream that asked for the profile, and not for others", async function () {
          const subscription = stateless!.client.listen({ resourceSubscriptions: ["user://alice/profile"] });
          try {
            expect(await subscription.acknowledged).to.deep.equal({ resourceSubscriptions: ["user://alice/profile"] });
            await admin(db, "exec", "UPDATE users SET bio = 'Changed by bob''s admin' WHERE username = 'bob'");
            await admin(db, "exec", "UPDATE users SET bio = 'On leave until May' WHERE username = 'alice'");
            const update = await api.notifications.wait("notifications/resources/updated", (p) => p.uri === "user://alice/profile");
            expect(update._meta).to.have.property("io.modelcontextprotocol/subscriptionId");
            expect(updates()).to.deep.equal(["user://alice/profile"]);
            await admin(db, "exec", "UPDATE snippets SET stars = stars + 100 WHERE user_id = 1");
            await api.notifications.wait("notifications/resources/updated", (p) => p.uri === "user://alice/profile", 2);
            const profile = JSON.parse((await api.readResource("user://alice/profile")).contents[0]!.text as string);
            expect(profile.bio).to.equal("On leave until May");
          } finally {
            subscription.close();
          }
        });

        it("sends nothing to a stream that did not subscribe", async function () {
          const subscription = stateless!.client.listen({ resourceSubscriptions: ["user://carol/profile"] });
          try {
            await subscription.acknowledged;
            const before = updates().length;
            await admin(db, "exec", "UPDATE users SET bio = 'nobody listens' WHERE username = 'alice'");
            await admin(db, "exec", "UPDATE users SET bio = 'someone listens' WHERE username = 'carol'");
            await api.notifications.wait("notifications/resources/updated", (p) => p.uri === "user://carol/profile");
            expect(updates().slice(before)).to.deep.equal(["user://carol/profile"]);
          } finally {
            subscription.close();
          }
        });
      }
    });
  });
}

describe("examples/database over Streamable HTTP (--http)", function () {
  let dir: string;
  let db: string;
  let server: HttpServer;
  before(async function () {
    dir = await mkdtemp(join(tmpdir(), "mcp-example-db-"));
    db = join(dir, "example.sqlite");
    server = await httpServer("database", ["--db", db]);
  });
  after(async function () {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  for (const { era, label } of ERAS)
    it(`serves ${label}: queries, refusals, and resources/updated for a subscribed profile`, async function () {
      const { api, sdk, stateless } = await connectHttp(era, server.url);
      const subscription = stateless?.client.listen({ resourceSubscriptions: ["user://dave/profile"] });
      try {
        expect(rows(await api.callTool("sql_query", { query: "SELECT count(*) FROM users" }))).to.deep.equal([[12]]);
        expect(text(await api.callTool("sql_query", { query: "DELETE FROM users" }))).to.equal("attempt to write a readonly database");
        expect(text(await api.callTool("sql_query", { query: "SELECT 1", limit: 0 }))).to.equal("Invalid arguments for tool sql_query: /limit: must be >= 1");
        expect((await rejection(api.readResource("user://nobody/profile"))).code).to.equal(api.notFound);
        if (sdk) await sdk.client.subscribeResource({ uri: "user://dave/profile" });
        else await subscription!.acknowledged;
        await admin(db, "exec", `UPDATE users SET bio = 'changed over ${era}' WHERE username = 'dave'`);
        await api.notifications.wait("notifications/resources/updated", (p) => p.uri === "user://dave/profile");
        const profile = JSON.parse((await api.readResource("user://dave/profile")).contents[0]!.text as string);
        expect(profile.bio).to.equal(`changed over ${era}`);
      } finally {
        subscription?.close();
        await api.close();
      }
    });
});

describe("examples/database admin command", function () {
  it("refuses an unknown command with its usage, and reports SQL errors", async function () {
    const dir = await mkdtemp(join(tmpdir(), "mcp-example-db-"));
    try {
      const db = join(dir, "x.sqlite");
      await admin(db, "reset");
      const unknown = await rejection(admin(db, "drop-everything"));
      expect((unknown as { stderr?: string }).stderr).to.include("usage: admin.ts");
      const bad = await rejection(admin(db, "exec", "UPDATE nope SET x = 1"));
      expect((bad as { stderr?: string }).stderr).to.include("no such table: nope");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
