import { GenerationError } from "./errors.js";
import { emitHandlers, HANDLER_EXPORTS } from "./emit/handlers.js";
import { emitModule, IN_REPOSITORY, type ModuleOptions } from "./emit/module.js";
import { emitProtocol, PROTOCOL_EXPORTS } from "./emit/protocol.js";
import { emitRevisionIndex } from "./emit/registry.js";
import { emitTypes } from "./emit/types.js";
import { emitValidators } from "./emit/validators.js";
import { loadSchema } from "./load/load.js";
import { SCHEMA_PATCHES, type SchemaPatch } from "./load/patches.js";
import { buildProtocol } from "./model/build.js";
import type { Protocol } from "./model/protocol.js";

export interface EmittedFile {
  /** Relative to generated/. */
  readonly path: string;
  readonly content: string;
  /**
   * Emitted already formatted (code-block-writer), so prettier is skipped: validators.ts is
   * 1.3 MB over five revisions and prettier would triple the time of a cold generate.
   */
  readonly formatted?: boolean;
}

export interface EmittedRevision {
  readonly protocol: Protocol;
  readonly files: readonly EmittedFile[];
  /** The asserted patches the schema carried (codegen/load/patches.ts). */
  readonly patches: readonly string[];
}

/** load -> model -> emit for one revision, entirely in memory; `patches` for fixtures. */
export async function emitRevision(
  revision: string,
  schemaText: string,
  options: ModuleOptions = IN_REPOSITORY,
  patches: readonly SchemaPatch[] = SCHEMA_PATCHES,
): Promise<EmittedRevision> {
  const loaded = loadSchema(revision, schemaText, patches);
  const protocol = buildProtocol(loaded);
  for (const [file, names] of [["protocol.ts", PROTOCOL_EXPORTS], ["handlers.ts", HANDLER_EXPORTS]] as const)
    for (const name of names)
      if (protocol.definitions.has(name))
        throw new GenerationError(revision, protocol.definitions.get(name)!.schema.pointer, `definition ${name} collides with a generated export of ${file}`);
  const files: EmittedFile[] = [
    { path: `${revision}/types.ts`, content: await emitTypes(protocol) },
    { path: `${revision}/protocol.ts`, content: emitProtocol(protocol) },
    { path: `${revision}/validators.ts`, content: emitValidators(protocol), formatted: true },
    { path: `${revision}/handlers.ts`, content: emitHandlers(protocol) },
    { path: `${revision}/module.ts`, content: emitModule(protocol, options) },
    { path: `${revision}/index.ts`, content: emitRevisionIndex(protocol) },
  ];
  return { protocol, files, patches: loaded.patches };
}
