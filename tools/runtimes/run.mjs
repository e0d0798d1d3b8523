#!/usr/bin/env node
// Real runtimes: the conformance fixture (examples/conformance-server) served through fetchHandler
// on Bun, Deno and workerd (binaries from npm, installed here), each checked by the official
// conformance server suites through tools/conformance/run.mjs --url. Then Bun and Deno run a
// stdio server that the SDK client (v1) talks to.
//
// Suites per runtime: 0.2.0-alpha --requirements 2026-07-28, 2025-11-25 and skills, and 0.1.16
// active, on all three.
// Prints totals; exits non-zero when a runtime fails a suite it is expected to pass, a suite
// records nothing, times out or exits non-zero unexplained, or an EXPECTED entry passes.
//
//   node tools/runtimes/run.mjs [--runtime bun|deno|workerd ...]
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net, { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { children, killChildren, runChild } from "../conformance/support.mjs";
import { readRuntimeRun } from "../conformance/verdict.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const bin = (name) => join(here, "node_modules", ".bin", name);
const START_TIMEOUT_MS = 60_000;
const SUITES_TIMEOUT_MS = 900_000;
const STDIO_TIMEOUT_MS = 60_000;
const ALL_SUITES = ["0.2.0-alpha 2026-07-28", "0.2.0-alpha 2025-11-25", "0.1.16 active", "0.2.0-alpha skills extension"];

const RUNTIMES = {
  bun: { start: (port) => [bin("bun"), ["servers/bun.ts"], { PORT: String(port) }], suites: ALL_SUITES, stdio: [bin("bun"), ["servers/stdio.ts"]] },
  deno: {
    start: (port) => [bin("deno"), ["run", "--allow-net", "--allow-read", "--allow-env", "--allow-sys", "--sloppy-imports", "servers/deno.ts"], { PORT: String(port) }],
    suites: ALL_SUITES,
    stdio: [bin("deno"), ["run", "--allow-read", "--allow-env", "--allow-sys", "--sloppy-imports", "servers/stdio.ts"]],
  },
  workerd: { start: startWorkerd, suites: ALL_SUITES },
};

/**
 * Checks a runtime cannot pass, by runtime, each with why (e.g. `workerd: [{ suite: "0.2.0-alpha
 * 2025-11-25", problem: "server-sse-polling / server-sse-disconnect-resume" }]`). Anything else that
 * fails fails the run, and so does an entry here that no longer fails (delete it).
 */
/** @type {Record<string, { suite: string, problem: string }[]>} */
const EXPECTED = {};

const { values } = parseArgs({ options: { runtime: { type: "string", multiple: true } } });
const selected = values.runtime ?? Object.keys(RUNTIMES);
const scratch = mkdtempSync(join(tmpdir(), "mcp-runtimes-"));
process.once("SIGINT", () => stop(130));
process.once("SIGTERM", () => stop(143));

const totals = [];
let failed = 0;
for (const name of selected) {
  const runtime = RUNTIMES[name];
  if (!runtime) {
    console.error(`runtimes: unknown runtime ${name}`);
    stop(2);
  }
  const port = await freePort();
  const [command, args, env] = await runtime.start(port);
  const server = spawnChild(command, args, env);
  try {
    const url = `http://127.0.0.1:${port}/mcp`;
    await waitForPort(port, server);
    const run = await collect(process.execPath, [join(root, "tools", "conformance", "run.mjs"), "--url", url, ...runtime.suites.flatMap((s) => ["--suite", s])], SUITES_TIMEOUT_MS);
    // Each suite's verdict line, its problem lines ("  FAILURE scenario / check: why") and reason
    // lines; a suite whose only problems are EXPECTED for this runtime is "ok" in the totals.
    const { suites, failures } = readRuntimeRun(run, runtime.suites, EXPECTED[name] ?? []);
    for (const suite of suites) {
      const allExpected = suite.verdict === "FAIL" && suite.problems.length > 0 && suite.reasons.length === 0 && suite.problems.every((p) => p.expected);
      totals.push(`${name}: ${allExpected ? "ok  " : suite.verdict} ${suite.name}: ${suite.summary}${allExpected ? "  (only expected problems)" : ""}`);
      for (const p of suite.problems) totals.push(`${name}: ${p.line}${p.expected ? "  (expected: see EXPECTED in tools/runtimes/run.mjs)" : ""}`);
    }
    for (const failure of failures) totals.push(`${name}: FAIL ${failure}`);
    if (failures.length > 0) {
      failed++;
      console.log(run.output.slice(-6000));
    }
  } finally {
    server.kill("SIGKILL");
  }
  if (runtime.stdio) {
    const result = await collect(process.execPath, [join(here, "stdio-client.mjs"), runtime.stdio[0], ...runtime.stdio[1]], STDIO_TIMEOUT_MS);
    totals.push(`${name}: ${result.code === 0 ? "ok  " : "FAIL"} stdio: ${result.output.trim().split("\n").at(-1)}`);
    if (result.code !== 0) failed++;
  }
}
console.log("runtimes: totals");
for (const line of totals) console.log(`  ${line}`);
stop(failed === 0 ? 0 : 1);

/** workerd: the fixture bundled into one ES module (esbuild, from tsx), and a config naming the port. */
async function startWorkerd(port) {
  const bundle = join(scratch, "worker.js");
  const built = await collect(join(root, "node_modules", ".bin", "esbuild"), [join(here, "servers", "worker.ts"), "--bundle", "--format=esm", "--platform=neutral", "--main-fields=module,main", "--conditions=workerd,worker,browser", "--log-level=warning", `--outfile=${bundle}`], 120_000);
  if (built.code !== 0) throw new Error(`esbuild failed:\n${built.output}`);
  const config = join(scratch, "config.capnp");
  writeFileSync(
    config,
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .fixture) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const fixture :Workerd.Worker = (
  modules = [ (name = "worker", esModule = embed "worker.js") ],
  compatibilityDate = "2026-11-01",
  compatibilityFlags = ["nodejs_compat"],
);
`,
  );
  return [bin("workerd"), ["serve", config, "--experimental"], {}];
}

function spawnChild(command, args, env = {}) {
  const child = spawn(command, args, { cwd: here, stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, ...env, NO_COLOR: "1" } });
  children.add(child);
  child.stderrText = "";
  child.stderr.setEncoding("utf8").on("data", (chunk) => {
    if (child.stderrText.length < 200_000) child.stderrText += chunk;
  });
  child.once("exit", () => children.delete(child));
  return child;
}

/** The conformance runners' runChild, from here, saying in the output when it had to kill. */
async function collect(command, args, timeoutMs) {
  const run = await runChild(command, args, { cwd: here, timeoutMs });
  return { code: run.code, timedOut: run.timedOut, output: run.timedOut ? `${run.output}\n(killed after ${timeoutMs / 1000} s)` : run.output };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** Resolves once the port accepts a connection; rejects when the server exits or time runs out. */
async function waitForPort(port, server) {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (let attempt = 0; attempt < 1200; attempt++) {
    if (server.exitCode !== null) throw new Error(`the server exited (${server.exitCode}):\n${server.stderrText}`);
    if (Date.now() > deadline) break;
    const open = await new Promise((resolve) => {
      const socket = net.connect(port, "127.0.0.1");
      socket.once("connect", () => (socket.destroy(), resolve(true)));
      socket.once("error", () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nothing listened on ${port} within ${START_TIMEOUT_MS / 1000} s:\n${server.stderrText}`);
}

function stop(code) {
  killChildren();
  rmSync(scratch, { recursive: true, force: true });
  process.exit(code);
}
