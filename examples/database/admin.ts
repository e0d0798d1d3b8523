/**
 * The database example's admin command: changes the database file that running servers watch.
 * Each change is a read-modify-write of the whole file under a lock, finished by an atomic
 * rename, so a server never loads a half-written file and two admins never lose each other's
 * change. Servers reload the new file and send resources/updated for the profiles that changed.
 *
 *   node --import tsx examples/database/admin.ts [--db FILE] exec "UPDATE users SET bio = 'On leave' WHERE username = 'alice'"
 *   node --import tsx examples/database/admin.ts [--db FILE] reset
 */
import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { withLock, writeFileAtomic } from "../shared/files.js";
import { DEFAULT_DB, generate, sqlJs } from "./data.js";

const USAGE = `usage: admin.ts [--db FILE] exec "SQL"    run SQL (any statements, writes included) and save
       admin.ts [--db FILE] reset         replace the database with a freshly generated one
  --db FILE   the database (default: $MCP_EXAMPLE_DB, else examples/database/example.sqlite)`;

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${USAGE}\n`);
  process.exit(2);
}

let parsed;
try {
  parsed = parseArgs({ options: { db: { type: "string", default: DEFAULT_DB }, help: { type: "boolean", short: "h" } }, allowPositionals: true, strict: true });
} catch (error) {
  fail((error as Error).message);
}
const { values, positionals } = parsed;
if (values.help) fail("admin: changes the database example's data");
const [command, ...rest] = positionals;
const path = values.db;

if (command === "reset" && rest.length === 0) {
  await withLock(path, async () => writeFileAtomic(path, await generate()));
  process.stdout.write(`${path}: regenerated\n`);
} else if (command === "exec" && rest.length === 1) {
  const changes = await withLock(path, async () => {
    const SQL = await sqlJs();
    const db = new SQL.Database(await readFile(path));
    try {
      db.exec(rest[0]!);
      const changed = db.getRowsModified();
      await writeFileAtomic(path, db.export());
      return changed;
    } finally {
      db.close();
    }
  }).catch((error: Error) => {
    process.stderr.write(`admin: ${error.message}\n`);
    process.exit(1);
  });
  process.stdout.write(`${path}: ${changes} row${changes === 1 ? "" : "s"} changed by the last statement\n`);
} else {
  fail(command === undefined ? "admin: say what to do" : `admin: cannot ${positionals.join(" ")}`);
}
