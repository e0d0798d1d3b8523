// What the conformance runners share (run.mjs, run-client.mjs, auth/run.mjs): running the suite's
// CLI bounded in time with its output kept, and reading expected-failures.yml.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";

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
