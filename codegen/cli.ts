import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { didYouMean } from "./did-you-mean.js";
import { GenerationError } from "./errors.js";
import type { SchemaPatch } from "./load/patches.js";

/** The toolkit's own checkout (or installed package): where spec/ and generated/ live by default. */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json"))) {
    const parent = dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
  return dir;
}

const ROOT_OPTION = {
  root: { type: "string", description: "project folder holding spec/ and generated/", placeholder: "dir" },
} as const;

interface Command {
  readonly usage: string;
  readonly summary: string;
  readonly options: NonNullable<ParseArgsConfig["options"]> & Record<string, { description?: string; placeholder?: string }>;
  readonly positionals?: number;
  run(args: { values: Record<string, unknown>; positionals: string[]; root: string }): Promise<number>;
}

const COMMANDS: Record<string, Command> = {
  generate: {
    usage: "generate [--out <dir>] [--revision R ...] [--schema|--extension <file> --name N] [--tools <manifest>] [--force]",
    summary: "regenerate generated/ from the pinned schemas, or write revision and extension modules (and compiled tool validators) into your project with --out",
    options: {
      revision: { type: "string", multiple: true, short: "r", description: "only this pinned revision (repeatable)", placeholder: "R" },
      out: { type: "string", description: "write revision modules into this folder of your project instead of generated/", placeholder: "dir" },
      schema: { type: "string", description: "with --out: generate from this schema.json (a revision not pinned here)", placeholder: "file" },
      extension: {
        type: "string",
        description: "with --out: an extension's schema.json (SEP-2133), emitted as extensions/<name>/ beside its core revision",
        placeholder: "file",
      },
      name: { type: "string", description: "with --schema: the revision's name; with --extension: its identifier (vendor/name)", placeholder: "R|ID" },
      core: { type: "string", description: "with --extension: the revision its schema builds on (default: the latest pinned)", placeholder: "R" },
      tools: { type: "string", description: "with --out: compile the tool schemas of this mcp.server.json into <dir>/tools.ts (createServer({ toolValidators }))", placeholder: "manifest" },
      force: { type: "boolean", description: "ignore the stamp and regenerate everything requested" },
      ...ROOT_OPTION,
    },
    async run({ values, root }) {
      if (values.tools !== undefined) return generateTools(values);
      if (values.out !== undefined) return generateOut(values, root, false);
      if (values.extension !== undefined)
        throw new UsageError("--extension goes with --out: generate --out src/mcp --extension tasks/schema.json --name io.modelcontextprotocol/tasks");
      if (values.schema !== undefined || values.name !== undefined) throw new UsageError("--schema and --name go with --out: generate --out src/mcp --schema next/schema.json --name 2026-12-01");
      const { generate } = await import("./generate.js");
      const report = await generate({ root, revisions: values.revision as string[] | undefined, force: values.force === true });
      const rows = report.revisions.map((r) => {
        const methods = Object.values(r.methods).reduce((a, b) => a + b, 0);
        const files = r.fresh ? "up to date" : `${r.written.length} written, ${r.unchanged.length} unchanged`;
        const patched = r.patches?.length ? `  patched: ${r.patches.join(", ")}` : "";
        return `  ${r.revision}  ${r.era.padEnd(9)}  ${String(r.definitions).padStart(3)} definitions  ${String(methods).padStart(2)} methods  ${files}${patched}`;
      });
      console.log(rows.join("\n"));
      for (const patch of report.unusedPatches) console.log(`  ! ${unusedPatchLine(patch)}`);
      if (report.shared.length) console.log(`  ${report.shared.join(", ")} written`);
      console.log(`done in ${Math.round(report.milliseconds)} ms`);
      return 0;
    },
  },
  check: {
    usage: "check [--out <dir>]",
    summary: "exit 1 when generated/ (or a folder written by generate --out) is stale (a full in-memory regeneration)",
    options: {
      out: { type: "string", description: "check this folder written by `generate --out` instead of generated/", placeholder: "dir" },
      ...ROOT_OPTION,
    },
    async run({ values, root }) {
      if (values.out !== undefined) return generateOut(values, root, true);
      const { check } = await import("./check.js");
      const report = await check(root);
      const ms = `${Math.round(report.milliseconds)} ms`;
      if (report.stale.length === 0) {
        const extensions = report.extensions.length ? ` and ${report.extensions.length} extension${report.extensions.length === 1 ? "" : "s"}` : "";
        console.log(`generated/ is up to date: ${report.checked} files of ${report.revisions.length} revisions${extensions} match a fresh generation (${ms})`);
        return 0;
      }
      const lines = [`generated/ is stale: ${report.stale.length} ${report.stale.length === 1 ? "file differs" : "files differ"} from a fresh generation (${ms})`];
      for (const [revision, cause] of report.causes) {
        lines.push(`  ${revision}: ${cause}`);
        const mine = report.stale.filter((s) => (revision === "generated/" ? !s.path.includes("/") : s.path.startsWith(`${revision}/`)));
        for (const { path, problem } of mine) lines.push(`    ${problem.padEnd(8)} generated/${path}`);
      }
      lines.push("Run `mcp-codegen generate` (or `make generate`) to bring it up to date.");
      console.error(lines.join("\n"));
      return 1;
    },
  },
  diff: {
    usage: "diff <revA> <revB> [--json]",
    summary: "what changed from revA to revB: methods, definitions, properties; breaking or additive for servers and clients",
    options: {
      json: { type: "boolean", description: "print the report as JSON instead of Markdown" },
      ...ROOT_OPTION,
    },
    positionals: 2,
    async run({ values, positionals, root }) {
      if (positionals.length !== 2) throw new UsageError("diff takes two revisions: diff 2025-11-25 2026-07-28");
      const [from, to] = positionals as [string, string];
      const { readPinnedSchema } = await import("./generate.js");
      const { loadSchema } = await import("./load/load.js");
      const { buildProtocol } = await import("./model/build.js");
      const { diffProtocols } = await import("./diff/diff.js");
      const model = (revision: string) => buildProtocol(loadSchema(revision, readPinnedSchema(root, revision)));
      const report = diffProtocols(model(from), model(to));
      if (values.json) console.log(JSON.stringify(report, null, 2));
      else {
        const { renderMarkdown } = await import("./diff/markdown.js");
        process.stdout.write(renderMarkdown(report));
      }
      return 0;
    },
  },
  scaffold: {
    usage: "scaffold <dir> [--name N] [options]",
    summary: "a new server project with typed stubs; run again on it after editing its mcp.server.json",
    options: {
      name: { type: "string", description: "the server's name (new projects)", placeholder: "N" },
      revisions: { type: "string", multiple: true, description: "MCP revisions to speak, comma-separated or repeated (default: all)", placeholder: "R,..." },
      transport: { type: "string", description: "stdio (default) or http (new projects)", placeholder: "stdio|http" },
      root: { type: "string", description: "the mcp-codegen checkout whose revisions the project may name", placeholder: "dir" },
    },
    positionals: 1,
    async run({ values, positionals, root }) {
      if (positionals.length !== 1) throw new UsageError("scaffold takes one folder: scaffold ./my-server --name my-server");
      const transport = values.transport as string | undefined;
      if (transport !== undefined && transport !== "stdio" && transport !== "http") throw new UsageError(`--transport is stdio or http, not ${transport}`);
      const revisions = (values.revisions as string[] | undefined)?.flatMap((r) => r.split(",")).map((r) => r.trim()).filter(Boolean);
      const { scaffold } = await import("./scaffold/scaffold.js");
      const report = await scaffold({
        dir: positionals[0]!,
        toolkit: root,
        name: values.name as string | undefined,
        revisions,
        transport: transport as "stdio" | "http" | undefined,
      });
      const { manifest } = report;
      const count = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;
      console.log(
        `${report.created ? "created" : "updated"} ${report.dir}: ${manifest.name}, ${manifest.transport}, ` +
          `${count(manifest.tools.length, "tool")}, ${count(manifest.resources.length, "resource")}, ` +
          `${count(manifest.resourceTemplates.length, "template")}, ${count(manifest.prompts.length, "prompt")}`,
      );
      for (const path of report.stubsAdded) console.log(`  + ${path}  (new stub)`);
      for (const { path, changes } of report.stubsUpdated) console.log(`  ~ ${path}  (kept your code; brought in line: ${changes.join(", ")})`);
      for (const path of report.written.filter((p) => !report.stubsAdded.includes(p) && !report.stubsUpdated.some((s) => s.path === p)))
        console.log(`  ${report.created ? "+" : "~"} ${path}`);
      for (const path of report.orphans) console.log(`  ! ${path}: no longer in mcp.server.json; kept, not registered (delete it when you are done with it)`);
      for (const { path, problem } of report.problems) console.log(`  ! ${path}: ${problem}`);
      if (report.written.length === 0 && report.orphans.length === 0) console.log("  nothing to do: everything matches mcp.server.json");
      if (report.created) console.log(`Next: cd ${positionals[0]} && npm install && npm test`);
      return report.problems.length > 0 ? 1 : 0;
    },
  },
  "spec fetch": {
    usage: "spec fetch",
    summary: "fill spec/<rev>/ from $MCP_SPEC_MIRROR, ../shared/mcp-spec or the pinned URLs, verifying every sha256",
    options: { ...ROOT_OPTION },
    async run({ root }) {
      const { fetchSpec } = await import("./spec/fetch.js");
      const report = await fetchSpec(root);
      const origins = new Map<string, number>();
      for (const { revision, file, from } of report.copied) {
        const origin = `${revision}  <-  ${from.slice(0, from.length - file.length)}`;
        origins.set(origin, (origins.get(origin) ?? 0) + 1);
      }
      for (const [origin, count] of origins) console.log(`  spec/${origin}  (${count} file${count === 1 ? "" : "s"})`);
      console.log(`${report.checked} pinned files verified, ${report.copied.length} copied`);
      return 0;
    },
  },
  "spec add": {
    usage: "spec add <rev> --from <url|dir|file>",
    summary: "pin a new revision: copy or download its schema (and examples), pin their sha256, regenerate",
    options: {
      from: { type: "string", description: "schema.json, its folder, or an http(s) URL of either", placeholder: "url|dir|file" },
      url: { type: "string", description: "the upstream folder URL to record in spec/pinned.json (default: the source's)", placeholder: "url" },
      replace: { type: "boolean", description: "pin other files for a revision that is already pinned" },
      local: { type: "boolean", description: "pin a local source (a clone then needs MCP_SPEC_MIRROR to fetch it)" },
      ...ROOT_OPTION,
    },
    positionals: 1,
    async run({ values, positionals, root }) {
      const [revision, ...extra] = positionals;
      if (revision === undefined || extra.length > 0 || typeof values.from !== "string")
        throw new UsageError("spec add takes one revision and --from: spec add 2026-12-01 --from ../shared/mcp-spec/2026-12-01");
      const { addSpec } = await import("./spec/add.js");
      const report = await addSpec({
        root,
        revision,
        from: values.from,
        url: values.url as string | undefined,
        replace: values.replace === true,
        local: values.local === true,
      });
      const { protocol } = report;
      const examples = Object.keys(report.files).filter((file) => file.startsWith("examples/")).length;
      console.log(`${report.unchanged ? "already pinned" : "pinned"} ${revision} from ${report.from}`);
      console.log(`  schema.json  sha256 ${report.files["schema.json"]}${examples > 0 ? `  (+ ${examples} example${examples === 1 ? "" : "s"})` : ""}`);
      if (report.files["schema.ts"]) console.log(`  schema.ts    sha256 ${report.files["schema.ts"]}`);
      console.log(`  upstream     ${report.url}`);
      if (report.local)
        console.log(`  local        a fresh clone cannot download this: give it MCP_SPEC_MIRROR=<folder holding ${revision}/schema.json> before \`make\``);
      const by = (list: readonly { senders: readonly string[] }[], side: string) => list.filter((m) => m.senders.includes(side)).length;
      console.log(
        `  ${protocol.era} era, ${protocol.dialect}, ${protocol.definitions.size} definitions: ` +
          `${by(protocol.requests, "client")} client requests, ${by(protocol.requests, "server")} server requests, ` +
          `${by(protocol.notifications, "client")} + ${by(protocol.notifications, "server")} notifications, ${protocol.inputRequests.length} input requests`,
      );
      for (const r of report.generated.revisions.filter((r) => !r.fresh))
        console.log(`  generated/${r.revision}/  ${r.written.length} written, ${r.unchanged.length} unchanged`);
      if (report.generated.shared.length) console.log(`  generated/{${report.generated.shared.join(",")}} written`);
      const carried = report.generated.revisions.find((r) => r.revision === revision)?.patches ?? [];
      console.log(`  patches      ${carried.length ? `carried: ${carried.join(", ")}` : "none applies"} (codegen/load/patches.ts)`);
      for (const patch of report.generated.unusedPatches) console.log(`  ! ${unusedPatchLine(patch)}`);
      if (report.previous) console.log(`Next: mcp-codegen diff ${report.previous} ${revision}`);
      return 0;
    },
  },
};

