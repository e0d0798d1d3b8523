/**
 * Tool argument validation on the tool schemas public MCP servers really list, our compiler in
 * code mode and in closures against ajv, in one process:
 *
 *   node --import tsx bench/server-tools.ts [--quick]
 *
 * Each server of bench/support/server-tools.ts (server-everything, server-filesystem,
 * server-memory, @playwright/mcp, installed in tools/bench-peers) is spawned on stdio and its
 * tools/list captured, at every run (none of their text is stored). For each tool's inputSchema:
 *
 * - the engines: the runtime's SchemaCompiler "ajv", "auto" (code mode on Node) and "interpreter"
 *   (closures), and `generate --tools`'s output (compiled) for the schemas it accepts;
 * - the data: arguments made from the schema (bench/support/sample-arguments.ts), each judged by
 *   ajv; a datum on which another engine disagrees with ajv is printed as a DISAGREEMENT (a bug)
 *   and not timed;
 * - validation: all of the tool's valid data in one operation, and all of its invalid data in
 *   another, each (data, engine) pair timed by bench/support/pairs.ts (its own loop, CPU time,
 *   runs interleaved across engines); figures are median ops per CPU second;
 * - compiling, as a server does at registration: a fresh compiler per run, its ajv instances warm,
 *   compiling fresh copies of the schema; figures are median compiles per CPU second.
 *
 * Then, per server and over all tools, the worst and the median of code/ajv and closures/ajv.
 */
import { loadToolSchemas } from "../codegen/tool-validators/load.js";
import { precompiled, type SchemaValidator } from "../runtime/shared/json-schema.js";
import { removeDir } from "../test/support/project.js";
import { compileToolSchemas } from "../test/support/tool-validators.js";
import { median, newPair, printTable, timePairs, type Timing } from "./support/pairs.js";
import { record } from "./support/results.js";
import { sampleArguments } from "./support/sample-arguments.js";
import { cpuMs, formatOps, freshCompiler, type Engine } from "./support/schema-engines.js";
import { captureTools, SERVERS, type ServerTools } from "./support/server-tools.js";

const QUICK = process.argv.includes("--quick");
const RUNS = QUICK ? 5 : 15;
const RUN_MS = QUICK ? 10 : 30;
const PAIR_BUDGET_MS = QUICK ? 1_500 : 6_000;
const TIMING: Timing = { runMs: RUN_MS, pairBudgetMs: PAIR_BUDGET_MS, maxIterations: 50_000_000 };
/** About this much CPU time of ajv compiling per compile run: copies of the schema enough for it. */
const COMPILE_BATCH_MS = QUICK ? 5 : 15;
const BENCH = "server-tools";
const RUNTIME_ENGINES: readonly Engine[] = ["ajv", "code", "closures"];
type Name = Engine | "compiled";
type Kind = "valid" | "invalid" | "compile";

const problems: string[] = [];
/** Loud, on stderr as well as in the summary: every one is a bug of ours (or of ajv). */
const disagree = (text: string) => {
  problems.push(text);
  console.error(`DISAGREEMENT: ${text}`);
};
const notes: string[] = [];

const captured: ServerTools[] = [];
for (const server of SERVERS) {
  try {
    captured.push(await captureTools(server));
  } catch (error) {
    problems.push(`${server.name}: no tools captured: ${(error as Error).message}`);
    console.error(`${server.name}: no tools captured: ${(error as Error).message}`);
  }
}

console.log(`Tool argument validation on the tool schemas of public MCP servers: our compiler in code mode and in closures, and generate --tools's output, against ajv`);
console.log(`node ${process.version}, ${RUNS} runs of ~${RUN_MS} ms per pair, median ops per CPU second${QUICK ? " (quick)" : ""}`);
console.log(captured.map((s) => `${s.version}: ${s.tools.length} tools`).join(", "));

/** Per tool, by kind: engine / ajv of the median ops (higher is better for all three kinds). */
const ratios: { id: string; server: string; kind: Kind; engine: Name; ratio: number }[] = [];
const refused: string[] = [];

