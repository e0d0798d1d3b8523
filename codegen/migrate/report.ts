import { join, relative } from "node:path";
import type { MigrateReport } from "./migrate.js";

/** The report `migrate` prints: per file, what changed and each manual step by line; with --dry-run, the diff first. */
export function printMigrateReport(report: MigrateReport, dryRun: boolean): string {
  const lines: string[] = [];
  const where = relative(process.cwd(), report.dir) || ".";
  if (report.files.length === 0) return `${where}: no file imports the SDK's server (@modelcontextprotocol/sdk, @modelcontextprotocol/server): nothing to migrate`;
  if (dryRun) for (const file of report.files) if (file.diff) lines.push(file.diff);
  let steps = 0;
  for (const migrated of report.files) {
    // Paths from where the command runs, so that file:line opens in an editor or terminal.
    const file = { ...migrated, path: relative(process.cwd(), join(report.dir, migrated.path)) || migrated.path };
    if (file.skipped !== undefined) {
      lines.push(`${file.path}: not rewritten: ${file.skipped}`);
      continue;
    }
    const verb = file.diff === "" ? "unchanged" : dryRun ? "would rewrite" : "rewrote";
    lines.push(`${file.path}: ${verb} (${file.rewrites} rewrite${file.rewrites === 1 ? "" : "s"}, ${file.steps.length} manual step${file.steps.length === 1 ? "" : "s"})`);
    for (const step of file.steps) lines.push(`  ${file.path}:${step.line}:${step.column}: manual: ${step.what}: ${step.todo}`);
    for (const note of file.notes) lines.push(`  ${file.path}:${note.line}: note: ${note.message}`);
    steps += file.steps.length;
  }
  for (const warning of report.warnings) lines.push(`warning: ${warning}`);
  const changed = report.files.filter((f) => f.diff !== "").length;
  lines.push(
    `${dryRun ? "would rewrite" : "rewrote"} ${changed} of ${report.files.length} file${report.files.length === 1 ? "" : "s"}; ` +
      (steps === 0
        ? "no manual step left. Next: npm install @mcp-codegen/runtime zod@4, then type-check and run your tests"
        : `${steps} manual step${steps === 1 ? "" : "s"} left, each marked in the code with TODO(mcp-codegen migrate) (docs/migrate-from-sdk.md says how)`),
  );
  return lines.join("\n");
}
