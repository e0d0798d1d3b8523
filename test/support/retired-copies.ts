/**
 * The support files 0.2.0's `generate --out` and `--tools` copied into a user's folder, rebuilt as
 * it wrote them (its opening comment, below, on today's body), for the upgrade tests.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sha256 } from "../../codegen/spec/files.js";
import { ROOT } from "./project.js";

/** The opening comment of each support file as 0.2.0 copied it (codegen/emit/shared/ then). */
const OLD_COMMENTS: Record<string, string> = {
  "validation.ts": `/*
 * Support for the generated validators of every revision: the issue shape, and the checks that
 * a schema keyword cannot spell inline. mcp-codegen copies this file to generated/validation.ts
 * so that generated code depends on nothing outside generated/.
 */`,
  "method-not-found.ts": `/*
 * Support for the generated handler interfaces of every revision: the error a default handler
 * throws. mcp-codegen copies this file to generated/method-not-found.ts so that generated code
 * depends on nothing outside generated/; one class serves every revision, so \`instanceof\` works
 * whichever revision's defaults threw it.
 */`,
};

export function oldCopy(file: string): string {
  const today = readFileSync(join(ROOT, "runtime", "support", file), "utf8");
  return `${OLD_COMMENTS[file]}${today.slice(today.indexOf("*/") + 2)}`;
}

/** Writes the copies into `folder` and records their sha256 where 0.2.0 did (`files`, or `tools.files`). */
export function plantOldCopies(folder: string, files: readonly string[], where: "files" | "tools"): void {
  const recordPath = join(folder, ".mcp-codegen.json");
  const record = JSON.parse(readFileSync(recordPath, "utf8")) as { files: Record<string, string>; tools?: { files: Record<string, string> } };
  for (const file of files) {
    writeFileSync(join(folder, file), oldCopy(file));
    (where === "files" ? record.files : record.tools!.files)[file] = sha256(oldCopy(file));
  }
  writeFileSync(recordPath, `${JSON.stringify(record, null, 2)}\n`);
}