for (const { server, tools } of captured) {
  // generate --tools: the schemas it refuses, each named; the others in one file, as one manifest gives.
  const accepted = tools.filter((tool) => {
    try {
      loadToolSchemas("mcp.server.json", [{ name: "t", inputSchema: tool.inputSchema }]);
      return true;
    } catch (error) {
      refused.push(`${server}/${tool.name}: ${(error as Error).message}`);
      return false;
    }
  });
  const compiled = accepted.length > 0 ? await compileToolSchemas(accepted.map((t) => t.inputSchema), `bench-${server}`) : undefined;

  const rows = [["tool", "valid", "invalid", "valid code/ajv", "closures/ajv", "compiled/ajv", "invalid code/ajv", "closures/ajv", "compiled/ajv", "compile code/ajv", "closures/ajv"]];
  for (const tool of tools) {
    const id = `${server}/${tool.name}`;
    const schema = tool.inputSchema;
    const engines: { name: Name; check: SchemaValidator }[] = [];
    for (const name of RUNTIME_ENGINES) {
      try {
        engines.push({ name, check: freshCompiler(name).compile(structuredClone(schema)) });
      } catch (error) {
        disagree(`${id}: ${name} does not compile the schema${name === "ajv" ? "" : " (ajv does)"}: ${(error as Error).message}`);
      }
    }
    if (engines[0]?.name !== "ajv") continue; // no oracle
    const index = accepted.indexOf(tool);
    if (compiled && index >= 0) {
      const check = precompiled(compiled.validators[index], schema);
      if (check) engines.push({ name: "compiled", check });
      else disagree(`${id}: generate --tools's validator was compiled from another schema than the one listed`);
    }

    const sets: Record<"valid" | "invalid", unknown[]> = { valid: [], invalid: [] };
    for (const datum of sampleArguments(schema)) {
      const verdicts = engines.map(({ name, check }) => ({ name, valid: check(datum.value) === undefined }));
      const oracle = verdicts[0]!.valid;
      const wrong = verdicts.filter((v) => v.valid !== oracle);
      if (wrong.length > 0) {
        disagree(`${id}, ${datum.label}: ajv says ${oracle ? "valid" : "invalid"}, ${wrong.map((v) => v.name).join(" and ")} not; arguments ${JSON.stringify(datum.value)}`);
        continue;
      }
      if (!oracle && (datum.label === "required properties" || datum.label === "every property")) notes.push(`${id}: the sampler's "${datum.label}" is invalid by ajv (timed as invalid data): ${engines[0]!.check(datum.value)}`);
      sets[oracle ? "valid" : "invalid"].push(datum.value);
    }

    const ops: Partial<Record<Kind, Partial<Record<Name, number>>>> = {};
    for (const kind of ["valid", "invalid"] as const) {
      const data = sets[kind];
      if (data.length === 0) continue;
      const pairs = engines.map(({ name, check }) =>
        newPair(name, (values) => {
          let accepted = 0;
          for (const value of values as unknown[]) if (check(value) === undefined) accepted++;
          return accepted >= 0;
        }),
      );
      timePairs(pairs, data, TIMING, RUNS);
      ops[kind] = {};
      for (const pair of pairs) {
        ops[kind][pair.name] = median(pair.opsPerSecond);
        record({ bench: BENCH, measure: `${id}, ${kind}`, contender: pair.name, unit: "ops/s", median: median(pair.opsPerSecond), runs: [...pair.opsPerSecond] });
      }
    }

    // Compiling at registration: copies enough for about COMPILE_BATCH_MS of ajv, the same count for each engine.
    const probe = freshCompiler("ajv");
    const start = cpuMs();
    probe.compile(structuredClone(schema));
    const copies = Math.max(1, Math.min(500, Math.round(COMPILE_BATCH_MS / Math.max(cpuMs() - start, 0.01))));
    const compileRuns: Record<Engine, number[]> = { ajv: [], code: [], closures: [] };
    for (let run = 0; run < RUNS; run++)
      for (const name of RUNTIME_ENGINES.filter((n) => engines.some((e) => e.name === n))) {
        const compiler = freshCompiler(name);
        const schemas = Array.from({ length: copies }, () => structuredClone(schema));
        const begin = cpuMs();
        for (const copy of schemas) compiler.compile(copy);
        compileRuns[name].push((copies * 1000) / Math.max(cpuMs() - begin, 0.001));
      }
    ops.compile = {};
    for (const name of RUNTIME_ENGINES) {
      if (compileRuns[name].length === 0) continue;
      ops.compile[name] = median(compileRuns[name]);
      record({ bench: BENCH, measure: `${id}, compile`, contender: name, unit: "ops/s", median: median(compileRuns[name]), runs: compileRuns[name] });
    }

    const cell = (kind: Kind, name: Name) => {
      const [ours, ajv] = [ops[kind]?.[name], ops[kind]?.ajv];
      if (ours === undefined || ajv === undefined) return "-";
      ratios.push({ id, server, kind, engine: name, ratio: ours / ajv });
      return `${(ours / ajv).toFixed(2)}x`;
    };
    const count = (kind: "valid" | "invalid") => (ops[kind]?.ajv === undefined ? "-" : `${sets[kind].length}: ${formatOps(ops[kind].ajv)}`);
    rows.push([tool.name, count("valid"), count("invalid"), cell("valid", "code"), cell("valid", "closures"), cell("valid", "compiled"), cell("invalid", "code"), cell("invalid", "closures"), cell("invalid", "compiled"), cell("compile", "code"), cell("compile", "closures")]);
  }
  if (compiled) removeDir(compiled.dir);
  console.log(`\n${server} (valid, invalid: how many data, ajv's ops/s on them all)`);
  printTable(rows);
}

