import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { sha256, writeAtomically } from "./spec/files.js";
import { pinnedRevisions, readPinned, specPath } from "./spec/pinned.js";
import { unusedPatches, type SchemaPatch } from "./load/patches.js";
import type { Era } from "./model/protocol.js";
import { featuresOf, type RevisionFeatures } from "./model/features.js";
import { RETIRED_FILES } from "./retired.js";

export interface GenerateOptions {
  readonly root: string;
  /** Default: every pinned revision. */
  readonly revisions?: readonly string[];
  /** Ignore the stamp and regenerate everything requested. */
  readonly force?: boolean;
  /** Compute everything, write nothing: report what would change (`mcp-codegen check`). */
  readonly dryRun?: boolean;
}

export interface RevisionSummary {
  /** The revision; for an extension, its folder (extensions/tasks). */
  readonly revision: string;
  /** An extension's identifier (io.modelcontextprotocol/tasks); absent for a revision. */
  readonly extension?: string;
  readonly era: Era;
  readonly definitions: number;
  readonly methods: Readonly<Record<MethodGroup, number>>;
  /** The asserted schema patches this revision carried, by name (codegen/load/patches.ts). */
  readonly patches: readonly string[];
  /** Nothing to do: the stamp matched and every output file was intact. */
  readonly fresh: boolean;
  readonly written: readonly string[];
  readonly unchanged: readonly string[];
}

export type MethodGroup = "clientRequests" | "serverRequests" | "clientNotifications" | "serverNotifications" | "inputRequests";

export interface GenerateReport {
  readonly revisions: readonly RevisionSummary[];
  /** Shared files (generated/index.ts ...) written or, with dryRun, stale. */
  readonly shared: readonly string[];
  /** Patches that fit none of the pinned revisions (reported only when every pinned revision is generated). */
  readonly unusedPatches: readonly SchemaPatch[];
  readonly milliseconds: number;
}

export interface Stamp {
  /** {@link generatorHash} of the run that wrote the stamp. */
  readonly generator: string;
  readonly revisions: Record<string, StampEntry>;
}
type StampEntry = Omit<RevisionSummary, "fresh" | "written" | "unchanged"> & {
  /** A revision's (not an extension's): what the registry's FEATURES lists. */
  readonly features?: RevisionFeatures;
  /** Hash of the generator, the revision and its schema: equal means nothing to do. */
  readonly input: string;
  /** sha256 of the schema text generated from (lets `check` say which input moved). */
  readonly schema?: string;
  readonly files: Record<string, string>;
};

export const GENERATED_DIR = "generated";
export const STAMP_FILE = ".stamp.json";
const CODEGEN_DIR = dirname(fileURLToPath(import.meta.url));
/**
 * The generator's TypeScript sources. From dist/ (the bin, compiled from them by `make`) they
 * are two levels up; they are what the stamp hashes.
 */
const SOURCE_DIR = ((sources) => (CODEGEN_DIR.split(/[\\/]/).includes("dist") && existsSync(sources) ? sources : CODEGEN_DIR))(
  join(CODEGEN_DIR, "..", "..", "codegen"),
);
/** Files directly in generated/ that the generator writes: the registry. (Generated code imports its support from runtime/support/.) */
export const SHARED_FILES: readonly string[] = ["index.ts", "registry.ts"];

/**
 * Regenerates generated/ from spec/. Every requested revision is emitted in memory first; a
 * GenerationError anywhere leaves generated/ untouched. A revision whose inputs (its schema
 * and the generator itself) match the stamp, and whose files are intact, is skipped without
 * loading the heavy emitters at all: that is what keeps a no-op run cheap.
 */
