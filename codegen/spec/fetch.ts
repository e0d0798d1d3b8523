import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { sha256, writeAtomically } from "./files.js";
import { pinnedFolders, readPinned, specPath, type PinnedSpec } from "./pinned.js";

/** Where `make spec` looks for a file, in order; the first that has it wins. */
export interface SpecSources {
  /** `$MCP_SPEC_MIRROR`: a folder laid out as <rev>/<file>. */
  readonly mirror?: string;
  /** `../shared/mcp-spec` beside the checkout, when it exists. */
  readonly shared?: string;
  /** Set to false to forbid downloads (tests). */
  readonly network?: boolean;
}

export interface FetchReport {
  /** Pinned files verified. */
  readonly checked: number;
  /** Files copied or downloaded into spec/, with where each came from. */
  readonly copied: readonly { readonly revision: string; readonly file: string; readonly from: string }[];
}

export function defaultSources(root: string, env = process.env): SpecSources {
  const shared = resolve(root, "..", "shared", "mcp-spec");
  return { mirror: env.MCP_SPEC_MIRROR || undefined, shared: existsSync(shared) ? shared : undefined, network: true };
}

/**
 * Fills spec/<rev>/ with every pinned file and verifies each against its sha256. A file already
 * in place with the right hash is left alone, so a second run reads and writes nothing new.
 */
export async function fetchSpec(root: string, sources = defaultSources(root), pinned: PinnedSpec = readPinned(root)): Promise<FetchReport> {
  let checked = 0;
  const copied: FetchReport["copied"][number][] = [];
  for (const { folder: revision, files } of pinnedFolders(pinned)) {
    for (const { file, url, sha256: expected } of files) {
      checked++;
      const target = specPath(root, revision, file);
      if (existsSync(target) && sha256(readFileSync(target)) === expected) continue;
      const { data, from } = await obtain(revision, file, url, sources);
      const actual = sha256(data);
      if (actual !== expected)
        throw new Error(
          `sha256 mismatch for ${revision}/${file} (from ${from}):\n  pinned   ${expected}\n  actual   ${actual}\n` +
            `The file differs from the one pinned in spec/pinned.json; refusing to use it.`,
        );
      writeAtomically(target, data);
      copied.push({ revision, file, from });
    }
  }
  return { checked, copied };
}

/** What a failed download says next: where a local copy would have been found (offline machines, CI). */
const NO_LOCAL_COPY =
  "; no local copy either: set MCP_SPEC_MIRROR to a folder laid out as <revision>/<file>, or put the schemas in ../shared/mcp-spec beside the checkout";

async function obtain(revision: string, file: string, url: string, sources: SpecSources): Promise<{ data: Buffer; from: string }> {
  for (const folder of [sources.mirror, sources.shared]) {
    if (folder === undefined) continue;
    const candidate = join(folder, revision, file);
    if (existsSync(candidate)) return { data: readFileSync(candidate), from: candidate };
  }
  if (sources.network === false) throw new Error(`${revision}/${file}: not in any local source, and downloads are off`);
  const response = await fetch(url, { signal: AbortSignal.timeout(30_000) }).catch((error: Error) => {
    throw new Error(`${revision}/${file}: download from ${url} failed: ${error.message}${NO_LOCAL_COPY}`);
  });
  if (!response.ok) throw new Error(`${revision}/${file}: download from ${url} failed: HTTP ${response.status}${NO_LOCAL_COPY}`);
  return { data: Buffer.from(await response.arrayBuffer()), from: url };
}
