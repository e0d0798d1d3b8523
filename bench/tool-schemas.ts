/**
 * Tool argument validation on real tool schemas, our compiler in code mode and in closures
 * against ajv, in one process: the schemas public MCP servers list, then the JSON Schema Test
 * Suite's.
 *
 *   node --import tsx bench/tool-schemas.ts [--quick]
 *
 * Public servers: each of bench/support/server-tools.ts (server-everything, server-filesystem,
 * server-memory, @playwright/mcp, installed in tools/bench-peers) is spawned on stdio and its
 * tools/list captured, at every run (none of their text is stored). Per tool's inputSchema:
 *
 * - the engines: the runtime's SchemaCompiler "ajv", "auto" (code mode on Node) and "interpreter"
 *   (closures), and `generate --tools`'s output (compiled) for the schemas it accepts;
 * - the peer of closures: @cfworker/json-schema, what SDK v2 validates with where code generation
 *   is refused (Workers), configured as SDK v2 does (first error only), the draft by `$schema`; a
 *   case where it gets a verdict wrong is timed without it (a note, not a problem of ours);
 * - the data: arguments made from the schema (bench/support/sample-arguments.ts), each judged by
 *   ajv; a datum on which another engine disagrees with ajv is printed as a DISAGREEMENT (a bug)
 *   and not timed.
 *
 * The suite: per file of draft2020-12 and draft7 (the required ones), its groups that every engine
 * compiles and gets right, each schema as a tool gives it (test/support/json-schema-suite.ts); the
 * suite's verdicts split its data into valid and invalid.
 *
 * Then, for each (tool or file):
 * - validation: all of its valid data in one operation, and all of its invalid data in another,
 *   each (data, engine) pair timed by bench/support/pairs.ts (its own loop, CPU time, runs
 *   interleaved across engines); figures are median ops per CPU second;
 * - compiling, as a server does at registration: a fresh compiler per run, its ajv instances warm,
 *   compiling fresh copies of the schemas, each batch from a collected heap; figures are median
 *   compiles per CPU second. Every case's validation is timed before any compiling is: those
 *   runs compile thousands of copies, and each copy would take a template of the closures' pool
 *   (render/closures.ts, handed out once, to one run for good, as a server compiles its tools
 *   once) from the validators of the cases after it.
 * Tables per server and for the suite, and the worst and the median of each engine / ajv.
 *
 * Our runtime is the build users run, dist/ (bench/support/ours.ts: run `make` first; a missing or
 * stale build is refused), so that it pays no TypeScript loader, as ajv from node_modules does not.
 */
import { Validator } from "@cfworker/json-schema";
import { loadToolSchemas } from "../codegen/tool-validators/load.js";
import type { CompiledSchema, SchemaValidator } from "../runtime/shared/json-schema.js";
import { asToolSchema, suiteFiles, suiteGroups } from "../test/support/json-schema-suite.js";
import { removeDir } from "../test/support/project.js";
import { compileToolSchemas } from "../test/support/tool-validators.js";
import { median, newPair, printTable, timePairs, type Timing } from "./support/pairs.js";
import { record } from "./support/results.js";
import { sampleArguments } from "./support/sample-arguments.js";
import { cpuMs, formatOps, freshCompiler, precompiled, type Engine } from "./support/schema-engines.js";
import { captureTools, SERVERS, type ServerTools } from "./support/server-tools.js";
import { collectGarbage } from "./support/gc.js";

const QUICK = process.argv.includes("--quick");
/**
 * `--only TEXT` (repeatable): time only the cases whose id contains one of them, to iterate on a
 * few. The closures' templates then go to these cases, where a whole run gives them to the cases
 * first in line (the servers' tools): a file of the suite may read through templates here and not
 * in the whole run.
 */
const ONLY = process.argv.flatMap((arg, i) => (process.argv[i - 1] === "--only" ? [arg] : []));
const wanted = (id: string) => ONLY.length === 0 || ONLY.some((text) => id.includes(text));
const RUNS = QUICK ? 5 : 15;
const RUN_MS = QUICK ? 10 : 30;
const PAIR_BUDGET_MS = QUICK ? 1_500 : 6_000;
const TIMING: Timing = { runMs: RUN_MS, pairBudgetMs: PAIR_BUDGET_MS, maxIterations: 50_000_000 };
/** About this much CPU time of ajv compiling per compile run of one tool schema: copies enough for it. */
const COMPILE_BATCH_MS = QUICK ? 5 : 15;
const BENCH = "tool-schemas";
const RUNTIME_ENGINES: readonly Engine[] = ["ajv", "code", "closures"];
type Name = Engine | "compiled" | "cfworker";
type Kind = "valid" | "invalid" | "compile";

