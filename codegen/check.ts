import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { sha256 } from "./spec/files.js";
import { pinnedRevisions, readPinned, specPath } from "./spec/pinned.js";
import { GENERATED_DIR, generate, generatorHash, readStamp, SHARED_FILES, STAMP_FILE } from "./generate.js";

/** One file of generated/ that a fresh generation would not leave as it is. */
export interface StaleFile {
  /** Relative to generated/, with `/`. */
  readonly path: string;
  /** missing: generate would write it; differs: generate would rewrite it; extra: generate never writes it. */
  readonly problem: "missing" | "differs" | "extra";
}

export interface CheckReport {
  /** Pinned revisions, all of which were regenerated in memory. */
  readonly revisions: readonly string[];
  /** Pinned extensions, by identifier, regenerated in memory too. */
  readonly extensions: readonly string[];
  /** Files compared with the fresh generation. */
  readonly checked: number;
  readonly stale: readonly StaleFile[];
  /** Why, per revision (or "generated/" for the shared files): best read of the stamp, for the message only. */
  readonly causes: ReadonlyMap<string, string>;
  readonly milliseconds: number;
}

/** Files in generated/ that belong to no revision's output and are still expected. */
const KEPT = new Set(["README.md", STAMP_FILE]);

/**
 * `mcp-codegen check`: regenerates every pinned revision in memory (no stamp is trusted, nothing
 * is written) and compares the result with generated/ byte for byte. Missing, differing and
 * stray files are all stale. The stamp is read afterwards only to explain the verdict: whether
 * the schema or the generator moved since the last `generate`.
 */
export async function check(root: string): Promise<CheckReport> {
  const started = performance.now();
  const outDir = join(root, GENERATED_DIR);
  const report = await generate({ root, force: true, dryRun: true });

  const expected = new Set<string>(SHARED_FILES);
  const differing = new Set<string>([...report.shared]);
  for (const summary of report.revisions) {
    for (const path of [...summary.written, ...summary.unchanged]) expected.add(path);
    for (const path of summary.written) differing.add(path);
  }
  const stale: StaleFile[] = [];
  for (const path of [...differing].sort()) stale.push({ path, problem: existsSync(join(outDir, path)) ? "differs" : "missing" });
  for (const path of listFiles(outDir)) if (!expected.has(path) && !KEPT.has(path)) stale.push({ path, problem: "extra" });

  return {
    revisions: report.revisions.filter((r) => r.extension === undefined).map((r) => r.revision),
    extensions: report.revisions.flatMap((r) => (r.extension === undefined ? [] : [r.extension])),
    checked: expected.size,
    stale,
    causes: causes(root, stale),
    milliseconds: performance.now() - started,
  };
}

/** What the stamp says moved since the last `generate`, for each revision with a stale file. */
function causes(root: string, stale: readonly StaleFile[]): Map<string, string> {
  const stamp = readStamp(join(root, GENERATED_DIR));
  const pinnedSpec = readPinned(root);
  const extensionFolders = Object.values(pinnedSpec.extensions ?? {}).map((e) => e.folder);
  const pinned = [...pinnedRevisions(pinnedSpec), ...extensionFolders];
  const generatorMoved = stamp !== undefined && stamp.generator !== generatorHash();
  const out = new Map<string, string>();
  for (const { path, problem } of stale) {
    const folder = extensionFolders.find((f) => path.startsWith(`${f}/`));
    const revision = folder ?? (path.includes("/") ? path.slice(0, path.indexOf("/")) : "generated/");
    if (out.has(revision)) continue;
    const entry = stamp?.revisions[revision];
    let cause: string;
    if (revision === "generated/") cause = generatorMoved ? "the generator changed since the last generate" : "the registry or a support file is out of date";
    else if (!pinned.includes(revision)) cause = `${revision} is not pinned in spec/pinned.json (left over from an earlier generate, or added by hand)`;
    else if (entry === undefined || (problem === "missing" && !existsSync(join(root, GENERATED_DIR, revision))))
      cause = `${revision} is pinned but was never generated`;
    else if (entry.schema !== undefined && entry.schema !== sha256(readFileSync(specPath(root, revision))))
      cause = `spec/${revision}/schema.json changed since the last generate`;
    else if (generatorMoved) cause = "the generator (codegen/, json-schema-to-typescript or prettier) changed since the last generate";
    else cause = "generated files were edited, deleted or added by hand";
    out.set(revision, cause);
  }
  return out;
}

function listFiles(dir: string, prefix = ""): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...listFiles(path, `${prefix}${name}/`));
    else out.push(`${prefix}${name}`);
  }
  return out;
}
