import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { sha256 } from "./spec/files.js";

/**
 * The support files `generate` copied beside generated code before it imported
 * `@mcp-codegen/runtime/support` (0.2.0 and earlier), each by the opening of the comment every
 * copy began with. A folder written then may still hold them: `generate --out` and
 * `generate --tools` remove a copy that is exactly what the generator wrote (its header, and the
 * sha256 `.mcp-codegen.json` recorded for it), and keep any other with a warning; `check` flags both.
 */
export const RETIRED_FILES: Readonly<Record<string, string>> = {
  "validation.ts": "/*\n * Support for the generated validators of every revision",
  "method-not-found.ts": "/*\n * Support for the generated handler interfaces of every revision",
};

const REPLACEMENT = "@mcp-codegen/runtime/support";

/** A retired copy found in a folder: `remove` when the generator may delete it, else why it is kept. */
export interface RetiredCopy {
  readonly path: string;
  readonly remove: boolean;
  /** For the user: what it is, and what to do (the removal, or a kept copy's fix). */
  readonly why: string;
}

/**
 * The retired copies in `dir`. `recorded`: the sha256 of each file the folder's record says the
 * generator wrote. A file that neither starts with the header nor is recorded is the user's own,
 * not a copy: not listed. One still imported by a file in `dir` other than `generated` (the files
 * this generation writes, which import the package) is kept: removing it would break that import.
 */
export function retiredCopies(dir: string, recorded: readonly Readonly<Record<string, string>>[], generated: readonly string[]): RetiredCopy[] {
  const found: RetiredCopy[] = [];
  for (const [path, header] of Object.entries(RETIRED_FILES)) {
    const target = join(dir, path);
    if (!existsSync(target)) continue;
    const text = readFileSync(target, "utf8");
    const hashes = recorded.map((files) => files[path]).filter((hash) => hash !== undefined);
    const ours = text.startsWith(header);
    if (!ours && hashes.length === 0) continue;
    const edited = !ours || !hashes.includes(sha256(text));
    const importers = edited ? [] : importersOf(dir, path).filter((file) => !generated.includes(file));
    const one = importers.length === 1;
    const why = edited
      ? `left by an earlier mcp-codegen and edited since (${!ours ? "its generated header is gone" : hashes.length > 0 ? "its sha256 is not the one .mcp-codegen.json recorded" : "or written before .mcp-codegen.json recorded it"}), so it is kept: generated code imports ${REPLACEMENT} now; move what you need out of it, then delete it`
      : importers.length > 0
        ? `left by an earlier mcp-codegen; kept while ${importers.join(", ")} still ${one ? "imports" : "import"} it: regenerate ${one ? "that file" : "those files"} (or make ${one ? "it" : "them"} import ${REPLACEMENT}), then generate again`
        : `left by an earlier mcp-codegen: generated code imports ${REPLACEMENT} now (so should any code of yours that imported this copy)`;
    found.push({ path, remove: !edited && importers.length === 0, why });
  }
  return found;
}

/** Deletes the copies `retiredCopies` said may go; the paths removed. */
export function removeRetired(dir: string, copies: readonly RetiredCopy[]): string[] {
  const removed = copies.filter((c) => c.remove).map((c) => c.path);
  for (const path of removed) rmSync(join(dir, path));
  return removed;
}

/** Files in `dir` (below it too, not node_modules) whose relative imports name `path` (`./validation.js`, `../validation.js`). */
function importersOf(dir: string, path: string): string[] {
  const target = resolve(dir, path).replace(/\.ts$/, "");
  const out: string[] = [];
  const visit = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const file = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules" && !entry.name.startsWith(".")) visit(file);
      } else if (/\.[cm]?[jt]sx?$/.test(entry.name) && file !== resolve(dir, path)) {
        const specifiers = [...readFileSync(file, "utf8").matchAll(/(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)].map((m) => m[1]!);
        if (specifiers.some((s) => resolve(dirname(file), s).replace(/\.[cm]?[jt]sx?$/, "") === target)) out.push(relative(dir, file).split("\\").join("/"));
      }
    }
  };
  visit(dir);
  return out.sort();
}
