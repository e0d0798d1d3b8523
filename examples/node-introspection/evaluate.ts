/**
 * The evaluate tool's engine. Each expression gets its own short-lived Node.js process
 * (evaluator.mjs), which runs it in QuickJS compiled to WebAssembly: a separate JavaScript engine
 * that is handed nothing of the host, so there is no host object to reach, whatever the code does.
 * The process is the second wall: Node's permission model (it may read only its own code), an
 * empty environment, an answer channel (fd 3) the code cannot write to, and a kill when it
 * overruns. At most `maxConcurrent` evaluators run at once; further calls wait in a bounded queue.
 * The README says what this protects against and what it does not.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { join, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";

export interface EvaluateOptions {
  /** The time limit of the expression (and of formatting its value). */
  readonly timeoutMs: number;
  /** The QuickJS heap limit; an expression that needs more ends with an error. */
  readonly memoryMb: number;
  /** Ends the evaluation early, or takes it out of the queue (the client cancelled the request). */
  readonly signal?: AbortSignal;
}

export interface Evaluation {
  readonly ok: boolean;
  readonly text: string;
}

const EVALUATOR = fileURLToPath(new URL("./evaluator.mjs", import.meta.url));
/** The only files the evaluator may read: itself and the QuickJS packages it loads. */
const READABLE = [EVALUATOR, ...["quickjs-emscripten-core", "@jitl/quickjs-wasmfile-release-sync", "@jitl/quickjs-ffi-types"].map(packageFiles)];

/** `<the package's folder>/*`, found from its entry point (these packages do not export package.json). */
function packageFiles(name: string): string {
  const entry = createRequire(EVALUATOR).resolve(name);
  const folder = `${sep}node_modules${sep}${name.split("/").join(sep)}${sep}`;
  return join(entry.slice(0, entry.lastIndexOf(folder) + folder.length), "*");
}
/**
 * QuickJS enforces the limit itself (its interrupt handler). This is the backstop for whatever that
 * cannot interrupt, counted from when the evaluator reports ready: past the limit plus this grace,
 * the process is killed.
 */
const BACKSTOP_GRACE_MS = 3000;
/** Start-up (a Node.js process and QuickJS's WebAssembly) gets this long before the evaluator is killed. */
const STARTUP_LIMIT_MS = 60_000;
/** The permission model's flag: --experimental-permission on Node 20, --permission from Node 22.13/23.5. */
const PERMISSION_FLAG = process.allowedNodeEnvironmentFlags.has("--permission") ? "--permission" : "--experimental-permission";
const MAX_OUTPUT_BYTES = 1024 * 1024;
/** Evaluators still running, so that a server going away does not leave them behind. */
const running = new Set<ChildProcess>();

/**
 * A counting semaphore with a bounded queue: each evaluator is a process of up to tens of MB, so
 * 24 concurrent calls must not start 24 of them.
 */
