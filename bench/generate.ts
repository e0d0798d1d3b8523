/**
 * How long `mcp-codegen generate` takes, through the published bin (node bin/mcp-codegen.js,
 * which runs dist/: `make build` first):
 *
 * - cold:  all five pinned revisions and the extensions into an empty generated/ of a fresh temporary root;
 * - no-op: the same command again on a generated root, nothing changed. Every no-op run must
 *          leave every file's mtime as it was (checked, exit 1 otherwise).
 *
 * Each case runs several times; the table gives the median, min and max of the wall time of
 * the whole process (node start-up included) and of the CLI's own "done in N ms". The floor is
 * node alone starting and exiting (`node -e 0`), run once after each run of each case.
 * Targets from issue 2 (cold <= 3 s, no-op <= 0.5 s) are reported, never asserted.
 *
 *   node --import tsx bench/generate.ts [--runs 5] [--quick]   (--quick: 3 runs)
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { availableParallelism, cpus, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { record } from "./support/results.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const BIN = join(ROOT, "bin", "mcp-codegen.js");
const TARGETS = { cold: 3000, "no-op": 500 } as const;

const { values } = parseArgs({ options: { runs: { type: "string" }, quick: { type: "boolean", default: false } } });
const RUNS = Math.max(1, Number(values.runs ?? (values.quick ? 3 : 5)));

function fail(message: string): never {
  console.error(`bench/generate: ${message}`);
  process.exit(1);
}

if (!existsSync(join(ROOT, "dist", "codegen", "cli.js"))) fail("dist/ is missing: run `make build` first");
const stale = newerSources(join(ROOT, "codegen"), join(ROOT, "dist", "codegen"));
if (stale.length > 0) console.warn(`warning: dist/ is older than ${stale.join(", ")}: run \`make build\` for numbers that match the sources\n`);

const revisions = readdirSync(join(ROOT, "spec")).filter((name) => /^\d{4}-\d{2}-\d{2}$/.test(name)).sort();
if (revisions.length === 0) fail("spec/<rev>/ is empty: run `make spec` first");
const extensions = existsSync(join(ROOT, "spec", "extensions")) ? readdirSync(join(ROOT, "spec", "extensions")).sort() : [];
/** One module per revision and per extension, each with its line in the CLI's output. */
const modules = revisions.length + extensions.length;

const scratch = mkdtempSync(join(tmpdir(), "mcp-codegen-bench-"));
process.on("exit", () => rmSync(scratch, { recursive: true, force: true }));

/** A fresh project root: spec/ (pinned.json, spec/<rev>/, spec/extensions/), nothing generated. */
function freshRoot(index: number): string {
  const root = join(scratch, `root-${index}`);
  mkdirSync(root, { recursive: true });
  cpSync(join(ROOT, "spec"), join(root, "spec"), { recursive: true });
  return root;
}

interface Run {
  readonly wall: number;
  readonly reported: number;
  readonly stdout: string;
}

function generate(root: string): Run {
  const started = performance.now();
  const run = spawnSync(process.execPath, [BIN, "generate", "--root", root], { cwd: ROOT, encoding: "utf8" });
  const wall = performance.now() - started;
  if (run.status !== 0) fail(`generate --root ${root} exited ${run.status}\n${run.stdout}${run.stderr}`);
  const reported = Number(/^done in (\d+) ms$/m.exec(run.stdout)?.[1] ?? NaN);
  return { wall, reported, stdout: run.stdout };
}

/** The floor: node alone starting and exiting, wall time in ms. */
function nodeAlone(): number {
  const started = performance.now();
  const run = spawnSync(process.execPath, ["-e", "0"]);
  if (run.status !== 0) fail(`node -e 0 exited ${run.status}`);
  return performance.now() - started;
}
const floors = { cold: [] as number[], "no-op": [] as number[] };

function mtimes(dir: string): Map<string, bigint> {
  const out = new Map<string, bigint>();
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      const stat = statSync(path, { bigint: true });
      if (stat.isDirectory()) walk(path);
      else out.set(path.slice(dir.length + 1), stat.mtimeNs);
    }
  };
  walk(dir);
  return out;
}

