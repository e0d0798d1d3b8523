import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";
import { sha256, writeAtomically } from "./spec/files.js";
import { readPinnedSchema, supportFiles } from "./generate.js";
import type { Era } from "./model/protocol.js";

/**
 * `mcp-codegen generate --out <dir>`: revision modules generated into a user's own project, for
 * revisions the installed runtime does not pin (a new revision, a draft) or pins differently.
 * Each folder's module.ts exports a `revisionModule` typed by the runtime package's contract
 * (`@mcp-codegen/runtime/contract`), which `createServer({ revisions })` and
 * `McpClient.connect(..., { revision })` accept. `.mcp-codegen.json` records where each revision
 * came from, so that `check --out` can regenerate it in memory and compare.
 */
export const OUT_MANIFEST = ".mcp-codegen.json";

export interface OutSource {
  /** The revision name: the protocol version string the module speaks. */
  readonly revision: string;
  /** A schema.json file; absent for a revision pinned with the generator. */
  readonly schema?: string;
}

/** An extension's schema (`generate --extension <file> --name <id>`), on a core revision generated beside it. */
export interface OutExtension {
  /** The extension identifier, e.g. "io.modelcontextprotocol/tasks". */
  readonly id: string;
  readonly schema: string;
  /** The core revision its schema builds on: pinned with the generator, or one of the folder's --schema revisions. */
  readonly core: string;
}

interface Manifest {
  readonly revisions: Record<string, { readonly schema?: string; readonly sha256: string }>;
  readonly extensions?: Record<string, { readonly schema: string; readonly core: string; readonly sha256: string }>;
}

/** Where an extension's module goes in a folder: extensions/<its name> ("io.modelcontextprotocol/tasks" -> extensions/tasks). */
export function extensionFolder(id: string): string {
  return `extensions/${id.slice(id.lastIndexOf("/") + 1)}`;
}

/** `io.modelcontextprotocol/tasks` -> `ext_io_modelcontextprotocol_tasks`: an extension's identifier as an export name of the folder's index. */
export function extensionExportName(id: string): string {
  return `ext_${id.replace(/\W/g, "_")}`;
}

export interface OutReport {
  readonly dir: string;
  readonly revisions: readonly { revision: string; era: Era; definitions: number; source: string }[];
  readonly extensions: readonly { id: string; folder: string; core: string; definitions: number; imported: number; methods: number; source: string }[];
  readonly written: readonly string[];
  readonly unchanged: readonly string[];
  /** With `dryRun` (`check --out`): files a generation would write, change or find missing. */
  readonly stale: readonly string[];
}

export interface OutOptions {
  /** The generator's own root (pinned schemas). */
  readonly root: string;
  readonly out: string;
  /** What to generate; nothing (and no extension) means everything already recorded in the folder (regeneration). */
  readonly sources: readonly OutSource[];
  readonly extensions?: readonly OutExtension[];
  readonly dryRun?: boolean;
}

