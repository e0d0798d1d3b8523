import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { didYouMean } from "./did-you-mean.js";
import { parseJson } from "./json.js";
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
  root: { type: "string", description: "the mcp-codegen checkout whose spec/ and generated/ to use (default: this package's own)", placeholder: "dir" },
} as const;

interface Command {
  readonly usage: string;
  readonly summary: string;
  readonly options: NonNullable<ParseArgsConfig["options"]> & Record<string, { description?: string; placeholder?: string }>;
  readonly positionals?: number;
  /** `rootGiven`: --root was on the command line (else `root` is the package's own). */
  run(args: { values: Record<string, unknown>; positionals: string[]; root: string; rootGiven: boolean }): Promise<number>;
}

const COMMANDS: Record<string, Command> = {
  generate: {
    usage: "generate [--out <dir>] [--revision R ...] [--schema|--extension <file> --name N] [--tools <manifest> [--assert-formats] [--tools-remotes <file.json>]] [--force]",
    summary: "in the mcp-codegen checkout, regenerate generated/ from the pinned schemas; in your project, write revision and extension modules (and compiled tool validators) with --out",
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
      "tools-remotes": {
        type: "string",
        description: "with --tools: a JSON object from URI to schema, the documents the tool schemas' $refs may name besides themselves (as createServer's toolSchemaRemotes; nothing is fetched)",
        placeholder: "file.json",
      },
      "assert-formats": { type: "boolean", description: "with --tools: assert formats email, date, date-time, time, uuid, uri, ipv4, ipv6, hostname... (default: annotations, as JSON Schema 2020-12 says)" },
      force: { type: "boolean", description: "ignore the stamp and regenerate everything requested" },
      ...ROOT_OPTION,
    },
    async run({ values, root, rootGiven }) {
      if (values.tools !== undefined) return generateTools(values);
      if (values["tools-remotes"] !== undefined) throw new UsageError("--tools-remotes goes with --tools: generate --tools mcp.server.json --tools-remotes remotes.json --out src/generated");
      if (values["assert-formats"] !== undefined) throw new UsageError("--assert-formats goes with --tools: generate --tools mcp.server.json --assert-formats --out src/generated");
      if (values.out !== undefined) return generateOut(values, root);
      if (values.extension !== undefined)
        throw new UsageError("--extension goes with --out: generate --out src/mcp --extension tasks/schema.json --name io.modelcontextprotocol/tasks");
      if (values.schema !== undefined || values.name !== undefined) throw new UsageError("--schema and --name go with --out: generate --out src/mcp --schema next/schema.json --name 2026-12-01");
      // Installed (no generator sources beside it), the package's own generated/ is no project's: a project writes its modules with --out.
      if (!rootGiven && !existsSync(join(root, "codegen", "cli.ts")))
        throw new UsageError(
          "generate without --out regenerates mcp-codegen's own generated/, which an installed package does not write (it is in node_modules). " +
            "In your project: `mcp-codegen scaffold .` (a scaffolded project), `generate --out src/mcp --revision R` (revision modules), `generate --tools mcp.server.json --out src/generated` (tool validators)",
        );
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
    summary: "exit 1 when what mcp-codegen generated is stale, saying why: in your project (or a folder above several), every scaffolded project and every folder written by generate --out or --tools; in this checkout, generated/",
    options: {
      out: { type: "string", description: "check only this folder written by `generate --out`", placeholder: "dir" },
      ...ROOT_OPTION,
    },
    async run({ values, root, rootGiven }) {
      if (values.out !== undefined) return checkProject(root, values.out as string);
      // In a user's project (not this package's own folder): what the project generated, found by its records.
      if (!rootGiven && resolve(process.cwd()) !== packageRoot()) return checkProject(root);
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
    usage: "diff <revA> <revB | --schema file> [--json]",
    summary: "what changed from revA to revB: methods, definitions, properties; breaking or additive for servers and clients. A revision is one pinned here, or one your project pinned (spec add) or generated (generate --out); --schema compares with a schema file instead of revB",
    options: {
      schema: { type: "string", description: "compare revA with this schema.json instead of a second revision", placeholder: "file" },
      json: { type: "boolean", description: "print the report as JSON instead of Markdown" },
      ...ROOT_OPTION,
    },
    positionals: 2,
    async run({ values, positionals, root }) {
      const wanted = values.schema === undefined ? 2 : 1;
      if (positionals.length !== wanted)
        throw new UsageError(`diff takes two revisions, or one and --schema: diff 2025-11-25 2026-07-28, diff 2026-07-28 --schema next/schema.json`);
      const { loadSchema } = await import("./load/load.js");
      const { buildProtocol } = await import("./model/build.js");
      const { diffProtocols } = await import("./diff/diff.js");
      const model = (revision: string, text: string) => buildProtocol(loadSchema(revision, text));
      const [from, to] = positionals as [string, string | undefined];
      const schema = values.schema as string | undefined;
      const report = diffProtocols(
        model(from, await revisionSchema(root, from)),
        to !== undefined ? model(to, await revisionSchema(root, to)) : model(schema!, readSchemaArgument(schema!)),
      );
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
      runtime: {
        type: "string",
        description: "the @mcp-codegen/runtime to depend on (new projects): a version or range, or the path of its folder or packed .tgz (default: this version)",
        placeholder: "version|path|tgz",
      },
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
        runtime: values.runtime as string | undefined,
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
      for (const { pointer, message } of report.warnings) console.error(`  warning: mcp.server.json ${pointer}: ${message}`);
      if (report.written.length === 0 && report.orphans.length === 0) console.log("  nothing to do: everything matches mcp.server.json");
      if (report.created) console.log(`Next: cd ${positionals[0]} && npm install && npm test`);
      return report.problems.length > 0 ? 1 : 0;
    },
  },
  migrate: {
    usage: "migrate <dir> [--dry-run] [--force]",
    summary: "rewrite an official SDK (v1 or v2) server onto @mcp-codegen/runtime: registrations, zod schemas, handler contexts, stdio; reports by file and line what is left to do by hand",
    options: {
      "dry-run": { type: "boolean", description: "write nothing: print the diff of what would change, and the report" },
      force: { type: "boolean", description: "rewrite files with uncommitted changes (or outside git)" },
    },
    positionals: 1,
    async run({ values, positionals }) {
      if (positionals.length !== 1) throw new UsageError("migrate takes one folder (or file): migrate ./src --dry-run");
      const { migrate, MigrateRefusal } = await import("./migrate/migrate.js");
      let report;
      try {
        report = migrate({ dir: positionals[0]!, dryRun: values["dry-run"] === true, force: values.force === true });
      } catch (error) {
        if (!(error instanceof MigrateRefusal)) throw error;
        console.error(`mcp-codegen migrate: ${error.message}`);
        return 1;
      }
      const { printMigrateReport } = await import("./migrate/report.js");
      console.log(printMigrateReport(report, values["dry-run"] === true));
      return 0;
    },
  },
  "spec fetch": {
    usage: "spec fetch",
    summary: "in this checkout: fill spec/<rev>/ from $MCP_SPEC_MIRROR, ../shared/mcp-spec or the pinned URLs, verifying every sha256; in your project: verify mcp/spec/",
    options: { ...ROOT_OPTION },
    async run({ root, rootGiven }) {
      // In a user's project: its pins are copies it commits (spec add); verify them, never touch the installed package.
      if (!rootGiven && resolve(process.cwd()) !== packageRoot()) {
        const { verifyProjectPins } = await import("./project-spec.js");
        const problems = verifyProjectPins(process.cwd());
        for (const problem of problems) console.error(`  ${problem}`);
        if (problems.length) return 1;
        console.log("mcp/spec/ verified: every pinned schema matches its sha256 (mcp-codegen's own pinned schemas ship inside its package)");
        return 0;
      }
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
    summary: "pin a new revision: in your project, its schema into mcp/spec/<rev>/ with its sha256 in mcp/spec/pinned.json; in this checkout, into spec/ (and regenerate)",
    options: {
      from: { type: "string", description: "schema.json, its folder, or an http(s) URL of either", placeholder: "url|dir|file" },
      url: { type: "string", description: "the upstream folder URL to record in spec/pinned.json (default: the source's)", placeholder: "url" },
      replace: { type: "boolean", description: "pin other files for a revision that is already pinned" },
      local: { type: "boolean", description: "pin a local source (a clone then needs MCP_SPEC_MIRROR to fetch it)" },
      ...ROOT_OPTION,
    },
    positionals: 1,
    async run({ values, positionals, root, rootGiven }) {
      const [revision, ...extra] = positionals;
      if (revision === undefined || extra.length > 0 || typeof values.from !== "string")
        throw new UsageError("spec add takes one revision and --from: spec add 2026-12-01 --from next/schema.json");
      // In a user's project: pinned into the project, never into the installed package.
      if (!rootGiven && resolve(process.cwd()) !== packageRoot()) return addToProject(root, revision, values.from, values.replace === true);
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

/** `spec add` in a user's project: checked as generation would check it, then pinned under mcp/spec/. */
async function addToProject(root: string, revision: string, from: string, replace: boolean): Promise<number> {
  if (!REVISION_NAME.test(revision)) throw new UsageError(`${JSON.stringify(revision)} is not a usable revision name: use letters, digits, . _ - (e.g. 2026-12-01)`);
  const { pinnedRevisions, readPinned } = await import("./spec/pinned.js");
  const pinned = pinnedRevisions(readPinned(root));
  if (pinned.includes(revision)) throw new Error(`${revision} is pinned with mcp-codegen already: name the new revision otherwise (its protocol version)`);
  const { decide, obtain } = await import("./spec/add.js");
  const source = await obtain(from, revision);
  const text = source.files.get("schema.json")!.toString("utf8");
  const protocol = decide(revision, text, source.description);
  const { emitRevision } = await import("./pipeline.js");
  const { IN_PROJECT } = await import("./emit/module.js");
  await emitRevision(revision, text, IN_PROJECT); // refused here, not at the next generate
  const { addProjectSpec } = await import("./project-spec.js");
  const report = addProjectSpec(process.cwd(), revision, from, text, replace);
  const path = relative(process.cwd(), report.path);
  console.log(`${report.unchanged ? "already pinned" : "pinned"} ${revision} in ${path}  sha256 ${report.sha256}  (${protocol.era} era, ${protocol.definitions.size} definitions)`);
  console.log(`Next: mcp-codegen generate --out src/mcp --revision ${revision}   then: mcp-codegen diff ${pinned.at(-1)} ${revision}`);
  return 0;
}

/** A revision's name becomes a folder name and an export name: keep it to what both allow. */
const REVISION_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** `generate --out` and `check --out`. */
async function generateOut(values: Record<string, unknown>, root: string): Promise<number> {
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
  // --revision R not pinned with mcp-codegen: the project's own pin (spec add in the project).
  if (sources.some((s) => s.schema === undefined)) {
    const { readPinned } = await import("./spec/pinned.js");
    const { projectSchemaPath } = await import("./project-spec.js");
    const pinned = readPinned(root).revisions;
    for (const [i, source] of sources.entries())
      if (source.schema === undefined && !Object.hasOwn(pinned, source.revision)) {
        const schema = projectSchemaPath(process.cwd(), source.revision);
        if (schema === undefined)
          throw new Error(
            `revision ${source.revision} is pinned neither with mcp-codegen (${Object.keys(pinned).join(", ")})${didYouMean(source.revision, Object.keys(pinned))} nor in this project's mcp/spec/: ` +
              `pin it first (mcp-codegen spec add ${source.revision} --from <schema.json or URL>), or give its schema: --schema <file> --name ${source.revision}`,
          );
        sources[i] = { revision: source.revision, schema };
      }
  }
  const { generateOut: run } = await import("./out.js");
  const report = await run({ root, out, sources, extensions, dryRun: false });
  for (const r of report.revisions) console.log(`  ${r.revision}  ${r.era.padEnd(9)}  ${String(r.definitions).padStart(3)} definitions  from ${r.source}`);
  for (const e of report.extensions)
    console.log(`  ${e.folder}  ${e.id} on ${e.core}: ${e.definitions} definitions of its own (${e.imported} restated from ${e.core}, equal), ${e.methods} methods  from ${e.source}`);
  console.log(`  ${out}: ${report.written.length} written, ${report.unchanged.length} unchanged`);
  retiredLines(out, report.retired);
  const { moduleName } = await import("./emit/module.js");
  const index = importPath(join(out, "index.js"));
  console.log(`Serve them: import { ${report.revisions.map((r) => moduleName(r.revision)).join(", ")} } from "${index}" (from the project's root folder; from elsewhere, relative to that file), then createServer({ revisions: [...] })`);
  if (report.extensions.length > 0) {
    const { extensionExportName } = await import("./out.js");
    console.log(`Extensions: import { ${report.extensions.map((e) => extensionExportName(e.id)).join(", ")} } from "${index}", then createServer({ extensions: [...] })`);
  }
  if (existsSync("mcp.server.json")) {
    // A broken manifest is scaffold's to report; here it only hides the hint.
    let listed: unknown = [];
    try {
      listed = (JSON.parse(readFileSync("mcp.server.json", "utf8")) as { revisions?: unknown }).revisions ?? [];
    } catch {}
    const missing = report.revisions.map((r) => r.revision).filter((r) => !(Array.isArray(listed) && listed.includes(r)));
    if (missing.length > 0) console.log(`A scaffolded project: add ${missing.join(", ")} to mcp.server.json's "revisions", then run \`mcp-codegen scaffold .\``);
  }
  return 0;
}

/** A path as an ES module import from the current folder: relative, with `/` and a leading `./`. */
function importPath(path: string): string {
  const relativePath = relative(process.cwd(), resolve(path)).split("\\").join("/");
  return relativePath.startsWith("../") ? relativePath : `./${relativePath}`;
}

/** What generate did with the support files an earlier version copied into `folder`: each removed, or kept with a warning. */
function retiredLines(folder: string, retired: readonly { path: string; remove: boolean; why: string }[]): void {
  for (const { path, remove, why } of retired)
    if (remove) console.log(`  removed ${join(folder, path)}: ${why}`);
    else console.error(`  warning: ${join(folder, path)}: ${why}`);
}

/** Prints whether a generated folder is up to date, and each stale file with why; true when stale. */
function staleness(folder: string, what: string, stale: readonly { path: string; why: string }[], fix: string, name = folder): boolean {
  if (stale.length === 0) {
    console.log(`${name} is up to date (${what}): a fresh generation matches it`);
    return false;
  }
  console.error(`${name} is stale: ${stale.length} ${stale.length === 1 ? "file differs" : "files differ"} from a fresh generation (${what})`);
  for (const { path, why } of stale) console.error(`    ${join(folder, path)}: ${why}`);
  console.error(`Run \`${fix}\` to bring it up to date${stale.some((s) => s.why === "edited by hand") ? " (it overwrites the hand edits: move them out of the generated files first)" : ""}.`);
  return true;
}

/**
 * `check` in a user's project, or in a folder above several (a monorepo): every scaffolded project
 * (mcp.server.json beside src/generated) and its pinned schemas, and every folder written by
 * `generate --out` or `--tools`, found by its `.mcp-codegen.json`. `only` (check --out): that
 * folder alone, whichever of the two wrote it.
 */
async function checkProject(root: string, only?: string): Promise<number> {
  const { findOutRecords, projectFolders, generateOut: run } = await import("./out.js");
  const cwd = process.cwd();
  const folders = only === undefined ? projectFolders(cwd) : [];
  const records = findOutRecords(only === undefined ? folders : [resolve(only)]);
  if (only !== undefined && records.length === 0)
    throw new Error(`${resolve(only)} has no .mcp-codegen.json: it was not written by \`mcp-codegen generate --out\` nor \`--tools\` (run \`mcp-codegen check\` without --out to check every folder that was)`);
  const scaffolded = folders.filter((dir) => existsSync(join(dir, "mcp.server.json")) && existsSync(join(dir, "src", "generated")));
  const pinning = folders.filter((dir) => existsSync(join(dir, "mcp", "spec")));
  if (records.length === 0 && scaffolded.length === 0 && pinning.length === 0) {
    console.error(
      `mcp-codegen check: nothing generated below ${cwd}: no .mcp-codegen.json, which \`generate --out\` and \`generate --tools\` write, and no scaffolded project (mcp.server.json beside src/generated). ` +
        "Run check from your project's folder (or, in the mcp-codegen checkout, give --root).",
    );
    return 1;
  }
  let stale = false;
  const { verifyProjectPins } = await import("./project-spec.js");
  for (const dir of pinning) {
    const folder = relative(cwd, dir);
    for (const problem of verifyProjectPins(dir)) {
      console.error(folder === "" ? problem : `${folder}/${problem}`);
      stale = true;
    }
  }
  if (scaffolded.length > 0) {
    const { checkScaffold } = await import("./scaffold/scaffold.js");
    for (const dir of scaffolded) {
      const folder = relative(cwd, dir) || ".";
      const name = folder === "." ? "src/generated/" : `${folder}/src/generated/`;
      stale = staleness(folder, "with test/stubs.test.ts, as scaffold writes them from mcp.server.json", await checkScaffold(dir, root), `mcp-codegen scaffold ${folder}`, name) || stale;
    }
  }
  for (const record of records) {
    const folder = only ?? (relative(cwd, record.dir) || ".");
    // A support copy left in a folder of both kinds is reported once.
    let reported: readonly string[] = [];
    if (record.revisions.length > 0 || record.extensions.length > 0) {
      const report = await run({ root, out: record.dir, sources: [], dryRun: true });
      const what = [...record.revisions, ...record.extensions].join(", ");
      stale = staleness(folder, what, report.stale, `mcp-codegen generate --out ${folder}`) || stale;
      reported = report.retired.map((c) => c.path);
    }
    if (record.tools !== undefined) {
      const { generateTools: tools } = await import("./tool-validators/generate.js");
      const manifest = relative(cwd, record.tools);
      const report = await tools(record.tools, record.dir, true);
      const unreported = report.stale.filter((s) => !reported.includes(s.path));
      stale = staleness(folder, `the tool validators of ${manifest}`, unreported, `mcp-codegen generate --tools ${manifest} --out ${folder}`) || stale;
    }
  }
  return stale ? 1 : 0;
}

async function generateTools(values: Record<string, unknown>): Promise<number> {
  if (typeof values.out !== "string") throw new UsageError("--tools goes with --out: generate --tools mcp.server.json --out src/generated");
  const { generateTools: run } = await import("./tool-validators/generate.js");
  const remotes = typeof values["tools-remotes"] === "string" ? values["tools-remotes"] : undefined;
  const report = await run(values.tools as string, values.out, false, values["assert-formats"] === true ? true : undefined, remotes);
  console.log(`  ${report.tools} tools compiled into ${join(values.out, "tools.ts")}: ${report.written.length} written, ${report.unchanged.length} unchanged`);
  retiredLines(values.out, report.retired);
  for (const { pointer, format } of report.annotatedFormats) console.log(`  note: format "${format}" at ${pointer} is an annotation: not checked (--assert-formats asserts it, when mcp-codegen implements it)`);
  for (const { pointer, message } of report.warnings) console.error(`  warning: ${values.tools} ${pointer}: ${message}`);
  console.log(`Use them: import { toolValidators } from "${importPath(join(values.out, "tools.js"))}" (from the project's root folder; from elsewhere, relative to that file), then createServer({ toolValidators, ... })`);
  return 0;
}

/** A patch that fits no pinned revision: what it looked for, so someone can revisit it. */
function unusedPatchLine(patch: SchemaPatch): string {
  return `schema patch "${patch.name}" fits no pinned revision: none holds ${JSON.stringify(patch.expect)} at ${patch.pointer} (codegen/load/patches.ts; remove it or fix its pointer)`;
}

/**
 * A revision's schema by name: pinned with this package, else pinned in the user's project
 * (`spec add`, mcp/spec/) or generated into it (`generate --out`, its record).
 */
async function revisionSchema(root: string, revision: string): Promise<string> {
  const { pinnedRevisions, readPinned } = await import("./spec/pinned.js");
  const pinned = readPinned(root);
  if (Object.hasOwn(pinned.revisions, revision)) {
    const { readPinnedSchema } = await import("./generate.js");
    return readPinnedSchema(root, revision);
  }
  const { readProjectSchema } = await import("./project-spec.js");
  const text = readProjectSchema(process.cwd(), revision);
  if (text !== undefined) return text;
  throw new Error(
    `unknown revision ${revision}${didYouMean(revision, pinnedRevisions(pinned))}: not pinned with mcp-codegen (${pinnedRevisions(pinned).join(", ")}), nor pinned (spec add) or generated (generate --out) in ${process.cwd()}. ` +
      `Give its schema instead: mcp-codegen diff <revA> --schema <schema.json>`,
  );
}

function readSchemaArgument(path: string): string {
  if (!existsSync(path)) throw new Error(`--schema ${path}: no such file`);
  const text = readFileSync(path, "utf8");
  parseJson(text, path);
  return text;
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

function specHelp(): string {
  const lines = ["Usage: mcp-codegen spec <command> [options]", "", "The MCP schemas: pinned with mcp-codegen, or pinned in your project.", "", "Commands:"];
  for (const [name, command] of Object.entries(COMMANDS)) if (name.startsWith("spec ")) lines.push(`  ${command.usage.padEnd(44)} ${command.summary}`);
  lines.push("", "Run `mcp-codegen spec <command> --help` for a command's options.");
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
  // `spec` alone, or with an option where its subcommand goes: the spec commands' help.
  if (argv[0] === "spec" && (argv[1] === undefined || argv[1].startsWith("-"))) {
    const asked = argv[1] === "--help" || argv[1] === "-h";
    (asked ? console.log : console.error)(specHelp());
    return asked ? 0 : argv[1] === undefined ? 1 : 2;
  }
  const name = argv[0] === "spec" ? `spec ${argv[1]}` : argv[0];
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
    // Node's text goes on about positionals after `--`: an unknown flag is far likelier a typo.
    const message = unknown === undefined ? (error as Error).message : `unknown option ${unknown}${didYouMean(unknown, Object.keys(command.options).map((option) => `--${option}`))}`;
    console.error(`mcp-codegen ${name}: ${message}\n\n${commandHelp(command)}`);
    return 2;
  }
  if (parsed.values.help) {
    console.log(commandHelp(command));
    return 0;
  }
  const root = resolve((parsed.values.root as string | undefined) ?? global.root ?? packageRoot());
  const rootGiven = parsed.values.root !== undefined || global.root !== undefined;
  if (rootGiven && !existsSync(join(root, "spec", "pinned.json"))) {
    console.error(`mcp-codegen ${name}: --root ${root} is not an mcp-codegen checkout (it has no spec/pinned.json). --root names the checkout whose spec/ and generated/ to use; in your project, run the command from the project's folder without --root.`);
    return 2;
  }
  try {
    return await command.run({ ...parsed, root, rootGiven });
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
