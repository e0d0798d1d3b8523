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
 *   a file of its own, loaded on first use through the package's `#generated/*` subpath import
 *   (package.json `imports`), which resolves the same from any output file. What the runtime
 *   imports statically from generated/ (the registry, the validation helpers, an extension's
 *   method table: data and pure functions, no classes) is bundled, as the rest of its start-up.
 * - The support generated modules import (`/support`: validation helpers, MethodNotFound) is an
 *   entry of its own, not built through the main entry: a project's tool validators or generated
 *   revisions load it without the rest of the runtime. Its modules, which the main entry uses too,
 *   land in a chunk both import, so there is one copy of each (and one MethodNotFound class).
 * - Packages (ajv, the optional peers) stay imports.
 * - The .d.ts files tsc wrote stay as they are; the .js files the bundle replaced are removed, so
 *   no module of the runtime can be loaded twice.
 */
import { build, type Plugin } from "esbuild";
import { readdirSync, rmSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

/** The package's subpath import for the generated modules; packages/runtime/package.json maps it. */
export const GENERATED_IMPORT = "#generated/";

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

/** Relative dynamic imports that land in dist/generated/ become `#generated/...` imports, left unbundled. */
function generatedExternal(generated: string): Plugin {
  return {
    name: "generated-external",
    setup(plugin) {
      plugin.onResolve({ filter: /^\.\.?\// }, ({ path, resolveDir, kind }) => {
        if (kind !== "dynamic-import") return undefined;
        const target = resolve(resolveDir, path);
        if (!target.startsWith(generated + sep)) return undefined;
        return { path: GENERATED_IMPORT + relative(generated, target).split(sep).join("/"), external: true };
      });
    },
  };
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
    outdir: runtime,
    outbase: runtime,
    allowOverwrite: true,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    chunkNames: "chunks/[name]-[hash]",
    // ASCII output (\uXXXX escapes) decodes on V8's fast path; comments other than legal ones go.
    charset: "ascii",
    legalComments: "none",
    metafile: true,
    logLevel: "warning",
    // The staged manifest says sideEffects: false, which would let esbuild drop the stubs' bare import of the main entry.
    ignoreAnnotations: true,
    plugins: [throughMain(join(stage, entries[0]!)), generatedExternal(join(stage, "dist", "generated"))],
  });
  const outputs = Object.keys(result.metafile.outputs).map((path) => resolve(stage, path));
  const written = new Set(outputs);
  for (const file of jsFilesUnder(runtime)) if (!written.has(file)) rmSync(file);
  const inputs = Object.keys(result.metafile.inputs).filter((path) => !path.includes("node_modules")).length;
  return { outputs: outputs.map((path) => relative(stage, path)), inputs };
}
