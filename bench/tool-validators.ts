/**
 * Tool argument validation, three ways, on one typical tool schema (`create_issue`: strings with
 * pattern and length bounds, an enum, integer bounds, a unique array, a nested object, an
 * if/then, additionalProperties false), in one process:
 *
 *   node --import tsx bench/tool-validators.ts [--quick]
 *
 * then, on the JSON Schema Test Suite's schemas (every required file of draft2020-12 and draft7,
 * each file's groups that every engine compiles and gets right), the runtime's own compiler in
 * both modes against ajv in the same run: validation of all the file's test data, and compiling
 * all the file's schemas (a fresh compiler per run, its ajv instances warm). Ratios per file, then
 * the worst and the median over files.
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
/** The runtime's engines, by the name the tables give them. */
const RUNTIME = { ajv: "ajv", code: "auto", closures: "interpreter" } as const;
for (const [name, kind] of Object.entries(RUNTIME)) {
  const compiler = new SchemaCompiler(silentLogger, kind);
  await compiler.load();
  engines.push({ name, check: compiler.compile(SCHEMA as unknown as Record<string, unknown>) });
}

console.log(`Tool argument validation on one typical tool schema: compiled (generate --tools) vs the runtime's engines (ajv, our compiler in code mode and in closures)`);
console.log(`node ${process.version}, ${RUNS} runs of ~${RUN_MS} ms per pair, median ops per CPU second${QUICK ? " (quick)" : ""}\n`);
const rows = [["arguments", "compiled", "ajv", "code", "closures", "compiled/ajv", "code/ajv", "closures/ajv"]];
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
  const [ours, ajv, code, closures] = pairs.map((p) => median(p.opsPerSecond)) as [number, number, number, number];
  for (const pair of pairs)
    record({ bench: "tool-validators", measure: c.label, contender: pair.name === "compiled" ? "ours" : pair.name, unit: "ops/s", median: median(pair.opsPerSecond), runs: [...pair.opsPerSecond] });
  rows.push([c.label, format(ours), format(ajv), format(code), format(closures), `${(ours / ajv).toFixed(2)}x`, `${(code / ajv).toFixed(2)}x`, `${(closures / ajv).toFixed(2)}x`]);
}
const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
for (const row of rows) console.log(row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  "));
removeDir(compiled.dir);

// ---------------------------------------------------------------------------------------------
// The suite's schemas: our compiler (code mode, closures) vs ajv, validation and compile time.
// ---------------------------------------------------------------------------------------------
const { asToolSchema, suiteFiles, suiteGroups } = await import("../test/support/json-schema-suite.js");
type Engine = keyof typeof RUNTIME;
const ENGINES: readonly Engine[] = ["code", "closures", "ajv"];
const freshCompiler = (kind: Engine) => {
  const compiler = new SchemaCompiler(silentLogger, RUNTIME[kind]);
  void compiler.load();
  // Warm: ajv's instance of each dialect is made on first use, once per server.
  compiler.compile({ $schema: "http://json-schema.org/draft-07/schema#" });
  compiler.compile({ $schema: "https://json-schema.org/draft/2020-12/schema" });
  return compiler;
};
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
console.log(`\nThe JSON Schema Test Suite's schemas (required files, groups every engine gets right): ours (code mode, closures) / ajv on the valid and on the invalid data, median of ${RUNS} runs`);
const suiteRows = [["file", "groups", "valid code/ajv", "invalid code/ajv", "valid closures/ajv", "invalid closures/ajv", "compile ajv/code", "compile ajv/closures"]];
/** Per file, by mode and data: validation ours/ajv (ops), compile ajv/ours (time). */
const validateRatios: Record<`${"code" | "closures"} ${"valid" | "invalid"}`, number[]> = { "code valid": [], "code invalid": [], "closures valid": [], "closures invalid": [] };
const compileRatios: Record<"code" | "closures", number[]> = { code: [], closures: [] };
/** ours/ajv for code and closures on one file's data: each engine checks every datum with its group's validator. */
const timeData = (groups: readonly { schema: Record<string, unknown> }[], data: readonly { group: number; value: unknown }[]): [number, number] => {
  const pairs = ENGINES.map((kind) => {
    const compiler = freshCompiler(kind);
    const validators = groups.map((g) => compiler.compile(g.schema));
    return newPair(kind, (values) => {
      let accepted = 0;
      for (const { group, value } of values as typeof data) if (validators[group]!(value) === undefined) accepted++;
      return accepted >= 0;
    });
  });
  for (const pair of pairs) calibrate(pair, data, TIMING);
  for (const pair of pairs) timeRun(pair, data, TIMING);
  for (const pair of pairs) pair.opsPerSecond.length = 0;
  for (let run = 0; run < RUNS; run++) for (const pair of pairs) timeRun(pair, data, TIMING);
  const [code, closures, ajv] = pairs.map((p) => median(p.opsPerSecond)) as [number, number, number];
  return [code / ajv, closures / ajv];
};
for (const draft of ["draft2020-12", "draft7"] as const) {
  for (const file of suiteFiles(draft)) {
    const groups = suiteGroups(draft, file)
      .map((g) => ({ ...g, schema: asToolSchema(draft, g.schema) }))
      .filter((g) =>
        ENGINES.every((kind) => {
          try {
            const validate = freshCompiler(kind).compile(g.schema);
            return g.tests.every((t) => (validate(t.data) === undefined) === t.valid);
          } catch {
            return false;
          }
        }),
      );
    if (groups.length === 0) continue;
    const cells: string[] = [];
    const ratios: Partial<Record<keyof typeof validateRatios, number>> = {};
    for (const valid of [true, false]) {
      const data = groups.flatMap((g, group) => g.tests.filter((t) => t.valid === valid).map((t) => ({ group, value: t.data })));
      if (data.length === 0) continue;
      const [code, closures] = timeData(groups, data);
      ratios[`code ${valid ? "valid" : "invalid"}`] = code;
      ratios[`closures ${valid ? "valid" : "invalid"}`] = closures;
    }
    for (const key of Object.keys(validateRatios) as (keyof typeof validateRatios)[]) if (ratios[key] !== undefined) validateRatios[key].push(ratios[key]);
    for (const key of ["code valid", "code invalid", "closures valid", "closures invalid"] as const) cells.push(ratios[key] === undefined ? "-" : `${ratios[key].toFixed(2)}x`);
    const compileMs: Record<Engine, number[]> = { code: [], closures: [], ajv: [] };
    for (let run = 0; run < RUNS; run++)
      for (const kind of ENGINES) {
        const compiler = freshCompiler(kind);
        const schemas = groups.map((g) => structuredClone(g.schema));
        const start = cpuMs();
        for (const schema of schemas) compiler.compile(schema);
        compileMs[kind].push(cpuMs() - start);
      }
    const compileRatio = (mode: "code" | "closures") => median(compileMs.ajv) / Math.max(median(compileMs[mode]), 0.001);
    compileRatios.code.push(compileRatio("code"));
    compileRatios.closures.push(compileRatio("closures"));
    suiteRows.push([`${draft}/${file}`, String(groups.length), ...cells, `${compileRatio("code").toFixed(1)}x`, `${compileRatio("closures").toFixed(1)}x`]);
  }
}
const suiteWidths = suiteRows[0]!.map((_, i) => Math.max(...suiteRows.map((r) => r[i]!.length)));
for (const row of suiteRows) console.log(row.map((cell, i) => (i === 0 ? cell.padEnd(suiteWidths[i]!) : cell.padStart(suiteWidths[i]!))).join("  "));
const worst = (column: number, ratios: number[]) => {
  const rows = suiteRows.slice(1).filter((r) => r[column] !== "-");
  return rows[ratios.indexOf(Math.min(...ratios))]![0];
};
for (const mode of ["code", "closures"] as const) {
  const validation = (["valid", "invalid"] as const).map((data, k) => {
    const v = validateRatios[`${mode} ${data}`];
    return `${data} median ${median(v).toFixed(2)}x, worst ${Math.min(...v).toFixed(2)}x (${worst(2 + k + (mode === "code" ? 0 : 2), v)})`;
  });
  const c = compileRatios[mode];
  console.log(`${mode.padEnd(8)} over ${c.length} files: validation ours/ajv ${validation.join("; ")}; compile ajv/ours median ${median(c).toFixed(1)}x, worst ${Math.min(...c).toFixed(1)}x (${worst(mode === "code" ? 6 : 7, c)})`);
}
