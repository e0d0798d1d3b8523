import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { format, version } from "prettier";
import { writeAtomically } from "./spec/files.js";
import { cachedFormatter, defaultCacheDir } from "./format-cache.js";
import type { EmittedFile } from "./pipeline.js";

/** Generated files are formatted the same way wherever they are generated: no user config applies. */
const PRETTIER = { parser: "typescript", printWidth: 100 } as const;

export interface WriteResult {
  readonly written: string[];
  readonly unchanged: string[];
  /** Final content by path, as written or found. */
  readonly contents: ReadonlyMap<string, string>;
}

/** Formats what is not `formatted` yet with prettier, through the format cache (format-cache.ts) in `cacheDir`. */
export async function formatFiles(files: readonly EmittedFile[], cacheDir = defaultCacheDir()): Promise<EmittedFile[]> {
  const prettier = cachedFormatter((text) => format(text, PRETTIER), `prettier@${version} ${JSON.stringify(PRETTIER)}`, cacheDir);
  return Promise.all(files.map(async (file) => (file.formatted ? file : { path: file.path, content: await prettier(file.content) })));
}

/** Writes only files whose content changed, each atomically. With `dryRun`, only reports. */
export function writeFiles(outDir: string, files: readonly EmittedFile[], dryRun = false): WriteResult {
  const result: WriteResult = { written: [], unchanged: [], contents: new Map() };
  for (const { path, content } of files) {
    const target = join(outDir, path);
    const current = existsSync(target) ? readFileSync(target, "utf8") : undefined;
    (result.contents as Map<string, string>).set(path, content);
    if (current === content) {
      result.unchanged.push(path);
      continue;
    }
    if (!dryRun) writeAtomically(target, content);
    result.written.push(path);
  }
  return result;
}
