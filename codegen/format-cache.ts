/**
 * A content-addressed cache of formatted text. Formatting is a pure function of the formatter's
 * version, its options and the text, and it is more than half of a generate's CPU (prettier on
 * types.ts, protocol.ts, ...): regenerating or checking an unchanged schema finds every file here.
 *
 * Where: $MCP_CODEGEN_CACHE, else node_modules/.cache/mcp-codegen/format in the nearest folder
 * above the generator that has a node_modules (the project that installed it, or this checkout),
 * the place other build tools keep theirs. MCP_CODEGEN_CACHE=off turns it off.
 *
 * An entry holds the sha256 of its text on its first line, and is used only when that matches:
 * a damaged entry is formatted again and replaced, never written into generated code. Writes are
 * atomic (a concurrent generate sees a whole entry or none), and a cache that cannot be written
 * is skipped: it only ever saves time.
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { sha256, writeAtomically } from "./spec/files.js";

/** Past this many entries, the oldest are removed down to half of it (a few regenerations' worth). */
const MAX_ENTRIES = 400;

export type Formatter = (text: string) => Promise<string>;

/** The cache folder, or undefined when it is off or no node_modules is found. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const chosen = env.MCP_CODEGEN_CACHE;
  if (chosen === "off") return undefined;
  if (chosen) return chosen;
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    if (existsSync(join(dir, "node_modules"))) return join(dir, "node_modules", ".cache", "mcp-codegen", "format");
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * `format`, through the cache in `dir` under a key made of `identity` (the formatter's version and
 * options) and the text. Without `dir`, `format` itself.
 */
export function cachedFormatter(format: Formatter, identity: string, dir: string | undefined): Formatter {
  if (dir === undefined) return format;
  let pruned = false;
  return async (text) => {
    const entry = join(dir, sha256(`${identity}\n${text}`));
    const found = read(entry);
    if (found !== undefined) return found;
    const formatted = await format(text);
    try {
      writeAtomically(entry, `${sha256(formatted)}\n${formatted}`);
      if (!pruned) {
        pruned = true;
        prune(dir);
      }
    } catch {
      // Read-only or full: the cache is an optimisation, the formatted text is the result.
    }
    return formatted;
  };
}

function read(entry: string): string | undefined {
  let stored: string;
  try {
    stored = readFileSync(entry, "utf8");
  } catch {
    return undefined;
  }
  const newline = stored.indexOf("\n");
  const text = stored.slice(newline + 1);
  return newline === 64 && stored.slice(0, 64) === sha256(text) ? text : undefined;
}

/** Keeps the folder bounded: past MAX_ENTRIES, removes the least recently written. */
function prune(dir: string): void {
  const names = readdirSync(dir).filter((name) => /^[0-9a-f]{64}$/.test(name));
  if (names.length <= MAX_ENTRIES) return;
  const byAge = names.map((name) => ({ name, mtime: statSync(join(dir, name)).mtimeMs })).sort((a, b) => a.mtime - b.mtime);
  for (const { name } of byAge.slice(0, names.length - MAX_ENTRIES / 2)) rmSync(join(dir, name), { force: true });
}
