/**
 * The server's view of the database: a read-only copy of the file, held by a worker thread
 * (query.worker.mjs) that runs one query at a time under a time limit. When the file changes on
 * disk (the admin command rewrote it), the copy is reloaded and the caller learns which user
 * profiles changed.
 */
import { createHash } from "node:crypto";
import { watch, watchFile, unwatchFile, type FSWatcher } from "node:fs";
import { readFile } from "node:fs/promises";
import { basename, dirname } from "node:path";
import { Worker } from "node:worker_threads";
import type { SqlValue } from "sql.js";

export interface QueryResult {
  readonly columns: string[];
  readonly rows: SqlValue[][];
  /** More rows were available than the limit allowed. */
  readonly truncated: boolean;
}

/** The database refused the query (its own message), or the query ran out of time. */
export class QueryError extends Error {}

/** The query ran out of time; its worker was replaced by a fresh one, with no database loaded. */
class TimedOut extends QueryError {}

export interface Profile {
  readonly username: string;
  readonly display_name: string;
  readonly email: string;
  readonly role: string;
  readonly bio: string | null;
  readonly joined_at: string;
  readonly snippets: number;
  readonly stars: number;
  readonly languages: string[];
}

const PROFILES_SQL = `
SELECT u.username, u.display_name, u.email, u.role, u.bio, u.joined_at,
       count(s.id) AS snippets, coalesce(sum(s.stars), 0) AS stars,
       coalesce(group_concat(DISTINCT s.language), '') AS languages
FROM users u LEFT JOIN snippets s ON s.user_id = u.id
WHERE :username IS NULL OR u.username = :username
GROUP BY u.id ORDER BY u.username`;

const WORKER = new URL("./query.worker.mjs", import.meta.url);

type Reply = { id: number; ok: true; columns?: string[]; rows?: SqlValue[][]; truncated?: boolean } | { id: number; ok: false; error: string };

/** One worker thread and the requests it is answering; replaced when a query runs out of time. */
class QueryWorker {
  private worker: Worker;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (reply: Reply) => void; reject: (error: Error) => void }>();

  constructor() {
    this.worker = this.start();
  }

  private start(): Worker {
    const worker = new Worker(WORKER);
    worker.unref();
    worker.on("message", (reply: Reply) => {
      const waiting = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      waiting?.resolve(reply);
    });
    const fail = (error: Error) => {
      for (const { reject } of this.pending.values()) reject(error);
      this.pending.clear();
    };
    worker.on("error", fail);
    worker.on("exit", (code) => fail(new Error(`the query worker exited (code ${code})`)));
    return worker;
  }

  /** Sends one request; past `timeoutMs` the worker is terminated and a fresh one started. */
  request(message: Record<string, unknown>, timeoutMs: number): Promise<Reply> {
    const id = this.nextId++;
    return new Promise<Reply>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new TimedOut(`the query ran longer than the ${timeoutMs} ms limit and was stopped`));
        const stuck = this.worker;
        stuck.removeAllListeners(); // its exit must not fail the requests of its successor
        this.worker = this.start();
        void stuck.terminate();
      }, timeoutMs);
      this.pending.set(id, {
        resolve: (reply) => (clearTimeout(timer), resolve(reply)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      });
      this.worker.postMessage({ ...message, id });
    });
  }

  close(): Promise<number> {
    return this.worker.terminate();
  }
}

export interface DatabaseOptions {
  readonly path: string;
  readonly queryTimeoutMs: number;
  /** Called after the file changed and was reloaded, with the usernames whose profile differs. */
  readonly changed: (profiles: string[]) => void;
  /** Reports what went wrong while watching or reloading (a corrupt file, a vanished file). */
  readonly problem: (message: string) => void;
}

export class ReadOnlyDatabase {
  private readonly worker = new QueryWorker();
  /** Requests go to the worker one at a time, so that a time limit counts only its own query. */
  private queue: Promise<unknown> = Promise.resolve();
  private bytes: Uint8Array | undefined;
  private hash = "";
  private profiles = new Map<string, string>();
  private watcher: FSWatcher | undefined;
  private reloading: Promise<void> | undefined;
  private reloadAgain = false;
  private closed = false;

  constructor(private readonly options: DatabaseOptions) {}

