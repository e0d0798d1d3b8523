/**
 * The documentation as the docs tests read it: README.md, CONTRIBUTING.md, docs/*.md and the
 * package READMEs, each cut into its fenced blocks (with the HTML comment that marks a block, if
 * any), its links and its headings' anchors.
 *
 * Markers, an HTML comment on the line before a block's fence:
 *   <!-- fragment: why -->  a ts block that is part of a file, not compiled (the reason is required)
 *   <!-- file: name.ts -->  a ts block compiled as that file, so that the page's other blocks import it
 *   <!-- run -->            a ts block that is also run; the `text` block right after it, if any, is its output
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../support/project.js";

export interface Block {
  /** The page, relative to the repository root. */
  readonly page: string;
  /** The fence's line, 1-based. */
  readonly line: number;
  readonly language: string;
  readonly code: string;
  /** The marker comment before the fence: "fragment: why", "file: x.ts", "run", or undefined. */
  readonly marker: string | undefined;
  /** Whether only blank lines separate it from the block before it. */
  readonly adjoining: boolean;
}

/** Every page of the documentation, relative to the root. */
export function pages(): string[] {
  const docs = readdirSync(join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `docs/${name}`);
  return ["README.md", "CONTRIBUTING.md", ...docs, "packages/runtime/README.md", "packages/mcp-codegen/README.md"];
}

export function pageText(page: string): string {
  return readFileSync(join(ROOT, page), "utf8");
}

/** The fenced blocks of a page, in order. */
export function blocks(page: string): Block[] {
  const lines = pageText(page).split("\n");
  const found: Block[] = [];
  let previousEnd = -1;
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    let end = i + 1;
    while (end < lines.length && lines[end] !== "```") end++;
    let before = i - 1;
    while (before >= 0 && lines[before]!.trim() === "") before--;
    const comment = before >= 0 ? /^<!--\s*(.*?)\s*-->$/.exec(lines[before]!.trim()) : null;
    const adjoining = previousEnd >= 0 && lines.slice(previousEnd + 1, i).every((line) => line.trim() === "");
    found.push({ page, line: i + 1, language: open[1]!, code: lines.slice(i + 1, end).join("\n") + "\n", marker: comment?.[1], adjoining });
    i = previousEnd = end;
  }
  return found;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The anchors of a page's headings (outside fenced blocks). */
export function anchors(page: string): Set<string> {
  const out = new Set<string>();
  let fenced = false;
  for (const line of pageText(page).split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) out.add(slug(heading[1]!));
  }
  return out;
}

/** The relative links of a page (outside fenced blocks and code spans): [text](target). */
export function links(page: string): { target: string; line: number }[] {
  const out: { target: string; line: number }[] = [];
  let fenced = false;
  pageText(page)
    .split("\n")
    .forEach((line, index) => {
      if (line.startsWith("```")) fenced = !fenced;
      if (fenced) return;
      for (const [, target] of line.replace(/`[^`]*`/g, "").matchAll(/\]\(([^)\s]+)\)/g))
        if (!/^[a-z]+:/i.test(target!)) out.push({ target: target!, line: index + 1 });
    });
  return out;
}
