/**
 * The runtime package's public entry points bundled by esbuild, so a stdio server loads a few
 * files instead of some sixty modules: Node 20 pays about 1 ms of CPU per ES module it loads.
 *
 * - Every entry of `exports` under dist/runtime is an esbuild entry, built with code splitting:
 *   what two entries share goes into one chunk (dist/runtime/chunks/), so `/http`, `/auth` and
 *   `/redis` use the very classes of the main entry.
 * - A generated module the runtime imports dynamically (each revision, the tasks extension) stays
 *   a file of its own, loaded on first use through the package's `#generated/*` subpath import
 *   (package.json `imports`), which resolves the same from any output file. What the runtime
 *   imports statically from generated/ (the registry, the validation helpers, an extension's
 *   method table: data and pure functions, no classes) is bundled, as the rest of its start-up.
 * - Packages (ajv, the optional peers) stay imports.
 * - The .d.ts files tsc wrote stay as they are; the .js files the bundle replaced are removed, so
 *   no module of the runtime can be loaded twice.
 */
import { build, type Plugin } from "esbuild";
import { readdirSync, rmSync, statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";

/** The package's subpath import for the generated modules; packages/runtime/package.json maps it. */
export const GENERATED_IMPORT = "#generated/";

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
 * Bundles `entries` (paths relative to `stage`, all under dist/runtime) in place: each entry file
 * is overwritten by its bundle, shared code goes to dist/runtime/chunks/. Returns the files written.
 */
export async function bundleRuntime(stage: string, entries: readonly string[]): Promise<{ outputs: string[]; inputs: number }> {
  const runtime = join(stage, "dist", "runtime");
  const result = await build({
    absWorkingDir: stage,
    entryPoints: entries.map((entry) => join(stage, entry)),
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
    plugins: [generatedExternal(join(stage, "dist", "generated"))],
  });
  const outputs = Object.keys(result.metafile.outputs).map((path) => resolve(stage, path));
  const written = new Set(outputs);
  for (const file of jsFilesUnder(runtime)) if (!written.has(file)) rmSync(file);
  const inputs = Object.keys(result.metafile.inputs).filter((path) => !path.includes("node_modules")).length;
  return { outputs: outputs.map((path) => relative(stage, path)), inputs };
}
