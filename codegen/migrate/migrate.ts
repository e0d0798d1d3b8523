import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, extname, join, relative, resolve } from "node:path";
import { Project, ScriptKind, ts, type SourceFile } from "ts-morph";
import { unifiedDiff } from "./diff.js";
import { isSdkModule, rewriteFile, type ManualStep } from "./rewrite.js";

export interface MigrateOptions {
  readonly dir: string;
  /** Rewrite nothing: the report and a diff of what would change. */
  readonly dryRun?: boolean;
  /** Rewrite files git holds uncommitted changes in, or a folder git does not track. */
  readonly force?: boolean;
}

export interface MigratedFile {
  /** Relative to the folder given. */
  readonly path: string;
  readonly rewrites: number;
  readonly notes: readonly { readonly line: number; readonly message: string }[];
  readonly steps: readonly ManualStep[];
  /** The unified diff of the change (empty when the file is unchanged). */
  readonly diff: string;
  /** Why the file was left as it was, when it was not rewritten at all. */
  readonly skipped?: string;
}

export interface MigrateReport {
  /** The folder migrated (the file's, for a file): the files' paths are relative to it. */
  readonly dir: string;
  /** The files that use the SDK's server, changed or not. */
  readonly files: readonly MigratedFile[];
  /** Whether files were written (not with dryRun). */
  readonly written: boolean;
  /** About the project rather than a file: a zod too old to be a Standard Schema with JSON Schema. */
  readonly warnings: readonly string[];
}

/** What the codemod refuses to do, and why: the CLI prints it and exits 1. */
export class MigrateRefusal extends Error {}

const SOURCE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
const SKIPPED_FOLDERS = new Set(["node_modules", "dist", "build", ".git", "coverage"]);

/** The sources below `dir` (or `dir` itself, a file), skipping dependencies, build output and declarations. */
function sources(dir: string): string[] {
  if (statSync(dir).isFile()) return [dir];
  const out: string[] = [];
  const visit = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name) && !entry.name.startsWith(".")) visit(path);
      } else if (SOURCE.test(entry.name) && !/\.d\.[cm]?ts$/.test(entry.name)) out.push(path);
    }
  };
  visit(dir);
  return out.sort();
}

/**
 * Rewrites an SDK v1 or v2 server below `dir` onto @mcp-codegen/runtime: each file that imports
 * the SDK's server is rewritten in place (only when something in it changed), and what could not
 * be rewritten is marked in the code with a TODO and reported with its line and the manual step.
 */
