/**
 * The message bridge's queue on disk: a spool directory in the manner of Maildir, one file per
 * message.
 *
 *   <queue>/tmp/   a message being written; never read
 *   <queue>/new/   complete messages waiting to be delivered
 *   <queue>/cur/   messages a server has claimed and is delivering, named <pid>.<name>
 *   <queue>/bad/   files found in new/ that are not messages
 *
 * Posting writes the whole file in tmp/, flushes it, then renames it into new/: rename is atomic,
 * so a reader sees a complete message or none. Delivering renames a message from new/ into cur/
 * first: when two deliveries race for one message (two check_messages calls, two servers), only
 * one rename succeeds, so a message is delivered once. A message is deleted as soon as it has been
 * read; one left in cur/ by a server that died in between is put back in new/ when a server starts.
 */
import { randomBytes } from "node:crypto";
import { watch, type FSWatcher } from "node:fs";
import { mkdir, open, readdir, readFile, rename, unlink } from "node:fs/promises";
import { homedir } from "node:os";
import { basename, join } from "node:path";
import { isRunning } from "../shared/files.js";

/** Where the CLI and the server meet when not told: $MESSAGE_BRIDGE_QUEUE, else ~/.mcp-message-bridge. */
export const DEFAULT_QUEUE = process.env.MESSAGE_BRIDGE_QUEUE || join(homedir(), ".mcp-message-bridge");

export interface Message {
  readonly file: string;
  readonly line: number;
  readonly comment: string;
  /** When it was posted (ISO 8601). */
  readonly postedAt: string;
}

/** A message as the tool and the resource show it. */
export function format(message: Message): string {
  return `File: ${message.file}\nLine: ${message.line}\nComment: ${message.comment}`;
}

const MESSAGE_FILE = /^\d{13}\.\d+\.[0-9a-f]{12}\.json$/;

function isMessage(value: unknown): value is Message {
  const m = value as Message;
  return (
    typeof m === "object" &&
    m !== null &&
    typeof m.file === "string" &&
    Number.isInteger(m.line) &&
    m.line > 0 &&
    typeof m.comment === "string" &&
    typeof m.postedAt === "string"
  );
}

async function directories(queue: string): Promise<void> {
  for (const sub of ["tmp", "new", "cur", "bad"]) await mkdir(join(queue, sub), { recursive: true });
}

/** Appends one message to the queue, atomically; returns its name. */
export async function postMessage(queue: string, message: Omit<Message, "postedAt">): Promise<string> {
  await directories(queue);
  // Names sort by posting time (milliseconds), then are unique: pid and random bytes.
  const name = `${Date.now().toString().padStart(13, "0")}.${process.pid}.${randomBytes(6).toString("hex")}.json`;
  const temporary = join(queue, "tmp", name);
  const handle = await open(temporary, "wx", 0o600);
  try {
    await handle.writeFile(`${JSON.stringify({ ...message, postedAt: new Date().toISOString() })}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, join(queue, "new", name));
  return name;
}

export interface QueueEvents {
  /** A message appeared in new/ (called once per message, in name order). */
  readonly arrived: (name: string) => void;
  /** Something is wrong with a file in the queue. */
  readonly problem: (message: string) => void;
}

/** The server's side: watches new/, lists and claims messages. */
export class MessageQueue {
  private readonly known = new Set<string>();
  private watcher: FSWatcher | undefined;
  private poll: NodeJS.Timeout | undefined;
  private scanning: Promise<void> | undefined;
  private scanAgain = false;

  constructor(
    readonly path: string,
    private readonly events: QueueEvents,
  ) {}

  /**
   * Creates the directories, puts back messages that a dead server had claimed, takes note of
   * what is already waiting (that is not news), and starts watching.
   */
  async open(): Promise<void> {
    await directories(this.path);
    for (const name of await readdir(join(this.path, "cur"))) {
      const pid = Number(name.slice(0, name.indexOf(".")));
      if (Number.isInteger(pid) && pid !== process.pid && !isRunning(pid))
        await rename(join(this.path, "cur", name), join(this.path, "new", name.slice(name.indexOf(".") + 1))).catch(() => {});
    }
    for (const name of await this.waiting()) this.known.add(name);
    this.watcher = watch(join(this.path, "new"), { persistent: false }, () => void this.scan());
    this.watcher.on("error", (error) => this.events.problem(`watching ${join(this.path, "new")} failed: ${error.message}`));
    // A backstop for file systems whose directory events do not arrive (some network mounts).
    this.poll = setInterval(() => void this.scan(), 2000).unref();
  }

  close(): void {
    this.watcher?.close();
    clearInterval(this.poll);
  }

  /** Announces every message in new/ not announced before. Concurrent calls coalesce. */
  scan(): Promise<void> {
    if (this.scanning) {
      this.scanAgain = true;
      return this.scanning;
    }
    this.scanning = (async () => {
      try {
        do {
          this.scanAgain = false;
          const waiting = await this.waiting();
          for (const name of waiting)
            if (!this.known.has(name)) {
              this.known.add(name);
              this.events.arrived(name);
            }
          // Forget what was delivered since, so that the set stays as small as the queue.
          const present = new Set(waiting);
          for (const name of this.known) if (!present.has(name)) this.known.delete(name);
        } while (this.scanAgain);
      } finally {
        this.scanning = undefined;
      }
    })();
    return this.scanning;
  }

  /** The messages waiting, oldest first, without taking them. */
  async pending(): Promise<Message[]> {
    const messages: Message[] = [];
    for (const name of await this.waiting()) {
      const message = await this.read(join(this.path, "new", name)).catch((error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return undefined; // delivered meanwhile
        throw error;
      });
      if (message) messages.push(message);
    }
    return messages;
  }

  /** Takes every message waiting, oldest first: each one is returned by exactly one call, of one server. */
  async claimAll(): Promise<Message[]> {
    await this.scan(); // every message is announced before it is delivered
    const messages: Message[] = [];
    for (const name of await this.waiting()) {
      const claimed = join(this.path, "cur", `${process.pid}.${name}`);
      try {
        await rename(join(this.path, "new", name), claimed);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") continue; // another call or server took it
        throw error;
      }
      const message = await this.read(claimed);
      if (message) messages.push(message);
      await unlink(claimed).catch(() => {});
    }
    return messages;
  }

  /** Names in new/ that look like messages, oldest first. */
  private async waiting(): Promise<string[]> {
    return (await readdir(join(this.path, "new"))).filter((name) => MESSAGE_FILE.test(name)).sort();
  }

  /** A message file's content; a file that is not a message is moved to bad/. */
  private async read(path: string): Promise<Message | undefined> {
    const text = await readFile(path, "utf8");
    try {
      const message: unknown = JSON.parse(text);
      if (isMessage(message)) return message;
    } catch {
      // not JSON: reported below
    }
    const name = basename(path);
    await rename(path, join(this.path, "bad", name)).catch(() => {});
    this.events.problem(`${name} is not a message; moved to ${join(this.path, "bad")}`);
    return undefined;
  }
}
