import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { writeAtomically } from "../spec/files.js";
import { formatFiles, writeFiles } from "../write.js";
import { emitManifest, emitServer, emitStubsTest, emitTypes } from "./generated.js";
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
    if (!options.name) throw new Error("a new project needs --name");
    manifest = starterManifest(options.name, options.transport ?? "stdio", options.revisions);
    fresh.push(...projectFiles(manifest, options.toolkit));
    fresh.push({ path: MANIFEST_FILE, content: `${JSON.stringify(manifest, null, 2)}\n` });
  } else {
    const given = (["name", "revisions", "transport"] as const).filter((key) => options[key] !== undefined);
    if (given.length)
      throw new Error(`${dir} is a scaffolded project already: change ${given.join(", ")} in ${MANIFEST_FILE} and run scaffold again without options`);
    manifest = parseManifest(readFileSync(manifestPath, "utf8"), manifestPath);
  }
  checkRevisions(manifest, options.toolkit);
  // Decided before anything is written: a main.ts that cannot follow the manifest refuses the whole run.
  const transport = created ? {} : applyTransport(dir, manifest);
  if (transport.problem) throw new Error(`${join(dir, MAIN_FILE)}: ${transport.problem}\nNothing was changed.`);

  const stubsAdded: string[] = [];
  const stubsUpdated: { path: string; changes: readonly string[] }[] = [];
  const problems: { path: string; problem: string }[] = [];
  const stubs: { path: string; content: string }[] = [];
  const declared = new Set<string>();
  for (const kind of Object.keys(KINDS) as Kind[])
    for (const entry of manifest[kind]) {
      const path = stubPath(kind, entry.name);
      declared.add(path);
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

  const orphanEntries = findStubs(dir).filter((s) => !declared.has(s.path));
  const generated = [
    { path: "src/generated/types.ts", content: await emitTypes(manifest, orphanEntries) },
    { path: "src/generated/manifest.ts", content: emitManifest(manifest) },
    { path: "src/generated/server.ts", content: emitServer(manifest) },
    { path: "test/stubs.test.ts", content: emitStubsTest(manifest) },
  ];
  const typescript = await formatFiles([...generated, ...stubs, ...fresh.filter((f) => f.path.endsWith(".ts"))]);
  const result = writeFiles(dir, [...typescript, ...fresh.filter((f) => !f.path.endsWith(".ts"))]);
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
  };
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

/** The revisions a manifest names must be ones the toolkit generates. */
function checkRevisions(manifest: Manifest, toolkit: string): void {
  if (!manifest.revisions) return;
  const pinnedPath = join(toolkit, "spec", "pinned.json");
  if (!existsSync(pinnedPath)) return;
  const known = Object.keys((JSON.parse(readFileSync(pinnedPath, "utf8")) as { revisions: object }).revisions);
  const unknown = manifest.revisions.filter((r) => !known.includes(r));
  if (unknown.length) throw new Error(`unknown MCP revision${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")} (this toolkit has ${known.join(", ")})`);
}

/** The versions this checkout builds with, so that the project's install finds them in the npm cache. */
function installedVersion(toolkit: string, name: string, fallback: string): string {
  try {
    return (JSON.parse(readFileSync(join(toolkit, "node_modules", name, "package.json"), "utf8")) as { version: string }).version;
  } catch {
    return fallback;
  }
}

/** This generator's own version (its package.json, found upwards from here): `--root` may name a folder without one. */
function generatorVersion(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest)) return (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version;
    if (dirname(dir) === dir) throw new Error("mcp-codegen cannot find its own package.json");
  }
}

/** The files a new project starts with, beside its manifest and stubs; the user's from then on. */
function projectFiles(manifest: Manifest, toolkit: string): { path: string; content: string }[] {
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
    dependencies: { "@mcp-codegen/runtime": version },
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
    { path: "README.md", content: readme(manifest) },
  ];
}

const MAIN_FILE = "src/main.ts";

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

function readme(manifest: Manifest): string {
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
`;
}