/** One row of the tables: a tool's schema, or a suite file's schemas, and data for them. */
interface Case {
  /** "server/tool" or "suite/draft/file". */
  readonly id: string;
  /** The server, or "suite": a table each. */
  readonly group: string;
  readonly schemas: readonly Record<string, unknown>[];
  /** `valid` when known (the suite's verdict); else ajv's verdict decides. */
  readonly data: readonly { readonly schema: number; readonly label: string; readonly value: unknown; readonly valid?: boolean }[];
  /** generate --tools's validators, one per schema, where it compiled them. */
  readonly compiled?: readonly CompiledSchema[];
  /** Compile copies of the schemas in one compiler (not for schemas with $id, which ajv keeps by id). */
  readonly copies: boolean;
}

const problems: string[] = [];
/** Loud, on stderr as well as in the summary: every one is a bug of ours (or of ajv). */
const disagree = (text: string) => {
  problems.push(text);
  console.error(`DISAGREEMENT: ${text}`);
};
const notes: string[] = [];
/** Per case and kind: engine / ajv of the median ops (higher is better for all three kinds). */
const ratios: { id: string; group: string; kind: Kind; engine: Name; ratio: number }[] = [];
/** Per case and kind: closures / @cfworker/json-schema of the median ops. */
const peerRatios: { id: string; group: string; kind: "valid" | "invalid"; ratio: number }[] = [];

/** Whether the peer accepts `value`; undefined where it throws (a `$ref` it cannot resolve): a wrong verdict. */
function peerVerdict(check: SchemaValidator, value: unknown): boolean | undefined {
  try {
    return check(value) === undefined;
  } catch {
    return undefined;
  }
}

/** @cfworker/json-schema's validators for the case's schemas, as SDK v2 makes them (first error only); undefined where it refuses one. */
function cfworker(c: Case): SchemaValidator[] | undefined {
  try {
    return c.schemas.map((schema) => {
      const validator = new Validator(structuredClone(schema) as never, String(schema.$schema ?? "").includes("draft-07") ? "7" : "2020-12", true);
      return (value: unknown) => {
        const result = validator.validate(value);
        if (result.valid) return undefined;
        let out = "";
        for (let k = 0; k < result.errors.length; k++) out += `${k === 0 ? "" : "; "}${result.errors[k]!.instanceLocation}: ${result.errors[k]!.error}`;
        return out;
      };
    });
  } catch (error) {
    notes.push(`${c.id}: @cfworker/json-schema refuses the schema: ${(error as Error).message}`);
    return undefined;
  }
}

console.log(`Tool argument validation on real tool schemas: our compiler in code mode and in closures, and generate --tools's output, against ajv`);
console.log(`node ${process.version}, ${RUNS} runs of ~${RUN_MS} ms per pair, median ops per CPU second${QUICK ? " (quick)" : ""}`);

/**
 * One engine's pass over the data, in code of its own (as pairs.ts gives each pair a loop of its
 * own): one closure shared by the engines shares its call feedback too, so the engine timed first
 * on the first case ran monomorphic and the others not (everything/echo showed code at 0.4x ajv).
 */
const overData = (checks: readonly SchemaValidator[]): ((values: unknown) => boolean) =>
  new Function("checks", "return (values) => { let accepted = 0; for (const { schema, value } of values) if (checks[schema](value) === undefined) accepted++; return accepted >= 0; };")(checks);

/** A case whose validation was timed: its engines, its data by verdict, and the median ops of each (kind, engine). */
interface Measured {
  readonly c: Case;
  readonly engines: readonly { name: Name; checks: SchemaValidator[] }[];
  readonly sets: Record<"valid" | "invalid", { schema: number; value: unknown }[]>;
  readonly ops: Partial<Record<Kind, Partial<Record<Name, number>>>>;
}

const put = (m: Measured, kind: Kind, name: Name, runs: number[]) => {
  (m.ops[kind] ??= {})[name] = median(runs);
  record({ bench: BENCH, measure: `${m.c.id}, ${kind}`, contender: name, unit: "ops/s", median: median(runs), runs });
};

