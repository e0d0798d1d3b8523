// The database example's query worker: holds a read-only copy of the database and runs one query
// at a time, so that a query that never ends blocks this thread, not the server's. The server
// terminates it after the time limit and starts another. Plain JavaScript so that it starts
// without a TypeScript loader (Node 20 does not hand the parent's --import hooks to a worker).
//
// Messages in:  { id, op: "load", bytes }                      -> { id, ok: true }
//               { id, op: "query", sql, params?, limit }       -> { id, ok: true, columns, rows, truncated }
//                                                              or { id, ok: false, error }
import { parentPort } from "node:worker_threads";
import initSqlJs from "sql.js";

const SQL = await initSqlJs();
/** @type {import("sql.js").Database | undefined} */
let db;

// What may follow the one statement a query runs: blanks, semicolons and comments.
const NOTHING_MORE = /^(?:\s|;|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*$/;

/** A blob as base64, so that a row is plain JSON. */
const plain = (value) => (value instanceof Uint8Array ? Buffer.from(value).toString("base64") : value);

function query(sql, params, limit) {
  if (!db) throw new Error("no database is loaded");
  // Read-only for every query: SQLite refuses writes to any database of the connection while
  // query_only is on. Set again each time because a query may be "PRAGMA query_only = OFF".
  db.run("PRAGMA query_only = ON");
  const statements = db.iterateStatements(sql);
  try {
    const first = statements.next();
    if (first.done) throw new Error("the query holds no SQL statement");
    if (!NOTHING_MORE.test(statements.getRemainingSQL())) throw new Error("run one statement at a time: the query holds more than one");
    const statement = first.value;
    if (params) statement.bind(params);
    const columns = statement.getColumnNames();
    const rows = [];
    let truncated = false;
    while (statement.step()) {
      if (rows.length === limit) {
        truncated = true;
        break;
      }
      rows.push(statement.get().map(plain));
    }
    return { columns, rows, truncated };
  } finally {
    statements.return();
    restore();
  }
}

/** Undoes what a query may have left behind: an open transaction, attached databases. */
function restore() {
  try {
    db.exec("ROLLBACK");
  } catch {
    // no transaction was open
  }
  for (const [, name] of db.exec("PRAGMA database_list")[0]?.values ?? [])
    if (name !== "main" && name !== "temp") db.run(`DETACH DATABASE "${String(name).replaceAll('"', '""')}"`);
  db.run("PRAGMA query_only = ON");
}

parentPort.on("message", (message) => {
  const { id, op } = message;
  try {
    if (op === "load") {
      db?.close();
      db = new SQL.Database(message.bytes);
      db.run("PRAGMA query_only = ON");
      parentPort.postMessage({ id, ok: true });
    } else if (op === "query") {
      parentPort.postMessage({ id, ok: true, ...query(message.sql, message.params, message.limit) });
    } else {
      parentPort.postMessage({ id, ok: false, error: `unknown operation ${op}` });
    }
  } catch (error) {
    parentPort.postMessage({ id, ok: false, error: error instanceof Error ? error.message : String(error) });
  }
});
