import type { ChildProcess } from "node:child_process";
import type { Readable } from "node:stream";
import { StdioTransport, type StdioTransportOptions } from "./stdio.js";
import type { Receiver, SendOptions, Transport, TransportFacts } from "../jsonrpc/transport.js";
import { within } from "../util/within.js";

/** Options of `spawnStdio`: those of the stdio transport, and the child's folder, environment, stderr and exit timeout. */
export interface SpawnStdioOptions extends Omit<StdioTransportOptions, "destroyInputOnClose"> {
  readonly cwd?: string;
  /** The child's environment; Node's default (this process's environment) when absent. */
  readonly env?: NodeJS.ProcessEnv;
  /**
   * The child's stderr: "inherit" (default) passes it through to ours, "pipe" exposes it as
   * {@link ChildStdioTransport.stderr} (read it, or the child blocks once the pipe is full),
   * "ignore" drops it. Never mixed with the protocol, which is on stdout.
   */
  readonly stderr?: "inherit" | "pipe" | "ignore";
  /** How long `close()` waits for the child to exit after ending its stdin, then again after SIGTERM. Default 2000. */
  readonly exitTimeoutMs?: number;
}

/**
 * The client side: spawn `command` and talk MCP over its stdin and stdout. Resolves once the
 * process is running, rejects when it cannot start (ENOENT, EACCES), so a typo is an error at the
 * call site rather than a `closed()` later. No shell is involved: `args` are passed verbatim.
 */
export function spawnStdio(command: string, args: readonly string[] = [], options: SpawnStdioOptions = {}): Promise<ChildStdioTransport> {
  // A built-in loaded on use, not imported: runtime/index.ts stays free of node: imports, so a Worker can bundle it.
  const { spawn } = (globalThis as unknown as { process: { getBuiltinModule(id: "node:child_process"): typeof import("node:child_process") } }).process.getBuiltinModule("node:child_process");
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ["pipe", "pipe", options.stderr ?? "inherit"],
    shell: false,
    windowsHide: true,
  });
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    child.once("error", onError);
    child.once("spawn", () => {
      child.off("error", onError);
      resolve(new ChildStdioTransport(child, command, options));
    });
  });
}

type Exit = { readonly code: number | null; readonly signal: NodeJS.Signals | null };

/**
 * A {@link StdioTransport} over a child's stdin/stdout that also owns the child's life.
 *
 * `close()` ends the child's stdin (for an MCP server, the signal to exit), waits up to
 * `exitTimeoutMs` for it to exit, then sends SIGTERM, waits again, then SIGKILL. When the child
 * goes away on its own, `closed()` is reported once it has exited, with an error naming the exit
 * code or signal unless it exited with 0.
 */
export class ChildStdioTransport implements Transport {
  readonly coalesces = true;
  readonly facts: TransportFacts = { network: "pipe" };
  private readonly stdio: StdioTransport;
  private readonly exited: Promise<Exit>;
  private readonly exitTimeoutMs: number;
  private receiver: Receiver | undefined;
  private closedReported = false;
  private closing: Promise<void> | undefined;

  constructor(
    readonly child: ChildProcess,
    private readonly command: string,
    options: SpawnStdioOptions = {},
  ) {
    if (!child.stdin || !child.stdout) throw new Error("ChildStdioTransport needs a child spawned with piped stdin and stdout");
    this.exitTimeoutMs = options.exitTimeoutMs ?? 2000;
    // No backpressure on this side: a client that stopped reading the server's answers while its
    // own requests back up would deadlock with a server (or an echo) that does the same.
    this.stdio = new StdioTransport(child.stdout, child.stdin, { maxMessageBytes: options.maxMessageBytes, maxBufferedBytes: Number.POSITIVE_INFINITY });
    this.exited = new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, signal: child.signalCode });
      else child.once("exit", (code, signal) => resolve({ code, signal }));
    });
    // A failed kill() is reported as 'error'; unheard, it would crash the process.
    child.on("error", () => {});
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** The child's stderr when spawned with `stderr: "pipe"`, else null. */
  get stderr(): Readable | null {
    return this.child.stderr;
  }

  start(receiver: Receiver): void {
    this.receiver = receiver;
    this.stdio.start({
      message: (value, context) => receiver.message(value, context),
      malformed: (problem) => receiver.malformed(problem),
      closed: (error) => void this.onStdioClosed(error),
    });
  }

  send(message: unknown, options?: SendOptions): Promise<void> {
    return this.stdio.send(message, options);
  }

  close(): Promise<void> {
    return (this.closing ??= this.shutDown());
  }

  /** The child closed its stdout (usually: it exited) or a pipe failed. Its exit status says more. */
  private async onStdioClosed(error: Error | undefined): Promise<void> {
    if (this.closing) return;
    const exit = await this.exitWithin(this.exitTimeoutMs);
    if (exit && (exit.code !== 0 || exit.signal !== null)) {
      error = new Error(`${this.command} exited with ${exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`}`);
    }
    this.reportClosed(error);
  }

  private async shutDown(): Promise<void> {
    const stdioClosed = this.stdio.close();
    // Keep draining its stdout so a child still writing is never blocked on a full pipe.
    this.child.stdout?.resume();
    await within(this.exitTimeoutMs, stdioClosed);
    if (!(await this.exitWithin(this.exitTimeoutMs))) {
      this.child.kill("SIGTERM");
      if (!(await this.exitWithin(this.exitTimeoutMs))) {
        this.child.kill("SIGKILL");
        await this.exited;
      }
    }
    this.reportClosed(undefined);
  }

  private exitWithin(ms: number): Promise<Exit | undefined> {
    return within(ms, this.exited);
  }

  private reportClosed(error: Error | undefined): void {
    if (this.closedReported) return;
    this.closedReported = true;
    this.receiver?.closed(error);
  }
}