/** Times the validation of `c`'s valid and invalid data, and records the figures. */
function validation(c: Case): Measured | undefined {
  const engines: { name: Name; checks: SchemaValidator[] }[] = [];
  for (const name of RUNTIME_ENGINES) {
    try {
      const compiler = freshCompiler(name);
      engines.push({ name, checks: c.schemas.map((schema) => compiler.compile(structuredClone(schema))) });
    } catch (error) {
      disagree(`${c.id}: ${name} does not compile the schema${name === "ajv" ? "" : " (ajv does)"}: ${(error as Error).message}`);
    }
  }
  if (engines[0]?.name !== "ajv") return undefined; // no oracle
  const peer = cfworker(c);
  if (c.compiled) {
    const checks = c.schemas.map((schema, i) => precompiled(c.compiled![i], schema));
    if (checks.every((check) => check !== undefined)) engines.push({ name: "compiled", checks });
    else disagree(`${c.id}: generate --tools's validator was compiled from another schema than the one listed`);
  }

  const sets: Record<"valid" | "invalid", { schema: number; value: unknown }[]> = { valid: [], invalid: [] };
  let peerWrong = 0;
  for (const datum of c.data) {
    const verdicts = engines.map(({ name, checks }) => ({ name, valid: checks[datum.schema]!(datum.value) === undefined }));
    const expected = datum.valid ?? verdicts[0]!.valid;
    if (peer && peerVerdict(peer[datum.schema]!, datum.value) !== expected) peerWrong++;
    const wrong = verdicts.filter((v) => v.valid !== expected);
    if (wrong.length > 0) {
      disagree(`${c.id}, ${datum.label}: ${datum.valid === undefined ? "ajv" : "the suite"} says ${expected ? "valid" : "invalid"}, ${wrong.map((v) => v.name).join(" and ")} not; data ${JSON.stringify(datum.value)}`);
      continue;
    }
    if (!expected && (datum.label === "required properties" || datum.label === "every property")) notes.push(`${c.id}: the sampler's "${datum.label}" is invalid by ajv (timed as invalid data)`);
    sets[expected ? "valid" : "invalid"].push(datum);
  }
  if (peer && peerWrong > 0) notes.push(`${c.id}: @cfworker/json-schema gets ${peerWrong} of ${c.data.length} verdicts wrong or throws (not timed)`);
  else if (peer) engines.push({ name: "cfworker", checks: peer });

  const measured: Measured = { c, engines, sets, ops: {} };
  for (const kind of ["valid", "invalid"] as const) {
    const data = sets[kind];
    if (data.length === 0) continue;
    const pairs = engines.map(({ name, checks }) => newPair(name, overData(checks)));
    timePairs(pairs, data, TIMING, RUNS);
    for (const pair of pairs) put(measured, kind, pair.name, [...pair.opsPerSecond]);
  }
  return measured;
}

/** Times compiling `m`'s schemas, and records the figures. */
function compiling(m: Measured): void {
  const { c, engines } = m;
  // Compiling at registration: copies enough for about COMPILE_BATCH_MS of ajv (one where ajv
  // would keep them by $id), the same count for each engine.
  let copies = 1;
  if (c.copies) {
    const start = cpuMs();
    for (const schema of c.schemas) freshCompiler("ajv").compile(structuredClone(schema));
    copies = Math.max(1, Math.min(500, Math.round(COMPILE_BATCH_MS / Math.max(cpuMs() - start, 0.01))));
  }
  const compileRuns: Record<Engine, number[]> = { ajv: [], code: [], closures: [] };
  const compilers = RUNTIME_ENGINES.filter((n) => engines.some((e) => e.name === n));
  for (let run = 0; run < RUNS; run++)
    for (const name of compilers) {
      const compiler = freshCompiler(name);
      const schemas = Array.from({ length: copies }, () => c.schemas.map((schema) => structuredClone(schema))).flat();
      // Each batch from a collected heap: one engine's garbage is not collected in the next one's time.
      collectGarbage();
      const begin = cpuMs();
      for (const schema of schemas) compiler.compile(schema);
      compileRuns[name].push((schemas.length * 1000) / Math.max(cpuMs() - begin, 0.001));
    }
  for (const name of compilers) put(m, "compile", name, compileRuns[name]);
}