  /** Loads the file and starts watching it. */
  async open(): Promise<void> {
    await this.reload();
    if (!this.bytes) throw new Error(`could not load ${this.options.path}`);
    // The admin command renames a new file over the old one, so watch the directory (a watch on
    // the file would stay on the old inode). A slow stat poll backs it up on file systems where
    // directory events do not arrive.
    const name = basename(this.options.path);
    this.watcher = watch(dirname(this.options.path), { persistent: false }, (_event, file) => {
      if (file === null || file === name) void this.reload();
    });
    this.watcher.on("error", (error) => this.options.problem(`watching ${this.options.path} failed: ${error.message}`));
    watchFile(this.options.path, { persistent: false, interval: 2000 }, () => void this.reload());
  }

  async close(): Promise<void> {
    this.closed = true;
    this.watcher?.close();
    unwatchFile(this.options.path);
    await this.worker.close();
  }

  /** One read-only statement; at most `limit` rows. Throws QueryError with the database's message. */
  async query(sql: string, limit: number, params?: Record<string, SqlValue>): Promise<QueryResult> {
    const reply = await this.serialized(async () => {
      try {
        return await this.worker.request({ op: "query", sql, params, limit }, this.options.queryTimeoutMs);
      } catch (error) {
        // The fresh worker gets the database before the next request is sent.
        if (error instanceof TimedOut && this.bytes) await this.worker.request({ op: "load", bytes: this.bytes }, 30_000).catch(() => {});
        throw error;
      }
    });
    if (!reply.ok) throw new QueryError(reply.error);
    return { columns: reply.columns!, rows: reply.rows!, truncated: reply.truncated! };
  }

  async profile(username: string): Promise<Profile | undefined> {
    const { columns, rows } = await this.query(PROFILES_SQL, 1, { ":username": username });
    return rows[0] && toProfile(columns, rows[0]);
  }

  async usernames(): Promise<string[]> {
    return (await this.query("SELECT username FROM users ORDER BY username", 1000)).rows.map((row) => String(row[0]));
  }

  /** Re-reads the file when it changed; calls `changed` with the profiles that differ. Concurrent calls coalesce. */
  reload(): Promise<void> {
    if (this.reloading) {
      this.reloadAgain = true;
      return this.reloading;
    }
    this.reloading = (async () => {
      try {
        do {
          this.reloadAgain = false;
          await this.reloadOnce();
        } while (this.reloadAgain && !this.closed);
      } finally {
        this.reloading = undefined;
      }
    })();
    return this.reloading;
  }

  private async reloadOnce(): Promise<void> {
    let bytes: Uint8Array;
    try {
      bytes = await readFile(this.options.path);
    } catch (error) {
      if (this.bytes) this.options.problem(`cannot read ${this.options.path}: ${(error as Error).message}; still serving the last version`);
      return;
    }
    const hash = createHash("sha256").update(bytes).digest("hex");
    if (hash === this.hash || this.closed) return;
    const previous = this.bytes;
    let profiles: Map<string, string>;
    try {
      await this.load(bytes);
      profiles = await this.allProfiles();
    } catch (error) {
      this.options.problem(`${this.options.path} is not a usable database (${(error as Error).message}); still serving the last version`);
      if (previous) await this.load(previous);
      this.hash = hash; // do not retry the same broken bytes on every event
      return;
    }
    const first = this.bytes === undefined;
    this.bytes = bytes;
    this.hash = hash;
    const changed = [...new Set([...this.profiles.keys(), ...profiles.keys()])].filter((name) => this.profiles.get(name) !== profiles.get(name));
    this.profiles = profiles;
    if (!first && changed.length > 0) this.options.changed(changed.sort());
  }

  private async load(bytes: Uint8Array): Promise<void> {
    const reply = await this.serialized(() => this.worker.request({ op: "load", bytes }, 30_000));
    if (!reply.ok) throw new Error(reply.error);
  }

  private async allProfiles(): Promise<Map<string, string>> {
    const { columns, rows } = await this.query(PROFILES_SQL, 100_000, { ":username": null });
    return new Map(rows.map((row) => [String(row[0]), JSON.stringify(toProfile(columns, row))]));
  }

  private serialized<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => {});
    return run;
  }
}

function toProfile(columns: string[], row: SqlValue[]): Profile {
  const record = Object.fromEntries(columns.map((column, i) => [column, row[i]]));
  return {
    username: String(record.username),
    display_name: String(record.display_name),
    email: String(record.email),
    role: String(record.role),
    bio: record.bio === null ? null : String(record.bio),
    joined_at: String(record.joined_at),
    snippets: Number(record.snippets),
    stars: Number(record.stars),
    languages: String(record.languages).split(",").filter(Boolean).sort(),
  };
}
