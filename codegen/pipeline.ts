import { GenerationError } from "./errors.js";
import { emitHandlers, HANDLER_EXPORTS } from "./emit/handlers.js";
import { emitModule, IN_REPOSITORY, type ModuleOptions } from "./emit/module.js";
import { emitProtocol, PROTOCOL_EXPORTS } from "./emit/protocol.js";
import { emitRevisionIndex } from "./emit/registry.js";
import { emitTypes } from "./emit/types.js";
import { emitValidators, startupDefinitions } from "./emit/validators.js";
import { loadSchema } from "./load/load.js";
import { SCHEMA_PATCHES, type SchemaPatch } from "./load/patches.js";
import { buildProtocol } from "./model/build.js";
import { folderOf, type Protocol } from "./model/protocol.js";

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
  return emitProtocolFiles(revision, buildProtocol(loaded), loaded.patches, options);
}

/** An extension's schema as read for generation (codegen/load -> codegen/model). */
export interface ExtensionInput {
  /** The extension identifier, e.g. "io.modelcontextprotocol/tasks". */
  readonly id: string;
  /** Its module's folder, relative to the output root, e.g. "extensions/tasks". */
  readonly folder: string;
  /** The schema file, as errors name it. */
  readonly file: string;
  readonly text: string;
  /** The core revision it builds on, and that revision's schema text. */
  readonly core: { readonly revision: string; readonly text: string };
}

/**
 * load -> model -> emit for an extension's schema: the same files as a revision's, into its own
 * folder, with the definitions it restates from its core revision checked equal and imported.
 */
export async function emitExtension(
  input: ExtensionInput,
  options: ModuleOptions = IN_REPOSITORY,
  patches: readonly SchemaPatch[] = SCHEMA_PATCHES,
): Promise<EmittedRevision> {
  const coreSchema = loadSchema(input.core.revision, input.core.text, patches);
  const core = buildProtocol(loadSchema(input.core.revision, input.core.text, patches));
  const loaded = loadSchema(input.file, input.text, patches);
  const protocol = buildProtocol(loaded, { id: input.id, folder: input.folder, core, coreSchema });
  return emitProtocolFiles(input.file, protocol, loaded.patches, options);
}

/** `source` names the schema in errors. */
async function emitProtocolFiles(source: string, protocol: Protocol, patches: readonly string[], options: ModuleOptions): Promise<EmittedRevision> {
  for (const [file, names] of [["protocol.ts", PROTOCOL_EXPORTS], ["handlers.ts", HANDLER_EXPORTS]] as const)
    for (const name of names)
      if (protocol.definitions.has(name))
        throw new GenerationError(source, protocol.definitions.get(name)!.schema.pointer, `definition ${name} collides with a generated export of ${file}`);
  const folder = folderOf(protocol);
  // An extension's methods are served after its core revision's start-up: no startup.ts of its own.
  const startup = protocol.extension ? undefined : startupDefinitions(protocol);
  const files: EmittedFile[] = [
    { path: `${folder}/types.ts`, content: await emitTypes(protocol) },
    { path: `${folder}/protocol.ts`, content: emitProtocol(protocol) },
    { path: `${folder}/validators.ts`, content: emitValidators(protocol, options, undefined, startup), formatted: true },
    ...(startup ? [{ path: `${folder}/startup.ts`, content: emitValidators(protocol, options, startup), formatted: true }] : []),
    { path: `${folder}/handlers.ts`, content: emitHandlers(protocol, options) },
    { path: `${folder}/module.ts`, content: emitModule(protocol, options) },
    { path: `${folder}/index.ts`, content: emitRevisionIndex(protocol) },
  ];
  return { protocol, files, patches };
}