/** The table row of a measured case. */
function row({ c, sets, ops }: Measured): string[] {
  const cell = (kind: Kind, name: Name) => {
    const [ours, ajv] = [ops[kind]?.[name], ops[kind]?.ajv];
    if (ours === undefined || ajv === undefined) return "-";
    ratios.push({ id: c.id, group: c.group, kind, engine: name, ratio: ours / ajv });
    return `${(ours / ajv).toFixed(2)}x`;
  };
  const count = (kind: "valid" | "invalid") => (ops[kind]?.ajv === undefined ? "-" : `${sets[kind].length}: ${formatOps(ops[kind].ajv)}`);
  // Closures against their peer where code generation is refused.
  const overPeer = (kind: "valid" | "invalid") => {
    const [closures, other] = [ops[kind]?.closures, ops[kind]?.cfworker];
    if (closures === undefined || other === undefined) return "-";
    peerRatios.push({ id: c.id, group: c.group, kind, ratio: closures / other });
    return `${(closures / other).toFixed(2)}x`;
  };
  return [c.id.slice(c.id.indexOf("/") + 1), count("valid"), count("invalid"), ...(["valid", "invalid"] as const).flatMap((kind) => (["code", "closures", "compiled"] as const).map((name) => cell(kind, name))), cell("compile", "code"), cell("compile", "closures"), overPeer("valid"), overPeer("invalid")];
}

const HEADER = ["schema", "valid", "invalid", "valid code/ajv", "closures/ajv", "compiled/ajv", "invalid code/ajv", "closures/ajv", "compiled/ajv", "compile code/ajv", "closures/ajv", "closures/cfworker valid", "invalid"];
/** The tables, each case's validation timed as it comes; compiling is timed, and the tables printed, once all are. */
const tables: { title: string; measured: Measured[] }[] = [];
const table = (title: string, cases: readonly Case[]) => {
  tables.push({ title, measured: cases.filter((c) => wanted(c.id)).map(validation).filter((m) => m !== undefined) });
};
const compiledDirs: string[] = [];

// -- public servers ------------------------------------------------------------------------------

/**
 * The harness (pairs.ts) and each engine's wrapper (runtime/shared/json-schema.ts) see one
 * validator until they have timed a few: the first case timed ran ajv's validator inlined whole
 * (everything/echo timed first: ajv 119M ops/s, 33M timed again later; code mode 0.44x, then
 * 1.6x). So every engine is timed first on a few throwaway schemas, as a server with several tools
 * calls them.
 */
function warmCallSites(validators: readonly SchemaValidator[]): void {
  const data = validators.flatMap((_, schema) => [{}, { a: 1 }, "a", null].map((value) => ({ schema, value })));
  timePairs([newPair("warm-up", overData(validators))], data, TIMING, 1);
}
const WARM_UP_SCHEMAS = [{ type: "object" }, { type: "object", properties: { a: { type: "string" } } }, { type: "object", required: ["a"] }, { type: "object", additionalProperties: false }, { type: "string" }, { enum: [1, "a"] }];
for (const name of RUNTIME_ENGINES) {
  const compiler = freshCompiler(name);
  warmCallSites(WARM_UP_SCHEMAS.map((schema) => compiler.compile(structuredClone(schema))));
}
// generate --tools's validators the same way: their wrapper (precompiled) warmed on validators of their own, so that the
// timed ones, like each engine's, see none of the throwaway data.
{
  const warmUp = await compileToolSchemas(WARM_UP_SCHEMAS, "bench-validators-warm-up");
  warmCallSites(WARM_UP_SCHEMAS.map((schema, i) => precompiled(warmUp.validators[i], schema)!));
  removeDir(warmUp.dir);
}

const captured: ServerTools[] = [];
for (const server of SERVERS) {
  try {
    captured.push(await captureTools(server));
  } catch (error) {
    problems.push(`${server.name}: no tools captured: ${(error as Error).message}`);
    console.error(`${server.name}: no tools captured: ${(error as Error).message}`);
  }
}
console.log(captured.map((s) => `${s.version}: ${s.tools.length} tools`).join(", "));
const refused: string[] = [];
for (const { server, version, tools } of captured) {
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
  const compiled = accepted.length > 0 ? await compileToolSchemas(accepted.map((t) => t.inputSchema), `bench-validators-${server}`) : undefined;
  const cases = tools.map((tool): Case => {
    const index = accepted.indexOf(tool);
    return {
      id: `${server}/${tool.name}`,
      group: server,
      schemas: [tool.inputSchema],
      data: sampleArguments(tool.inputSchema).map((datum) => ({ schema: 0, ...datum })),
      ...(compiled && index >= 0 && { compiled: [compiled.validators[index]!] }),
      copies: !JSON.stringify(tool.inputSchema).includes('"$id"'),
    };
  });
  table(version, cases);
  if (compiled) compiledDirs.push(compiled.dir);
}

// -- the suite -----------------------------------------------------------------------------------