export class EvaluationLimiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly maxConcurrent: number,
    readonly maxQueued: number,
  ) {}

  /** Runs `task` when a slot is free; undefined at once when the queue is full, or when `signal` aborts while it waits. */
  async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T | undefined> {
    if (this.active >= this.maxConcurrent) {
      if (this.waiting.length >= this.maxQueued) return undefined;
      const admitted = await new Promise<boolean>((resolve) => {
        const admit = () => {
          signal?.removeEventListener("abort", leave);
          resolve(true);
        };
        const leave = () => {
          const index = this.waiting.indexOf(admit);
          if (index >= 0) this.waiting.splice(index, 1);
          resolve(false);
        };
        this.waiting.push(admit);
        signal?.addEventListener("abort", leave, { once: true });
      });
      if (!admitted) return undefined;
    } else this.active++;
    try {
      return await task();
    } finally {
      // The slot passes to the next in line, or is freed.
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}

/** Kills every evaluator still running. */
export function stopEvaluations(): void {
  for (const child of running) child.kill("SIGKILL");
  running.clear();
}

/** Evaluates `expression` once a slot of `limiter` is free. */
export async function evaluateLimited(limiter: EvaluationLimiter, expression: string, options: EvaluateOptions): Promise<Evaluation> {
  const evaluation = await limiter.run(() => evaluate(expression, options), options.signal);
  if (evaluation) return evaluation;
  if (options.signal?.aborted) return { ok: false, text: "Evaluation cancelled by the client" };
  return {
    ok: false,
    text: `Evaluation refused: too many evaluations at once (${limiter.maxConcurrent} running, ${limiter.maxQueued} waiting); try again shortly`,
  };
}

/**
 * How an evaluator process starts: Node's options (the permission model, reading only `READABLE`),
 * the script, and its environment (none of ours). Exported so that a test can start a probe under
 * the same walls.
 */
export const EVALUATOR_LAUNCH = {
  options: [PERMISSION_FLAG, ...READABLE.map((path) => `--allow-fs-read=${path}`), "--max-old-space-size=32", "--max-semi-space-size=4", "--no-warnings"],
  script: EVALUATOR,
  env: {} as Record<string, string>,
} as const;

export function evaluate(expression: string, options: EvaluateOptions): Promise<Evaluation> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [...EVALUATOR_LAUNCH.options, EVALUATOR_LAUNCH.script],
      // Nothing of ours is inherited: no environment, no open descriptors besides these pipes. The
      // answer comes on fd 3; stdout is not read at all.
      { stdio: ["pipe", "ignore", "pipe", "pipe"], env: EVALUATOR_LAUNCH.env, shell: false, windowsHide: true },
    );
    running.add(child);
    let answer = "";
    let started = false;
    let stderr = "";
    let settled = false;
    const finish = (evaluation: Evaluation) => {
      if (settled) return;
      settled = true;
      running.delete(child);
      clearTimeout(backstop);
      options.signal?.removeEventListener("abort", abort);
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      resolve(evaluation);
    };
    const timedOut: Evaluation = { ok: false, text: `Evaluation stopped: it ran longer than the ${options.timeoutMs} ms limit` };
    const outOfMemory: Evaluation = { ok: false, text: `Evaluation stopped: it needed more than the ${options.memoryMb} MB of memory it is allowed` };
    let backstop = setTimeout(
      () => finish({ ok: false, text: `Evaluation failed: the evaluator did not start within ${STARTUP_LIMIT_MS} ms` }),
      STARTUP_LIMIT_MS,
    );
    const abort = () => finish({ ok: false, text: "Evaluation cancelled by the client" });
    options.signal?.addEventListener("abort", abort, { once: true });
    if (options.signal?.aborted) return abort();

    const answers = child.stdio[3] as NodeJS.ReadableStream;
    answers.setEncoding("utf8");
    answers.on("data", (text: string) => {
      if (answer.length >= MAX_OUTPUT_BYTES) return;
      answer += text;
      const line = answer.indexOf("\n");
      if (started || line < 0) return;
      started = true;
      answer = answer.slice(line + 1); // {"ready": true}: the time limit starts now
      clearTimeout(backstop);
      backstop = setTimeout(() => finish(timedOut), options.timeoutMs + BACKSTOP_GRACE_MS);
    });
    child.stderr!.setEncoding("utf8").on("data", (text: string) => {
      if (stderr.length < 64 * 1024) stderr += text;
    });
    child.stdin!.on("error", () => {}); // EPIPE when the evaluator is already gone
    child.stdin!.end(JSON.stringify({ expression, timeoutMs: options.timeoutMs, memoryMb: options.memoryMb }));
    child.once("error", (error) => finish({ ok: false, text: `Evaluation failed: could not start the evaluator: ${error.message}` }));
    child.once("close", (code, signal) => {
      let outcome: unknown;
      try {
        outcome = (JSON.parse(answer) as { outcome?: unknown }).outcome;
      } catch {
        outcome = undefined;
      }
      if (typeof outcome === "string") {
        const colon = outcome.indexOf(":");
        const kind = outcome.slice(0, colon);
        const text = outcome.slice(colon + 1);
        if (kind === "ok") return finish({ ok: true, text });
        if (kind === "timeout") return finish(timedOut);
        if (kind === "memory") return finish(outOfMemory);
        return finish({ ok: false, text });
      }
      finish({
        ok: false,
        text: `Evaluation failed: the evaluator ended (${signal ?? `exit code ${code}`}) without an answer${stderr ? `: ${lastLine(stderr)}` : ""}`,
      });
    });
  });
}

function lastLine(text: string): string {
  return text.trim().split("\n").pop()!.slice(0, 300);
}