/** SEP-2133: an extension identifier is a vendor prefix (reverse DNS), a slash, and a name. */
const EXTENSION_ID = /^[A-Za-z0-9][A-Za-z0-9.-]*\/[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** A revision's name becomes a folder name and an export name: keep it to what both allow. */
const REVISION_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** `generate --out` and `check --out`. */
async function generateOut(values: Record<string, unknown>, root: string, dryRun: boolean): Promise<number> {
  const out = values.out as string;
  const sources: { revision: string; schema?: string }[] = ((values.revision as string[] | undefined) ?? []).map((revision) => ({ revision }));
  const extensions: { id: string; schema: string; core: string }[] = [];
  if (values.extension !== undefined) {
    if (typeof values.extension !== "string" || typeof values.name !== "string")
      throw new UsageError("--extension and --name go together: generate --out src/mcp --extension tasks/schema.json --name io.modelcontextprotocol/tasks");
    if (values.schema !== undefined) throw new UsageError("--name names either a --schema revision or an --extension: give them in two runs");
    if (!EXTENSION_ID.test(values.name))
      throw new UsageError(`${JSON.stringify(values.name)} is not an extension identifier: a vendor prefix, a slash and a name (e.g. io.modelcontextprotocol/tasks)`);
    const { pinnedRevisions, readPinned } = await import("./spec/pinned.js");
    const core = (values.core as string | undefined) ?? pinnedRevisions(readPinned(root)).at(-1)!;
    extensions.push({ id: values.name, schema: resolve(values.extension), core });
  } else if (values.core !== undefined) throw new UsageError("--core goes with --extension");
  else if (values.schema !== undefined || values.name !== undefined) {
    if (typeof values.schema !== "string" || typeof values.name !== "string")
      throw new UsageError("--schema and --name go together: generate --out src/mcp --schema next/schema.json --name 2026-12-01");
    sources.push({ revision: values.name, schema: resolve(values.schema) });
  }
  for (const { revision } of sources)
    if (!REVISION_NAME.test(revision)) throw new UsageError(`${JSON.stringify(revision)} is not a usable revision name: use letters, digits, . _ - (e.g. 2026-12-01)`);
  const { generateOut: run } = await import("./out.js");
  const report = await run({ root, out, sources: dryRun ? [] : sources, extensions: dryRun ? [] : extensions, dryRun });
  if (dryRun) {
    if (report.stale.length === 0) {
      console.log(`${out} is up to date: ${report.revisions.map((r) => r.revision).join(", ")} match a fresh generation`);
      return 0;
    }
    console.error(`${out} is stale: ${report.stale.length} ${report.stale.length === 1 ? "file differs" : "files differ"} from a fresh generation`);
    for (const path of report.stale) console.error(`    ${join(out, path)}`);
    console.error(`Run \`mcp-codegen generate --out ${out}\` to bring it up to date.`);
    return 1;
  }
  for (const r of report.revisions) console.log(`  ${r.revision}  ${r.era.padEnd(9)}  ${String(r.definitions).padStart(3)} definitions  from ${r.source}`);
  for (const e of report.extensions)
    console.log(`  ${e.folder}  ${e.id} on ${e.core}: ${e.definitions} definitions of its own (${e.imported} restated from ${e.core}, equal), ${e.methods} methods  from ${e.source}`);
  console.log(`  ${out}: ${report.written.length} written, ${report.unchanged.length} unchanged`);
  const { moduleName } = await import("./emit/module.js");
  console.log(`Serve them: import { ${report.revisions.map((r) => moduleName(r.revision)).join(", ")} } from "${join(out, "index.js")}", then createServer({ revisions: [...] })`);
  if (report.extensions.length > 0) {
    const { extensionExportName } = await import("./out.js");
    console.log(`Extensions: import { ${report.extensions.map((e) => extensionExportName(e.id)).join(", ")} } from "${join(out, "index.js")}", then createServer({ extensions: [...] })`);
  }
  return 0;
}

async function generateTools(values: Record<string, unknown>): Promise<number> {
  if (typeof values.out !== "string") throw new UsageError("--tools goes with --out: generate --tools mcp.server.json --out src/generated");
  const { generateTools: run } = await import("./tool-validators/generate.js");
  const report = await run(values.tools as string, values.out);
  console.log(`  ${report.tools} tools compiled into ${join(values.out, "tools.ts")}: ${report.written.length} written, ${report.unchanged.length} unchanged`);
  for (const { pointer, format } of report.annotatedFormats) console.log(`  note: format "${format}" at ${pointer} is an annotation (as in the runtime's ajv): not checked`);
  console.log(`Use them: import { toolValidators } from "<${join(values.out, "tools.js")} relative to your server>", then createServer({ toolValidators, ... })`);
  return 0;
}

/** A patch that fits no pinned revision: what it looked for, so someone can revisit it. */
function unusedPatchLine(patch: SchemaPatch): string {
  return `schema patch "${patch.name}" fits no pinned revision: none holds ${JSON.stringify(patch.expect)} at ${patch.pointer} (codegen/load/patches.ts; remove it or fix its pointer)`;
}

/** A command used the wrong way: exit 2 with its usage. */
class UsageError extends Error {}

function help(): string {
  const lines = ["Usage: mcp-codegen [--root <dir>] <command> [options]", "", "Commands:"];
  for (const command of Object.values(COMMANDS)) lines.push(`  ${command.usage.padEnd(44)} ${command.summary}`);
  lines.push(
    "",
    "Global options (before the command; every command also takes --root):",
    `  ${"--root <dir>".padEnd(44)} ${ROOT_OPTION.root.description}`,
    `  ${"-v, --version".padEnd(44)} print mcp-codegen's version`,
    `  ${"-h, --help".padEnd(44)} show this help`,
    "",
    "Run `mcp-codegen <command> --help` for a command's options.",
  );
  return lines.join("\n");
}

function commandHelp(command: Command): string {
  const lines = [`Usage: mcp-codegen ${command.usage}`, "", command.summary, "", "Options:"];
  for (const [name, option] of Object.entries(command.options)) {
    const flag = `${option.short ? `-${option.short}, ` : ""}--${name}${option.type === "string" ? ` <${option.placeholder ?? "value"}>` : ""}`;
    lines.push(`  ${flag.padEnd(28)} ${option.description ?? ""}`);
  }
  lines.push(`  ${"-h, --help".padEnd(28)} show this help`);
  return lines.join("\n");
}

/** `mcp-codegen diff a b | head`: a reader that goes away is not an error. */
let pipeWatched = false;
function quietOnClosedPipe(): void {
  if (pipeWatched) return;
  pipeWatched = true;
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    process.exit(typeof process.exitCode === "number" ? process.exitCode : 0);
  });
}