export function migrate(options: MigrateOptions): MigrateReport {
  const dir = resolve(options.dir);
  if (!existsSync(dir)) throw new MigrateRefusal(`${options.dir}: no such file or folder`);
  /** The folder paths are relative to: the one given, or the given file's. */
  const base = statSync(dir).isFile() ? dirname(dir) : dir;
  const project = new Project({ useInMemoryFileSystem: false, skipAddingFilesFromTsConfig: true, compilerOptions: { allowJs: true } });
  const results: { path: string; before: string; after: string; migrated: MigratedFile }[] = [];
  for (const path of sources(dir)) {
    const before = readFileSync(path, "utf8");
    if (!before.includes("@modelcontextprotocol/")) continue;
    const name = relative(base, path);
    const file = project.createSourceFile(path, before, { overwrite: true, scriptKind: scriptKind(path) });
    // A file that does not parse is not guessed at: it stays as it is, and the report says where it breaks.
    const broken = parseProblem(file);
    if (broken !== undefined) {
      if (imports(file)) results.push({ path, before, after: before, migrated: { path: name, rewrites: 0, notes: [], steps: [], diff: "", skipped: `it does not parse: ${broken}; fix it first` } });
      continue;
    }
    const rewrite = rewriteFile(file);
    if (!rewrite) continue;
    // Nor is a rewrite written that would not parse (a bug of the codemod's): the file is left as it was.
    const check = project.createSourceFile(`${path}.migrated${extname(path)}`, rewrite.text, { overwrite: true, scriptKind: scriptKind(path) });
    const unparsable = parseProblem(check);
    project.removeSourceFile(check);
    if (unparsable !== undefined) {
      results.push({ path, before, after: before, migrated: { path: name, rewrites: 0, notes: [], steps: [], diff: "", skipped: `the rewrite would not parse (${unparsable}): left as it was; please report this file to mcp-codegen` } });
      continue;
    }
    const diff = rewrite.text === before ? "" : unifiedDiff(name, before, rewrite.text);
    results.push({ path, before, after: rewrite.text, migrated: { path: name, rewrites: rewrite.rewrites, notes: rewrite.notes, steps: rewrite.steps, diff } });
  }
  const changed = results.filter((r) => r.after !== r.before);
  if (!options.dryRun && changed.length > 0) {
    if (!options.force) refuseUncommitted(dir, changed.map((r) => r.path));
    for (const { path, after } of changed) writeFileSync(path, after);
  }
  const warnings = results.some((r) => /from ["']zod["']/.test(r.after)) ? zodWarnings(base) : [];
  return { dir: base, files: results.map((r) => r.migrated), written: !options.dryRun && changed.length > 0, warnings };
}

/**
 * The zod the project resolves, found as Node would (node_modules up from the folder): the
 * runtime takes zod 4 schemas (Standard Schema with a JSON Schema converter); zod 3's are refused
 * at registration, so say so now.
 */
function zodWarnings(dir: string): string[] {
  for (let folder = dir; ; folder = dirname(folder)) {
    const manifest = join(folder, "node_modules", "zod", "package.json");
    if (existsSync(manifest)) {
      const { version } = JSON.parse(readFileSync(manifest, "utf8")) as { version: string };
      const major = Number(version.split(".")[0]);
      return major >= 4 ? [] : [`${relative(process.cwd(), manifest)} is zod ${version}: the runtime takes zod 4 schemas (zod 3's have no JSON Schema converter): npm install zod@4`];
    }
    if (dirname(folder) === folder) return [];
  }
}

/** The first syntax error of a file, as line:column: message; undefined when it parses. */
function parseProblem(file: SourceFile): string | undefined {
  // parseDiagnostics: the parser's own errors, without a type check (the compiler API keeps them on the node).
  const [first] = (file.compilerNode as unknown as { parseDiagnostics: readonly ts.DiagnosticWithLocation[] }).parseDiagnostics;
  if (first === undefined) return undefined;
  const { line, character } = file.compilerNode.getLineAndCharacterOfPosition(first.start);
  return `${line + 1}:${character + 1}: ${ts.flattenDiagnosticMessageText(first.messageText, " ")}`;
}

/** Whether a file imports the SDK's server modules. */
function imports(file: SourceFile): boolean {
  return file.getImportDeclarations().some((d) => isSdkModule(d.getModuleSpecifierValue()));
}

function scriptKind(path: string): ScriptKind {
  if (/\.tsx$/.test(path)) return ScriptKind.TSX;
  if (/\.jsx$/.test(path)) return ScriptKind.JSX;
  if (/\.[cm]?js$/.test(path)) return ScriptKind.JS;
  return ScriptKind.TS;
}

/**
 * A rewrite in place must be undoable: every file it changes must be committed in git (so that
 * `git diff` shows the migration and `git checkout` undoes it). Otherwise refuse, naming the files.
 */
function refuseUncommitted(dir: string, paths: readonly string[]): void {
  const cwd = statSync(dir).isFile() ? resolve(dir, "..") : dir;
  const top = spawnSync("git", ["rev-parse", "--show-toplevel"], { cwd, encoding: "utf8" });
  if (top.status !== 0)
    throw new MigrateRefusal(`${dir} is not in a git repository: nothing could undo the rewrite. Commit it to git first, see the change with --dry-run, or pass --force`);
  const status = spawnSync("git", ["status", "--porcelain", "--untracked-files=all", "--", ...paths], { cwd, encoding: "utf8" });
  if (status.status !== 0) throw new MigrateRefusal(`git status failed in ${cwd}: ${status.stderr.trim()}`);
  const dirty = status.stdout.split("\n").filter(Boolean);
  if (dirty.length > 0)
    throw new MigrateRefusal(
      `the files to rewrite have uncommitted changes, which the rewrite would mix with its own:\n${dirty.map((line) => `  ${line}`).join("\n")}\n` +
        "Commit or stash them first, see the change with --dry-run, or pass --force",
    );
}
