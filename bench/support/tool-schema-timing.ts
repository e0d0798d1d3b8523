/**
 * bench/tool-schemas.ts's timing, in a process of its own per group of cases (a server's tools, or
 * one file of the suite), as each server runs in a process (a Worker's isolate) of its own: what
 * V8 learns of one group's validators is not spent on another's. Closures share their call
 * feedback with every schema compiled in the process (runtime/json-schema/render/closures.ts), and
 * their pool of templates is handed out once: in one process for all groups, the suite's files
 * came after 61 servers' tools, and ran on feedback and templates those had taken.
 *
 *   node --import tsx bench/support/tool-schema-timing.ts CASES.json OUT.json [--quick]
 *
 * (bench/tool-schemas.ts writes CASES.json, and reads and records OUT.json. TIMING_NODE_FLAGS: node flags for these processes, e.g.
 * `--trace-deopt` to see what V8 gives up on.)
 */
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Validator } from "@cfworker/json-schema";
import type { SchemaValidator } from "../../runtime/shared/json-schema.js";
import { removeDir, tempDir } from "../../test/support/project.js";
import { compileToolSchemas, loadCompiledTools } from "../../test/support/tool-validators.js";
import { newPair, timePairs, type Timing } from "./pairs.js";
import { cpuMs, freshCompiler, precompiled, type Engine } from "./schema-engines.js";
import { collectGarbage } from "./gc.js";

export const RUNTIME_ENGINES: readonly Engine[] = ["ajv", "code", "closures"];
export type Name = Engine | "compiled" | "cfworker";
export type Kind = "valid" | "invalid" | "compile";

/** One row of the tables: a tool's schema, or a suite file's schemas, and data for them (JSON: it goes to the group's process). */
export interface Case {
  /** "server/tool" or "suite/draft/file". */
  readonly id: string;
  /** The server, or "suite": a table each. */
  readonly group: string;
  readonly schemas: readonly Record<string, unknown>[];
  /** `valid` when known (the suite's verdict); else ajv's verdict decides. */
  readonly data: readonly { readonly schema: number; readonly label: string; readonly value: unknown; readonly valid?: boolean }[];
  /** generate --tools's validators, where it compiled them: the directory it wrote, and the tool (t<index>) of each schema. */
  readonly compiled?: { readonly dir: string; readonly tools: number; readonly indexes: readonly number[] };
  /** Compile copies of the schemas in one compiler (not for schemas with $id, which ajv keeps by id). */
  readonly copies: boolean;
}

/** What a case's timing found: how many data of each verdict, and per (kind, engine) every run's ops per CPU second. */
export interface Outcome {
  readonly id: string;
  readonly group: string;
  readonly counts: Record<"valid" | "invalid", number>;
  readonly runs: Partial<Record<Kind, Partial<Record<Name, number[]>>>>;
}

/** A group's outcomes, and what went wrong (problems: bugs of ours or of ajv) or is worth a note. */
export interface GroupResult {
  readonly outcomes: Outcome[];
  readonly problems: string[];
  readonly notes: string[];
}

/** Times `cases` in a process of their own, which prints nothing on stdout (its failures on stderr). */
export async function timeGroup(cases: readonly Case[], quick: boolean): Promise<GroupResult> {
  const dir = tempDir("bench-tool-schemas-group");
  try {
    const [input, output] = [join(dir, "cases.json"), join(dir, "out.json")];
    writeFileSync(input, JSON.stringify(cases));
    const child = spawn(process.execPath, [...(process.env.TIMING_NODE_FLAGS ?? "").split(" ").filter(Boolean), "--import", "tsx", fileURLToPath(import.meta.url), input, output, ...(quick ? ["--quick"] : [])], { stdio: ["ignore", "inherit", "inherit"] });
    const code = await new Promise<number | null>((resolve, reject) => child.on("error", reject).on("exit", resolve));
    if (code !== 0) return { outcomes: [], problems: [`${cases.length === 1 ? cases[0]!.id : cases[0]?.group}: the timing process exited with ${code} (its stderr is above)`], notes: [] };
    return JSON.parse(readFileSync(output, "utf8")) as GroupResult;
  } finally {
    removeDir(dir);
  }
}

// -- the group's process --------------------------------------------------------------------------