export async function generateOut(options: OutOptions): Promise<OutReport> {
  const dir = resolve(options.out);
  const manifestPath = join(dir, OUT_MANIFEST);
  const previous: Manifest = existsSync(manifestPath) ? (JSON.parse(readFileSync(manifestPath, "utf8")) as Manifest) : { revisions: {} };
  const recorded = Object.entries(previous.revisions).map(([revision, entry]) => ({
    revision,
    ...(entry.schema === undefined ? {} : { schema: resolve(dir, entry.schema) }),
  }));
  const recordedExtensions = Object.entries(previous.extensions ?? {}).map(([id, entry]) => ({ id, core: entry.core, schema: resolve(dir, entry.schema) }));
  const adding = options.sources.length > 0 || (options.extensions?.length ?? 0) > 0;
  const sources = new Map<string, OutSource>();
  for (const source of adding ? [...recorded, ...options.sources] : recorded) sources.set(source.revision, source);
  const extensions = new Map<string, OutExtension>();
  for (const extension of adding ? [...recordedExtensions, ...(options.extensions ?? [])] : recordedExtensions) extensions.set(extension.id, extension);
  // An extension's module imports its core revision's: generated beside it, pinned unless the folder has its own.
  for (const { core } of extensions.values()) if (!sources.has(core)) sources.set(core, { revision: core });
  const folders = new Map<string, string>();
  for (const { id } of extensions.values()) {
    const other = folders.get(extensionFolder(id));
    if (other !== undefined) throw new Error(`the extensions ${other} and ${id} would share ${extensionFolder(id)}/ in ${dir}`);
    folders.set(extensionFolder(id), id);
  }
  if (sources.size === 0) throw new Error(`nothing to generate in ${dir}: name a --revision, a --schema with --name, or an --extension with --name`);

  const { emitExtension, emitRevision } = await import("./pipeline.js");
  const { IN_PROJECT, moduleName } = await import("./emit/module.js");
  const { formatFiles, writeFiles } = await import("./write.js");
  const manifest: { revisions: Record<string, Manifest["revisions"][string]>; extensions?: NonNullable<Manifest["extensions"]> } = { revisions: {} };
  const emitted = [];
  const revisions = [];
  const texts = new Map<string, string>();
  for (const source of [...sources.values()].sort((a, b) => a.revision.localeCompare(b.revision))) {
    const text = source.schema === undefined ? readPinnedSchema(options.root, source.revision) : readSchemaFile(source.schema);
    texts.set(source.revision, text);
    const { protocol, files } = await emitRevision(source.revision, text, IN_PROJECT);
    emitted.push(...files);
    const schema = source.schema === undefined ? undefined : portable(relative(dir, source.schema));
    manifest.revisions[source.revision] = { ...(schema === undefined ? {} : { schema }), sha256: sha256(text) };
    revisions.push({ revision: source.revision, era: protocol.era, definitions: protocol.definitions.size, source: source.schema ?? "pinned" });
  }
  const generatedExtensions = [];
  for (const extension of [...extensions.values()].sort((a, b) => a.id.localeCompare(b.id))) {
    const text = readSchemaFile(extension.schema);
    const folder = extensionFolder(extension.id);
    const { protocol, files } = await emitExtension(
      { id: extension.id, folder, file: extension.schema, text, core: { revision: extension.core, text: texts.get(extension.core)! } },
      IN_PROJECT,
    );
    emitted.push(...files);
    (manifest.extensions ??= {})[extension.id] = { schema: portable(relative(dir, extension.schema)), core: extension.core, sha256: sha256(text) };
    const imported = protocol.extension!.imported.size;
    const methods = protocol.requests.length + protocol.notifications.length;
    generatedExtensions.push({ id: extension.id, folder, core: extension.core, definitions: protocol.definitions.size - imported, imported, methods, source: extension.schema });
  }
  const index = {
    path: "index.ts",
    content: `/* Revision and extension modules generated by mcp-codegen; regenerate with \`mcp-codegen generate --out\`. Do not edit. */\n\n${[
      ...revisions.map(({ revision }) => `export { revisionModule as ${moduleName(revision)} } from "./${revision}/module.js";`),
      ...generatedExtensions.map(({ id, folder }) => `export { extensionModule as ${extensionExportName(id)} } from "./${folder}/module.js";`),
    ].join("\n")}\n`,
  };
  const formatted = await formatFiles([...emitted, ...supportFiles(), index]);
  const result = writeFiles(dir, formatted, options.dryRun);
  const manifestText = `${JSON.stringify(manifest, null, 2)}\n`;
  const manifestStale = !existsSync(manifestPath) || readFileSync(manifestPath, "utf8") !== manifestText;
  if (!options.dryRun && manifestStale) writeAtomically(manifestPath, manifestText);
  return {
    dir,
    revisions,
    extensions: generatedExtensions,
    written: options.dryRun ? [] : result.written,
    unchanged: result.unchanged,
    stale: options.dryRun ? [...result.written, ...(manifestStale ? [OUT_MANIFEST] : [])] : [],
  };
}


function readSchemaFile(path: string): string {
  if (!existsSync(path)) throw new Error(`${path}: no such schema file`);
  return readFileSync(path, "utf8");
}

function portable(path: string): string {
  return isAbsolute(path) ? path : path.split("\\").join("/");
}
