// The documentation holds together: every relative link resolves to a file of the repository and,
// with an anchor, to a heading of that page; no page cites a document outside the repository or an
// issue number; every fragment says why it is one.
import { existsSync, statSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { expect } from "chai";
import { ROOT } from "../support/project.js";
import { anchors, blocks, links, pages, pageText } from "./pages.js";

describe("docs: links, sources and fragments", () => {
  for (const page of pages())
    it(`${page}: every relative link resolves, anchors included`, () => {
      const broken: string[] = [];
      for (const { target, line } of links(page)) {
        const [path, anchor] = target.split("#") as [string, string | undefined];
        const file = path === "" ? page : normalize(join(dirname(page), decodeURIComponent(path)));
        if (!existsSync(join(ROOT, file))) {
          broken.push(`${page}:${line}: ${target} (no file ${file})`);
          continue;
        }
        if (anchor !== undefined && file.endsWith(".md") && !anchors(file).has(anchor)) broken.push(`${page}:${line}: ${target} (no heading #${anchor} in ${file})`);
        if (anchor === undefined && statSync(join(ROOT, file)).isDirectory() && !existsSync(join(ROOT, file, "README.md"))) broken.push(`${page}:${line}: ${target} (a folder without a README)`);
      }
      expect(broken).to.deep.equal([]);
    });

  it("no page cites a document outside the repository or an issue number", () => {
    const outside = /\b(DESIGN\.md|PROTOCOL-NOTES\.md|CONFORMANCE\.md)\b|\/work\/|\bissues?[- ]#?\d+|(^|[\s(])#\d+\b|[\w-]+#\d{2,}\b/gim;
    const found = pages().flatMap((page) =>
      pageText(page)
        .split("\n")
        .flatMap((line, index) => [...line.matchAll(outside)].map((m) => `${page}:${index + 1}: ${m[0]}`)),
    );
    expect(found).to.deep.equal([]);
  });

  it("every fragment says why it is one, and most blocks are not fragments", () => {
    const ts = pages().flatMap((page) => blocks(page).filter((block) => block.language === "ts"));
    const fragments = ts.filter((block) => block.marker?.startsWith("fragment"));
    for (const block of fragments) expect(block.marker, `${block.page}:${block.line}`).to.match(/^fragment: \S.{8,}/);
    expect(fragments.length, `${fragments.length} fragments of ${ts.length} ts blocks`).to.be.lessThan(ts.length / 3);
  });
});
