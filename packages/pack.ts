/**
 * `make pack`: the two published packages, staged from dist/ (`make build`) and `npm pack`ed into pack/.
 *
 *   pack/staging/runtime/       @mcp-codegen/runtime: dist/runtime/** and dist/generated/** (.js, .d.ts);
 *                               every entry point bundled by esbuild, shared code in chunks (bundle-runtime.ts)
 *   pack/staging/mcp-codegen/   mcp-codegen: bin/, dist/codegen/** (.js), the pinned schemas
 *   pack/<name>-<version>.tgz   what a user installs
 *
 * Each package keeps dist/'s relative layout, so the compiled relative imports resolve unchanged
 * (dist/runtime/session/revisions.js imports ../../generated/registry.js).
 *
 * Staging rather than npm workspaces: npm packs a workspace from its own folder, and `files`
 * cannot reach above it. With sources at the top (runtime/, generated/, codegen/) and one tsc
 * build into dist/, workspaces would mean moving the sources into packages/*, which the layout
 * forbids. They would buy nothing else: one tsconfig builds both packages, one lock file installs
 * the checkout, and the end-to-end tests install the tarballs, not the folders.
 *
 *   node --import tsx packages/pack.ts
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { MANIFEST_SCHEMA, MANIFEST_SCHEMA_FILE } from "../codegen/scaffold/manifest-schema.js";
import { sha256 } from "../codegen/spec/files.js";
import { bundleRevisionStart, bundleRuntime } from "./bundle-runtime.js";
import { pinnedRevisions, readPinned, specPath } from "../codegen/spec/pinned.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const PACK = join(ROOT, "pack");
const STAGING = join(PACK, "staging");

interface Manifest {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  exports?: Record<string, string | Record<string, string>>;
}

function fail(message: string): never {
  console.error(`pack: ${message}`);
  process.exit(1);
}

function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, "utf8")) as T;
}

/** Every file below `dir` whose name passes `keep`, as paths relative to ROOT. */
function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
  const out: string[] = [];
  const walk = (folder: string) => {
    for (const name of readdirSync(folder).sort()) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (keep(name)) out.push(relative(ROOT, path));
    }
  };
  walk(join(ROOT, dir));
  return out;
}

/** Copies ROOT/`from` to `stage`/`to`; compiled JavaScript loses its source-map comment (no maps, no sources are shipped). */
function stageFile(stage: string, from: string, to = from): void {
  const target = join(stage, to);
  mkdirSync(dirname(target), { recursive: true });
  if (from.endsWith(".js") && !from.startsWith("bin/"))
    writeFileSync(target, readFileSync(join(ROOT, from), "utf8").replace(/\n\/\/# sourceMappingURL=\S+\s*$/, "\n"));
  else copyFileSync(join(ROOT, from), target);
}

/** The dist/runtime files that `files` import, directly or through each other (static relative imports of compiled JS). */
function runtimeImportsOf(files: readonly string[]): string[] {
  const found = new Set<string>();
  const queue = [...files];
  for (let file = queue.pop(); file !== undefined; file = queue.pop())
    for (const specifier of relativeImports(readFileSync(join(ROOT, file), "utf8"))) {
      const target = relative(ROOT, join(ROOT, dirname(file), specifier));
      if (target.startsWith(`dist${sep}runtime${sep}`) && !found.has(target)) {
        found.add(target);
        queue.push(target);
      }
    }
  return [...found].sort();
}

/** The relative module specifiers compiled code or a declaration names (`from "./x.js"`, `import("./x.js")`, `import "./x.js"`). */
function relativeImports(text: string): string[] {
  return [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)"(\.{1,2}\/[^"]+)"/g)].map((match) => match[1]!);
}

/**
 * Leaves out of `stage` the .d.ts files that no export's types reach, following their relative
 * imports (`from`, `import(...)`): only an export can be imported, so no user's type-check reads
 * them, and most are smaller than the disk block they take. Fails on an import with no .d.ts.
 */
