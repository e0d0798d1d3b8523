/**
 * Talks to a stdio MCP server with raw lines: spawn it, write exactly the bytes a test wants
 * (malformed JSON, batches, hostile keys), and read its stdout line by line. Every wait is bounded.
 * No JSON-RPC logic lives here, so the server is judged by what it actually writes.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";

export type JsonMessage = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface RawStdioOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  /** Default wait of `next`/`response`, ms. */
  readonly timeoutMs?: number;
}

export class RawStdio {
  /** Lines read from stdout and not yet taken, oldest first. */
  private readonly lines: string[] = [];
  private partial = "";
  private stderrText = "";
  private waiters: (() => void)[] = [];
  private exitInfo: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly timeoutMs: number;

  private constructor(
    readonly child: ChildProcessWithoutNullStreams,
    options: RawStdioOptions,
  ) {
    this.timeoutMs = options.timeoutMs ?? 10_000;
    child.stdout.setEncoding("utf8").on("data", (text: string) => {
      const parts = (this.partial + text).split("\n");
      this.partial = parts.pop()!;
      this.lines.push(...parts);
      this.wake();
    });
    child.stderr.setEncoding("utf8").on("data", (text: string) => {
      this.stderrText += text;
      this.wake();
    });
    child.stdin.on("error", () => {}); // EPIPE when a test kills the child first
    this.exited = new Promise((resolve) =>
      // "close", not "exit": by then stdout and stderr are fully read.
      child.once("close", (code, signal) => {
        this.exitInfo = { code, signal };
        this.wake();
        resolve(this.exitInfo);
      }),
    );
  }

  /** Spawns `command args` with piped stdio; resolves once it runs. */
  static spawn(command: string, args: readonly string[], options: RawStdioOptions = {}): Promise<RawStdio> {
    const child = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"], env: options.env, cwd: options.cwd });
    return new Promise((resolve, reject) => {
      child.once("error", reject);
      child.once("spawn", () => {
        child.off("error", reject);
        resolve(new RawStdio(child, options));
      });
    });
  }

  get stderr(): string {
    return this.stderrText;
  }

  get alive(): boolean {
    return this.exitInfo === undefined;
  }

  /** Writes one line: `text` verbatim plus "\n". */
  writeLine(text: string): void {
    this.child.stdin.write(`${text}\n`);
  }

  /** Writes one message as a JSON line. */
  send(message: unknown): void {
    this.writeLine(JSON.stringify(message));
  }

  /** The next line the server writes, unparsed. */
  async nextLine(timeoutMs = this.timeoutMs): Promise<string> {
    await this.until(() => this.lines.length > 0, timeoutMs, "a line on stdout");
    return this.lines.shift()!;
  }

  /** The next message the server writes, whatever it is. */
  async next(timeoutMs = this.timeoutMs): Promise<JsonMessage> {
    const line = await this.nextLine(timeoutMs);
    try {
      return JSON.parse(line) as JsonMessage;
    } catch {
      throw new Error(`the server wrote a line that is not JSON: ${line.slice(0, 200)}`);
    }
  }

  /**
   * The first message (in order of arrival) for which `match` holds, leaving the others for later.
   * For a response that may overtake or be overtaken by others (async handlers).
   */
  async take(match: (message: JsonMessage) => boolean, timeoutMs = this.timeoutMs, what = "a matching message"): Promise<JsonMessage> {
    let found: JsonMessage | undefined;
    await this.until(
      () => {
        const index = this.lines.findIndex((line) => {
          try {
            return match(JSON.parse(line) as JsonMessage);
          } catch {
            return false;
          }
        });
        if (index < 0) return false;
        found = JSON.parse(this.lines.splice(index, 1)[0]!) as JsonMessage;
        return true;
      },
      timeoutMs,
      what,
    );
    return found!;
  }

  /** The response carrying `id` (not an array), wherever it is among what arrived. */
  response(id: unknown, timeoutMs = this.timeoutMs): Promise<JsonMessage> {
    return this.take((m) => !Array.isArray(m) && m.id === id && m.method === undefined, timeoutMs, `the response to id ${JSON.stringify(id)}`);
  }

  /** Sends a request and waits for its response. */
  request(message: { id: string | number } & JsonMessage, timeoutMs = this.timeoutMs): Promise<JsonMessage> {
    this.send(message);
    return this.response(message.id, timeoutMs);
  }

  /** Lines still unread. */
  get pending(): readonly string[] {
    return this.lines;
  }

  /** Resolves once stderr matches. */
  async waitForStderr(pattern: RegExp, timeoutMs = this.timeoutMs): Promise<RegExpMatchArray> {
    await this.until(() => pattern.test(this.stderrText), timeoutMs, `stderr matching ${pattern}`);
    return this.stderrText.match(pattern)!;
  }

  /** Ends stdin and waits for the exit; SIGKILL after `timeoutMs`. */
  async close(timeoutMs = 5_000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (this.exitInfo) return this.exitInfo;
    this.child.stdin.end();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
    await Promise.race([this.exited, timeout]);
    clearTimeout(timer);
    if (!this.exitInfo) this.child.kill("SIGKILL");
    return this.exited;
  }

  /** For after hooks: whatever state a failed test left, the process goes. */
  kill(): void {
    if (this.exitInfo === undefined) this.child.kill("SIGKILL");
  }

  private until(condition: () => boolean, ms: number, what: string): Promise<void> {
    if (condition()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== check);
        reject(
          new Error(
            `waited ${ms} ms for ${what}; unread stdout: ${JSON.stringify(this.lines).slice(0, 500)}; stderr: ${this.stderrText.slice(-500)}` +
              (this.exitInfo ? `; the process exited (${JSON.stringify(this.exitInfo)})` : ""),
          ),
        );
      }, ms);
      const check = () => {
        if (condition()) {
          clearTimeout(timer);
          resolve();
        } else if (this.exitInfo) {
          clearTimeout(timer);
          reject(new Error(`the process exited (${JSON.stringify(this.exitInfo)}) before ${what}; stderr: ${this.stderrText.slice(-500)}`));
        } else this.waiters.push(check);
      };
      this.waiters.push(check);
    });
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter();
  }
}