console.log(`\nWorst and median engine/ajv, per server and over all ${new Set(ratios.map((r) => r.id)).size} tools (validation: ops per CPU second; compile: compiles per CPU second; above 1: faster than ajv)`);
const summary = [["tools", "measure", "code worst", "code median", "closures worst", "closures median", "compiled worst", "compiled median"]];
for (const server of [...captured.map((s) => s.server), "all"])
  for (const kind of ["valid", "invalid", "compile"] as const) {
    const of = (engine: Name) => ratios.filter((r) => (server === "all" || r.server === server) && r.kind === kind && r.engine === engine);
    const stats = (engine: Name) => {
      const xs = of(engine);
      if (xs.length === 0) return ["-", "-"];
      const worst = xs.reduce((a, b) => (b.ratio < a.ratio ? b : a));
      return [`${worst.ratio.toFixed(2)}x (${worst.id.slice(worst.id.indexOf("/") + 1)})`, `${median(xs.map((x) => x.ratio)).toFixed(2)}x`];
    };
    summary.push([server, kind, ...stats("code"), ...stats("closures"), ...stats("compiled")]);
  }
printTable(summary);

for (const kind of ["valid", "invalid", "compile"] as const) {
  const below = (engine: Name, bar: number) => ratios.filter((r) => r.kind === kind && r.engine === engine && r.ratio < bar).map((r) => `${r.id} ${r.ratio.toFixed(2)}x`);
  const goal = kind === "compile" ? [["code", 1], ["closures", 1]] : [["code", 1], ["closures", 0.5]];
  for (const [engine, bar] of goal as [Name, number][]) {
    const misses = below(engine, bar);
    console.log(`${kind}, ${engine} >= ${bar}x ajv: ${misses.length === 0 ? "every tool" : `${misses.length} tools below: ${misses.join(", ")}`}`);
  }
}
console.log(`\ngenerate --tools refuses ${refused.length} of ${captured.reduce((n, s) => n + s.tools.length, 0)} schemas${refused.map((r) => `\n  ${r}`).join("")}`);
for (const note of notes) console.log(`note: ${note}`);
console.log(problems.length === 0 ? "no disagreement with ajv, every server captured" : `\n${problems.length} PROBLEMS (disagreements with ajv or servers not captured):\n  ${problems.join("\n  ")}`);
process.exitCode = problems.length > 0 ? 1 : 0;