const suite: Case[] = [];
for (const draft of ["draft2020-12", "draft7"] as const)
  for (const file of suiteFiles(draft).filter((file) => wanted(`suite/${draft}/${file.replace(/\.json$/, "")}`))) {
    const groups = suiteGroups(draft, file)
      .map((g) => ({ ...g, schema: asToolSchema(draft, g.schema) }))
      .filter((g) =>
        RUNTIME_ENGINES.every((kind) => {
          try {
            const validate = freshCompiler(kind).compile(g.schema);
            return g.tests.every((t) => (validate(t.data) === undefined) === t.valid);
          } catch {
            return false;
          }
        }),
      );
    if (groups.length > 0)
      suite.push({
        id: `suite/${draft}/${file.replace(/\.json$/, "")}`,
        group: "suite",
        schemas: groups.map((g) => g.schema),
        data: groups.flatMap((g, schema) => g.tests.map((t) => ({ schema, label: `${g.description}: ${t.description}`, value: t.data, valid: t.valid }))),
        copies: false,
      });
  }
table("The JSON Schema Test Suite (required files, the groups every engine compiles and gets right)", suite);

for (const { measured } of tables) for (const m of measured) compiling(m);
for (const { title, measured } of tables) {
  console.log(`\n${title} (valid, invalid: how many data, ajv's ops/s on them all)`);
  printTable([HEADER, ...measured.map(row)]);
}
for (const dir of compiledDirs) removeDir(dir);

// -- summary -------------------------------------------------------------------------------------

const groups = [...new Set(ratios.map((r) => r.group))];
console.log(`\nWorst and median engine/ajv (validation: ops per CPU second; compile: compiles per CPU second; above 1: faster than ajv)`);
const summary = [["schemas", "measure", "code worst", "code median", "closures worst", "closures median", "compiled worst", "compiled median"]];
for (const group of [...groups, "servers"])
  for (const kind of ["valid", "invalid", "compile"] as const) {
    const of = (engine: Name) => ratios.filter((r) => (group === "servers" ? r.group !== "suite" : r.group === group) && r.kind === kind && r.engine === engine);
    const stats = (engine: Name) => {
      const xs = of(engine);
      if (xs.length === 0) return ["-", "-"];
      const worst = xs.reduce((a, b) => (b.ratio < a.ratio ? b : a));
      return [`${worst.ratio.toFixed(2)}x (${worst.id.slice(worst.id.indexOf("/") + 1)})`, `${median(xs.map((x) => x.ratio)).toFixed(2)}x`];
    };
    summary.push([group === "servers" ? "all servers" : group, kind, ...stats("code"), ...stats("closures"), ...stats("compiled")]);
  }
printTable(summary);

console.log(`\nClosures / @cfworker/json-schema (the validator SDK v2 uses where code generation is refused; above 1: closures faster)`);
const peerSummary = [["schemas", "measure", "worst", "median", "below 1x"]];
for (const group of [...groups, "servers"])
  for (const kind of ["valid", "invalid"] as const) {
    const xs = peerRatios.filter((r) => (group === "servers" ? r.group !== "suite" : r.group === group) && r.kind === kind);
    if (xs.length === 0) continue;
    const worst = xs.reduce((a, b) => (b.ratio < a.ratio ? b : a));
    peerSummary.push([group === "servers" ? "all servers" : group, kind, `${worst.ratio.toFixed(2)}x (${worst.id.slice(worst.id.indexOf("/") + 1)})`, `${median(xs.map((x) => x.ratio)).toFixed(2)}x`, `${xs.filter((x) => x.ratio < 1).length} of ${xs.length}`]);
  }
printTable(peerSummary);

for (const kind of ["valid", "invalid", "compile"] as const) {
  const goal = kind === "compile" ? [["code", 1], ["closures", 1]] : [["code", 1], ["closures", 0.5]];
  for (const [engine, bar] of goal as [Name, number][]) {
    const misses = ratios.filter((r) => r.kind === kind && r.engine === engine && r.ratio < bar).map((r) => `${r.id} ${r.ratio.toFixed(2)}x`);
    console.log(`${kind}, ${engine} >= ${bar}x ajv: ${misses.length === 0 ? "every schema" : `${misses.length} of ${ratios.filter((r) => r.kind === kind && r.engine === engine).length} below: ${misses.join(", ")}`}`);
  }
}
console.log(`\ngenerate --tools refuses ${refused.length} of ${captured.reduce((n, s) => n + s.tools.length, 0)} servers' schemas${refused.map((r) => `\n  ${r}`).join("")}`);
for (const note of notes) console.log(`note: ${note}`);
console.log(problems.length === 0 ? "no disagreement, every server captured" : `\n${problems.length} PROBLEMS (disagreements or servers not captured):\n  ${problems.join("\n  ")}`);
process.exitCode = problems.length > 0 ? 1 : 0;
