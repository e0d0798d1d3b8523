/**
 * The official JSON Schema Test Suite (draft2020-12 and draft7, every required file; optional/
 * reported only) against the two ways a tool's arguments are checked:
 * - build time: validators compiled by `generate --tools` (one module per suite file);
 * - run time: the runtime's SchemaCompiler (our compiler, in code mode, the default on Node, and
 *   to closures, what Workers run), with the suite's remotes/ supplied as the user's map of remote
 *   documents; and, reported only, its opt-in "ajv" engine.
 *
 * A group passes when every test of it gets the suite's verdict (and, for compiled validators,
 * `check` finds issues exactly when `is` says false, and `describe` gives the text describeIssues
 * makes of them); it fails on any wrong verdict; it is refused
 * when the compiler will not compile its schema. Wrong verdicts fail this test; so does a refusal
 * at run time outside the allowed case (a reference to a document neither the schema nor the
 * remotes contain: the dialects' meta-schemas). optional/format files run with formats asserted.
 * Build time gets the same remotes (`--tools-remotes`), and the same rule for refusals; each must
 * also name the JSON Pointer of what was refused (in the tool's schema, or in the remote document).
 * And the tools.ts of all the groups build time accepts type-checks under strict tsc. The per-file table is
 * printed.
 */
import { expect } from "chai";
import { GenerationError } from "../../../codegen/errors.js";
import { loadToolSchemas } from "../../../codegen/tool-validators/load.js";
import { compileSchema } from "../../../runtime/json-schema/compile.js";
import { describeIssues, SchemaCompiler, type CompiledSchema, type SchemaEngine } from "../../../runtime/shared/json-schema.js";
import { silentLogger } from "../../../runtime/util/logger.js";
import { asToolSchema, refersOutside, suiteFiles, suiteGroups, suiteRemotes, suiteTable, type SuiteDraft, type SuiteGroup } from "../../support/json-schema-suite.js";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { emitToolValidators } from "../../../codegen/tool-validators/emit.js";
import { describeRun, removeDir, ROOT, tempDir } from "../../support/project.js";
import { STRICT_FLAGS, tscAsync } from "../../support/tsc.js";
import { compileToolSchemas } from "../../support/tool-validators.js";

interface Counts {
  passed: number;
  failed: number;
  refused: number;
}

interface Outcome {
  readonly counts: Counts;
  /** Wrong verdicts and refusals that are not allowed, each with its group. */
  readonly problems: string[];
}

/** The run-time engines: the default (code mode on Node; checked), closures (Workers; checked), then ajv (opt-in; reported only). */
const RUNTIME_ENGINES: readonly SchemaEngine[] = ["auto", "interpreter", "ajv"];

function outcome(): Outcome {
  return { counts: { passed: 0, failed: 0, refused: 0 }, problems: [] };
}

/** Runs a group's tests through `is` (and a compiled validator's `check` and `describe`, when given); returns the first wrong verdict. */
function judge(group: SuiteGroup, is: (value: unknown) => boolean, compiled?: CompiledSchema): string | undefined {
  for (const test of group.tests) {
    let verdict: boolean;
    try {
      verdict = is(test.data);
    } catch (error) {
      return `"${test.description}": threw ${(error as Error).message.split("\n")[0]}`;
    }
    if (verdict !== test.valid) return `"${test.description}": ${verdict ? "valid" : "invalid"}, the suite says ${test.valid ? "valid" : "invalid"}`;
    if (!compiled) continue;
    const issues = compiled.check(test.data);
    if ((issues.length === 0) !== verdict) return `"${test.description}": is says ${verdict} but check disagrees`;
    const text = compiled.describe?.(test.data);
    if (text !== describeIssues(issues)) return `"${test.description}": describe gives ${JSON.stringify(text)}, check's issues ${JSON.stringify(describeIssues(issues))}`;
  }
  return undefined;
}