export async function generate(options: GenerateOptions): Promise<GenerateReport> {
  const started = performance.now();
  const { root } = options;
  const outDir = join(root, GENERATED_DIR);
  const pinned = readPinned(root);
  const all = pinnedRevisions(pinned);
  const requested = options.revisions?.length ? [...new Set(options.revisions)].sort() : all;
  for (const revision of requested)
    if (!all.includes(revision)) throw new Error(`revision ${revision} is not pinned in spec/pinned.json (pinned: ${all.join(", ")})`);

  const generator = generatorHash();
  const stamp = readStamp(outDir);
  const work: { revision: string; text: string; input: string; schema: string; extension?: { id: string; core: string } }[] = [];
  const fresh: RevisionSummary[] = [];
  const schemaOf = (revision: string) => readSchema(root, revision, pinned.revisions[revision]!.files["schema.json"]!);
  // Extensions are generated with every revision (not for a --revision subset), each after the core revision it builds on.
  const extensions = options.revisions?.length ? [] : Object.entries(pinned.extensions ?? {});
  const targets: { revision: string; text: string; salt: string; extension?: { id: string; core: string } }[] = [
    ...requested.map((revision) => ({ revision, text: schemaOf(revision), salt: "" })),
    ...extensions.map(([id, entry]) => ({
      revision: entry.folder,
      text: readSchema(root, entry.folder, entry.files["schema.json"]!),
      extension: { id, core: entry.core },
      salt: `\n${id}\n${sha256(schemaOf(entry.core))}`,
    })),
  ];
  for (const { revision, text, extension, salt } of targets) {
    const schema = sha256(text);
    const input = sha256(`${generator}\n${revision}\n${schema}${salt}`);
    const previous = stamp?.revisions[revision];
    if (!options.force && previous?.input === input && intact(outDir, previous.files)) {
      const { input: _input, schema: _schema, files, ...summary } = previous;
      fresh.push({ ...summary, fresh: true, written: [], unchanged: Object.keys(files) });
    } else work.push({ revision, text, input, schema, ...(extension ? { extension } : {}) });
  }

  const entries: Record<string, StampEntry> = {};
  const folders = [...all, ...Object.values(pinned.extensions ?? {}).map((e) => e.folder)];
  for (const [revision, entry] of Object.entries(stamp?.revisions ?? {}))
    if (folders.includes(revision) && existsSync(join(outDir, revision))) entries[revision] = entry;

  const summaries = [...fresh];
  const shared: string[] = [];
  const sharedMissing = SHARED_FILES.some((path) => !existsSync(join(outDir, path)));
  if (work.length > 0 || sharedMissing) {
    // Loaded only when there is something to emit (json-schema-to-typescript and prettier are heavy).
    const { emitExtension, emitRevision } = await import("./pipeline.js");
    const { emitRegistry } = await import("./emit/registry.js");
    const { formatFiles, writeFiles } = await import("./write.js");

    const emitted = await Promise.all(
      work.map(async (w) => ({
        ...w,
        ...(await (w.extension
          ? emitExtension({
              id: w.extension.id,
              folder: w.revision,
              file: `spec/${w.revision}/schema.json`,
              text: w.text,
              core: { revision: w.extension.core, text: schemaOf(w.extension.core) },
            })
          : emitRevision(w.revision, w.text))),
      })),
    );
    for (const { revision, protocol, input, schema, patches, extension } of emitted)
      entries[revision] = {
        revision,
        ...(extension ? { extension: extension.id } : {}),
        era: protocol.era,
        ...(extension ? {} : { features: featuresOf(protocol) }),
        definitions: protocol.definitions.size,
        methods: countMethods(protocol),
        patches,
        input,
        schema,
        files: {},
      };
    const registry = emitRegistry(
      Object.values(entries).flatMap(({ revision, era, features, extension }) => {
        if (extension !== undefined) return [];
        // Every stamp entry of this generator has them (the stamp's input hashes the generator).
        if (!features) throw new Error(`generated/${STAMP_FILE} has no features for ${revision}: run generate --force`);
        return [{ revision, era, features }];
      }),
      Object.values(entries).flatMap(({ revision, extension }) => (extension === undefined ? [] : [{ id: extension, folder: revision }])),
    );
    const formatted = await formatFiles([...emitted.flatMap((e) => e.files), ...registry]);
    const result = writeFiles(outDir, formatted, options.dryRun);
    // The support files copied here before generated code imported runtime/support/ (this checkout's own folder: removed outright).
    if (!options.dryRun) for (const path of Object.keys(RETIRED_FILES)) rmSync(join(outDir, path), { force: true });

    for (const { revision } of emitted) {
      const mine = (path: string) => path.startsWith(`${revision}/`);
      const entry = entries[revision]!;
      for (const [path, content] of result.contents) if (mine(path)) entry.files[path] = sha256(content);
      const { input: _input, schema: _schema, files: _files, ...summary } = entry;
      summaries.push({ ...summary, fresh: false, written: result.written.filter(mine), unchanged: result.unchanged.filter(mine) });
    }
    shared.push(...result.written.filter((path) => !path.includes("/")));
    if (!options.dryRun) writeAtomically(join(outDir, STAMP_FILE), `${JSON.stringify({ generator, revisions: entries }, null, 2)}\n`);
  }
  summaries.sort((a, b) => a.revision.localeCompare(b.revision));
  const everyRevision = all.every((revision) => entries[revision] !== undefined || summaries.some((s) => s.revision === revision));
  const carried = [...Object.values(entries).map((e) => e.patches ?? []), ...summaries.map((s) => s.patches ?? [])];
  return { revisions: summaries, shared, unusedPatches: everyRevision ? unusedPatches(carried) : [], milliseconds: performance.now() - started };
}

