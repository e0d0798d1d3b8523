import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { GenerationError } from "../errors.js";
import { generate, type GenerateReport } from "../generate.js";
import { parseJson } from "../json.js";
import { loadSchema } from "../load/load.js";
import { buildProtocol } from "../model/build.js";
import type { Protocol } from "../model/protocol.js";
import { sha256, writeAtomically } from "./files.js";
import { PINNED_FILE, pinnedRevisions, readPinned, SCHEMA_FILE, SCHEMA_TS_FILE, specPath, type PinnedRevision, type PinnedSpec } from "./pinned.js";

export interface AddOptions {
  readonly root: string;
  /** The new revision's name: a date, YYYY-MM-DD, so that revisions sort by age. */
  readonly revision: string;
  /**
   * Where the schema comes from: an http(s) URL of schema.json or of its folder, a local
   * schema.json, or a local folder holding schema.json (or <revision>/schema.json) and
   * optionally examples/.
   */
  readonly from: string;
  /** The upstream folder to record in spec/pinned.json (default: the source's folder). */
  readonly url?: string;
  /** Pin a different schema for a revision that is already pinned. */
  readonly replace?: boolean;
  /**
   * Pin a source a fresh clone cannot download again (a local file or folder, a file: URL):
   * `spec fetch` will then find it only through $MCP_SPEC_MIRROR or ../shared/mcp-spec.
   */
  readonly local?: boolean;
}

export interface AddReport {
  readonly revision: string;
  /** Where the files were read from, and the folder URL pinned for `spec fetch`. */
  readonly from: string;
  readonly url: string;
  /** Relative path -> sha256, as pinned. */
  readonly files: Readonly<Record<string, string>>;
  readonly protocol: Protocol;
  /** The pinned revision just before this one, if any: what `diff` compares it with. */
  readonly previous?: string;
  /** Already pinned with exactly these files: nothing was written. */
  readonly unchanged: boolean;
  /** The pinned URL is not one a fresh clone can download (allowed by `local`): supply the files through a mirror. */
  readonly local: boolean;
  readonly generated: GenerateReport;
}

/** Revisions are dates: they sort as strings, and the latest is the last. */
const REVISION_NAME = /^\d{4}-\d{2}-\d{2}$/;
const EXAMPLES_DIR = "examples";

/**
 * `mcp-codegen spec add`: the version-bump flow. Reads the schema (and examples), decides with
 * the loader and the model whether it is an MCP schema at all, emits it in memory, then writes
 * spec/<rev>/, pins the files in spec/pinned.json and regenerates. Anything refused leaves spec/
 * and generated/ as they were: the checks run before the first write, and a failure of the
 * regeneration after it (another revision's schema missing...) puts the written files and
 * pinned.json back.
 */
export async function addSpec(options: AddOptions): Promise<AddReport> {
  const { root, revision } = options;
  if (!REVISION_NAME.test(revision)) throw new Error(`revision ${JSON.stringify(revision)} is not a date (YYYY-MM-DD): revisions sort by name`);
  const pinned = readPinned(root);
  const source = await obtain(options.from, revision);

  const schemaText = source.files.get(SCHEMA_FILE)!.toString("utf8");
  const protocol = decide(revision, schemaText, source.description);
  try {
    // Every emitter, in memory: a schema generation would refuse is refused before anything is written.
    const { emitRevision } = await import("../pipeline.js");
    await emitRevision(revision, schemaText);
  } catch (error) {
    if (error instanceof GenerationError) throw new Error(`${source.description}: generation failed: ${error.message}; nothing was changed`);
    throw error;
  }
  for (const [path, data] of source.files)
    if (path !== SCHEMA_FILE && path !== SCHEMA_TS_FILE) {
      try {
        parseJson(data.toString("utf8"), `${source.description}: ${path}`);
      } catch (error) {
        throw new Error(`${(error as Error).message}; nothing was changed`);
      }
    }

  const files = Object.fromEntries([...source.files].map(([path, data]) => [path, sha256(data)]));
  const url = options.url ?? source.url;
  const local = !/^https?:\/\//i.test(url);
  const entry: PinnedRevision = { url, files };
  const existing = pinned.revisions[revision];
  const all = pinnedRevisions(pinned);
  const previous = all.filter((r) => r < revision).at(-1);
  const same = (a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>) =>
    Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([path, hash]) => b[path] === hash);
  if (existing && same(existing.files, files)) {
    const generated = await generate({ root });
    return { revision, from: source.description, url: existing.url, files, protocol, previous, unchanged: true, local, generated };
  }
  if (existing && !options.replace)
    throw new Error(`${revision} is already pinned in ${PINNED_FILE} with other files; pass --replace to pin these instead (nothing was changed)`);
  // spec/<rev>/ is git-ignored: `spec fetch` must be able to get the files again in a fresh clone.
  if (local && !options.local)
    throw new Error(
      `${url} is on this machine: a fresh clone could not fetch ${revision} again. Pass --url <the upstream folder's https URL> ` +
        `to pin where it is published, or --local to pin it anyway (a clone then needs MCP_SPEC_MIRROR=<folder holding ${revision}/schema.json>); nothing was changed`,
    );

  const revisions = Object.fromEntries(
    [...Object.entries(pinned.revisions).filter(([r]) => r !== revision), [revision, entry] as const].sort(([a], [b]) => a.localeCompare(b)),
  );
  const next: PinnedSpec = { ...pinned, revisions };

  const undo = new Undo();
  try {
    for (const [path, data] of source.files) undo.write(specPath(root, revision, path), data);
    undo.write(join(root, PINNED_FILE), `${JSON.stringify(next, null, 2)}\n`);
    const generated = await generate({ root });
    return { revision, from: source.description, url: entry.url, files, protocol, previous, unchanged: false, local, generated };
  } catch (error) {
    undo.run();
    const reason = error instanceof GenerationError ? `generation failed: ${error.message}` : (error as Error).message;
    throw new Error(`${revision} from ${source.description}: ${reason}\nspec/ and generated/ were left as they were.`);
  }
}