function pruneTypes(stage: string, manifest: Manifest): { kept: number; left: number } {
  const roots: string[] = [];
  for (const target of Object.values(manifest.exports ?? {})) {
    const types = typeof target === "string" ? undefined : target.types;
    if (types === undefined) continue;
    const [before, after] = types.slice(2).split("*") as [string, string | undefined];
    if (after === undefined) roots.push(before);
    else for (const name of readdirSync(join(stage, before))) if (existsSync(join(stage, before, name, after))) roots.push(join(before, name, after));
  }
  const reached = new Set<string>();
  for (let file = roots.pop(); file !== undefined; file = roots.pop()) {
    if (reached.has(file)) continue;
    if (!existsSync(join(stage, file))) fail(`${file}, which an export's types import, is not in the package`);
    reached.add(file);
    for (const specifier of relativeImports(readFileSync(join(stage, file), "utf8"))) roots.push(join(dirname(file), specifier.replace(/\.js$/, ".d.ts")));
  }
  let left = 0;
  for (const file of filesIn(stage, (name) => name.endsWith(".d.ts")))
    if (!reached.has(file)) {
      rmSync(join(stage, file));
      left++;
    }
  return { kept: reached.size, left };
}

/** Every file below `dir` whose name passes `keep`, as paths relative to `dir`. */
function filesIn(dir: string, keep: (name: string) => boolean): string[] {
  const under = relative(ROOT, dir);
  return filesUnder(under, keep).map((file) => relative(under, file));
}

/** Upstream's LICENSE, which covers the schemas and the text generated from them: found where `make spec` finds the schemas. */
async function upstreamLicense(): Promise<Buffer> {
  for (const folder of [process.env.MCP_SPEC_MIRROR, join(ROOT, "..", "shared", "mcp-spec")])
    if (folder && existsSync(join(folder, "LICENSE"))) return readFileSync(join(folder, "LICENSE"));
  const { repository, commit } = readPinned(ROOT).source;
  const url = `https://raw.githubusercontent.com/${repository}/${commit}/LICENSE`;
  const response = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  if (!response.ok) fail(`upstream's LICENSE: ${url} answered HTTP ${response.status}`);
  return Buffer.from(await response.arrayBuffer());
}