/** A pinned revision's schema text, verified against its pinned sha256. */
export function readPinnedSchema(root: string, revision: string): string {
  const pinned = readPinned(root);
  const entry = pinned.revisions[revision];
  if (!entry) throw new Error(`revision ${revision} is not pinned in spec/pinned.json (pinned: ${pinnedRevisions(pinned).join(", ")})`);
  return readSchema(root, revision, entry.files["schema.json"]!);
}

function readSchema(root: string, revision: string, pinnedHash: string): string {
  const path = specPath(root, revision);
  if (!existsSync(path)) throw new Error(`${path} is missing: run \`make spec\` (or \`mcp-codegen spec fetch\`) first`);
  const text = readFileSync(path, "utf8");
  const actual = sha256(text);
  if (actual !== pinnedHash)
    throw new Error(`${path} does not match spec/pinned.json:\n  pinned   ${pinnedHash}\n  actual   ${actual}\nRun \`make spec\` to restore it.`);
  return text;
}

function countMethods(protocol: import("./model/protocol.js").Protocol): Record<MethodGroup, number> {
  const by = (list: readonly { senders: readonly string[] }[], side: string) => list.filter((m) => m.senders.includes(side)).length;
  return {
    clientRequests: by(protocol.requests, "client"),
    serverRequests: by(protocol.requests, "server"),
    clientNotifications: by(protocol.notifications, "client"),
    serverNotifications: by(protocol.notifications, "server"),
    inputRequests: protocol.inputRequests.length,
  };
}

export function readStamp(outDir: string): Stamp | undefined {
  try {
    return JSON.parse(readFileSync(join(outDir, STAMP_FILE), "utf8")) as Stamp;
  } catch {
    return undefined;
  }
}

function intact(outDir: string, files: Record<string, string>): boolean {
  return Object.entries(files).every(([path, hash]) => {
    const target = join(outDir, path);
    return existsSync(target) && sha256(readFileSync(target)) === hash;
  });
}

/** The runtime's folders whose code shapes the generator's output: the JSON Schema compiler that prints the validators, and the support they import. */
export const RUNTIME_SHAPING = ["json-schema", "support"];

/**
 * A hash of the generator's code, of the runtime code that prints its validators, and of the
 * libraries that shape its output. The TypeScript sources are hashed when present, so that
 * running from source (tsx) and from dist/ (the bin, compiled from those same sources by `make`)
 * agree on the stamp.
 */
export function generatorHash(): string {
  const dir = join(SOURCE_DIR, "..");
  const parts: string[] = [];
  const walk = (folder: string) => {
    if (!existsSync(folder)) return;
    for (const name of readdirSync(folder).sort()) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(ts|js)$/.test(name) && !name.endsWith(".d.ts")) parts.push(`${path.slice(dir.length)}\n${readFileSync(path, "utf8")}`);
    }
  };
  walk(SOURCE_DIR);
  for (const folder of RUNTIME_SHAPING) walk(join(dir, "runtime", folder));
  for (const library of ["json-schema-to-typescript", "prettier"]) parts.push(`${library}@${libraryVersion(library)}`);
  return sha256(parts.join("\n"));
}

function libraryVersion(name: string): string {
  const url = import.meta.resolve(`${name}/package.json`);
  return (JSON.parse(readFileSync(fileURLToPath(url), "utf8")) as { version: string }).version;
}
