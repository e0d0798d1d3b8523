/**
 * packages/bundle.ts on small module trees written here: the bundle must behave as the modules
 * did (values, ES module evaluation order, one instance reached through any file), and refuse
 * what it cannot keep exact. The runtime's own bundle is exercised by install.test.ts.
 */
import { expect } from "chai";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { BundleError, bundleModules } from "../../packages/bundle.js";
import { removeDir, tempDir } from "../support/project.js";

function writeTree(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

describe("packages/bundle: an entry's modules in one file", () => {
  let dir: string;
  beforeEach(() => (dir = tempDir("bundle")));
  afterEach(() => removeDir(dir));

  it("keeps values, aliases, re-exports, namespaces and ES module evaluation order; outside files share one instance through the stubs", async () => {
    writeTree(dir, {
      "pkg/log.js": "export const log = []; globalThis.__bundleTestLog = log;",
      "pkg/lib/a.js": 'import { log } from "../log.js";\nlog.push("a");\nexport class Thing { name() { return "thing"; } }\nexport function twice(x) { return 2 * x; }',
      "pkg/lib/b.js": 'import { log } from "../log.js";\nimport { twice as double } from "./a.js";\nlog.push("b");\nconst four = double(2);\nexport { four, four as quatre };',
      "pkg/lib/c.js": 'import { log } from "../log.js";\nimport * as a from "./a.js";\nimport { shared } from "../../outside/shared.js";\nlog.push("c");\nexport const viaNamespace = a.twice(5);\nexport const fromOutside = shared;',
      "pkg/index.js": 'import "./lib/c.js";\nexport * from "./lib/a.js";\nexport { four, quatre } from "./lib/b.js";\nexport { viaNamespace, fromOutside } from "./lib/c.js";',
      "pkg/other-entry.js": 'import { Thing } from "./lib/a.js";\nexport { Thing };',
      "outside/shared.js": 'export const shared = "outside";',
    });
    const bundled = bundleModules(join(dir, "pkg"), join(dir, "pkg", "index.js"));
    expect(bundled.map((p) => p.slice(dir.length + 1)).sort()).to.deep.equal(["pkg/index.js", "pkg/lib/a.js", "pkg/lib/b.js", "pkg/lib/c.js", "pkg/log.js"]);
    expect(readFileSync(join(dir, "pkg", "lib", "a.js"), "utf8")).to.include('from "../bundle.js"');

    const index = await import(pathToFileURL(join(dir, "pkg", "index.js")).href);
    const other = await import(pathToFileURL(join(dir, "pkg", "other-entry.js")).href);
    expect(Object.keys(index).sort()).to.deep.equal(["Thing", "four", "fromOutside", "quatre", "twice", "viaNamespace"]);
    expect([index.four, index.quatre, index.viaNamespace, index.fromOutside, new index.Thing().name()]).to.deep.equal([4, 4, 10, "outside", "thing"]);
    expect(other.Thing).to.equal(index.Thing);
    // ES modules evaluate depth first, imports in source order: c first (its import comes first), then b.
    expect((globalThis as { __bundleTestLog?: string[] }).__bundleTestLog).to.deep.equal(["a", "c", "b"]);
  });

  it("resolves relative dynamic imports and import.meta.url from the module's own file; a wider scope bundles sibling folders", async () => {
    writeTree(dir, {
      "pkg/dist/lib/deep/loader.js": 'export const load = () => import("../../gen/lazy.js").then((m) => m.lazy);\nexport const here = import.meta.url;\nexport const bare = () => import("node:path").then((m) => typeof m.join);',
      "pkg/dist/gen/table.js": 'export const TABLE = ["t"];',
      "pkg/dist/gen/lazy.js": 'export const lazy = "lazy";',
      "pkg/dist/lib/index.js": 'export { load, here, bare } from "./deep/loader.js";\nexport { TABLE } from "../gen/table.js";',
    });
    const bundled = bundleModules(join(dir, "pkg"), join(dir, "pkg", "dist", "lib", "index.js"), join(dir, "pkg", "dist"));
    expect(bundled.map((p) => p.slice(dir.length + 1)).sort()).to.deep.equal(["pkg/dist/gen/table.js", "pkg/dist/lib/deep/loader.js", "pkg/dist/lib/index.js"]);
    const index = await import(pathToFileURL(join(dir, "pkg", "dist", "lib", "index.js")).href);
    expect(await index.load()).to.equal("lazy");
    expect(index.here).to.equal(pathToFileURL(join(dir, "pkg", "dist", "lib", "deep", "loader.js")).href);
    expect(await index.bare()).to.equal("function");
    expect(index.TABLE).to.deep.equal(["t"]);
    // The lazily imported module is not in the static closure: it stays its own file, unstubbed.
    expect(readFileSync(join(dir, "pkg", "dist", "gen", "lazy.js"), "utf8")).to.include('"lazy"');
  });

  it("writes non-ASCII characters of comments as escapes and leaves strings as they were", async () => {
    writeTree(dir, {
      "pkg/index.js": '/** about 3 µs (RFC 9110 §5) */\nexport const unit = "µs"; // µ\nexport const pattern = /é/.test("é");',
    });
    bundleModules(join(dir, "pkg"), join(dir, "pkg", "index.js"));
    const bundle = readFileSync(join(dir, "pkg", "bundle.js"), "utf8");
    expect(bundle).to.include("about 3 \\u00b5s (RFC 9110 \\u00a75)").and.include("// \\u00b5");
    expect(bundle.replace(/"µs"|\/é\/|"é"/g, "")).to.match(/^[\x00-\x7f]*$/);
    const index = await import(pathToFileURL(join(dir, "pkg", "index.js")).href);
    expect([index.unit, index.pattern]).to.deep.equal(["µs", true]);
  });

  const refusals: [string, Record<string, string>, RegExp][] = [
    ["an import cycle", { "index.js": 'import { b } from "./b.js"; export const a = 1;', "b.js": 'import { a } from "./index.js"; export const b = a;' }, /import cycle: index\.js -> b\.js -> index\.js/],
    ["an exported let", { "index.js": "export let counter = 0;" }, /index\.js:1: an exported let or var/],
    ["a default export", { "index.js": "export default 1;" }, /a default export/],
    ["a default import", { "index.js": 'import x from "./b.js"; export const y = x;', "b.js": "export const b = 1;" }, /a default import/],
    ["a missing name", { "index.js": 'import { nope } from "./b.js"; export const y = nope;', "b.js": "export const b = 1;" }, /index\.js imports nope, which b\.js does not export/],
    ["top-level await", { "index.js": "export const x = await Promise.resolve(1);" }, /top-level await/],
    ["a computed dynamic import", { "index.js": 'export const load = (name) => import(name);' }, /index\.js:1: a dynamic import of a computed specifier/],
    ["import.meta beyond url", { "index.js": "export const dir = import.meta.dirname;" }, /index\.js:1: import\.meta other than import\.meta\.url/],
  ];
  for (const [what, files, message] of refusals)
    it(`refuses ${what}, naming the file, and writes nothing`, () => {
      writeTree(join(dir, "pkg"), files);
      expect(() => bundleModules(join(dir, "pkg"), join(dir, "pkg", "index.js")))
        .to.throw(BundleError)
        .with.property("message")
        .that.matches(message);
      for (const [path, text] of Object.entries(files)) expect(readFileSync(join(dir, "pkg", path), "utf8")).to.equal(text);
    });
});
