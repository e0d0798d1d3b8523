/**
 * Shared by the codegen and spec tests: where the checkout is, the pinned schemas read as plain
 * JSON (the independent oracle: never through codegen/load), throwaway project roots, and the
 * CLI run as a child process.
 */
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The checkout under test. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The generated revisions, oldest first, read from the registry: a revision added with `spec add` needs no test edit. */
export { REVISIONS, type Revision } from "../../generated/registry.js";
import { REVISIONS } from "../../generated/registry.js";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export function schemaPath(revision: string, root = ROOT): string {
  return join(root, "spec", revision, "schema.json");
}

/** The pinned schema as text, as `make spec` left it in spec/<rev>/. */
export function schemaText(revision: string): string {
  const path = schemaPath(revision);
  if (!existsSync(path)) throw new Error(`${path} is missing: run \`make spec\` before the tests`);
  return readFileSync(path, "utf8");
}

/** The pinned schema read with JSON.parse alone, and its definitions by name in source order. */
export function rawSchema(revision: string): { document: JsonObject; definitionsKey: string; definitions: Record<string, JsonObject> } {
  const document = JSON.parse(schemaText(revision)) as JsonObject;
  const definitionsKey = "$defs" in document ? "$defs" : "definitions";
  return { document, definitionsKey, definitions: document[definitionsKey] as Record<string, JsonObject> };
}

/**
 * Calls `visit` on every schema node of a definition with its JSON Pointer, following only
 * the keywords that hold schemas, so a property called `type` or `enum` is never read as one.
 */
export function walkSchema(node: Json, pointer: string, visit: (node: JsonObject, pointer: string) => void): void {
  if (typeof node !== "object" || node === null || Array.isArray(node)) return;
  visit(node, pointer);
  const at = (...tokens: (string | number)[]) =>
    tokens.reduce<string>((p, t) => `${p}/${String(t).replace(/~/g, "~0").replace(/\//g, "~1")}`, pointer);
  const properties = node.properties;
  if (typeof properties === "object" && properties !== null && !Array.isArray(properties))
    for (const [name, schema] of Object.entries(properties)) walkSchema(schema, at("properties", name), visit);
  for (const keyword of ["additionalProperties", "items"]) if (keyword in node) walkSchema(node[keyword]!, at(keyword), visit);
  for (const keyword of ["anyOf", "allOf"]) {
    const list = node[keyword];
    if (Array.isArray(list)) list.forEach((schema, i) => walkSchema(schema, at(keyword, i), visit));
  }
}

export function tempDir(label: string): string {
  return mkdtempSync(join(tmpdir(), `mcp-codegen-${label}-`));
}

export function removeDir(dir: string | undefined): void {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
}

/**
 * A throwaway project root for `generate --root`: a copy of spec/pinned.json and of the given
 * revisions' schema.json (generation reads nothing else), and of the pinned extensions' schemas
 * when their core revision is among them; pinned.json keeps only the extensions it can generate.
 */
export function tempProjectRoot(label: string, revisions: readonly string[] = REVISIONS): string {
  const root = tempDir(label);
  mkdirSync(join(root, "spec"), { recursive: true });
  const pinned = JSON.parse(readFileSync(join(ROOT, "spec", "pinned.json"), "utf8")) as { extensions?: Record<string, { folder: string; core: string }> };
  const extensions = Object.entries(pinned.extensions ?? {}).filter(([, entry]) => revisions.includes(entry.core));
  if (extensions.length === Object.keys(pinned.extensions ?? {}).length) copyFileSync(join(ROOT, "spec", "pinned.json"), join(root, "spec", "pinned.json"));
  else writeFileSync(join(root, "spec", "pinned.json"), `${JSON.stringify({ ...pinned, extensions: Object.fromEntries(extensions) }, null, 2)}\n`);
  for (const folder of [...revisions, ...extensions.map(([, entry]) => entry.folder)]) {
    mkdirSync(dirname(schemaPath(folder, root)), { recursive: true });
    copyFileSync(schemaPath(folder), schemaPath(folder, root));
  }
  return root;
}

