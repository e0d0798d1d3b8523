import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { didYouMean } from "../did-you-mean.js";
import { writeAtomically } from "../spec/files.js";
import { formatFiles, writeFiles } from "../write.js";
import { findOutRecords } from "../out.js";
import { generatorVersion } from "../version.js";
import { moduleName } from "../emit/module.js";
import { unknownKeywords } from "../unknown-keywords.js";
import { emitManifest, emitServer, emitStubsTest, emitTypes, type ProjectRevision } from "./generated.js";
import { fileName, KINDS, MANIFEST_FILE, parseManifest, slug, starterManifest, type Kind, type Manifest, type Transport } from "./manifest.js";
import { mergeStub, newStub } from "./stubs.js";

export interface ScaffoldOptions {
  /** The project folder: created, or updated when it holds mcp.server.json. */
  readonly dir: string;
  /** The toolkit (a checkout or the installed mcp-codegen): the project depends on its version, and may name its revisions. */
  readonly toolkit: string;
  /** New projects only (an existing project's manifest says these). */
  readonly name?: string;
  readonly revisions?: readonly string[];
  readonly transport?: Transport;
  /**
   * New projects: the @mcp-codegen/runtime to depend on, when not this generator's version from
   * the registry: a version or range, or a path to its folder or packed tarball (a `file:` dependency).
   */
  readonly runtime?: string;
}

export interface ScaffoldReport {
  readonly dir: string;
  readonly created: boolean;
  readonly manifest: Manifest;
  /** Files written (relative to dir), generated or new. */
  readonly written: readonly string[];
  /** Stubs written for entries that had none. */
  readonly stubsAdded: readonly string[];
  /** Existing stubs whose generated parts were brought in line, with what changed. */
  readonly stubsUpdated: readonly { readonly path: string; readonly changes: readonly string[] }[];
  /** Stubs whose entry is no longer in the manifest: kept, not registered. */
  readonly orphans: readonly string[];
  /** Stubs left alone because they could not be merged. */
  readonly problems: readonly { readonly path: string; readonly problem: string }[];
  /** Unknown keywords in the tool schemas (typos, often), with their pointers into the manifest: JSON Schema ignores them. */
  readonly warnings: readonly { readonly pointer: string; readonly message: string }[];
}

/** Files mcp-codegen rewrites on every run; the README says so. */
const GENERATED = ["src/generated/types.ts", "src/generated/manifest.ts", "src/generated/server.ts", "test/stubs.test.ts"];

/**
 * `mcp-codegen scaffold <dir>`: a new server project, or, run again on it, the project brought in
 * line with its edited mcp.server.json. Generated files are rewritten (only when they change);
 * stubs are created for new entries and merged (ts-morph) for existing ones, never overwritten;
 * stubs of removed entries are reported and kept.
 */
