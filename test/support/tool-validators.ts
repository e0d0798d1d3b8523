/**
 * Compiles tool schemas with `generate --tools`'s compiler (codegen/tools) and loads the result:
 * the emitted tools.ts and the support it imports (runtime/support/validation.ts, in place of
 * `@mcp-codegen/runtime/support`), transpiled to JavaScript in a temp dir.
 */
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { emitToolValidators } from "../../codegen/tool-validators/emit.js";
import { loadToolSchemas, type ToolSchemaOptions } from "../../codegen/tool-validators/load.js";
import type { CompiledSchema } from "../../runtime/shared/json-schema.js";
import { ROOT, tempDir, type CliRun } from "./project.js";
import { STRICT_FLAGS, tscAsync } from "./tsc.js";

export interface CompiledTools {
  readonly source: string;
  readonly validators: readonly CompiledSchema[];
  readonly dir: string;
}

/** The tools.ts of one manifest of `schemas` (tools t0, t1, ...), importing its support from ./validation.js. */
export function toolsSource(schemas: readonly Record<string, unknown>[], options: ToolSchemaOptions = {}): string {
  const entries = schemas.map((inputSchema, i) => ({ name: `t${i}`, inputSchema }));
  return emitToolValidators("mcp.server.json", entries, loadToolSchemas("mcp.server.json", entries, options), "./validation.js");
}

/** tsc under the strict flags a project may build with, on `source` as `dir`/tools.ts beside its support (runtime/support/validation.ts). */
export function typeCheckTools(source: string, dir: string): Promise<CliRun> {
  writeFileSync(join(dir, "tools.ts"), source);
  copyFileSync(join(ROOT, "runtime", "support", "validation.ts"), join(dir, "validation.ts"));
  writeFileSync(join(dir, "package.json"), '{ "type": "module" }');
  return tscAsync([...STRICT_FLAGS, "tools.ts"], dir);
}

/** One file for all `schemas` (tools t0, t1, ...), as one manifest would give. */
export async function compileToolSchemas(schemas: readonly Record<string, unknown>[], label = "tools", options: ToolSchemaOptions = {}): Promise<CompiledTools> {
  const source = toolsSource(schemas, options);
  const dir = tempDir(label);
  const js = (text: string) => ts.transpileModule(text, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  writeFileSync(join(dir, "validation.js"), js(readFileSync(join(ROOT, "runtime", "support", "validation.ts"), "utf8")));
  writeFileSync(join(dir, "tools.js"), js(source));
  writeFileSync(join(dir, "package.json"), '{ "type": "module" }');
  return { source, dir, validators: await loadCompiledTools(dir, schemas.length) };
}

/** The validators of tools t0 .. t(count - 1) that compileToolSchemas wrote to `dir`, loaded (again, in another process). */
export async function loadCompiledTools(dir: string, count: number): Promise<CompiledSchema[]> {
  const module = (await import(pathToFileURL(join(dir, "tools.js")).href)) as { toolValidators: Record<string, { input: CompiledSchema }> };
  return Array.from({ length: count }, (_, i) => module.toolValidators[`t${i}`]!.input);
}
