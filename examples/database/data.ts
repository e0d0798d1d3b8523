/**
 * The example's data set: a small, generated, always identical SQLite database of users and the
 * snippets they posted. Both the server (when the file is missing) and the admin command's
 * `reset` build it from here.
 */
import { fileURLToPath } from "node:url";
import initSqlJs, { type Database, type SqlJsStatic } from "sql.js";
import { writeFileAtomic } from "../shared/files.js";

/** Where the server and the admin command look when not told: $MCP_EXAMPLE_DB, else next to this file. */
export const DEFAULT_DB = process.env.MCP_EXAMPLE_DB || fileURLToPath(new URL("./example.sqlite", import.meta.url));

let loading: Promise<SqlJsStatic> | undefined;

/** sql.js, loaded once. Its WebAssembly binary ships in node_modules/sql.js/dist: nothing is downloaded. */
export function sqlJs(): Promise<SqlJsStatic> {
  return (loading ??= initSqlJs());
}

export const SCHEMA = `
CREATE TABLE users (
  id           INTEGER PRIMARY KEY,
  username     TEXT NOT NULL UNIQUE,
  display_name TEXT NOT NULL,
  email        TEXT NOT NULL,
  role         TEXT NOT NULL CHECK (role IN ('admin', 'maintainer', 'contributor')),
  bio          TEXT,
  joined_at    TEXT NOT NULL
);
CREATE TABLE snippets (
  id         INTEGER PRIMARY KEY,
  user_id    INTEGER NOT NULL REFERENCES users (id),
  title      TEXT NOT NULL,
  language   TEXT NOT NULL,
  lines      INTEGER NOT NULL,
  stars      INTEGER NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX snippets_by_user ON snippets (user_id);
`;

const USERS: readonly (readonly [string, string, "admin" | "maintainer" | "contributor", string])[] = [
  ["alice", "Alice Archer", "admin", "Keeps the lights on. Prefers boring technology."],
  ["bob", "Bob Baker", "maintainer", "Reviews every pull request twice."],
  ["carol", "Carol Chen", "maintainer", "Type systems and parsers."],
  ["dave", "Dave Diaz", "contributor", "Weekend hacker, weekday DBA."],
  ["erin", "Erin Evans", "contributor", "Writes the docs nobody else will."],
  ["frank", "Frank Fischer", "contributor", "Performance work, flame graphs."],
  ["grace", "Grace Gupta", "maintainer", "Compilers, linkers, and loaders."],
  ["heidi", "Heidi Horvat", "contributor", "Security reviews and fuzzing."],
  ["ivan", "Ivan Ivanov", "contributor", "Build systems and CI."],
  ["judy", "Judy Jensen", "contributor", "Accessibility and front ends."],
  ["mallory", "Mallory Moreau", "contributor", "Finds the edge cases."],
  ["trent", "Trent Tanaka", "admin", "Release manager."],
];
const LANGUAGES = ["TypeScript", "Python", "Rust", "Go", "SQL", "Java"] as const;
const TOPICS = ["retry with backoff", "LRU cache", "CSV parser", "rate limiter", "binary search", "JSON diff", "date ranges", "worker pool"];

/** A small deterministic PRNG (mulberry32), so that every generated database is the same. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Fills an empty database with the schema and the data set. */
export function populate(db: Database): void {
  const next = random(20250728);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const day = (offset: number) => new Date(Date.UTC(2023, 0, 1) + offset * 86_400_000).toISOString().slice(0, 10);
  db.run("BEGIN");
  db.run(SCHEMA);
  USERS.forEach(([username, name, role, bio], i) =>
    db.run("INSERT INTO users (id, username, display_name, email, role, bio, joined_at) VALUES (?, ?, ?, ?, ?, ?, ?)", [
      i + 1,
      username,
      name,
      `${username}@example.com`,
      role,
      bio,
      day(i * 23),
    ]),
  );
  for (let id = 1; id <= 48; id++) {
    const language = pick(LANGUAGES);
    db.run("INSERT INTO snippets (id, user_id, title, language, lines, stars, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)", [
      id,
      1 + Math.floor(next() * USERS.length),
      `${pick(TOPICS)} in ${language}`,
      language,
      5 + Math.floor(next() * 120),
      Math.floor(next() * 50),
      day(300 + id * 7),
    ]);
  }
  db.run("COMMIT");
}

/** A freshly generated database, as SQLite file bytes. */
export async function generate(): Promise<Uint8Array> {
  const SQL = await sqlJs();
  const db = new SQL.Database();
  try {
    populate(db);
    return db.export();
  } finally {
    db.close();
  }
}

/** Writes a freshly generated database to `path`, atomically. */
export async function writeGenerated(path: string): Promise<void> {
  await writeFileAtomic(path, await generate());
}
