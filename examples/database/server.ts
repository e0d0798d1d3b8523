/**
 * A database server: read-only SQL over an embedded SQLite database (sql.js, WebAssembly, no
 * native build, no download), a readme, user profiles read from the database, a code-review
 * prompt, and resources/updated when a profile someone subscribed to changes.
 *
 *   node --import tsx examples/database/server.ts [--db FILE] [--http [--port N] [--auth ISSUER]]
 *   node --import tsx examples/database/admin.ts [--db FILE] exec "UPDATE users SET bio = 'hi' WHERE username = 'alice'"
 */
import { access } from "node:fs/promises";
import { parseArgs } from "node:util";
import { createServer, ErrorCode, resourceNotFound, RpcError } from "../../runtime/index.js";
import { serve, TRANSPORT_FLAGS, TRANSPORT_USAGE, usageError } from "../shared/serve.js";
import { DEFAULT_DB, writeGenerated } from "./data.js";
import { QueryError, ReadOnlyDatabase, type QueryResult } from "./database.js";

const USAGE = `usage: server.ts [options]
  --db FILE              the SQLite database (default: $MCP_EXAMPLE_DB, else examples/database/example.sqlite;
                         generated when missing)
  --query-timeout-ms N   time limit of one query (default 5000)
  --auth ISSUER          with --http: require OAuth access tokens (JWT, scope mcp:read) from this
                         authorization server, e.g. the one of examples/database/authorization-server.ts
${TRANSPORT_USAGE}`;

let flags;
try {
  flags = parseArgs({
    options: { ...TRANSPORT_FLAGS, db: { type: "string", default: DEFAULT_DB }, "query-timeout-ms": { type: "string", default: "5000" }, auth: { type: "string" } },
    strict: true,
  }).values;
} catch (error) {
  usageError((error as Error).message, USAGE);
}
if (flags.help) usageError("database: an MCP server for read-only SQL on an embedded SQLite database", USAGE, 0);
const queryTimeoutMs = Number(flags["query-timeout-ms"]);
if (!Number.isInteger(queryTimeoutMs) || queryTimeoutMs < 1) usageError(`--query-timeout-ms must be a positive integer, not ${flags["query-timeout-ms"]}`, USAGE);
const path = flags.db;
if (flags.auth !== undefined && !flags.http) usageError("--auth needs --http: stdio has no tokens", USAGE);

const STYLES: Record<string, string> = {
  default: "Point out bugs, unclear names and missing error handling, most important first.",
  concise: "List at most five findings, one line each, most important first.",
  thorough: "Go through the code line by line: correctness, edge cases, performance, readability and tests.",
  security: "Look for injection, unsafe input handling, secrets in code and missing authorization checks first.",
};

const server = createServer({
  name: "database",
  version: "1.0.0",
  instructions:
    "Read doc://readme first: it describes the tables. Then query with sql_query (read-only SQLite, one statement per call). " +
    "User profiles are at user://{username}/profile; subscribe to one to hear when it changes.",
});

await access(path).catch(async () => {
  process.stderr.write(`database: ${path} does not exist; generating the example data set there\n`);
  await writeGenerated(path);
});
const db = new ReadOnlyDatabase({
  path,
  queryTimeoutMs,
  changed: (usernames) => {
    for (const username of usernames) server.notifyResourceUpdated(profileUri(username));
    server.log("info", { event: "database changed", profilesChanged: usernames }, "database");
  },
  problem: (message) => {
    process.stderr.write(`database: ${message}\n`);
    server.log("warning", message, "database");
  },
});
await db.open();

function profileUri(username: string): string {
  return `user://${encodeURIComponent(username)}/profile`;
}

