/** Describes Node.js's built-in modules: what each exports, and what kind of thing each export is. */
import { builtinModules, createRequire, isBuiltin } from "node:module";

const require = createRequire(import.meta.url);

export type ExportKind = "class" | "function" | "object" | "string" | "number" | "bigint" | "boolean" | "symbol" | "undefined" | "null";

export interface ModuleDescription {
  readonly name: string;
  readonly exports: readonly { readonly name: string; readonly kind: ExportKind }[];
}

/** The modules a user may ask about: the ones `require` knows without the node: prefix, sorted. */
export function moduleNames(): string[] {
  return builtinModules.filter((name) => !name.startsWith("_")).sort();
}

/** `fs`, `node:fs`, `fs/promises`; undefined when it is not a built-in module. */
export function describeModule(requested: string): ModuleDescription | undefined {
  const name = requested.startsWith("node:") ? requested.slice("node:".length) : requested;
  if (name === "" || name.startsWith("_") || !isBuiltin(`node:${name}`)) return undefined;
  let exported: unknown;
  try {
    exported = require(`node:${name}`);
  } catch {
    return undefined; // listed but not loadable in this process (a flag-gated module)
  }
  const names = typeof exported === "object" || typeof exported === "function" ? Object.keys(exported as object).sort() : [];
  return {
    name,
    exports: names.map((key) => ({ name: key, kind: kindOf((exported as Record<string, unknown>)[key]) })),
  };
}

/**
 * typeof, with classes told apart from functions: class syntax, or a constructor named in
 * PascalCase whose prototype has methods of its own (Node's older classes, like EventEmitter, are
 * plain functions).
 */
function kindOf(value: unknown): ExportKind {
  if (value === null) return "null";
  if (typeof value !== "function") return typeof value as ExportKind;
  if (/^class\b/.test(Function.prototype.toString.call(value))) return "class";
  const prototype = (value as { prototype?: object }).prototype;
  const named = /^[A-Z]/.test((value as { name: string }).name);
  return named && prototype !== undefined && Object.getOwnPropertyNames(prototype).some((p) => p !== "constructor") ? "class" : "function";
}

/** The description as JSON, one export per line. */
export function moduleJson(described: ModuleDescription): string {
  const exports = described.exports.map((entry) => `    ${JSON.stringify(entry)}`).join(",\n");
  return `{\n  "name": ${JSON.stringify(described.name)},\n  "exports": [${exports ? `\n${exports}\n  ` : ""}]\n}\n`;
}
