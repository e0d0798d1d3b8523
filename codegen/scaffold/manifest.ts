import { parseJson } from "../json.js";
import { checkManifest } from "./manifest-check.js";
import { MANIFEST_SCHEMA_REF } from "./manifest-schema.js";

/**
 * mcp.server.json: what a scaffolded server declares. The user edits it; `mcp-codegen scaffold`
 * turns it into typed argument interfaces, the registration code and one stub per entry.
 */

export type Transport = "stdio" | "http";

export interface ToolEntry {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  /** A JSON Schema for the arguments (an object schema). */
  readonly inputSchema: Record<string, unknown>;
  /** A JSON Schema for structuredContent, when the tool returns structured output. */
  readonly outputSchema?: Record<string, unknown>;
  readonly annotations?: Record<string, unknown>;
}

export interface ResourceEntry {
  readonly name: string;
  readonly uri: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
}

export interface TemplateEntry {
  readonly name: string;
  readonly uriTemplate: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
}

export interface PromptEntry {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly arguments?: readonly { readonly name: string; readonly description?: string; readonly required?: boolean }[];
}

export interface Manifest {
  /** mcp.server.json's JSON Schema, for editors (manifest-schema.ts). */
  readonly $schema?: string;
  readonly name: string;
  readonly version: string;
  readonly description?: string;
  /** MCP revisions to speak; default: every revision the runtime has. */
  readonly revisions?: readonly string[];
  readonly transport: Transport;
  readonly tools: readonly ToolEntry[];
  readonly resources: readonly ResourceEntry[];
  readonly resourceTemplates: readonly TemplateEntry[];
  readonly prompts: readonly PromptEntry[];
}

export const MANIFEST_FILE = "mcp.server.json";

/** The kinds of entry, each with its folder of stubs under src/. */
export const KINDS = {
  tools: { folder: "tools", label: "tool" },
  resources: { folder: "resources", label: "resource" },
  resourceTemplates: { folder: "templates", label: "resource template" },
  prompts: { folder: "prompts", label: "prompt" },
} as const;
export type Kind = keyof typeof KINDS;

/** A new project's manifest: one entry of each kind, to show the shape. */
export function starterManifest(name: string, transport: Transport, revisions?: readonly string[]): Manifest {
  return {
    $schema: MANIFEST_SCHEMA_REF,
    name,
    version: "0.1.0",
    description: `The ${name} MCP server.`,
    ...(revisions?.length ? { revisions } : {}),
    transport,
    tools: [
      {
        name: "echo",
        description: "Echoes a message back, a number of times.",
        inputSchema: {
          type: "object",
          properties: {
            message: { type: "string", description: "What to echo." },
            times: { type: "integer", minimum: 1, maximum: 10, description: "How many times (default 1)." },
          },
          required: ["message"],
        },
      },
    ],
    resources: [{ name: "readme", uri: `${slug(name)}://readme`, mimeType: "text/plain", description: "What this server does." }],
    resourceTemplates: [{ name: "note", uriTemplate: `${slug(name)}://notes/{id}`, mimeType: "text/plain", description: "A note, by id." }],
    prompts: [
      {
        name: "summarize",
        description: "Asks the model to summarize a text.",
        arguments: [
          { name: "text", description: "The text to summarize.", required: true },
          { name: "style", description: "bullet points or prose" },
        ],
      },
    ],
  };
}

/** Reads and checks a manifest: every problem is named with its place, before anything is written. */
export function parseManifest(text: string, where: string, remotes?: Readonly<Record<string, unknown>>): Manifest {
  const raw = parseJson(text, where);
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new Error(`${where} must hold a JSON object`);
  const problems = checkManifest(raw as Record<string, unknown>, remotes);
  if (!problems.length) {
    const manifest = { transport: "stdio", ...raw, ...Object.fromEntries(Object.keys(KINDS).map((kind) => [kind, (raw as Record<string, unknown>)[kind] ?? []])) } as unknown as Manifest;
    // What a JSON Schema cannot say: names unique per kind, and no two sharing a stub file.
    for (const kind of Object.keys(KINDS) as Kind[]) {
      const seen = new Map<string, string>();
      manifest[kind].forEach((entry, i) => {
        const file = fileName(entry.name);
        const other = seen.get(file);
        if (other === entry.name) problems.push(`#/${kind}/${i}/name: ${entry.name} is declared twice; rename one`);
        else if (other !== undefined) problems.push(`#/${kind}/${i}/name: ${other} and ${entry.name} would share the stub file ${file}.ts and the type ${pascal(entry.name)}; rename one`);
        seen.set(file, entry.name);
      });
    }
    if (!problems.length) return manifest;
  }
  throw new Error(`${where} has ${problems.length} problem${problems.length === 1 ? "" : "s"} (nothing was changed):\n  ${problems.join("\n  ")}`);
}

/** Words of a name: get_weather, get-weather, getWeather, get.weather -> get, weather. */
function words(name: string): string[] {
  return name
    .split(/[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

export function pascal(name: string): string {
  const joined = words(name).map((w) => w[0]!.toUpperCase() + w.slice(1)).join("");
  return /^[0-9]/.test(joined) ? `N${joined}` : joined || "Unnamed";
}

export function camel(name: string): string {
  const p = pascal(name);
  return p[0]!.toLowerCase() + p.slice(1);
}

/** The stub's file name (without .ts): the entry's name, kebab-cased. */
export function fileName(name: string): string {
  return words(name).join("-") || "unnamed";
}

export function slug(name: string): string {
  return fileName(name);
}
