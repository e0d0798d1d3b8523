/**
 * The runtime package's public entry points bundled by esbuild, so a stdio server loads a few
 * files instead of some sixty modules: Node 20 pays about 1 ms of CPU per ES module it loads.
 *
 * - Every entry of `exports` under dist/runtime is an esbuild entry, built with code splitting,
 *   so `/http`, `/auth`, `/redis` and `/otel` use the very classes of the main entry. Each of them
 *   is built through a stub that also imports the main entry: then everything the main entry
 *   loads is shared by all entries and lands in one chunk, and the main entry loads two files
 *   (itself and that chunk) however many entries there are. Split by each set of entries that
 *   share a module, as esbuild does by default, it loaded one chunk per set (six with six entries).
 * - A generated module the runtime imports dynamically (each revision, the tasks extension) stays
 *   a file of its own, loaded on first use by a path relative to the output file that imports it
 *   (written once esbuild has placed the code). A revision's `module.js` holds its start-up files
 *   (bundleRevisionStart). A relative specifier takes the resolution path
 *   the main entry already warmed: a package subpath import (`#generated/*`) cost a stdio server
 *   about 1 ms more, on the way to its first answer. What the runtime imports statically from
 *   generated/ (the registry, the validation helpers, an extension's method table: data and pure
 *   functions, no classes) is bundled, as the rest of its start-up.
 * - Each module the runtime imports dynamically (our JSON Schema compiler: a stdio server parses
 *   none of it before it answers initialize) becomes a chunk of its own, loaded on first use.
 * - The support generated modules import (`/support`: validation helpers, MethodNotFound) is an
 *   entry of its own, not built through the main entry: a project's tool validators or generated
 *   revisions load it without the rest of the runtime. Its modules, which the main entry uses too,
 *   land in a chunk both import, so there is one copy of each (and one MethodNotFound class).
 * - Packages (ajv, the optional peers) stay imports.
 * - The .d.ts files tsc wrote stay as they are; the .js files the bundle replaced are removed, so
 *   no module of the runtime can be loaded twice.
 */
import { build, type BuildOptions, type Plugin } from "esbuild";
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";

/** How every bundle here is written: ESM for Node 20, over the staged files. */
const OUTPUT = {
  allowOverwrite: true,
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  // ASCII output (\uXXXX escapes) decodes on V8's fast path; comments other than legal ones go.
  charset: "ascii",
  legalComments: "none",
} as const satisfies BuildOptions;

/** What a dynamic import of a generated module starts with in esbuild's output, before it is made relative to its file. */
const GENERATED_MARK = "#generated/";

const THROUGH_MAIN = "mcp-entry-through-main:";
/** Entries built alone, not through the main entry (see above). */
const STANDALONE = new Set(["dist/runtime/support/index.js"]);

/** `THROUGH_MAIN<entry>`: the entry's exports, after an import of the main entry (see above). */
function throughMain(main: string): Plugin {
  return {
    name: "entry-through-main",
    setup(plugin) {
      plugin.onResolve({ filter: new RegExp(`^${THROUGH_MAIN}`) }, ({ path }) => ({ path: path.slice(THROUGH_MAIN.length), namespace: "through-main" }));
      plugin.onLoad({ filter: /.*/, namespace: "through-main" }, ({ path }) => {
        const fromEntry = (file: string) => JSON.stringify(`./${relative(dirname(path), file).split(sep).join("/")}`);
        return { contents: `import ${fromEntry(main)};\nexport * from ${fromEntry(path)};\n`, resolveDir: dirname(path), loader: "js" };
      });
    },
  };
}

/** Relative dynamic imports that land in dist/generated/ become `#generated/...` imports, left unbundled (see {@link relativeGenerated}). */
function generatedExternal(generated: string): Plugin {
  return {
    name: "generated-external",
    setup(plugin) {
      plugin.onResolve({ filter: /^\.\.?\// }, ({ path, resolveDir, kind }) => {
        if (kind !== "dynamic-import") return undefined;
        const target = resolve(resolveDir, path);
        if (!target.startsWith(generated + sep)) return undefined;
        return { path: GENERATED_MARK + relative(generated, target).split(sep).join("/"), external: true };
      });
    },
  };
}

