/**
 * Tool argument validation, three ways, on one typical tool schema (`create_issue`: strings with
 * pattern and length bounds, an enum, integer bounds, a unique array, a nested object, an
 * if/then, additionalProperties false), in one process:
 *
 *   node --import tsx bench/tool-validators.ts [--quick]
 *
 * - compiled:    `generate --tools`'s output (codegen/tools), as the runtime runs it
 *                (`precompiled`: `is`, and `check` only for a message on failure);
 * - ajv:         the runtime's SchemaCompiler "ajv" (compiles with `new Function`);
 * - interpreter: the runtime's SchemaCompiler "interpreter" (@cfworker/json-schema, what Workers use).
 *
 * Each (value, engine) pair is timed by bench/support/pairs.ts (a loop of its own, a calibrated
 * iteration count, a warm-up, RUNS runs interleaved across engines, CPU time); the table gives the
 * median ops per CPU second and the ratios. The verdicts of the
 * three are checked first; a pair that disagrees is not timed.
 */
import { precompiled, SchemaCompiler, type SchemaValidator } from "../runtime/shared/json-schema.js";
import { silentLogger } from "../runtime/util/logger.js";
import { removeDir } from "../test/support/project.js";
import { compileToolSchemas } from "../test/support/tool-validators.js";
import { calibrate, median, newPair, timeRun, type Timing } from "./support/pairs.js";
import { record } from "./support/results.js";

const QUICK = process.argv.includes("--quick");
const RUNS = QUICK ? 5 : 15;
const RUN_MS = QUICK ? 10 : 30;
const PAIR_BUDGET_MS = QUICK ? 1_500 : 6_000;
const TIMING: Timing = { runMs: RUN_MS, pairBudgetMs: PAIR_BUDGET_MS, maxIterations: 50_000_000 };

const SCHEMA = {
  type: "object",
  properties: {
    repository: { type: "string", pattern: "^[\\w.-]+/[\\w.-]+$", maxLength: 140 },
    title: { type: "string", minLength: 1, maxLength: 256 },
    body: { type: "string" },
    priority: { enum: ["low", "normal", "high", "urgent"] },
    estimate: { type: "integer", minimum: 1, maximum: 100 },
    labels: { type: "array", items: { type: "string", minLength: 1 }, uniqueItems: true, maxItems: 10 },
    assignee: { type: "object", properties: { login: { type: "string" }, team: { type: "string" } }, required: ["login"], additionalProperties: false },
    due: { type: "string", format: "date-time" },
  },
  required: ["repository", "title"],
  additionalProperties: false,
  if: { properties: { priority: { const: "urgent" } }, required: ["priority"] },
  then: { required: ["assignee"] },
} as const;

const valid = {
  repository: "acme/widgets",
  title: "Validator rejects fractional priority",
  body: "Steps to reproduce:\n1. call tools/call with priority 0.5\n2. see the error",
  priority: "urgent",
  estimate: 3,
  labels: ["bug", "validation", "good first issue"],
  assignee: { login: "octocat", team: "core" },
  due: "2026-12-01T12:00:00Z",
};
const { assignee: _assignee, ...withoutAssignee } = valid;
const CASES = [
  { label: "valid arguments", value: valid, valid: true },
  { label: "invalid: urgent without assignee, duplicate label", value: { ...withoutAssignee, labels: ["bug", "bug"] }, valid: false },
  { label: "invalid: bad repository, extra property", value: { ...valid, repository: "not a repo", extra: 1 }, valid: false },
];

const format = (n: number) => (n >= 1e6 ? `${(n / 1e6).toFixed(2)}M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)}k` : n.toFixed(1));

const compiled = await compileToolSchemas([SCHEMA], "bench-tools");
const engines: { name: string; check: SchemaValidator }[] = [{ name: "compiled", check: precompiled(compiled.validators[0], SCHEMA)! }];
for (const kind of ["ajv", "interpreter"] as const) {
  const compiler = new SchemaCompiler(silentLogger, kind);
  await compiler.load();
  engines.push({ name: kind, check: compiler.compile(SCHEMA as unknown as Record<string, unknown>) });
}

console.log(`Tool argument validation on one typical tool schema: compiled (generate --tools) vs the runtime's ajv and interpreter engines`);
console.log(`node ${process.version}, ${RUNS} runs of ~${RUN_MS} ms per pair, median ops per CPU second${QUICK ? " (quick)" : ""}\n`);
const rows = [["arguments", "compiled", "ajv", "interpreter", "vs ajv", "vs interpreter"]];
for (const c of CASES) {
  const wrong = engines.filter((e) => (e.check(c.value) === undefined) !== c.valid);
  if (wrong.length > 0) {
    console.log(`${c.label}: ${wrong.map((e) => e.name).join(", ")} disagree(s) with the expected verdict; not timed`);
    continue;
  }
  const pairs = engines.map(({ name, check }) => newPair(name, (value) => check(value) === undefined));
  for (const pair of pairs) calibrate(pair, c.value, TIMING);
  for (const pair of pairs) timeRun(pair, c.value, TIMING);
  for (const pair of pairs) pair.opsPerSecond.length = 0;
  for (let run = 0; run < RUNS; run++) for (const pair of pairs) timeRun(pair, c.value, TIMING);
  const [ours, ajv, interpreter] = pairs.map((p) => median(p.opsPerSecond)) as [number, number, number];
  for (const pair of pairs)
    record({ bench: "tool-validators", measure: c.label, contender: pair.name === "compiled" ? "ours" : pair.name, unit: "ops/s", median: median(pair.opsPerSecond), runs: [...pair.opsPerSecond] });
  rows.push([c.label, format(ours), format(ajv), format(interpreter), `${(ours / ajv).toFixed(2)}x`, `${(ours / interpreter).toFixed(1)}x`]);
}
const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
for (const row of rows) console.log(row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  "));
removeDir(compiled.dir);