/** The version of the mcp-codegen package this CLI belongs to. */
function version(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as { version: string }).version;
}

/**
 * Options given before the command: `--root <dir>` (or `--root=<dir>`), `--version`, `--help`.
 * Returns them and the arguments from the command on, or a usage problem.
 */
function globalOptions(argv: readonly string[]): { root?: string; version?: true; help?: true; rest: string[] } | { problem: string } {
  const out: { root?: string; version?: true; help?: true } = {};
  let i = 0;
  for (; i < argv.length && argv[i]!.startsWith("-"); i++) {
    const arg = argv[i]!;
    if (arg === "--version" || arg === "-v" || arg === "-V") out.version = true;
    else if (arg === "--help" || arg === "-h") out.help = true;
    else if (arg === "--root" || arg.startsWith("--root=")) {
      const value = arg === "--root" ? argv[++i] : arg.slice("--root=".length);
      if (value === undefined || value === "") return { problem: "--root needs a folder: mcp-codegen --root ../my-checkout generate" };
      out.root = value;
    } else return { problem: `unknown global option ${arg}${didYouMean(arg, ["--root", "--version", "--help"])}` };
  }
  return { ...out, rest: argv.slice(i) };
}

export async function main(argv: string[]): Promise<number> {
  quietOnClosedPipe();
  const global = globalOptions(argv);
  if ("problem" in global) {
    console.error(`mcp-codegen: ${global.problem}\n\n${help()}`);
    return 2;
  }
  if (global.version) {
    console.log(version());
    return 0;
  }
  argv = global.rest;
  const name = argv[0] === "spec" ? `spec ${argv[1] ?? ""}`.trim() : argv[0];
  if (global.help || name === undefined || name === "help") {
    console.log(help());
    return name === undefined && !global.help ? 1 : 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    console.error(`mcp-codegen: unknown command "${name}"${didYouMean(name, Object.keys(COMMANDS))}\n\n${help()}`);
    return 2;
  }
  const rest = argv.slice(name.split(" ").length);
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({
      args: rest,
      options: { ...command.options, help: { type: "boolean", short: "h" } },
      allowPositionals: (command.positionals ?? 0) > 0,
    });
  } catch (error) {
    const unknown = /Unknown option '(--?[^']+)'/.exec((error as Error).message)?.[1];
    const hint = unknown === undefined ? "" : didYouMean(unknown, Object.keys(command.options).map((option) => `--${option}`));
    console.error(`mcp-codegen ${name}: ${(error as Error).message}${hint}\n\n${commandHelp(command)}`);
    return 2;
  }
  if (parsed.values.help) {
    console.log(commandHelp(command));
    return 0;
  }
  const root = resolve((parsed.values.root as string | undefined) ?? global.root ?? packageRoot());
  try {
    return await command.run({ ...parsed, root });
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`mcp-codegen ${name}: ${error.message}\n\n${commandHelp(command)}`);
      return 2;
    }
    if (error instanceof GenerationError) console.error(`mcp-codegen ${name}: generation failed\n  ${error.message}`);
    else console.error(`mcp-codegen ${name}: ${(error as Error).message}`);
    return 1;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
