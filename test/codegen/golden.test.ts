/**
 * Golden output: what the emitters print for two small schemas written in this repository
 * (test/fixtures/golden/<dialect>.schema.json), one per dialect. Between them they use every
 * keyword the loader reads, both union forms (anyOf of references, and a union of one collapsed
 * into a copy of its member), inline params to lift, open results and their bases, TS `object`,
 * quoted `_meta`-style keys, properties named like keywords, a definition named `Error`, a
 * `$ref` with a sibling description, recursion, mangled doc links and an asserted patch. The
 * emitted files are committed beside them; an emitter change shows up here as a diff to review.
 *
 *   UPDATE_GOLDEN=1 node_modules/.bin/mocha test/codegen/golden.test.ts   # rewrite the expected files
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { expect } from "chai";
import type { SchemaPatch } from "../../codegen/load/patches.js";
import { IN_REPOSITORY } from "../../codegen/emit/module.js";
import { emitRevision } from "../../codegen/pipeline.js";
import { formatFiles } from "../../codegen/write.js";
import { ROOT } from "../support/project.js";

const GOLDEN = join(ROOT, "test", "fixtures", "golden");
const UPDATE = process.env.UPDATE_GOLDEN === "1";

/** dialect -> the revision name the fixture is emitted under. */
const FIXTURES = { "draft-07": "2000-07-07", "2020-12": "2020-12-12" } as const;

// Patches follow content (codegen/load/patches.ts): each fixture's pointer exists in its own dialect only.
const PATCHES: readonly SchemaPatch[] = Object.keys(FIXTURES).map((dialect) => ({
  name: `${dialect} fixture ratio`,
  pointer: `#/${dialect === "draft-07" ? "definitions" : "$defs"}/Tool/properties/ratio/type`,
  expect: "integer",
  replace: "number",
  reason: "the fixture's stand-in for upstream's integer artefact",
}));

describe("codegen: golden output of the fixture schemas", function () {
  this.timeout(120_000);
  for (const [dialect, revision] of Object.entries(FIXTURES)) {
    describe(`${dialect} (emitted as ${revision})`, () => {
      let emitted: Map<string, string>;
      const dir = join(GOLDEN, dialect);
      before(async () => {
        const text = readFileSync(join(GOLDEN, `${dialect}.schema.json`), "utf8");
        const { files } = await emitRevision(revision, text, IN_REPOSITORY, PATCHES);
        emitted = new Map((await formatFiles(files)).map((file) => [basename(file.path), file.content]));
        if (UPDATE) {
          mkdirSync(dir, { recursive: true });
          for (const [name, content] of emitted) writeFileSync(join(dir, name), content);
        }
      });

      it("emits exactly the committed files", () => {
        const committed = existsSync(dir) ? readdirSync(dir).sort() : [];
        expect(committed, `run with UPDATE_GOLDEN=1 to write ${dir}`).to.deep.equal([...emitted.keys()].sort());
      });

      for (const name of ["types.ts", "protocol.ts", "validators.ts", "startup.ts", "handlers.ts", "module.ts", "index.ts"])
        it(`${name} is unchanged (UPDATE_GOLDEN=1 rewrites it; review the diff)`, () => {
          const path = join(dir, name);
          expect(existsSync(path), path).to.equal(true);
          expect(emitted.get(name), `${path} differs from what the emitters print now`).to.equal(readFileSync(path, "utf8"));
        });
    });
  }
});