// Typed by hand: the inferred outputSchema type flags that a BLOB column (Uint8Array) is not in rows' schema (reported to the owner).
server.tool<{ query: string; limit?: number }>(
  {
    name: "sql_query",
    title: "Run a read-only SQL query",
    description:
      "Runs one read-only SQL statement (SQLite dialect) on the example database and returns the rows. " +
      "Writes (INSERT, UPDATE, DELETE, CREATE, ...) are refused by the database. Read doc://readme for the tables.",
    inputSchema: {
      type: "object",
      properties: {
        query: { type: "string", minLength: 1, description: "One SQL statement, e.g. SELECT username, role FROM users" },
        limit: { type: "integer", minimum: 1, maximum: 1000, default: 100, description: "The most rows to return (1 to 1000, default 100)" },
      },
      required: ["query"],
    },
    outputSchema: {
      type: "object",
      properties: {
        columns: { type: "array", items: { type: "string" } },
        rows: { type: "array", items: { type: "array", items: { type: ["string", "number", "null"] } } },
        rowCount: { type: "integer" },
        truncated: { type: "boolean", description: "The query has more rows than limit allowed" },
      },
      required: ["columns", "rows", "rowCount", "truncated"],
    },
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  async ({ query, limit = 100 }: { query: string; limit?: number }, context) => {
    let result: QueryResult;
    try {
      result = await db.query(query, limit);
    } catch (error) {
      if (!(error instanceof QueryError)) throw error;
      context.log("warning", { query, error: error.message }, "sql_query");
      return { content: [{ type: "text", text: error.message }], isError: true };
    }
    context.log("info", { query, rows: result.rows.length, truncated: result.truncated }, "sql_query");
    return {
      content: [{ type: "text", text: table(result, limit) }],
      structuredContent: { columns: result.columns, rows: result.rows, rowCount: result.rows.length, truncated: result.truncated },
    };
  },
);

server.resource(
  {
    uri: "doc://readme",
    name: "readme",
    title: "About this database",
    description: "What the example database holds: its tables, columns, row counts and example queries",
    mimeType: "text/markdown",
  },
  async (uri) => ({ contents: [{ uri, mimeType: "text/markdown", text: await readme() }] }),
);

server.resourceTemplate(
  {
    uriTemplate: "user://{username}/profile",
    name: "profile",
    title: "User profile",
    description: "A user's profile as JSON: the users row plus counts over the user's snippets",
    mimeType: "application/json",
  },
  async (uri, { username }, context) => {
    const profile = typeof username === "string" ? await db.profile(username) : undefined;
    if (!profile) throw resourceNotFound(uri, context);
    return { contents: [{ uri, mimeType: "application/json", text: JSON.stringify(profile, null, 2) }] };
  },
  { complete: { username: async (prefix) => (await db.usernames()).filter((name) => name.startsWith(prefix)) } },
);

server.prompt<{ language: string; style?: string }>(
  {
    name: "code_review",
    title: "Code review",
    description: "Asks for a review of code in a given language, in a given style",
    arguments: [
      { name: "language", description: "The code's language, e.g. TypeScript or SQL", required: true },
      { name: "style", description: `How to review: ${Object.keys(STYLES).join(", ")} (default: default)`, required: false },
    ],
  },
  ({ language, style = "default" }) => {
    const instructions = STYLES[style];
    if (instructions === undefined)
      throw new RpcError(ErrorCode.InvalidParams, `Invalid params: style must be one of ${Object.keys(STYLES).join(", ")}, not ${style}`, { style });
    return {
      description: `${language} code review (${style})`,
      messages: [
        {
          role: "user",
          content: { type: "text", text: `Please review the ${language} code I share next, as an experienced ${language} reviewer. ${instructions}` },
        },
      ],
    };
  },
  { complete: { style: (prefix) => Object.keys(STYLES).filter((style) => style.startsWith(prefix)) } },
);

/** Rows as a Markdown table, with a closing line that says how many and whether there are more. */
function table({ columns, rows, truncated }: QueryResult, limit: number): string {
  const cell = (value: unknown) => (value === null ? "NULL" : String(value).replaceAll("|", "\\|").replaceAll("\n", " "));
  const lines = [`| ${columns.map(cell).join(" | ")} |`, `|${columns.map(() => "---|").join("")}`, ...rows.map((row) => `| ${row.map(cell).join(" | ")} |`)];
  const count = `(${rows.length} row${rows.length === 1 ? "" : "s"}${truncated ? `; the query has more: raise limit (at most 1000, now ${limit}) or narrow the query` : ""})`;
  return columns.length === 0 ? count : `${lines.join("\n")}\n${count}`;
}

async function readme(): Promise<string> {
  const tables = await db.query("SELECT name, sql FROM sqlite_schema WHERE type = 'table' ORDER BY name", 100);
  const sections = [];
  for (const [name, sql] of tables.rows) {
    const count = await db.query(`SELECT count(*) FROM "${String(name).replaceAll('"', '""')}"`, 1);
    sections.push(`### ${name} (${count.rows[0]![0]} rows)\n\n\`\`\`sql\n${sql}\n\`\`\``);
  }
  return `# The example database

A small generated data set in SQLite: people (\`users\`) and the code snippets they posted
(\`snippets\`, \`user_id\` -> \`users.id\`). Query it with the \`sql_query\` tool: one read-only
statement per call, SQLite's dialect, at most \`limit\` rows (1 to 1000, default 100).
Each user's profile is also a resource, \`user://{username}/profile\`.

## Tables

${sections.join("\n\n")}

## Example queries

\`\`\`sql
SELECT username, role FROM users ORDER BY username;
SELECT u.username, count(*) AS snippets, sum(s.stars) AS stars
  FROM users u JOIN snippets s ON s.user_id = u.id GROUP BY u.id ORDER BY stars DESC;
SELECT language, count(*) FROM snippets GROUP BY language ORDER BY 2 DESC;
\`\`\`
`;
}

await serve(server, {
  name: "database",
  http: flags.http,
  port: flags.port,
  defaultPort: 3102,
  host: flags.host,
  auth: flags.auth === undefined ? undefined : (url) => protectedBy(flags.auth!, url),
  cleanup: () => db.close(),
});

/** --auth: tokens from `issuer` (its JWKS found through its metadata), for this server's URL, with mcp:read. */
async function protectedBy(issuer: string, resource: string) {
  const { bearerAuth, jwtVerifier } = await import("../../runtime/auth/index.js"); // only an --auth server loads jose and oauth4webapi
  const oauth = await import("oauth4webapi");
  const issuerUrl = new URL(issuer);
  const options = { [oauth.allowInsecureRequests]: issuerUrl.hostname === "127.0.0.1" || issuerUrl.hostname === "localhost" };
  const metadata = await oauth.processDiscoveryResponse(issuerUrl, await oauth.discoveryRequest(issuerUrl, options));
  if (!metadata.jwks_uri) throw new Error(`${issuer} publishes no jwks_uri`);
  return bearerAuth({
    verifier: jwtVerifier({ issuer: metadata.issuer, audience: resource, jwksUrl: metadata.jwks_uri }),
    resourceMetadata: { resource, authorizationServers: [metadata.issuer], scopesSupported: ["mcp:read"], resourceName: "database example" },
    requiredScopes: ["mcp:read"],
  });
}
