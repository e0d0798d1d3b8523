// What the conformance runners share (run.mjs, run-client.mjs, auth/run.mjs): running the suite's
// CLI bounded in time with its output kept, reading expected-failures.yml, and finding a harness.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/**
 * The command that runs a client harness (a .ts file under tools/conformance): plain node on the
 * JavaScript `make build` compiled into dist/ (tsconfig.build.json), since the suite starts it once
 * per scenario and tsx would add about half a second of CPU to each start. Refuses a missing or
 * stale build, naming the command that fixes it. The suite splits the command on spaces.
 */
export function harnessCommand(source) {
  const compiled = join(root, "dist", relative(root, source)).replace(/\.ts$/, ".js");
  if (!existsSync(compiled) || statSync(compiled).mtimeMs < statSync(source).mtimeMs)
    throw new Error(`${relative(root, compiled)} is missing or older than ${relative(root, source)}: run \`make build\``);
  if (/\s/.test(process.execPath + compiled)) throw new Error("a path of the harness command contains a space");
  return `${process.execPath} ${compiled}`;
}

/** Children still running: a runner kills them when it stops, whatever the reason. */
export const children = new Set();

/** Runs `command`, keeping the last half megabyte of its output; SIGKILL after `timeoutMs`. */
export function runChild(command, args, { cwd, timeoutMs }) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1" } });
    children.add(child);
    let output = "";
    const take = (chunk) => {
      output += chunk;
      if (output.length > 1_000_000) output = output.slice(-500_000);
    };
    child.stdout.setEncoding("utf8").on("data", take);
    child.stderr.setEncoding("utf8").on("data", take);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, timeoutMs);
    child.once("exit", (code) => {
      clearTimeout(timer);
      children.delete(child);
      resolve({ code, output, timedOut });
    });
  });
}

/** Kills every child still running. */
export function killChildren() {
  for (const child of children) child.kill("SIGKILL");
}

/**
 * expected-failures.yml: a list of { suite, scenario, check, reason } entries, in a YAML subset
 * read here without a YAML library: "- suite: ...", then "  key: value" lines. Throws on an entry
 * that lacks one of the four.
 */
export function readExpectedFailures(file) {
  if (!existsSync(file)) return [];
  const entries = [];
  for (const raw of readFileSync(file, "utf8").split("\n")) {
    const line = raw.replace(/\s+#.*$/, "");
    if (/^\s*(#|$)/.test(line)) continue;
    const item = /^-\s+(\w+):\s*(.*)$/.exec(line);
    const field = /^\s+(\w+):\s*(.*)$/.exec(line);
    if (item) entries.push({ [item[1]]: unquote(item[2]) });
    else if (field && entries.length > 0) entries[entries.length - 1][field[1]] = unquote(field[2]);
  }
  for (const entry of entries)
    if (!entry.suite || !entry.scenario || !entry.check || !entry.reason) throw new Error(`${file}: each entry needs suite, scenario, check and reason: ${JSON.stringify(entry)}`);
  return entries;
}

function unquote(value) {
  const v = value.trim();
  return /^(["']).*\1$/.test(v) ? v.slice(1, -1) : v;
}

export function indent(text) {
  return text
    .split("\n")
    .map((l) => `    ${l}`)
    .join("\n");
}