// Cold: every run into its own empty root.
const cold: Run[] = [];
let generatedRoot = "";
for (let i = 0; i < RUNS; i++) {
  generatedRoot = freshRoot(i);
  const run = generate(generatedRoot);
  if ((run.stdout.match(/ written, /g) ?? []).length !== modules) fail(`a cold run did not write every revision:\n${run.stdout}`);
  cold.push(run);
  floors.cold.push(nodeAlone());
}

// No-op: the last cold root again, nothing changed; no file may be rewritten.
const noop: Run[] = [];
const generatedDir = join(generatedRoot, "generated");
const before = mtimes(generatedDir);
for (let i = 0; i < RUNS; i++) {
  const run = generate(generatedRoot);
  if ((run.stdout.match(/up to date/g) ?? []).length !== modules) fail(`a no-op run was not up to date:\n${run.stdout}`);
  noop.push(run);
  floors["no-op"].push(nodeAlone());
}
const after = mtimes(generatedDir);
const touched = [...before].filter(([path, mtime]) => after.get(path) !== mtime).map(([path]) => path);
const added = [...after.keys()].filter((path) => !before.has(path));

const stats = (numbers: number[]) => {
  const sorted = [...numbers].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median, min: sorted[0]!, max: sorted.at(-1)! };
};
const ms = (n: number) => `${Math.round(n)} ms`.padStart(8);

console.log(`mcp-codegen generate, ${revisions.length} revisions (${revisions.join(", ")}) and ${extensions.length} extension(s), through bin/mcp-codegen.js`);
console.log(`node ${process.version}, ${availableParallelism()} cores (${cpus()[0]?.model.trim() ?? "unknown CPU"}), ${RUNS} runs per case\n`);
console.log(`${"case".padEnd(6)}  ${"median".padStart(8)}  ${"min".padStart(8)}  ${"max".padStart(8)}  ${"in-CLI".padStart(8)}  target`);
for (const [name, runs] of [["cold", cold], ["no-op", noop]] as const) {
  const wall = stats(runs.map((r) => r.wall));
  const reported = stats(runs.map((r) => r.reported));
  const target = TARGETS[name];
  const verdict = wall.median <= target ? "met" : "MISSED";
  console.log(`${name.padEnd(6)}  ${ms(wall.median)}  ${ms(wall.min)}  ${ms(wall.max)}  ${ms(reported.median)}  <= ${target} ms ${verdict}`);
  const measure = name === "cold" ? `cold: ${revisions.length} revisions and ${extensions.length} extension(s) into an empty root` : `no-op: the same again, nothing changed`;
  record({ bench: "generate", measure: `${measure}, the whole process`, contender: "ours", unit: "ms", median: wall.median, runs: runs.map((r) => r.wall) });
  record({ bench: "generate", measure: `${measure}, the whole process`, contender: "floor", unit: "ms", median: stats(floors[name]).median, runs: floors[name] });
  record({ bench: "generate", measure: `${measure}, the CLI's own "done in"`, contender: "ours", unit: "ms", median: reported.median, runs: runs.map((r) => r.reported) });
}
console.log(`floor (node -e 0): ${Math.round(stats([...floors.cold, ...floors["no-op"]]).median)} ms`);
console.log("\nmedian/min/max: wall time of the whole process; in-CLI: median of the CLI's own \"done in N ms\".");

if (touched.length > 0 || added.length > 0) {
  console.error(`\nno-op runs wrote files: ${[...touched, ...added].join(", ")}`);
  process.exit(1);
}
console.log(`no-op runs wrote nothing: ${before.size} files in generated/, every mtime unchanged over ${RUNS} runs`);

/** Source files of codegen/ newer than their compiled counterpart in dist/. */
function newerSources(sources: string, compiled: string): string[] {
  const out: string[] = [];
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith(".ts")) {
        const js = join(compiled, path.slice(sources.length).replace(/\.ts$/, ".js"));
        if (!existsSync(js) || statSync(js).mtimeMs < statSync(path).mtimeMs) out.push(path.slice(ROOT.length + 1));
      }
    }
  };
  walk(sources);
  return out;
}
