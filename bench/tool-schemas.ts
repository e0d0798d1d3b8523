/**
 * Tool argument validation on real tool schemas, our compiler in code mode and in closures
 * against ajv in the same process: the schemas public MCP servers list, then the JSON Schema Test
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
 * Then, for each (tool or file), in a process per server and per file of the suite (as each server
 * is a process, or a Worker's isolate, of its own; bench/support/tool-schema-timing.ts says why;
 * `--one-process`: all of them in one, the closures' worst case, as the bench ran before it had
 * a process per group):
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
import { loadToolSchemas } from "../codegen/tool-validators/load.js";
import { asToolSchema, SUITE, suiteFiles, suiteGroups } from "../test/support/json-schema-suite.js";
import { removeDir } from "../test/support/project.js";
import { compileToolSchemas } from "../test/support/tool-validators.js";
import { median, printTable } from "./support/pairs.js";
import { record } from "./support/results.js";
import { formatOps, freshCompiler } from "./support/schema-engines.js";
import { sampleArguments } from "./support/sample-arguments.js";
import { captureTools, SERVERS, type ServerTools } from "./support/server-tools.js";
import { RUNTIME_ENGINES, timeGroup, type Case, type Kind, type Name, type Outcome } from "./support/tool-schema-timing.js";

const QUICK = process.argv.includes("--quick");
const ONE_PROCESS = process.argv.includes("--one-process");
/**
 * `--only TEXT` (repeatable): time only the cases whose id contains one of them, to iterate on a
 * few.
 */
const ONLY = process.argv.flatMap((arg, i) => (process.argv[i - 1] === "--only" ? [arg] : []));
const wanted = (id: string) => ONLY.length === 0 || ONLY.some((text) => id.includes(text));

const problems: string[] = [];
const notes: string[] = [];
/** Per case and kind: engine / ajv of the median ops (higher is better for all three kinds). */
const ratios: { id: string; group: string; kind: Kind; engine: Name; ratio: number }[] = [];
/** Per case and kind: closures / @cfworker/json-schema of the median ops. */
const peerRatios: { id: string; group: string; kind: "valid" | "invalid"; ratio: number }[] = [];

console.log(`Tool argument validation on real tool schemas: our compiler in code mode and in closures, and generate --tools's output, against ajv`);
console.log(`node ${process.version}, ${QUICK ? 5 : 15} runs of ~${QUICK ? 10 : 30} ms per pair, median ops per CPU second${QUICK ? " (quick)" : ""}, ${ONE_PROCESS ? "every case in one process" : "a process per server and per file of the suite"}`);

/** The table row of a measured case. */
function row({ id, group, counts, runs }: Outcome): string[] {
  const ops = Object.fromEntries(Object.entries(runs).map(([kind, byName]) => [kind, Object.fromEntries(Object.entries(byName).map(([name, xs]) => [name, median(xs)]))])) as Partial<Record<Kind, Partial<Record<Name, number>>>>;
  const cell = (kind: Kind, name: Name) => {
    const [ours, ajv] = [ops[kind]?.[name], ops[kind]?.ajv];
    if (ours === undefined || ajv === undefined) return "-";
    ratios.push({ id, group, kind, engine: name, ratio: ours / ajv });
    return `${(ours / ajv).toFixed(2)}x`;
  };
  const count = (kind: "valid" | "invalid") => (ops[kind]?.ajv === undefined ? "-" : `${counts[kind]}: ${formatOps(ops[kind].ajv)}`);
  // Closures against their peer where code generation is refused.
  const overPeer = (kind: "valid" | "invalid") => {
    const [closures, other] = [ops[kind]?.closures, ops[kind]?.cfworker];
    if (closures === undefined || other === undefined) return "-";
    peerRatios.push({ id, group, kind, ratio: closures / other });
    return `${(closures / other).toFixed(2)}x`;
  };
  return [id.slice(id.indexOf("/") + 1), count("valid"), count("invalid"), ...(["valid", "invalid"] as const).flatMap((kind) => (["code", "closures", "compiled"] as const).map((name) => cell(kind, name))), cell("compile", "code"), cell("compile", "closures"), overPeer("valid"), overPeer("invalid")];
}

const HEADER = ["schema", "valid", "invalid", "valid code/ajv", "closures/ajv", "compiled/ajv", "invalid code/ajv", "closures/ajv", "compiled/ajv", "compile code/ajv", "closures/ajv", "closures/cfworker valid", "invalid"];
/** The tables: each a title and its cases, the cases of one group timed in a process of their own (or all in one: --one-process). */
const tables: { title: string; cases: Case[] }[] = [];
const table = (title: string, cases: readonly Case[]) => tables.push({ title, cases: cases.filter((c) => wanted(c.id)) });
const compiledDirs: string[] = [];

// -- public servers ------------------------------------------------------------------------------

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
      ...(compiled && index >= 0 && { compiled: { dir: compiled.dir, tools: accepted.length, indexes: [index] } }),
      copies: !JSON.stringify(tool.inputSchema).includes('"$id"'),
    };
  });
  table(version, cases);
  if (compiled) compiledDirs.push(compiled.dir);
}

// -- the suite -----------------------------------------------------------------------------------

const suite: Case[] = [];
// Beside the checkout (../shared), as for the tests: a bench without it would time the servers alone, and say nothing.
if (suiteFiles("draft2020-12").length === 0 || suiteFiles("draft7").length === 0) problems.push(`the JSON Schema Test Suite is not at ${SUITE} (the suite's files are not timed)`);
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

// A process per server (a table's cases, but the suite's) and per file of the suite (a case), one after the other.
const cases = tables.flatMap((t) => t.cases);
const processes = ONE_PROCESS ? [cases] : [...new Set(cases.map((c) => (c.group === "suite" ? c.id : c.group)))].map((key) => cases.filter((c) => (c.group === "suite" ? c.id : c.group) === key));
const outcomes = new Map<string, Outcome>();
for (const [k, group] of processes.entries()) {
  if (group.length === 0) continue;
  const started = Date.now();
  const result = await timeGroup(group, QUICK);
  for (const outcome of result.outcomes) {
    outcomes.set(outcome.id, outcome);
    for (const [kind, byName] of Object.entries(outcome.runs))
      for (const [name, runs] of Object.entries(byName)) record({ bench: "tool-schemas", measure: `${outcome.id}, ${kind}`, contender: name, unit: "ops/s", median: median(runs), runs });
  }
  problems.push(...result.problems);
  notes.push(...result.notes);
  console.error(`timed ${k + 1} of ${processes.length}: ${ONE_PROCESS ? "every case" : group.length === 1 ? group[0]!.id : group[0]!.group} (${Math.round((Date.now() - started) / 1000)} s)`);
}
for (const { title, cases } of tables) {
  console.log(`\n${title} (valid, invalid: how many data, ajv's ops/s on them all)`);
  printTable([HEADER, ...cases.flatMap((c) => outcomes.get(c.id) ?? []).map(row)]);
}
for (const dir of compiledDirs) removeDir(dir);

// -- summary -------------------------------------------------------------------------------------

const groupNames = [...new Set(ratios.map((r) => r.group))];
console.log(`\nWorst and median engine/ajv (validation: ops per CPU second; compile: compiles per CPU second; above 1: faster than ajv)`);
const summary = [["schemas", "measure", "code worst", "code median", "closures worst", "closures median", "compiled worst", "compiled median"]];
for (const group of [...groupNames, "servers"])
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
for (const group of [...groupNames, "servers"])
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
