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
  return pinned;
}

/** Pinned revisions, oldest first (revisions are ISO dates, so they sort as strings). */
export function pinnedRevisions(pinned: PinnedSpec): string[] {
  return Object.keys(pinned.revisions).sort();
}

export function specPath(root: string, revision: string, file = SCHEMA_FILE): string {
  return join(root, "spec", revision, file);
}