/** The committed manifest, with exports whose target this build lacks dropped (and said so). */
function stageManifest(stage: string, name: string): Manifest {
  const manifest = readJson<Manifest>(join(ROOT, "packages", name, "package.json"));
  for (const [entry, target] of Object.entries(manifest.exports ?? {})) {
    const file = typeof target === "string" ? target : target.default!;
    if (file.includes("*") || file === "./package.json" || existsSync(join(stage, file))) continue;
    console.warn(`pack: ${manifest.name}: exports["${entry}"] left out, this build has no ${file}`);
    delete manifest.exports![entry];
  }
  writeFileSync(join(stage, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  copyFileSync(join(ROOT, "packages", name, "README.md"), join(stage, "README.md"));
  return manifest;
}

function npmPack(stage: string): { filename: string; size: number; entryCount: number } {
  const out = execFileSync("npm", ["pack", "--json", "--pack-destination", PACK], { cwd: stage, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  return (JSON.parse(out) as { filename: string; size: number; entryCount: number }[])[0]!;
}

const root = readJson<Manifest>(join(ROOT, "package.json"));
const runtime = readJson<Manifest>(join(ROOT, "packages", "runtime", "package.json"));
const cli = readJson<Manifest>(join(ROOT, "packages", "mcp-codegen", "package.json"));
if (runtime.version !== root.version || cli.version !== root.version)
  fail(`versions differ: package.json ${root.version}, ${runtime.name} ${runtime.version}, ${cli.name} ${cli.version}; one version for all three`);
if (cli.dependencies?.[runtime.name] !== runtime.version)
  fail(`${cli.name} must depend on ${runtime.name} ${runtime.version} exactly (has ${cli.dependencies?.[runtime.name]})`);

const pinned = readPinned(ROOT);
const revisions = pinnedRevisions(pinned);
const extensions = Object.values(pinned.extensions ?? {});
for (const built of ["dist/runtime/index.js", "dist/codegen/cli.js", ...[...revisions, ...extensions.map((e) => e.folder)].map((r) => `dist/generated/${r}/index.js`)])
  if (!existsSync(join(ROOT, built))) fail(`${built} is missing: run \`make build\` first`);

rmSync(PACK, { recursive: true, force: true });
const license = await upstreamLicense();
const compiled = (name: string) => name.endsWith(".js") || name.endsWith(".d.ts");

const runtimeStage = join(STAGING, "runtime");
// Only what today's sources compile to: dist/ keeps the outputs of a source since moved or deleted (tsc removes nothing).
const ofSource = (file: string) => existsSync(join(ROOT, file.replace(/^dist[\\/]/, "").replace(/(\.d\.ts|\.js)$/, ".ts")));
for (const file of [...filesUnder("dist/runtime", compiled), ...filesUnder("dist/generated", compiled)].filter(ofSource)) stageFile(runtimeStage, file);
writeFileSync(join(runtimeStage, "dist", "generated", "LICENSE"), license);
// An extension comes from its own repository, under its own licence (ext-tasks: Apache-2.0), pinned beside its schema.
for (const { folder } of extensions) stageFile(runtimeStage, relative(ROOT, specPath(ROOT, folder, "LICENSE")), join("dist", "generated", folder, "LICENSE"));
// Every entry point of dist/runtime bundled (bundle-runtime.ts); the generated modules stay files, loaded on first use.
const runtimeEntries = Object.values(runtime.exports ?? {})
  .map((target) => (typeof target === "string" ? target : target.default!))
  .filter((file) => file.startsWith("./dist/runtime/") && !file.includes("*"))
  .map((file) => file.slice(2))
  .sort((a, b) => Number(b === "dist/runtime/index.js") - Number(a === "dist/runtime/index.js")); // the main entry first
const bundled = await bundleRuntime(runtimeStage, runtimeEntries);
console.log(`pack: ${bundled.inputs} modules of @mcp-codegen/runtime's ${runtimeEntries.length} entry points bundled by esbuild into ${bundled.outputs.length} files`);
for (const revision of revisions) await bundleRevisionStart(join(runtimeStage, "dist", "generated", revision));
console.log(`pack: each revision's start-up files (module.js, protocol.js, startup.js) bundled into its module.js`);
const types = pruneTypes(runtimeStage, stageManifest(runtimeStage, "runtime"));
console.log(`pack: ${types.kept} .d.ts files reached from the exports' types, ${types.left} others left out`);

const cliStage = join(STAGING, "mcp-codegen");
stageFile(cliStage, "bin/mcp-codegen.js");
const generator = filesUnder("dist/codegen", (n) => n.endsWith(".js")).filter(ofSource);
for (const file of generator) stageFile(cliStage, file);
// The runtime modules the generator itself runs (the RFC 6570 parser that checks a manifest's URI
// templates, the validators' support whose exports it reads): the same compiled files at the same
// relative place, so the one module serves both.
for (const file of runtimeImportsOf(generator)) stageFile(cliStage, file);
stageFile(cliStage, "spec/pinned.json");
for (const revision of revisions) {
  const schema = relative(ROOT, specPath(ROOT, revision));
  if (!existsSync(join(ROOT, schema)) || sha256(readFileSync(join(ROOT, schema))) !== pinned.revisions[revision]!.files["schema.json"])
    fail(`${schema} is missing or does not match spec/pinned.json: run \`make spec\``);
  stageFile(cliStage, schema);
}
for (const { folder, files } of extensions) {
  for (const file of ["schema.json", "LICENSE"]) {
    const path = relative(ROOT, specPath(ROOT, folder, file));
    if (!existsSync(join(ROOT, path)) || sha256(readFileSync(join(ROOT, path))) !== files[file]) fail(`${path} is missing or does not match spec/pinned.json: run \`make spec\``);
    stageFile(cliStage, path);
  }
}
writeFileSync(join(cliStage, "spec", "LICENSE"), license);
// mcp.server.json's JSON Schema, where a scaffolded manifest's $schema finds it.
writeFileSync(join(cliStage, MANIFEST_SCHEMA_FILE), `${JSON.stringify(MANIFEST_SCHEMA, null, 2)}\n`);
stageManifest(cliStage, "mcp-codegen");

for (const stage of [runtimeStage, cliStage]) {
  const { filename, size, entryCount } = npmPack(stage);
  console.log(`pack/${filename}  ${entryCount} files, ${(size / 1024).toFixed(0)} KiB`);
}