export async function scaffold(options: ScaffoldOptions): Promise<ScaffoldReport> {
  const dir = resolve(options.dir);
  const manifestPath = join(dir, MANIFEST_FILE);
  const created = !existsSync(manifestPath);
  let manifest: Manifest;
  const fresh: { path: string; content: string }[] = [];
  if (created) {
    if (existsSync(dir) && readdirSync(dir).length > 0)
      throw new Error(`${dir} is not empty and has no ${MANIFEST_FILE}: scaffold a new project into an empty or new folder`);
    if (options.revisions) checkRevisions({ revisions: options.revisions }, options.toolkit, new Map(), "--revisions");
    if (!options.name) throw new Error("a new project needs --name");
    manifest = starterManifest(options.name, options.transport ?? "stdio", options.revisions);
    fresh.push(...projectFiles(manifest, options.toolkit, runtimeDependency(dir, options.runtime)));
    fresh.push({ path: MANIFEST_FILE, content: `${JSON.stringify(manifest, null, 2)}\n` });
  } else {
    const given = (["name", "revisions", "transport", "runtime"] as const).filter((key) => options[key] !== undefined);
    if (given.length)
      throw new Error(`${dir} is a scaffolded project already: change ${given.join(", ")} in ${MANIFEST_FILE} and run scaffold again without options`);
    manifest = parseManifest(readFileSync(manifestPath, "utf8"), manifestPath);
  }
  const generatedRevisions = projectRevisions(dir);
  checkRevisions(manifest, options.toolkit, generatedRevisions);
  // Decided before anything is written: a main.ts that cannot follow the manifest refuses the whole run.
  const transport = created ? {} : applyTransport(dir, manifest);
  if (transport.problem) throw new Error(`${join(dir, MAIN_FILE)}: ${transport.problem}\nNothing was changed.`);

  const stubsAdded: string[] = [];
  const stubsUpdated: { path: string; changes: readonly string[] }[] = [];
  const problems: { path: string; problem: string }[] = [];
  const stubs: { path: string; content: string }[] = [];
  for (const kind of Object.keys(KINDS) as Kind[])
    for (const entry of manifest[kind]) {
      const path = stubPath(kind, entry.name);
      const target = join(dir, path);
      if (!existsSync(target)) {
        stubs.push({ path, content: newStub(kind, entry) });
        stubsAdded.push(path);
        continue;
      }
      const merged = mergeStub(kind, entry, readFileSync(target, "utf8"));
      if (merged.problem) problems.push({ path, problem: merged.problem });
      else if (merged.text !== undefined) {
        writeAtomically(target, merged.text);
        stubsUpdated.push({ path, changes: merged.changes });
      }
    }

  const { files: generated, orphans: orphanEntries } = await generatedFiles(dir, manifest, generatedRevisions);
  const typescript = await formatFiles([...generated, ...stubs, ...fresh.filter((f) => f.path.endsWith(".ts"))]);
  // The README as scaffold wrote it follows a changed transport too (its run line and layout name it); one the user edited is theirs.
  const readmePath = join(dir, README_FILE);
  const readmeFollows =
    !created && existsSync(readmePath) && readFileSync(readmePath, "utf8") === readme({ ...manifest, transport: manifest.transport === "http" ? "stdio" : "http" });
  const result = writeFiles(dir, [
    ...typescript,
    ...fresh.filter((f) => !f.path.endsWith(".ts")),
    ...(readmeFollows ? [{ path: README_FILE, content: readme(manifest) }] : []),
  ]);
  if (transport.written) writeAtomically(join(dir, transport.written), transport.content!);
  return {
    dir,
    created,
    manifest,
    written: [...result.written, ...stubsUpdated.map((s) => s.path), ...(transport.written ? [transport.written] : [])].sort(),
    stubsAdded,
    stubsUpdated,
    orphans: orphanEntries.map((s) => s.path),
    problems,
    warnings: manifest.tools.flatMap((tool, i) =>
      (["inputSchema", "outputSchema"] as const).flatMap((which) => unknownKeywords(tool[which], `#/tools/${i}/${which}`)),
    ),
  };
}

/** The files scaffold owns (GENERATED), as the manifest makes them now, and the stubs no entry declares. */
async function generatedFiles(
  dir: string,
  manifest: Manifest,
  generatedRevisions: ReadonlyMap<string, ProjectRevision>,
): Promise<{ files: { path: string; content: string }[]; orphans: { kind: Kind; name: string; path: string }[] }> {
  const declared = new Set((Object.keys(KINDS) as Kind[]).flatMap((kind) => manifest[kind].map((entry) => stubPath(kind, entry.name))));
  const orphans = findStubs(dir).filter((s) => !declared.has(s.path));
  const files = [
    { path: "src/generated/types.ts", content: await emitTypes(manifest, orphans) },
    { path: "src/generated/manifest.ts", content: emitManifest(manifest, generatedRevisions) },
    { path: "src/generated/server.ts", content: emitServer(manifest) },
    { path: "test/stubs.test.ts", content: emitStubsTest() },
  ];
  return { files, orphans };
}

