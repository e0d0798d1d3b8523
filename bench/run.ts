// Runs every benchmark in bench/ (each bench/*.ts but this one), one after the other, each in its
// own process so none inherits another's heap or JIT state. `make bench` runs this.
//
//   node --import tsx bench/run.ts [--quick] [name ...]
//
// Names pick benchmarks by file name without .ts (e.g. `runtime stdio-framing`); default: all.
// --quick is passed to the benchmarks that take it (whose source mentions "--quick").
// Each benchmark is bounded by BENCH_TIMEOUT_MS (default 30 minutes), then killed with its
// children. The exit code is 1 when any benchmark failed or timed out.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const BENCH = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(BENCH, "..");
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_MS ?? 30 * 60_000);

const { values, positionals } = parseArgs({ options: { quick: { type: "boolean", default: false } }, allowPositionals: true });

const all = readdirSync(BENCH)
  .filter((name) => name.endsWith(".ts") && !name.endsWith(".d.ts") && name !== basename(fileURLToPath(import.meta.url)))
  .sort();
const unknown = positionals.filter((name) => !all.includes(`${name}.ts`));
if (unknown.length > 0) {
  console.error(`bench/run: no benchmark ${unknown.join(", ")} (have: ${all.map((f) => f.replace(/\.ts$/, "")).join(", ")})`);
  process.exit(2);
}
const selected = positionals.length > 0 ? all.filter((name) => positionals.includes(name.replace(/\.ts$/, ""))) : all;

interface Outcome {
  readonly name: string;
  readonly ms: number;
  readonly status: string;
}

function run(file: string): Promise<Outcome> {
  const args = ["--import", "tsx", join("bench", file)];
  if (values.quick && readFileSync(join(BENCH, file), "utf8").includes("--quick")) args.push("--quick");
  const started = performance.now();
  return new Promise((resolvePromise) => {
    // Its own process group, so a timeout takes the servers it spawned along with it.
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: "inherit", detached: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
    }, TIMEOUT_MS);
    const finish = (status: string) => {
      clearTimeout(timer);
      resolvePromise({ name: file, ms: performance.now() - started, status });
    };
    child.once("error", (error) => finish(`could not start: ${error.message}`));
    child.once("exit", (code, signal) => finish(timedOut ? `timed out after ${TIMEOUT_MS} ms` : code === 0 ? "ok" : `failed (${signal ?? `exit ${code}`})`));
  });
}

const outcomes: Outcome[] = [];
for (const file of selected) {
  console.log(`\n=== bench/${file} ${"=".repeat(Math.max(0, 60 - file.length))}\n`);
  outcomes.push(await run(file));
}

console.log(`\n=== summary ${"=".repeat(56)}`);
for (const { name, ms, status } of outcomes) console.log(`${name.padEnd(24)} ${(ms / 1000).toFixed(1).padStart(7)} s  ${status}`);
process.exit(outcomes.every((o) => o.status === "ok") ? 0 : 1);
