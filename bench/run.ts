// Runs every benchmark in bench/ (each bench/*.ts but this one), one after the other, each in its
// own process so none inherits another's heap or JIT state. `make bench` runs this.
//
//   node --import tsx bench/run.ts [--quick] [name ...]
//
// Names pick benchmarks by file name without .ts (e.g. `runtime stdio-framing`); default: all.
// --quick is passed to the benchmarks that take it (whose source mentions "--quick").
// Each benchmark is bounded by BENCH_TIMEOUT_MS (default 30 minutes), then killed with its
// children. The exit code is 1 when any benchmark failed or timed out.
// The figures the benchmarks record (bench/support/results.ts) go to one file, bench/results/latest.json
// (git-ignored), with the machine and the commit: `node --import tsx bench/report.ts --release` makes
// docs/benchmarks.md of it, or `--merge` puts the benches of a run of some (e.g. `--quick tool-schemas`)
// into the published results in place of their old figures, leaving the others' alone.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const BENCH = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(BENCH, "..");
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_MS ?? 30 * 60_000);

const { values, positionals } = parseArgs({ options: { quick: { type: "boolean", default: false } }, allowPositionals: true });

const NOT_BENCHES = new Set([basename(fileURLToPath(import.meta.url)), "report.ts"]);
const all = readdirSync(BENCH)
  .filter((name) => name.endsWith(".ts") && !name.endsWith(".d.ts") && !NOT_BENCHES.has(name))
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
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: "inherit", detached: true, env: { ...process.env, BENCH_RESULTS: figuresFile } });
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

const scratch = mkdtempSync(join(tmpdir(), "mcp-bench-"));
const figuresFile = join(scratch, "figures.jsonl");
const outcomes: Outcome[] = [];
for (const file of selected) {
  console.log(`\n=== bench/${file} ${"=".repeat(Math.max(0, 60 - file.length))}\n`);
  outcomes.push(await run(file));
}

console.log(`\n=== summary ${"=".repeat(56)}`);
for (const { name, ms, status } of outcomes) console.log(`${name.padEnd(24)} ${(ms / 1000).toFixed(1).padStart(7)} s  ${status}`);

const figures = existsSync(figuresFile) ? readFileSync(figuresFile, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line) as unknown) : [];
rmSync(scratch, { recursive: true, force: true });
const git = (...args: string[]) => execFileSync("git", args, { cwd: ROOT, encoding: "utf8" }).trim();
const results = {
  date: new Date().toISOString().slice(0, 10),
  commit: `${git("rev-parse", "HEAD")}${git("status", "--porcelain", "--untracked-files=no") ? " (with changes)" : ""}`,
  node: process.version,
  platform: `${process.platform}-${process.arch}`,
  cpus: cpus().length,
  quick: values.quick,
  benches: outcomes.map(({ name, ms, status }) => ({ name: name.replace(/\.ts$/, ""), seconds: Math.round(ms / 1000), status })),
  figures,
};
mkdirSync(join(BENCH, "results"), { recursive: true });
writeFileSync(join(BENCH, "results", "latest.json"), `${JSON.stringify(results, null, 2)}\n`);
const publish = positionals.length > 0 ? "--merge (these benches in place of theirs, the others' figures kept)" : "--release";
console.log(`\n${figures.length} figures in bench/results/latest.json; docs/benchmarks.md from it: node --import tsx bench/report.ts ${publish}`);
process.exit(outcomes.every((o) => o.status === "ok") ? 0 : 1);