/** `import("#generated/<path>")` in `file` becomes an import of `<path>` relative to `file`. */
function relativeGenerated(file: string, generated: string): void {
  const code = readFileSync(file, "utf8");
  const mark = JSON.stringify(GENERATED_MARK).slice(0, -1);
  if (!code.includes(mark)) return;
  const prefix = relative(dirname(file), generated).split(sep).join("/");
  const rewritten = code.replaceAll(`import(${mark}`, `import("${prefix.startsWith(".") ? prefix : `./${prefix}`}/`);
  if (rewritten.includes(mark)) throw new Error(`${file}: esbuild wrote ${GENERATED_MARK} outside an import() (bundle-runtime.ts makes only those relative)`);
  writeFileSync(file, rewritten);
}

function jsFilesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? jsFilesUnder(path) : name.endsWith(".js") ? [path] : [];
  });
}

/**
 * Bundles `entries` (paths relative to `stage`, all under dist/runtime, the main entry first) in place: each entry file
 * is overwritten by its bundle, shared code goes to dist/runtime/chunks/. Returns the files written.
 */
export async function bundleRuntime(stage: string, entries: readonly string[]): Promise<{ outputs: string[]; inputs: number }> {
  const runtime = join(stage, "dist", "runtime");
  const result = await build({
    absWorkingDir: stage,
    entryPoints: entries.map((entry, index) => {
      const out = entry.replace(/^dist\/runtime\//, "").replace(/\.js$/, "");
      return { in: index === 0 || STANDALONE.has(entry) ? join(stage, entry) : THROUGH_MAIN + join(stage, entry), out };
    }),
    ...OUTPUT,
    outdir: runtime,
    outbase: runtime,
    splitting: true,
    packages: "external",
    chunkNames: "chunks/[name]-[hash]",
    metafile: true,
    logLevel: "warning",
    // The staged manifest says sideEffects: false, which would let esbuild drop the stubs' bare import of the main entry.
    ignoreAnnotations: true,
    plugins: [throughMain(join(stage, entries[0]!)), generatedExternal(join(stage, "dist", "generated"))],
  });
  const outputs = Object.keys(result.metafile.outputs).map((path) => resolve(stage, path));
  for (const file of outputs) relativeGenerated(file, join(stage, "dist", "generated"));
  const written = new Set(outputs);
  for (const file of jsFilesUnder(runtime)) if (!written.has(file)) rmSync(file);
  const inputs = Object.keys(result.metafile.inputs).filter((path) => !path.includes("node_modules")).length;
  return { outputs: outputs.map((path) => relative(stage, path)), inputs };
}

/** What a revision's `module.js` imports to answer `initialize`: bundled into it (bundleRevisionStart). */
const REVISION_START = ["protocol.js", "startup.js"];

/**
 * A revision's start-up files as one: `module.js` (what the runtime loads), with the protocol
 * tables and start-up validators it imports, which a stdio server loads before its first answer.
 * Three ES modules cost Node 2.5 ms there, one 1.0 ms (docs/decisions.md, "Start-up").
 * `protocol.js` and `startup.js` stay, re-exporting from `module.js`: `/revisions/<rev>` (index.js)
 * and `validators.js` then use its one copy of each. Everything else stays an import: the support
 * module (one copy of its classes), `validators.js` (loaded on first use).
 */
export async function bundleRevisionStart(folder: string): Promise<void> {
  const names = new Map<string, string[]>();
  for (const file of REVISION_START) names.set(file, Object.keys((await import(pathToFileURL(join(folder, file)).href)) as object));
  const own = new Set(["module.js", ...REVISION_START].map((file) => join(folder, file)));
  await build({
    stdin: { contents: `${REVISION_START.map((file) => `export * from "./${file}";`).join("\n")}\nexport { revisionModule } from "./module.js";\n`, resolveDir: folder, loader: "js" },
    ...OUTPUT,
    outfile: join(folder, "module.js"),
    logLevel: "warning",
    plugins: [
      {
        name: "revision-start-only",
        setup(plugin) {
          plugin.onResolve({ filter: /^\.\.?\// }, ({ path, resolveDir }) => (own.has(resolve(resolveDir, path)) ? undefined : { path, external: true }));
        },
      },
    ],
  });
  for (const [file, exported] of names) writeFileSync(join(folder, file), `export { ${exported.join(", ")} } from "./module.js";\n`);
}
