import { readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * spec/pinned.json: every revision the project generates, with the upstream folder it comes
 * from and the sha256 of each file taken from there (schema.json, schema.ts, and examples where
 * upstream ships them).
 */
export interface PinnedSpec {
  readonly source: { readonly repository: string; readonly commit: string };
  readonly revisions: Readonly<Record<string, PinnedRevision>>;
  /** Extensions (SEP-2133) by identifier, each pinned from its own repository. */
  readonly extensions?: Readonly<Record<string, PinnedExtension>>;
}

/** An extension's pinned files: its schema (and schema.ts, specification, licence) from its own repository. */
export interface PinnedExtension {
  /** Where its files live under spec/ (and in a mirror), and its module under generated/: e.g. "extensions/tasks". */
  readonly folder: string;
  /** The pinned core revision its schema builds on. */
  readonly core: string;
  /** Relative path -> upstream URL; upstream lays an extension's files out in folders of its own. */
  readonly urls: Readonly<Record<string, string>>;
  /** Relative path -> sha256 (hex). */
  readonly files: Readonly<Record<string, string>>;
}

export interface PinnedRevision {
  /** Upstream folder URL, ending in `/`; each file's URL is this plus its relative path. */
  readonly url: string;
  /** Relative path -> sha256 (hex). */
  readonly files: Readonly<Record<string, string>>;
}

export const PINNED_FILE = join("spec", "pinned.json");
export const SCHEMA_FILE = "schema.json";
/** Upstream's TypeScript source of schema.json: the oracle the generated types are proven against. */
export const SCHEMA_TS_FILE = "schema.ts";

export function readPinned(root: string): PinnedSpec {
  const path = join(root, PINNED_FILE);
  let pinned: PinnedSpec;
  try {
    pinned = JSON.parse(readFileSync(path, "utf8")) as PinnedSpec;
  } catch (error) {
    throw new Error(`cannot read ${path}: ${(error as Error).message}`);
  }
  if (typeof pinned?.revisions !== "object" || pinned.revisions === null)
    throw new Error(`${path} has no "revisions" object`);
  for (const [revision, entry] of Object.entries(pinned.revisions))
    if (typeof entry?.files?.[SCHEMA_FILE] !== "string")
      throw new Error(`${path}: revision ${revision} pins no ${SCHEMA_FILE}`);
  for (const [id, entry] of Object.entries(pinned.extensions ?? {})) {
    if (typeof entry?.files?.[SCHEMA_FILE] !== "string") throw new Error(`${path}: extension ${id} pins no ${SCHEMA_FILE}`);
    if (!Object.hasOwn(pinned.revisions, entry.core)) throw new Error(`${path}: extension ${id} builds on ${entry.core}, which is not pinned`);
    for (const file of Object.keys(entry.files))
      if (typeof entry.urls?.[file] !== "string") throw new Error(`${path}: extension ${id} pins ${file} without its upstream URL`);
  }
  return pinned;
}

/** Every pinned folder under spec/: the revisions, then the extensions, each file with its upstream URL and sha256. */
export function pinnedFolders(pinned: PinnedSpec): { folder: string; files: { file: string; url: string; sha256: string }[] }[] {
  const revisions = pinnedRevisions(pinned).map((revision) => {
    const entry = pinned.revisions[revision]!;
    return { folder: revision, files: Object.entries(entry.files).map(([file, sha256]) => ({ file, url: new URL(file, entry.url).href, sha256 })) };
  });
  const extensions = Object.values(pinned.extensions ?? {}).map((entry) => ({
    folder: entry.folder,
    files: Object.entries(entry.files).map(([file, sha256]) => ({ file, url: entry.urls[file]!, sha256 })),
  }));
  return [...revisions, ...extensions];
}

/** Pinned revisions, oldest first (revisions are ISO dates, so they sort as strings). */
export function pinnedRevisions(pinned: PinnedSpec): string[] {
  return Object.keys(pinned.revisions).sort();
}

export function specPath(root: string, revision: string, file = SCHEMA_FILE): string {
  return join(root, "spec", revision, file);
}