/** Every file below `dir` (dotfiles included), as paths relative to it with `/`, sorted. */
export function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (folder: string, prefix: string) => {
    for (const name of readdirSync(folder).sort()) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path, `${prefix}${name}/`);
      else out.push(`${prefix}${name}`);
    }
  };
  walk(dir, "");
  return out;
}

/** Every file below `dir` with its bytes and its mtime in nanoseconds. */
export function snapshot(dir: string): Map<string, { bytes: Buffer; mtimeNs: bigint }> {
  return new Map(
    listFiles(dir).map((path) => [
      path,
      { bytes: readFileSync(join(dir, path)), mtimeNs: statSync(join(dir, path), { bigint: true }).mtimeNs },
    ]),
  );
}

export interface CliRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** What the compiled CLI is built from: a source newer than dist/codegen/cli.js makes it stale. */
const CLI_SOURCES = ["codegen", "runtime", "spec", "generated"];

/**
 * The CLI's argv after the node binary: the compiled dist/codegen/cli.js (what the package's bin
 * runs) when `make build` is newer than every source it is built from, else codegen/cli.ts through
 * tsx. Same code either way; the compiled one starts without tsx, about half a second of CPU less
 * per run, and the tests run the CLI a few hundred times.
 */
export const CLI_ARGV: readonly string[] = (() => {
  const compiled = join(ROOT, "dist", "codegen", "cli.js");
  // tsx by its URL, so that the CLI runs from source in any folder (a user's project has no tsx).
  const fromSource = ["--import", import.meta.resolve("tsx"), join(ROOT, "codegen", "cli.ts")];
  if (!existsSync(compiled)) return fromSource;
  const built = statSync(compiled).mtimeMs;
  const newer = (dir: string): boolean =>
    readdirSync(dir, { withFileTypes: true }).some((entry) =>
      entry.isDirectory() ? entry.name !== "node_modules" && newer(join(dir, entry.name)) : entry.name.endsWith(".ts") && statSync(join(dir, entry.name)).mtimeMs > built,
    );
  return CLI_SOURCES.some((dir) => existsSync(join(ROOT, dir)) && newer(join(ROOT, dir))) ? fromSource : [compiled];
})();

/** Runs the CLI (CLI_ARGV) in the checkout, without $MCP_SPEC_MIRROR unless `env` sets it. */
export function runCli(args: readonly string[], env: Record<string, string> = {}): CliRun {
  const { MCP_SPEC_MIRROR: _ignored, ...inherited } = process.env;
  const run = spawnSync(process.execPath, [...CLI_ARGV, ...args], {
    cwd: ROOT,
    env: { ...inherited, ...env },
    encoding: "utf8",
    timeout: 120_000,
  });
  if (run.error) throw run.error;
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** runCli without blocking, so that independent runs go side by side (and a server in this process keeps answering). */
export function runCliAsync(args: readonly string[], { cwd = ROOT, cli }: { cwd?: string; cli?: string } = {}): Promise<CliRun> {
  const { MCP_SPEC_MIRROR: _ignored, ...env } = process.env;
  return runChild(process.execPath, [...(cli === undefined ? CLI_ARGV : ["--import", "tsx", cli]), ...args], { cwd, env, timeoutMs: 120_000 });
}

/** A child process to its end, or killed after `timeoutMs`: its exit status and output. */
export function runChild(command: string, args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs: number }): Promise<CliRun> {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (text: string) => (stdout += text));
  child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  const timer = setTimeout(() => {
    stderr += `\n(killed after ${options.timeoutMs} ms)`;
    child.kill();
  }, options.timeoutMs);
  return new Promise((resolve, reject) => {
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

/** For assertion messages: what the child said. */
export function describeRun(run: CliRun): string {
  return `exit ${run.status}\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`;
}
