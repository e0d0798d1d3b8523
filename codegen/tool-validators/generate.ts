import { readFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import { supportFiles } from "../generate.js";
import { parseManifest } from "../scaffold/manifest.js";
import { formatFiles, writeFiles } from "../write.js";
import { emitToolValidators } from "./emit.js";
import { loadToolSchemas } from "./load.js";

export interface ToolsReport {
  readonly tools: number;
  readonly written: readonly string[];
  readonly unchanged: readonly string[];
  /** Formats that stay annotations (no validator asserts them), with their pointers. */
  readonly annotatedFormats: readonly { readonly pointer: string; readonly format: string }[];
}

/**
 * `mcp-codegen generate --tools <manifest> --out <dir>`: the tool schemas of mcp.server.json,
 * compiled into <dir>/tools.ts (beside the validation.ts it imports). A keyword the compiler does
 * not support fails with the manifest's name and the keyword's JSON Pointer; nothing is written.
 */
export async function generateTools(manifestPath: string, out: string): Promise<ToolsReport> {
  const file = basename(manifestPath);
  const manifest = parseManifest(readFileSync(manifestPath, "utf8"), manifestPath);
  const loaded = loadToolSchemas(file, manifest.tools);
  const tools = { path: "tools.ts", content: emitToolValidators(file, manifest.tools, loaded) };
  const formatted = await formatFiles([tools, ...supportFiles().filter((f) => f.path === "validation.ts")]);
  const { written, unchanged } = writeFiles(resolve(out), formatted);
  return { tools: manifest.tools.length, written, unchanged, annotatedFormats: loaded.annotatedFormats };
}
