import { isDeepStrictEqual } from "node:util";
import { GenerationError } from "../errors.js";
import { normalize, isPlainObject } from "./normalize.js";
import { SCHEMA_PATCHES, type SchemaPatch } from "./patches.js";
import { childPointer, pointerTokens } from "./pointer.js";
import type { Dialect, Schema } from "./schema.js";

/** One revision's schema, parsed, patched and normalised. */
export interface LoadedSchema {
  readonly revision: string;
  readonly dialect: Dialect;
  readonly definitionsKey: "definitions" | "$defs";
  /** The patched source document; differential tests compile it with ajv. */
  readonly document: Readonly<Record<string, unknown>>;
  /** In source order. */
  readonly definitions: ReadonlyMap<string, Schema>;
}

const DIALECTS: Readonly<Record<string, { dialect: Dialect; definitionsKey: "definitions" | "$defs" }>> = {
  "http://json-schema.org/draft-07/schema#": { dialect: "draft-07", definitionsKey: "definitions" },
  "http://json-schema.org/draft-07/schema": { dialect: "draft-07", definitionsKey: "definitions" },
  "https://json-schema.org/draft/2020-12/schema": { dialect: "2020-12", definitionsKey: "$defs" },
};

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
  const known = typeof declared === "string" ? DIALECTS[declared] : undefined;
  if (!known)
    throw new GenerationError(
      revision,
      "#/$schema",
      `unknown dialect ${JSON.stringify(declared)} (supported: ${Object.keys(DIALECTS).join(", ")})`,
    );
  const { dialect, definitionsKey } = known;

  for (const patch of patches) if (patch.revision === revision) applyPatch(document, patch);

  const rawDefinitions = document[definitionsKey];
  if (!isPlainObject(rawDefinitions))
    throw new GenerationError(revision, `#/${definitionsKey}`, `a ${dialect} MCP schema keeps its definitions here`);

  const ctx = { revision, dialect, definitionsKey, definitionNames: new Set(Object.keys(rawDefinitions)) };
  const definitions = new Map<string, Schema>();
  for (const [name, raw] of Object.entries(rawDefinitions))
    definitions.set(name, normalize(raw, childPointer(`#/${definitionsKey}`, name), ctx));

  return { revision, dialect, definitionsKey, document, definitions };
}

function applyPatch(document: Record<string, unknown>, patch: SchemaPatch): void {
  const tokens = pointerTokens(patch.pointer);
  const last = tokens.pop();
  let parent: unknown = document;
  for (const token of tokens) parent = isPlainObject(parent) || Array.isArray(parent) ? (parent as never)[token] : undefined;
  const container = parent as Record<string, unknown> | undefined;
  const found = last !== undefined && container !== undefined && container !== null ? container[last] : undefined;
  if (last === undefined || typeof container !== "object" || container === null || !isDeepStrictEqual(found, patch.expect))
    throw new GenerationError(
      patch.revision,
      patch.pointer,
      `schema patch no longer applies: expected ${JSON.stringify(patch.expect)}, found ${JSON.stringify(found)} ` +
        `(patch reason: ${patch.reason})`,
    );
  container[last] = structuredClone(patch.replace);
}