async function buildTime(draft: SuiteDraft, file: string, dirs: string[], assertFormats: boolean): Promise<Outcome> {
  const result = outcome();
  const accepted: { group: SuiteGroup; schema: Record<string, unknown> }[] = [];
  for (const group of suiteGroups(draft, file)) {
    const schema = asToolSchema(draft, group.schema);
    try {
      loadToolSchemas("mcp.server.json", [{ name: "t", inputSchema: schema }], { assertFormats, remotes: suiteRemotes() });
      accepted.push({ group, schema });
    } catch (error) {
      if (!(error instanceof GenerationError)) throw error;
      result.counts.refused++;
      // A refusal is allowed only for a reference to a document the schema does not contain and the remotes lack (the dialects' meta-schemas), as at run time.
      if (!refersOutside(group.schema)) result.problems.push(`${file} "${group.description}": refused: ${error.message}`);
      // A refusal is precise: it names the manifest and a JSON Pointer into the tool's schema.
      if (!/mcp\.server\.json (#\/tools(\/0\/inputSchema)?|https?:\/\/\S+#)/.test(error.message)) result.problems.push(`${file} "${group.description}": refusal without a pointer: ${error.message}`);
    }
  }
  if (accepted.length === 0) return result;
  const compiled = await compileToolSchemas(accepted.map((a) => a.schema), `suite-${draft}-${file.replace(/\W/g, "_")}`, { assertFormats, remotes: suiteRemotes() });
  dirs.push(compiled.dir);
  accepted.forEach(({ group }, i) => {
    const validator = compiled.validators[i]!;
    const wrong = judge(group, (v) => validator.is(v), validator);
    if (wrong === undefined) result.counts.passed++;
    else {
      result.counts.failed++;
      result.problems.push(`${file} "${group.description}": ${wrong}`);
    }
  });
  return result;
}

function runTime(compiler: SchemaCompiler, draft: SuiteDraft, file: string): Outcome {
  const result = outcome();
  for (const group of suiteGroups(draft, file)) {
    const schema = asToolSchema(draft, group.schema);
    let validate: ((value: unknown) => string | undefined) | undefined;
    try {
      validate = compiler.compile(schema);
    } catch (error) {
      result.counts.refused++;
      if (!refersOutside(group.schema)) result.problems.push(`${file} "${group.description}": refused: ${(error as Error).message}`);
      continue;
    }
    const wrong = judge(group, (v) => validate!(v) === undefined);
    if (wrong === undefined) result.counts.passed++;
    else {
      result.counts.failed++;
      result.problems.push(`${file} "${group.description}": ${wrong}`);
    }
  }
  return result;
}

describe("the JSON Schema Test Suite against generate --tools and the runtime's schema compiler", function () {
  this.timeout(600_000);
  const dirs: string[] = [];
  after(() => dirs.forEach((d) => removeDir(d)));

  it("code mode and closures say the same about every datum of every file: the same issues, word for word", async () => {
    const remotes = suiteRemotes();
    const [code, closures] = (["auto", "interpreter"] as const).map((engine) => new SchemaCompiler(silentLogger, engine, { remotes }));
    await code!.load();
    await closures!.load();
    let compared = 0;
    let invalid = 0;
    let groups = 0;
    let generated = 0;
    const differences: string[] = [];
    for (const draft of ["draft2020-12", "draft7"] as const)
      for (const file of [...suiteFiles(draft), ...suiteFiles(draft, true)])
        for (const group of suiteGroups(draft, file)) {
          const schema = asToolSchema(draft, group.schema);
          let validators: ((value: unknown) => string | undefined)[];
          try {
            validators = [code!.compile(schema), closures!.compile(schema)];
          } catch {
            continue;
          }
          groups++;
          // Not vacuous: code mode does run (all but documents reaching a $dynamicRef, or without the validation vocabulary).
          if (compileSchema(schema, { dialect: draft === "draft7" ? "draft-07" : "2020-12", remotes, mode: "code" }).mode === "code") generated++;
          for (const test of group.tests) {
            const [byCode, byClosures] = validators.map((validate) => validate(test.data));
            compared++;
            if (byClosures !== undefined) invalid++;
            if (byCode !== byClosures) differences.push(`${draft}/${file} "${group.description}" "${test.description}": code ${byCode ?? "valid"}, closures ${byClosures ?? "valid"}`);
          }
        }
    expect(differences, differences.join("\n")).to.deep.equal([]);
    expect(compared, "data compared").to.be.greaterThan(2000);
    expect(generated / groups, "share of groups in code mode").to.be.greaterThan(0.9);
    expect(invalid / compared, "share of invalid data").to.be.within(0.2, 0.8);
  });

  it("the tools.ts of every group build time accepts, in one manifest, type-checks under the strict flags a project may use", async () => {
    const remotes = suiteRemotes();
    const entries: { name: string; inputSchema: Record<string, unknown> }[] = [];
    for (const draft of ["draft2020-12", "draft7"] as const)
      for (const file of suiteFiles(draft))
        for (const group of suiteGroups(draft, file)) {
          const entry = { name: `t${entries.length}`, inputSchema: asToolSchema(draft, group.schema) };
          try {
            loadToolSchemas("mcp.server.json", [entry], { remotes });
            entries.push(entry);
          } catch (error) {
            if (!(error instanceof GenerationError)) throw error;
          }
        }
    expect(entries.length, "groups compiled").to.be.greaterThan(600);
    const dir = tempDir("suite-tsc");
    dirs.push(dir);
    writeFileSync(join(dir, "tools.ts"), emitToolValidators("mcp.server.json", entries, loadToolSchemas("mcp.server.json", entries, { remotes })));
    // tools.ts imports @mcp-codegen/runtime/support: here a package whose ./support is this checkout's runtime/support/.
    const runtime = join(dir, "node_modules", "@mcp-codegen", "runtime");
    mkdirSync(runtime, { recursive: true });
    symlinkSync(join(ROOT, "runtime", "support"), join(runtime, "support"), "dir");
    writeFileSync(join(runtime, "package.json"), JSON.stringify({ name: "@mcp-codegen/runtime", type: "module", exports: { "./support": "./support/index.ts" } }));
    writeFileSync(join(dir, "package.json"), '{ "type": "module" }');
    const run = await tscAsync([...STRICT_FLAGS, "tools.ts"], dir, 300_000);
    expect(run.status, describeRun(run)).to.equal(0);
  });

  for (const draft of ["draft2020-12", "draft7"] as const) {
    it(`${draft}: every required file, no wrong verdict; the table per file (optional/ reported)`, async () => {
      const remotes = suiteRemotes();
      const compilers = RUNTIME_ENGINES.map((engine) => new SchemaCompiler(silentLogger, engine, { remotes }));
      const asserting = RUNTIME_ENGINES.map((engine) => new SchemaCompiler(silentLogger, engine, { remotes, formats: "assert" }));
      for (const compiler of [...compilers, ...asserting]) await compiler.load();
      expect(compilers.map((c) => c.generatesCode), "code mode, closures, ajv").to.deep.equal([true, false, true]);
      const columns = ["build time", "run time (code)", "run time (closures)", "ajv (opt-in)"];
      const required: { file: string; counts: Counts[] }[] = [];
      const problems: string[] = [];
      const files = suiteFiles(draft);
      expect(files.length, "required files of the suite").to.be.greaterThan(30);
      for (const file of files) {
        const outcomes = [await buildTime(draft, file, dirs, false), ...compilers.map((c) => runTime(c, draft, file))];
        required.push({ file, counts: outcomes.map((o) => o.counts) });
        // ajv's column is reported, not required.
        outcomes.slice(0, 3).forEach((o, i) => problems.push(...o.problems.map((p) => `[${columns[i]}] ${p}`)));
      }
      const optional: { file: string; counts: Counts[] }[] = [];
      for (const file of suiteFiles(draft, true)) {
        const formats = file.startsWith("optional/format/");
        const outcomes = [await buildTime(draft, file, dirs, formats), ...(formats ? asserting : compilers).map((c) => runTime(c, draft, file))];
        optional.push({ file, counts: outcomes.map((o) => o.counts) });
      }
      console.log(`\n${draft}, required:\n${suiteTable(required, columns)}\n\n${draft}, optional (reported only):\n${suiteTable(optional, columns)}\n`);
      expect(problems, problems.join("\n")).to.deep.equal([]);
    });
  }
});
