/**
 * The evaluate tool's engine. Each expression gets its own short-lived Node.js process
 * (evaluator.mjs), which runs it in a fresh, empty V8 context with a time limit. Why a process
 * and not a worker thread: a worker that exhausts its heap inside a builtin (for example
 * `new Array(1e9).fill(1)`) can abort the whole process despite `resourceLimits`; a child's heap
 * exhaustion ends only the child. The child also runs under Node's permission model, so an
 * escape from the V8 context would still find no file system, child processes or workers.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

export interface EvaluateOptions {
  /** The time limit of the expression (and of formatting its value). */
  readonly timeoutMs: number;
  /** The evaluator's V8 heap limit; an expression that needs more ends with an error, and only its process dies. */
  readonly memoryMb: number;
  /** Ends the evaluation early (the client cancelled the request). */
  readonly signal?: AbortSignal;
}

export interface Evaluation {
  readonly ok: boolean;
  readonly text: string;
}

const EVALUATOR = fileURLToPath(new URL("./evaluator.mjs", import.meta.url));
/**
 * The evaluator enforces the limit itself (vm's timeout). This is the backstop for whatever that
 * cannot interrupt, counted from the spawn: past the limit plus this grace, the process is killed.
 */
const BACKSTOP_GRACE_MS = 3000;
/** The permission model's flag: --experimental-permission on Node 20, --permission from Node 22.13/23.5. */
const PERMISSION_FLAG = process.allowedNodeEnvironmentFlags.has("--permission") ? "--permission" : "--experimental-permission";
const MAX_OUTPUT_BYTES = 1024 * 1024;
/** Evaluators still running, so that a server going away does not leave them behind. */
const running = new Set<ChildProcess>();

/** Kills every evaluator still running. */
export function stopEvaluations(): void {
  for (const child of running) child.kill("SIGKILL");
  running.clear();
}

export function evaluate(expression: string, options: EvaluateOptions): Promise<Evaluation> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        PERMISSION_FLAG,
        `--allow-fs-read=${EVALUATOR}`,
        `--max-old-space-size=${options.memoryMb}`,
        "--max-semi-space-size=4",
        "--no-warnings",
        EVALUATOR,
      ],
      // Nothing of ours is inherited: no environment, no open descriptors besides the three pipes.
      { stdio: ["pipe", "pipe", "pipe"], env: {}, shell: false, windowsHide: true },
    );
    running.add(child);
    let stdout = "";
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
    const backstop = setTimeout(() => finish(timedOut), options.timeoutMs + BACKSTOP_GRACE_MS);
    const abort = () => finish({ ok: false, text: "Evaluation cancelled by the client" });
    options.signal?.addEventListener("abort", abort, { once: true });
    if (options.signal?.aborted) return abort();

    child.stdout.setEncoding("utf8").on("data", (text: string) => {
      if (stdout.length < MAX_OUTPUT_BYTES) stdout += text;
    });
    child.stderr.setEncoding("utf8").on("data", (text: string) => {
      if (stderr.length < 64 * 1024) stderr += text;
    });
    child.stdin.on("error", () => {}); // EPIPE when the evaluator is already gone
    child.stdin.end(JSON.stringify({ expression, timeoutMs: options.timeoutMs }));
    child.once("error", (error) => finish({ ok: false, text: `Evaluation failed: could not start the evaluator: ${error.message}` }));
    child.once("close", (code, signal) => {
      let outcome: unknown;
      try {
        outcome = (JSON.parse(stdout) as { outcome?: unknown }).outcome;
      } catch {
        outcome = undefined;
      }
      if (typeof outcome === "string") {
        const colon = outcome.indexOf(":");
        const kind = outcome.slice(0, colon);
        const text = outcome.slice(colon + 1);
        return finish(kind === "ok" ? { ok: true, text } : kind === "timeout" ? timedOut : { ok: false, text });
      }
      if (/heap out of memory|Allocation failed/i.test(stderr))
        return finish({ ok: false, text: `Evaluation stopped: it needed more than the ${options.memoryMb} MB of memory it is allowed` });
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