/**
 * `check` in a scaffolded project: the files scaffold owns, against what mcp.server.json makes of
 * them now. Scaffold records no hashes (its files are rewritten on every run), so a difference is
 * either a manifest changed since the last run or a hand edit: the fix is the same.
 */
export async function checkScaffold(dir: string, toolkit: string): Promise<{ path: string; why: string }[]> {
  const manifestPath = join(dir, MANIFEST_FILE);
  const manifest = parseManifest(readFileSync(manifestPath, "utf8"), manifestPath);
  const generatedRevisions = projectRevisions(dir);
  checkRevisions(manifest, toolkit, generatedRevisions);
  const formatted = await formatFiles((await generatedFiles(dir, manifest, generatedRevisions)).files);
  return formatted
    .filter((file) => !existsSync(join(dir, file.path)) || readFileSync(join(dir, file.path), "utf8") !== file.content)
    .map((file) => ({
      path: file.path,
      why: existsSync(join(dir, file.path)) ? `differs from what ${MANIFEST_FILE} makes of it now (the manifest changed since the last scaffold, or the file was edited by hand)` : "missing",
    }));
}

function stubPath(kind: Kind, name: string): string {
  return `src/${KINDS[kind].folder}/${fileName(name)}.ts`;
}

/** Stubs on disk, by kind; a name is read back from the file name. */
function findStubs(dir: string): { kind: Kind; name: string; path: string }[] {
  const out: { kind: Kind; name: string; path: string }[] = [];
  for (const kind of Object.keys(KINDS) as Kind[]) {
    const folder = join(dir, "src", KINDS[kind].folder);
    if (!existsSync(folder)) continue;
    for (const file of readdirSync(folder).sort())
      if (file.endsWith(".ts") && statSync(join(folder, file)).isFile()) out.push({ kind, name: file.slice(0, -3), path: `src/${KINDS[kind].folder}/${file}` });
  }
  return out;
}

/**
 * The revisions generated into the project (`generate --out`, found by their records): each
 * one's module, as src/generated/ imports it. A revision generated into two folders is an error.
 */
function projectRevisions(dir: string): Map<string, ProjectRevision> {
  const found = new Map<string, ProjectRevision & { folder: string }>();
  for (const record of findOutRecords(dir))
    for (const revision of record.revisions) {
      const folder = relative(dir, record.dir);
      const other = found.get(revision);
      if (other) throw new Error(`MCP revision ${revision} is generated into both ${other.folder}/ and ${folder}/: delete one (its folder and its .mcp-codegen.json)`);
      let specifier = relative(join(dir, "src", "generated"), join(record.dir, "index.js")).split("\\").join("/");
      if (!specifier.startsWith(".")) specifier = `./${specifier}`;
      found.set(revision, { specifier, name: moduleName(revision), folder });
    }
  return found;
}

/** The revisions a manifest (or `--revisions`, `where`) names must be ones the toolkit pins or the project generated. */
function checkRevisions(manifest: Pick<Manifest, "revisions">, toolkit: string, generated: ReadonlyMap<string, ProjectRevision>, where = MANIFEST_FILE): void {
  if (!manifest.revisions) return;
  const pinnedPath = join(toolkit, "spec", "pinned.json");
  const pinned = existsSync(pinnedPath) ? Object.keys((JSON.parse(readFileSync(pinnedPath, "utf8")) as { revisions: object }).revisions) : [];
  const known = [...pinned, ...generated.keys()];
  const unknown = manifest.revisions.filter((r) => !known.includes(r));
  if (unknown.length)
    throw new Error(
      `unknown MCP revision${unknown.length > 1 ? "s" : ""} ${unknown.map((r) => `${r}${didYouMean(r, known)}`).join(", ")} in ${where} (pinned: ${pinned.join(", ")}` +
        `${generated.size ? `; generated into this project: ${[...generated.keys()].join(", ")}` : ""}). ` +
        `A revision mcp-codegen does not pin: generate it into the project first: mcp-codegen generate --out src/mcp --schema <schema.json> --name ${unknown[0]}`,
    );
}

