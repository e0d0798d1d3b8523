/**
 * Tool argument validation, three ways, on one typical tool schema (`create_issue`: strings with
 * pattern and length bounds, an enum, integer bounds, a unique array, a nested object, an
 * if/then, additionalProperties false), in one process:
 *
 *   node --import tsx bench/tool-validators.ts [--quick]
 *
 * (The suite's schemas and those public servers list: bench/tool-schemas.ts.)
 *
 * - compiled:    `generate --tools`'s output (codegen/tools), as the runtime runs it
 *                (`precompiled`: `is`, and `check` only for a message on failure);
 * - ajv:         the runtime's SchemaCompiler "ajv" (compiles with `new Function`);
 * - code:        the runtime's SchemaCompiler "auto" on Node: its own compiler in code mode (the
 *                default where `new Function` is allowed);
 * - closures:    the runtime's SchemaCompiler "interpreter": its own compiler, to closures (what
 *                Workers use).
 *
 * Each (value, engine) pair is timed by bench/support/pairs.ts (a loop of its own, a calibrated
 * iteration count, a warm-up, RUNS runs interleaved across engines, CPU time); the table gives the
 * median ops per CPU second and the ratios. The verdicts of the
 * three are checked first; a pair that disagrees is not timed.
 *
 * Our runtime is the build users run, dist/ (bench/support/ours.ts: run `make` first; a missing or
 * stale build is refused), so that it pays no TypeScript loader, as ajv from node_modules does not.
 */
import type { SchemaValidator } from "../runtime/shared/json-schema.js";
import { removeDir } from "../test/support/project.js";
import { compileToolSchemas } from "../test/support/tool-validators.js";
import { acceptedBy, median, newPair, printTable, timePairs, type Timing } from "./support/pairs.js";
import { record } from "./support/results.js";
import { formatOps as format, freshCompiler, precompiled, RUNTIME, type Engine } from "./support/schema-engines.js";

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

const compiled = await compileToolSchemas([SCHEMA], "bench-tools");
const engines: { name: string; check: SchemaValidator }[] = [{ name: "compiled", check: precompiled(compiled.validators[0], SCHEMA)! }];
for (const name of Object.keys(RUNTIME) as Engine[]) engines.push({ name, check: freshCompiler(name).compile(SCHEMA as unknown as Record<string, unknown>) });

console.log(`Tool argument validation on one typical tool schema: compiled (generate --tools) vs the runtime's engines (ajv, our compiler in code mode and in closures)`);
console.log(`node ${process.version}, ${RUNS} runs of ~${RUN_MS} ms per pair, median ops per CPU second${QUICK ? " (quick)" : ""}\n`);
const rows = [["arguments", "compiled", "ajv", "code", "closures", "compiled/ajv", "code/ajv", "closures/ajv"]];
for (const c of CASES) {
  const wrong = engines.filter((e) => (e.check(c.value) === undefined) !== c.valid);
  if (wrong.length > 0) {
    console.log(`${c.label}: ${wrong.map((e) => e.name).join(", ")} disagree(s) with the expected verdict; not timed`);
    continue;
  }
  const pairs = engines.map(({ name, check }) => newPair(name, acceptedBy(check)));
  timePairs(pairs, c.value, TIMING, RUNS);
  const [ours, ajv, code, closures] = pairs.map((p) => median(p.opsPerSecond)) as [number, number, number, number];
  for (const pair of pairs)
    record({ bench: "tool-validators", measure: c.label, contender: pair.name === "compiled" ? "ours" : pair.name, unit: "ops/s", median: median(pair.opsPerSecond), runs: [...pair.opsPerSecond] });
  rows.push([c.label, format(ours), format(ajv), format(code), format(closures), `${(ours / ajv).toFixed(2)}x`, `${(code / ajv).toFixed(2)}x`, `${(closures / ajv).toFixed(2)}x`]);
}
printTable(rows);
removeDir(compiled.dir);
