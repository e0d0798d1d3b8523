import { existsSync, readFileSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import { sha256, writeAtomically } from "../spec/files.js";
import { OUT_MANIFEST, readRecord, staleReason, type Manifest, type StaleFile } from "../out.js";
import { removeRetired, retiredCopies, type RetiredCopy } from "../retired.js";
import { parseManifest } from "../scaffold/manifest.js";
import { generatorVersion } from "../version.js";
import { formatFiles, writeFiles } from "../write.js";
import { emitToolValidators } from "./emit.js";
import { loadToolSchemas } from "./load.js";
import { readRemotes } from "./remotes.js";

export interface ToolsReport {
  readonly tools: number;
  readonly written: readonly string[];
  readonly unchanged: readonly string[];
  /** Formats that stay annotations (no validator asserts them), with their pointers. */
  readonly annotatedFormats: readonly { readonly pointer: string; readonly format: string }[];
  /** Unknown keywords in the tool schemas (typos, often), each with its pointer: ignored, as JSON Schema ignores them. */
  readonly warnings: readonly { readonly pointer: string; readonly message: string }[];
  /** With `dryRun` (`check`): the files a generation would change, and why. */
  readonly stale: readonly StaleFile[];
  /** The validation.ts an earlier version copied here (codegen/retired.ts): removed (unless `dryRun`) or kept, and why. */
  readonly retired: readonly RetiredCopy[];
}

/**
 * `mcp-codegen generate --tools <manifest> --out <dir> [--tools-remotes <file.json>]`: the tool
 * schemas of mcp.server.json, compiled into <dir>/tools.ts (importing its checks from `@mcp-codegen/runtime/support`),
 * with the remote documents their `$ref`s name read from the remotes file. A keyword the compiler does
 * not support fails with the manifest's name and the keyword's JSON Pointer; nothing is written.
 * The folder's `.mcp-codegen.json` records the manifest, the remotes file and the files, for `check`.
 */
export async function generateTools(manifestPath: string, out: string, dryRun = false, assertFormats?: boolean, remotesPath?: string): Promise<ToolsReport> {
  const file = basename(manifestPath);
  if (!existsSync(manifestPath)) throw new Error(`${manifestPath}: no such manifest (the tool validators are compiled from an mcp.server.json)`);
  const text = readFileSync(manifestPath, "utf8");
  const dir = resolve(out);
  const recordPath = join(dir, OUT_MANIFEST);
  const previous: Manifest | undefined = existsSync(recordPath) ? readRecord(recordPath) : undefined;
  // `check` (no option given) keeps the format policy the folder was generated with.
  const asserting = assertFormats ?? previous?.tools?.assertFormats === true;
  // `check` likewise reads the remotes file the folder was generated with.
  const remotesFile = remotesPath !== undefined ? resolve(remotesPath) : previous?.tools?.remotes !== undefined ? resolve(dir, previous.tools.remotes.file) : undefined;
  const remotes = remotesFile !== undefined ? readRemotes(remotesFile) : undefined;
  const manifest = parseManifest(text, manifestPath, remotes?.documents);
  const loaded = loadToolSchemas(file, manifest.tools, { assertFormats: asserting, ...(remotes ? { remotes: remotes.documents } : {}) });
  const tools = { path: "tools.ts", content: emitToolValidators(file, manifest.tools, loaded) };
  const formatted = await formatFiles([tools]);
  const retired = retiredCopies(dir, [previous?.files ?? {}, previous?.tools?.files ?? {}], formatted.map((f) => f.path));
  const { written, unchanged } = writeFiles(dir, formatted, dryRun);
  if (!dryRun) removeRetired(dir, retired);
  // A kept copy keeps its recorded sha256: unedited, a later run still knows it for the generator's.
  const kept = retired.flatMap((c) => (c.remove || previous?.tools?.files[c.path] === undefined ? [] : [[c.path, previous.tools.files[c.path]!]]));
  const record = {
    manifest: relative(dir, resolve(manifestPath)).split("\\").join("/"),
    sha256: sha256(text),
    generator: generatorVersion(),
    files: Object.fromEntries([...formatted.map((f) => [f.path, sha256(f.content)]), ...kept]),
    ...(asserting ? { assertFormats: true as const } : {}),
    ...(remotesFile && remotes ? { remotes: { file: relative(dir, remotesFile).split("\\").join("/"), sha256: remotes.sha256 } } : {}),
  };
  if (!dryRun) {
    const next = `${JSON.stringify({ ...(previous ?? { revisions: {} }), tools: record }, null, 2)}\n`;
    if (!existsSync(recordPath) || readFileSync(recordPath, "utf8") !== next) writeAtomically(recordPath, next);
  }
  const changed = [
    ...(previous?.tools && previous.tools.sha256 !== record.sha256 ? [relative(process.cwd(), resolve(manifestPath)).split("\\").join("/")] : []),
    ...(previous?.tools?.remotes && remotesFile && previous.tools.remotes.sha256 !== remotes?.sha256 ? [relative(process.cwd(), remotesFile).split("\\").join("/")] : []),
  ];
  const stale = dryRun
    ? [...written.map((path) => ({ path, why: staleReason(dir, path, previous?.tools?.files[path], changed, previous?.tools?.generator) })), ...retired.map(({ path, why }) => ({ path, why }))]
    : [];
  return { tools: manifest.tools.length, written: dryRun ? [] : written, unchanged, annotatedFormats: loaded.annotatedFormats, warnings: loaded.warnings, stale, retired };
}