async function main(input: string, output: string, quick: boolean): Promise<void> {
  const RUNS = quick ? 5 : 15;
  const RUN_MS = quick ? 10 : 30;
  const TIMING: Timing = { runMs: RUN_MS, pairBudgetMs: quick ? 1_500 : 6_000, maxIterations: 50_000_000 };
  /** About this much CPU time of ajv compiling per compile run of one tool schema: copies enough for it. */
  const COMPILE_BATCH_MS = quick ? 5 : 15;
  const cases = JSON.parse(readFileSync(input, "utf8")) as Case[];
  const result: GroupResult = { outcomes: [], problems: [], notes: [] };
  /** Loud, on stderr as well as in the summary: every one is a bug of ours (or of ajv). */
  const disagree = (text: string) => {
    result.problems.push(text);
    console.error(`DISAGREEMENT: ${text}`);
  };

  /** @cfworker/json-schema's validators for the case's schemas, as SDK v2 makes them (first error only); undefined where it refuses one. */
  const cfworker = (c: Case): SchemaValidator[] | undefined => {
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
      result.notes.push(`${c.id}: @cfworker/json-schema refuses the schema: ${(error as Error).message}`);
      return undefined;
    }
  };

  /**
   * One engine's pass over the data, in code of its own (as pairs.ts gives each pair a loop of its
   * own): one closure shared by the engines shares its call feedback too, so the engine timed first
   * on the first case ran monomorphic and the others not (everything/echo showed code at 0.4x ajv).
   */
  const overData = (checks: readonly SchemaValidator[]): ((values: unknown) => boolean) =>
    new Function("checks", "return (values) => { let accepted = 0; for (const { schema, value } of values) if (checks[schema](value) === undefined) accepted++; return accepted >= 0; };")(checks);

  /** A case whose validation was timed: its engines and its data by verdict. */
  interface Measured {
    readonly c: Case;
    readonly outcome: Outcome;
    readonly engines: readonly { name: Name; checks: SchemaValidator[] }[];
  }
  const put = (m: Measured, kind: Kind, name: Name, runs: number[]) => {
    ((m.outcome.runs as Record<Kind, Partial<Record<Name, number[]>>>)[kind] ??= {})[name] = runs;
  };

  /** Times the validation of `c`'s valid and invalid data. */
  const validation = async (c: Case): Promise<Measured | undefined> => {
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
      const validators = await loadCompiledTools(c.compiled.dir, c.compiled.tools);
      const checks = c.schemas.map((schema, i) => precompiled(validators[c.compiled!.indexes[i]!]!, schema));
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
      if (!expected && (datum.label === "required properties" || datum.label === "every property")) result.notes.push(`${c.id}: the sampler's "${datum.label}" is invalid by ajv (timed as invalid data)`);
      sets[expected ? "valid" : "invalid"].push(datum);
    }
    if (peer && peerWrong > 0) result.notes.push(`${c.id}: @cfworker/json-schema gets ${peerWrong} of ${c.data.length} verdicts wrong or throws (not timed)`);
    else if (peer) engines.push({ name: "cfworker", checks: peer });

    const measured: Measured = { c, engines, outcome: { id: c.id, group: c.group, counts: { valid: sets.valid.length, invalid: sets.invalid.length }, runs: {} } };
    for (const kind of ["valid", "invalid"] as const) {
      const data = sets[kind];
      if (data.length === 0) continue;
      const pairs = engines.map(({ name, checks }) => newPair(name, overData(checks)));
      timePairs(pairs, data, TIMING, RUNS);
      for (const pair of pairs) put(measured, kind, pair.name, [...pair.opsPerSecond]);
    }
    return measured;
  };

  /** Times compiling `m`'s schemas. */
  const compiling = (m: Measured): void => {
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
  };

  /**
   * The harness (pairs.ts) and each engine's wrapper (runtime/shared/json-schema.ts) see one
   * validator until they have timed a few: the first case timed ran ajv's validator inlined whole
   * (everything/echo timed first: ajv 119M ops/s, 33M timed again later; code mode 0.44x, then
   * 1.6x). So every engine is timed first on a few throwaway schemas, as a server with several tools
   * calls them.
   */
  const warmCallSites = (validators: readonly SchemaValidator[]): void => {
    const data = validators.flatMap((_, schema) => [{}, { a: 1 }, "a", null].map((value) => ({ schema, value })));
    timePairs([newPair("warm-up", overData(validators))], data, TIMING, 1);
  };
  const WARM_UP_SCHEMAS = [{ type: "object" }, { type: "object", properties: { a: { type: "string" } } }, { type: "object", required: ["a"] }, { type: "object", additionalProperties: false }, { type: "string" }, { enum: [1, "a"] }];
  for (const name of RUNTIME_ENGINES) {
    const compiler = freshCompiler(name);
    warmCallSites(WARM_UP_SCHEMAS.map((schema) => compiler.compile(structuredClone(schema))));
  }
  // generate --tools's validators the same way: their wrapper (precompiled) warmed on validators of their own, so that the
  // timed ones, like each engine's, see none of the throwaway data.
  if (cases.some((c) => c.compiled)) {
    const warmUp = await compileToolSchemas(WARM_UP_SCHEMAS, "bench-validators-warm-up");
    warmCallSites(WARM_UP_SCHEMAS.map((schema, i) => precompiled(warmUp.validators[i]!, schema)!));
    removeDir(warmUp.dir);
  }

  // Every case's validation is timed before any compiling is: those runs compile thousands of copies, and each copy
  // would take a template of the closures' pool (render/closures.ts, handed out once, as a server compiles its tools
  // once) from the validators of the cases after it.
  const measured: Measured[] = [];
  for (const c of cases) {
    const m = await validation(c);
    if (m) measured.push(m);
  }
  for (const m of measured) compiling(m);
  result.outcomes.push(...measured.map((m) => m.outcome));
  writeFileSync(output, JSON.stringify(result));
}

/** Whether the peer accepts `value`; undefined where it throws (a `$ref` it cannot resolve): a wrong verdict. */
function peerVerdict(check: SchemaValidator, value: unknown): boolean | undefined {
  try {
    return check(value) === undefined;
  } catch {
    return undefined;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [input, output] = process.argv.slice(2);
  if (!input || !output) throw new Error("usage: tool-schema-timing.ts CASES.json OUT.json [--quick]");
  await main(input, output, process.argv.includes("--quick"));
}
