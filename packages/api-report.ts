/**
 * The public API of @mcp-codegen/runtime, one report per entry point of its `exports`
 * (packages/runtime/api/<entry>.api.md), written by API Extractor from the .d.ts files of the
 * staged package (`make pack`). A change to the public API is then a reviewable diff, and
 * `make test` fails on one that was not written down.
 *
 *   node --import tsx packages/api-report.ts            check every report (exit 1 on a difference)
 *   node --import tsx packages/api-report.ts --update   rewrite the reports; review and commit the diff
 *
 * The `/revisions/*` and `/extensions/*` entries are generated from the pinned schemas and follow
 * them, so they have no report: the schema.ts lockstep test holds them to upstream.
 */
import { Extractor, ExtractorConfig, ExtractorLogLevel, type ExtractorMessage } from "@microsoft/api-extractor";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const REPORTS = join(ROOT, "packages", "runtime", "api");
const STAGE = join(ROOT, "pack", "staging", "runtime");
const TEMP = join(ROOT, "pack", "api-report");

export interface ReportResult {
  /** The export's key, e.g. "./http". */
  readonly entry: string;
  /** packages/runtime/api/<name>.api.md */
  readonly report: string;
  /** The report as this build would write it, when it differs from the committed one. */
  readonly changed?: string;
  /** API Extractor's errors (an unresolvable type, a missing file). */
  readonly errors: readonly string[];
}

/** Each exported entry point with a .d.ts of its own: its key, the report's name, the .d.ts. */
export function reportedEntries(manifest: { exports?: Record<string, unknown> }): { entry: string; name: string; types: string }[] {
  return Object.entries(manifest.exports ?? {}).flatMap(([entry, target]) => {
    const types = typeof target === "object" && target !== null ? (target as { types?: string }).types : undefined;
    if (!types || entry.includes("*")) return [];
    return [{ entry, name: entry === "." ? "index" : entry.slice(2).replaceAll("/", "-"), types: types.replace(/^\.\//, "") }];
  });
}

/** Checks (or with `update`, rewrites) the report of every entry point of the staged package. */
export function apiReports(update: boolean): ReportResult[] {
  if (!existsSync(join(STAGE, "package.json"))) throw new Error("pack/staging/runtime is missing: run `make pack` first");
  const manifest = JSON.parse(readFileSync(join(STAGE, "package.json"), "utf8")) as { exports?: Record<string, unknown> };
  mkdirSync(REPORTS, { recursive: true });
  return reportedEntries(manifest).map(({ entry, name, types }) => {
    const errors: string[] = [];
    const config = ExtractorConfig.prepare({
      configObject: {
        projectFolder: STAGE,
        mainEntryPointFilePath: `<projectFolder>/${types}`,
        compiler: {
          overrideTsconfig: {
            compilerOptions: { target: "ES2022", lib: ["ES2023", "DOM"], module: "nodenext", moduleResolution: "nodenext", strict: true, types: ["node"], typeRoots: [join(ROOT, "node_modules", "@types")] },
            files: [join(STAGE, types)],
          },
        },
        apiReport: { enabled: true, reportFileName: `${name}.api.md`, reportFolder: REPORTS, reportTempFolder: TEMP },
        docModel: { enabled: false },
        dtsRollup: { enabled: false },
        tsdocMetadata: { enabled: false },
        messages: {
          // The report is the contract; documentation and its links are TypeDoc's concern.
          extractorMessageReporting: { default: { logLevel: ExtractorLogLevel.Error }, "ae-forgotten-export": { logLevel: ExtractorLogLevel.None }, "ae-missing-release-tag": { logLevel: ExtractorLogLevel.None }, "ae-undocumented": { logLevel: ExtractorLogLevel.None }, "ae-unresolved-link": { logLevel: ExtractorLogLevel.None } },
          tsdocMessageReporting: { default: { logLevel: ExtractorLogLevel.None } },
          compilerMessageReporting: { default: { logLevel: ExtractorLogLevel.Error } },
        },
      },
      configObjectFullPath: undefined,
      packageJsonFullPath: join(STAGE, "package.json"),
    });
    const result = Extractor.invoke(config, {
      localBuild: update,
      messageCallback: (message: ExtractorMessage) => {
        if (message.logLevel === ExtractorLogLevel.Error) errors.push(message.formatMessageWithLocation(STAGE));
        message.handled = true;
      },
    });
    const report = join(REPORTS, `${name}.api.md`);
    return { entry, report, errors, ...(result.apiReportChanged && !update ? { changed: join(TEMP, `${name}.api.md`) } : {}) };
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const update = process.argv.includes("--update");
  let failed = false;
  for (const { entry, report, changed, errors } of apiReports(update)) {
    for (const error of errors) console.error(`api-report: ${entry}: ${error}`);
    if (changed) console.error(`api-report: the public API of @mcp-codegen/runtime${entry.slice(1)} changed: diff ${report} ${changed}; if the change is meant, run \`make api-report\` and commit the report (and a changeset)`);
    else if (errors.length === 0) console.log(`api-report: ${entry}: ${update ? "written" : "unchanged"} (${report.slice(ROOT.length + 1)})`);
    failed ||= Boolean(changed) || errors.length > 0;
  }
  process.exit(failed ? 1 : 0);
}