/** The versions this checkout builds with, so that the project's install finds them in the npm cache. */
function installedVersion(toolkit: string, name: string, fallback: string): string {
  try {
    return (JSON.parse(readFileSync(join(toolkit, "node_modules", name, "package.json"), "utf8")) as { version: string }).version;
  } catch {
    return fallback;
  }
}

/** The files a new project starts with, beside its manifest and stubs; the user's from then on. */
/**
 * `--runtime`: a version, range or dist-tag as npm takes it, or a path (a folder or a packed .tgz)
 * that becomes a `file:` dependency relative to the project. Default: this generator's version.
 */
function runtimeDependency(dir: string, runtime: string | undefined): string {
  if (runtime === undefined) return `^${generatorVersion()}`;
  const isPath = /^(\.{1,2}[\\/]|[\\/]|[A-Za-z]:[\\/])/.test(runtime) || runtime.endsWith(".tgz") || runtime.startsWith("file:");
  if (!isPath) {
    if (!/^[\w.^~<>=*|\s-]+$/.test(runtime)) throw new Error(`--runtime ${runtime}: not a version, range or tag, nor a path (a folder or a .tgz)`);
    return runtime;
  }
  const path = resolve(runtime.replace(/^file:/, ""));
  if (!existsSync(path)) throw new Error(`--runtime ${runtime}: no such folder or tarball (${path})`);
  if (!path.endsWith(".tgz") && !existsSync(join(path, "package.json"))) throw new Error(`--runtime ${runtime}: ${path} has no package.json (give the runtime's folder or its packed .tgz)`);
  return `file:${relative(dir, path).split("\\").join("/")}`;
}

function projectFiles(manifest: Manifest, toolkit: string, runtime: string): { path: string; content: string }[] {
  // By version, as published: the runtime to run, the CLI to re-run the scaffold.
  const version = `^${generatorVersion()}`;
  const pkg = {
    name: slug(manifest.name),
    version: manifest.version,
    description: manifest.description,
    private: true,
    type: "module",
    scripts: {
      build: "tsc -p tsconfig.json",
      test: "tsc -p tsconfig.json && node --test dist/test/",
      start: "node dist/src/main.js",
      scaffold: "mcp-codegen scaffold .",
    },
    dependencies: { "@mcp-codegen/runtime": runtime },
    devDependencies: {
      "mcp-codegen": version,
      "@types/node": installedVersion(toolkit, "@types/node", "^20.19.0"),
      typescript: installedVersion(toolkit, "typescript", "~6.0.3"),
    },
  };
  const tsconfig = {
    compilerOptions: {
      target: "ES2022",
      lib: ["ES2023"],
      module: "NodeNext",
      moduleResolution: "NodeNext",
      strict: true,
      skipLibCheck: true,
      verbatimModuleSyntax: true,
      types: ["node"],
      rootDir: ".",
      outDir: "dist",
      sourceMap: true,
    },
    include: ["src", "test"],
  };
  return [
    { path: "package.json", content: `${JSON.stringify(pkg, null, 2)}\n` },
    { path: "tsconfig.json", content: `${JSON.stringify(tsconfig, null, 2)}\n` },
    { path: ".gitignore", content: "node_modules/\ndist/\n" },
    { path: MAIN_FILE, content: mainSource(manifest) },
    { path: README_FILE, content: readme(manifest) },
  ];
}

const MAIN_FILE = "src/main.ts";
const README_FILE = "README.md";

/** src/main.ts as a new project gets it: start the server on the manifest's transport. */
export function mainSource(manifest: Pick<Manifest, "name" | "transport">): string {
  return manifest.transport === "http"
      ? `import { http } from "@mcp-codegen/runtime/http";
import { createAppServer } from "./generated/server.js";

// Streamable HTTP on 127.0.0.1 (PORT, default 3000), endpoint /mcp.
const endpoint = http({ port: Number(process.env.PORT ?? 3000), host: "127.0.0.1" });
await createAppServer().listen(endpoint);
console.error(\`${manifest.name} listening on \${endpoint.url}\`);
`
      : `import { stdio } from "@mcp-codegen/runtime";
import { createAppServer } from "./generated/server.js";

// MCP over stdin/stdout: stdout carries only protocol messages; log to stderr.
await createAppServer().listen(stdio());
`;
}

