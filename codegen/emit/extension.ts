import { toRoot, type Protocol } from "../model/protocol.js";

/** "MCP 2025-11-25", or "the MCP extension io.modelcontextprotocol/tasks": what a generated file's header names. */
export function title(protocol: Protocol): string {
  return protocol.extension ? `the MCP extension ${protocol.extension.id}` : `MCP ${protocol.revision}`;
}

/**
 * An extension's module takes the definitions it restates from its core revision's `file`
 * (types or validators) and re-exports them, so that it reads as the extension's whole schema.
 */
export function importedFromCore(
  protocol: Protocol,
  file: "types" | "validators",
  importClause: (names: string) => string,
  reexport: (names: string) => string,
): string {
  const imported = [...(protocol.extension?.imported ?? [])];
  if (imported.length === 0) return "";
  const names = file === "types" ? imported : imported.flatMap((name) => [`is${name}`, `check${name}`]);
  const from = JSON.stringify(`${toRoot(protocol)}${protocol.revision}/${file}.js`);
  return `\n${importClause(names.join(", "))} ${from};\n${reexport(names.join(", "))}\n`;
}
