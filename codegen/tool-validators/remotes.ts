import { existsSync, readFileSync } from "node:fs";
import { GenerationError } from "../errors.js";
import { parseJson } from "../json.js";
import { childPointer } from "../../runtime/json-schema/pointer.js";
import { sha256 } from "../spec/files.js";

/**
 * The remotes file of `generate --tools --tools-remotes <file.json>`: a JSON object from absolute
 * URI to the schema found there, as the runtime's `toolSchemaRemotes` takes them. A `$ref` of a
 * tool schema may name these documents; nothing is ever fetched.
 */
export function readRemotes(path: string): { readonly documents: Readonly<Record<string, unknown>>; readonly sha256: string } {
  if (!existsSync(path)) throw new Error(`${path}: no such remotes file (--tools-remotes takes a JSON object from URI to schema)`);
  const text = readFileSync(path, "utf8");
  const documents = parseJson(text, path);
  if (typeof documents !== "object" || documents === null || Array.isArray(documents))
    throw new GenerationError(path, "#", "the remotes file must hold a JSON object from URI to schema: { \"https://example.com/s.json\": { ... } }");
  for (const [uri, schema] of Object.entries(documents)) {
    if (!/^[a-z][a-z0-9+.-]*:/i.test(uri) || uri.includes("#")) throw new GenerationError(path, childPointer("#", uri), `${JSON.stringify(uri)} is not an absolute URI without a fragment`);
    if (typeof schema !== "boolean" && (typeof schema !== "object" || schema === null || Array.isArray(schema))) throw new GenerationError(path, childPointer("#", uri), "a schema must be a JSON object or a boolean");
  }
  return { documents: documents as Record<string, unknown>, sha256: sha256(text) };
}