/**
 * A `"transport"` changed in the manifest reaches src/main.ts, which is the user's: rewritten when
 * it is still exactly what scaffold wrote for the other transport, else left alone with what to
 * change by hand.
 */
function applyTransport(dir: string, manifest: Manifest): { written?: string; content?: string; problem?: string } {
  const path = join(dir, MAIN_FILE);
  if (!existsSync(path)) return {};
  const text = readFileSync(path, "utf8");
  const wanted = mainSource(manifest);
  if (text === wanted) return {};
  const other = mainSource({ ...manifest, transport: manifest.transport === "http" ? "stdio" : "http" });
  if (text === other) return { written: MAIN_FILE, content: wanted };
  const uses = manifest.transport === "http" ? /\bhttp\s*\(/ : /\bstdio\s*\(/;
  if (uses.test(text)) return {};
  return {
    problem:
      `mcp.server.json says "transport": "${manifest.transport}", but this file (yours, so not rewritten) does not start it. ` +
      `Change its listen call to:\n${wanted.replace(/^/gm, "      ")}`,
  };
}

export function readme(manifest: Pick<Manifest, "name" | "transport">): string {
  const run = manifest.transport === "http" ? "npm start   # Streamable HTTP on http://127.0.0.1:3000/mcp (PORT to change)" : "npm start   # MCP over stdio";
  return `# ${manifest.name}

An MCP server scaffolded by \`mcp-codegen scaffold\`, on the mcp-codegen runtime (every MCP revision,
both eras, from the same handlers).

\`\`\`sh
npm install
npm test    # compiles, then calls every stub through the runtime (node --test)
${run}
\`\`\`

## Layout

- \`mcp.server.json\`: what the server offers: \`tools\` (each with its JSON Schemas), \`resources\`,
  \`resourceTemplates\` and \`prompts\`; \`revisions\` (optional) and \`transport\`. An entry may carry an
  \`example\` (tool or prompt arguments, template variables) that the generated test uses.
- \`src/tools/\`, \`src/resources/\`, \`src/templates/\`, \`src/prompts/\`: one stub per entry. **Yours**: write
  the code there.
- \`src/main.ts\`: starts the server (${manifest.transport}). Yours.
- ${GENERATED.map((path) => `\`${path}\``).join(", ")}: **generated**, rewritten on every run: typed
  arguments (from the JSON Schemas), the manifest as typed definitions, the registration of every
  stub, and a test that calls every stub. Do not edit them; put your tests beside \`test/stubs.test.ts\`.

## Changing the manifest

Edit \`mcp.server.json\`, then run the scaffold again on this folder:

\`\`\`sh
npm run scaffold    # = mcp-codegen scaffold .
\`\`\`

It regenerates the generated files, writes a stub for each new entry, and in existing stubs brings
only the doc comment's first paragraph, the parameter and return types and their imports in line
(merged with ts-morph): your code stays as you wrote it. An entry you removed is reported; its stub
is kept (no longer registered) until you delete it.

## A new MCP revision

\`\`\`sh
npx mcp-codegen spec add 2026-12-01 --from next/schema.json         # pins it in mcp/spec/
npx mcp-codegen diff 2026-07-28 2026-12-01                          # what breaks, what is new
npx mcp-codegen generate --out src/mcp --revision 2026-12-01        # its module, in this project
\`\`\`

Add it to \`"revisions"\` in \`mcp.server.json\`, run \`npm run scaffold\`, then \`npm run build\`: the
compiler names each field the new revision requires, in the stub that must return it. A method it
adds is served with \`createAppServer().handle("<method>", handler)\`, typed by the new revision.

## In CI

\`\`\`sh
npx mcp-codegen check    # exit 1 when a generated file is stale, saying why and how to fix it
\`\`\`
`;
}
