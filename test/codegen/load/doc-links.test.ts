/**
 * Upstream's TSDoc links survive the trip through schema.json: every `{@link ...}` in every
 * description the loader hands the emitters is a link upstream's schema.ts itself writes (the
 * oracle, pinned beside schema.json), and links to a definition of the revision.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "chai";
import { repairDocLinks } from "../../../codegen/load/doc-links.js";
import { loadSchema } from "../../../codegen/load/load.js";
import type { Schema } from "../../../runtime/json-schema/model/schema.js";
import { REVISIONS, ROOT, schemaText } from "../../support/project.js";

const LINK = /\{@link ([^}]*)\}/g;

function descriptions(schema: Schema, out: string[] = []): string[] {
  if (schema.description !== undefined) out.push(schema.description);
  for (const p of schema.properties ?? []) descriptions(p.schema, out);
  for (const s of [...(schema.anyOf ?? []), ...(schema.allOf ?? [])]) descriptions(s, out);
  if (schema.items) descriptions(schema.items, out);
  if (schema.additionalProperties) descriptions(schema.additionalProperties, out);
  return out;
}

/** `{@link A|b}` and `{@link A | b}` are the same link. */
const canonical = (link: string) => link.replace(/\s*\|\s*/, " | ").replace(/\s+/g, " ");

describe("codegen/load/doc-links: upstream's {@link} targets, repaired", () => {
  for (const revision of REVISIONS) {
    it(`${revision}: every link in the loaded descriptions is one schema.ts writes, to a definition`, () => {
      const upstream = new Set([...readFileSync(join(ROOT, "spec", revision, "schema.ts"), "utf8").matchAll(LINK)].map((m) => canonical(m[0])));
      const loaded = loadSchema(revision, schemaText(revision));
      const links = [...loaded.definitions.values()].flatMap((d) => descriptions(d)).flatMap((text) => [...text.matchAll(LINK)]);
      const notUpstream = links.map((m) => m[0]).filter((link) => !upstream.has(canonical(link)));
      expect(notUpstream, "links schema.ts does not write").to.deep.equal([]);
      const dangling = links.map((m) => m[1]!.split("|")[0]!.trim()).filter((target) => !/^https?:/.test(target) && !loaded.definitions.has(target.split(".")[0]!));
      expect(dangling, "links to no definition").to.deep.equal([]);
      if (revision === "2026-07-28") expect(links.filter((m) => m[0].includes(" | ")).length, "repaired links").to.be.greaterThan(40);
    });
  }

  it("splits the longest definition off a mangled target, and leaves whole names, members and URLs alone", () => {
    const names = new Set(["ListResources", "ListResourcesRequest", "Tool", "MetaObject"]);
    expect(repairDocLinks("see {@link ListResourcesRequestresources/list}.", names)).to.equal("see {@link ListResourcesRequest | resources/list}.");
    expect(repairDocLinks("{@link MetaObject`_meta` key naming rules}", names)).to.equal("{@link MetaObject | `_meta` key naming rules}");
    for (const kept of ["{@link Tool}", "{@link Tool.outputSchema}", "{@link https://example.com/x}", "{@link Tool | a tool}", "{@link Unknown}"])
      expect(repairDocLinks(kept, names)).to.equal(kept);
  });
});
