import { GenerationError } from "../errors.js";
import { childPointer } from "../../runtime/json-schema/pointer.js";
import { loadDocument } from "../../runtime/json-schema/model/document.js";
import type { Schema } from "../../runtime/json-schema/model/schema.js";
import { pascal } from "../scaffold/manifest.js";
import { JSON_SCHEMA_KEYWORDS } from "../../runtime/json-schema/keywords/vocabulary.js";
import { unknownKeywordMessage } from "../unknown-keywords.js";
import { childrenOf } from "../../runtime/json-schema/keywords/registry.js";

/**
 * The JSON Schemas of a server's tools (`inputSchema`, `outputSchema` of each entry in
 * mcp.server.json), normalised for the validator compiler (`generate --tools`). Each schema is
 * its own document: draft-07 when its `$schema` says so, else 2020-12 (as the runtime's
 * SchemaCompiler decides, or a supplied meta-schema's); its `$defs` / `definitions` are
 * definitions of their own, and a `$ref` or `$dynamicRef` becomes a call of the definition it
 * names (in the schema, or in a remote document the user supplied). Every keyword is read or
 * refused with its pointer into the manifest: a check is never skipped silently.
 */
export interface ToolSchemaEntry {
  readonly name: string;
  readonly inputSchema: Record<string, unknown>;
  readonly outputSchema?: Record<string, unknown>;
}

export interface LoadedTool {
  readonly name: string;
  /** The definition names of the tool's argument and output schemas. */
  readonly input: string;
  readonly output?: string;
}

export interface LoadedToolSchemas {
  readonly tools: readonly LoadedTool[];
  /** Every schema root and every `$defs` entry, by the name its validator functions carry. */
  readonly definitions: ReadonlyMap<string, Schema>;
  /** Formats left as annotations (the default policy, or a format no validator here asserts), listed for the user. */
  readonly annotatedFormats: readonly { readonly pointer: string; readonly format: string }[];
  /** Keywords no JSON Schema dialect defines (a typo, often): ignored, as JSON Schema ignores them, and listed. */
  readonly warnings: readonly { readonly pointer: string; readonly message: string }[];
}


/** Format policy (docs/validators.md, "Formats"): annotations unless `assertFormats`. */
export interface ToolSchemaOptions {
  readonly assertFormats?: boolean;
  /**
   * Documents a `$ref` may name besides the schema itself, by URI (`--tools-remotes <file.json>`,
   * as the runtime's `toolSchemaRemotes`): compiled in with the schemas that refer to them. Nothing is fetched.
   */
  readonly remotes?: Readonly<Record<string, unknown>>;
}

/** `file` names the manifest in errors; `tools` are its entries, `#/tools/<i>` in pointers. */
export function loadToolSchemas(file: string, tools: readonly ToolSchemaEntry[], options: ToolSchemaOptions = {}): LoadedToolSchemas {
  const definitions = new Map<string, Schema>();
  const loaded: LoadedTool[] = [];
  const owner = new Map<string, string>();
  const refused: string[] = [];
  const warnings: { pointer: string; message: string }[] = [];
  const unread = (keyword: string, at: string) => {
    if (JSON_SCHEMA_KEYWORDS.includes(keyword))
      refused.push(`${at}: "${keyword}" is not supported by the build-time validator compiler: rewrite the schema without it, or leave --tools out (the server then checks every tool with its run-time engine)`);
    else warnings.push({ pointer: at, message: unknownKeywordMessage(keyword) });
  };
  const fail = (at: string, reason: string): never => {
    throw new GenerationError(file, at, reason);
  };
  tools.forEach((tool, index) => {
    const base = pascal(tool.name);
    const names: { input: string; output?: string } = { input: "" };
    for (const which of ["inputSchema", "outputSchema"] as const) {
      const raw = tool[which];
      if (raw === undefined) continue;
      const name = `${base}${which === "inputSchema" ? "Input" : "Output"}`;
      const previous = owner.get(name);
      if (previous !== undefined) throw new GenerationError(file, `#/tools/${index}/name`, `tools ${previous} and ${tool.name} would share the validator name ${name}`);
      owner.set(name, tool.name);
      loadDocument(childPointer(`#/tools/${index}`, which), raw, name, definitions, { ...options, remotesOption: "--tools-remotes <file.json>", unread, fail });
      names[which === "inputSchema" ? "input" : "output"] = name;
    }
    loaded.push({ name: tool.name, ...names });
  });
  if (refused.length === 1) throw new GenerationError(file, refused[0]!.slice(0, refused[0]!.indexOf(": ")), refused[0]!.slice(refused[0]!.indexOf(": ") + 2));
  if (refused.length > 1) throw new GenerationError(file, "#/tools", `${refused.length} keywords are not supported:\n    ${refused.join("\n    ")}`);
  const annotatedFormats = [...definitions.values()].flatMap((schema) => formatsOf(schema));
  return { tools: loaded, definitions, annotatedFormats, warnings };
}

function formatsOf(schema: Schema): { pointer: string; format: string }[] {
  const found = schema.annotatedFormat !== undefined ? [{ pointer: `${schema.pointer}/format`, format: schema.annotatedFormat }] : [];
  return [...found, ...childrenOf(schema).flatMap(formatsOf)];
}
