import { isDeepStrictEqual } from "node:util";
import { GenerationError } from "../errors.js";
import { repairDocLinks } from "./doc-links.js";
import { normalize, isPlainObject } from "../../runtime/json-schema/model/normalize.js";
import { SCHEMA_PATCHES, type SchemaPatch } from "./patches.js";
import { childPointer, pointerTokens } from "../../runtime/json-schema/pointer.js";
import type { Dialect, Schema } from "../../runtime/json-schema/model/schema.js";
import { DEFINITIONS_KEY, dialectNamed } from "../../runtime/json-schema/dialect.js";

/** One revision's schema, parsed, patched and normalised. */
export interface LoadedSchema {
  readonly revision: string;
  readonly dialect: Dialect;
  readonly definitionsKey: "definitions" | "$defs";
  /** The patched source document; differential tests compile it with ajv. */
  readonly document: Readonly<Record<string, unknown>>;
  /** In source order. */
  readonly definitions: ReadonlyMap<string, Schema>;
  /** The names of the asserted patches this schema carried (its content matched theirs). */
  readonly patches: readonly string[];
}

export function loadSchema(
  revision: string,
  text: string,
  patches: readonly SchemaPatch[] = SCHEMA_PATCHES,
): LoadedSchema {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new GenerationError(revision, "#", `not valid JSON: ${(error as Error).message}`);
  }
  if (!isPlainObject(document)) throw new GenerationError(revision, "#", "the schema is not a JSON object");

  const declared = document.$schema;
  const dialect = dialectNamed(declared);
  if (!dialect)
    throw new GenerationError(
      revision,
      "#/$schema",
      declared === undefined ? "missing: an MCP revision's schema.json names its JSON Schema dialect (draft-07 or 2020-12)" : `unknown dialect ${JSON.stringify(declared)} (supported: draft-07, 2020-12)`,
    );
  const definitionsKey = DEFINITIONS_KEY[dialect];

  const carried = patches.filter((patch) => applyPatch(document, patch)).map((patch) => patch.name);

  const rawDefinitions = document[definitionsKey];
  if (!isPlainObject(rawDefinitions))
    throw new GenerationError(revision, `#/${definitionsKey}`, `a ${dialect} MCP schema keeps its definitions here`);

  const definitionNames = new Set(Object.keys(rawDefinitions));
  const ctx = {
    fail: (at: string, reason: string): never => {
      throw new GenerationError(revision, at, reason);
    },
    description: (text: string) => repairDocLinks(text, definitionNames),
    dialect,
    definitionsKey,
    definitionNames,
    declared: declared as string,
  };
  const definitions = new Map<string, Schema>();
  for (const [name, raw] of Object.entries(rawDefinitions))
    definitions.set(name, normalize(raw, childPointer(`#/${definitionsKey}`, name), ctx));

  return { revision, dialect, definitionsKey, document, definitions, patches: carried };
}

/** Rewrites the node when it holds exactly what the patch expects; says whether it did. */
function applyPatch(document: Record<string, unknown>, patch: SchemaPatch): boolean {
  const tokens = pointerTokens(patch.pointer);
  const last = tokens.pop();
  let parent: unknown = document;
  for (const token of tokens) parent = isPlainObject(parent) || Array.isArray(parent) ? (parent as never)[token] : undefined;
  if (last === undefined || !(isPlainObject(parent) || Array.isArray(parent))) return false;
  const container = parent as Record<string, unknown>;
  if (!Object.hasOwn(container, last) || !isDeepStrictEqual(container[last], patch.expect)) return false;
  container[last] = structuredClone(patch.replace);
  return true;
}