/** Is it an MCP schema? The loader and the model decide, exactly as generation would. */
export function decide(revision: string, text: string, description: string): Protocol {
  const refuse = (reason: string): never => {
    throw new Error(`${description} is not an MCP schema: ${reason}; nothing was changed`);
  };
  try {
    parseJson(text, description);
  } catch (error) {
    throw new Error(`${(error as Error).message}; nothing was changed`);
  }
  try {
    const loaded = loadSchema(revision, text);
    if (!loaded.definitions.has("ClientRequest"))
      refuse(`#/${loaded.definitionsKey} has no ClientRequest union (the requests a client sends)`);
    return buildProtocol(loaded);
  } catch (error) {
    if (error instanceof GenerationError) return refuse(`${error.pointer}: ${error.reason}`);
    throw error;
  }
}

interface Source {
  /** For messages. */
  readonly description: string;
  /** The folder URL to pin. */
  readonly url: string;
  /** Relative path (schema.json, examples/<Definition>/<name>.json) -> bytes. */
  readonly files: ReadonlyMap<string, Buffer>;
}

export async function obtain(from: string, revision: string): Promise<Source> {
  if (/^https?:\/\//i.test(from)) {
    const url = from.endsWith(".json") ? from : from.endsWith("/") ? `${from}${SCHEMA_FILE}` : `${from}/${SCHEMA_FILE}`;
    return { description: url, url: url.slice(0, url.lastIndexOf("/") + 1), files: new Map([[SCHEMA_FILE, await download(url)]]) };
  }
  const path = resolve(from);
  if (!existsSync(path)) throw new Error(`--from ${from}: no such file or folder`);
  let folder: string;
  let schema: string;
  if (statSync(path).isDirectory()) {
    folder = existsSync(join(path, SCHEMA_FILE)) ? path : join(path, revision);
    schema = join(folder, SCHEMA_FILE);
    if (!existsSync(schema)) throw new Error(`--from ${from}: neither ${join(path, SCHEMA_FILE)} nor ${schema} exists`);
  } else {
    folder = dirname(path);
    schema = path;
  }
  const files = new Map<string, Buffer>([[SCHEMA_FILE, readFileSync(schema)]]);
  // Examples and schema.ts (the types oracle) travel with a schema.json in its own folder
  // (upstream's layout), never with a loose file.
  if (basename(schema) === SCHEMA_FILE && existsSync(join(folder, SCHEMA_TS_FILE))) files.set(SCHEMA_TS_FILE, readFileSync(join(folder, SCHEMA_TS_FILE)));
  if (basename(schema) === SCHEMA_FILE)
    for (const example of listJson(join(folder, EXAMPLES_DIR))) files.set(`${EXAMPLES_DIR}/${example}`, readFileSync(join(folder, EXAMPLES_DIR, example)));
  return { description: schema, url: `${pathToFileURL(folder).href}/`, files };
}

async function download(url: string): Promise<Buffer> {
  const response = await fetch(url, { signal: AbortSignal.timeout(30_000) }).catch((error: Error) => {
    throw new Error(`download from ${url} failed: ${error.message}; nothing was changed`);
  });
  if (!response.ok) throw new Error(`download from ${url} failed: HTTP ${response.status}; nothing was changed`);
  return Buffer.from(await response.arrayBuffer());
}

/** *.json files below `dir`, relative, with `/`, sorted. */
function listJson(dir: string, prefix = ""): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...listJson(path, `${prefix}${name}/`));
    else if (name.endsWith(".json")) out.push(`${prefix}${name}`);
  }
  return out;
}

/** Writes that can be taken back: each file's previous bytes (or absence) are kept. */
class Undo {
  private readonly previous: { path: string; data: Buffer | undefined }[] = [];
  private readonly createdDirs: string[] = [];

  write(path: string, data: string | Uint8Array): void {
    let dir = dirname(path);
    const missing: string[] = [];
    while (!existsSync(dir)) {
      missing.push(dir);
      dir = dirname(dir);
    }
    this.createdDirs.push(...missing);
    this.previous.push({ path, data: existsSync(path) ? readFileSync(path) : undefined });
    writeAtomically(path, data);
  }

  run(): void {
    for (const { path, data } of this.previous.reverse()) {
      if (data === undefined) rmSync(path, { force: true });
      else writeAtomically(path, data);
    }
    // Deepest first: folders this run created, now empty again.
    for (const dir of [...new Set(this.createdDirs)].sort((a, b) => b.length - a.length)) rmSync(dir, { recursive: true, force: true });
  }
}
