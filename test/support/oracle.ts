/**
 * ajv as the oracle of the generated validators (issue 3): Ajv for draft-07, Ajv2020 for 2020-12,
 * `strict: false`, compiled from the PATCHED schema document (`loadSchema(...).document`, the
 * same input the compiler reads), with the format rules that runtime/support/validation.ts documents:
 *
 * - uri, uri-template: ajv-formats, full mode (its default);
 * - byte: ajv-formats' base64 regular expression, anchored to the whole string (ajv-formats
 *   compiles it with /m, which would also accept "!!!!\nAAAA").
 *
 * A definition the model lifted out of a message (`CallToolRequestParams` in revisions where
 * params are inline) has no place of its own in the document; it is compiled from the pointer
 * it came from, `schema.pointer`, e.g. `#/definitions/CallToolRequest/properties/params`.
 */
import { Ajv, type AnySchema, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule, { type FormatsPlugin } from "ajv-formats";
import { loadSchema } from "../../codegen/load/load.js";
import { buildProtocol } from "../../codegen/model/build.js";
import type { Protocol } from "../../codegen/model/protocol.js";
import { readPinned } from "../../codegen/spec/pinned.js";
import { ROOT, schemaText } from "./project.js";

// ajv-formats is CommonJS with `exports.default`; under NodeNext the default import is the module.
const addFormats: FormatsPlugin = (addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? (addFormatsModule as unknown as FormatsPlugin);

/** ajv-formats' `byte` expression without its /g and /m flags: the whole string must be base64. */
export const BYTE_RULE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** A fresh ajv instance for a dialect, with the project's format rules. */
export function createAjv(dialect: "draft-07" | "2020-12"): Ajv {
  const options = { strict: false, allErrors: false, validateFormats: true } as const;
  const ajv = dialect === "2020-12" ? new Ajv2020(options) : new Ajv(options);
  addFormats(ajv, { mode: "full", formats: ["uri", "uri-template"], keywords: false });
  ajv.addFormat("byte", BYTE_RULE);
  return ajv;
}

export interface Oracle {
  readonly revision: string;
  readonly protocol: Protocol;
  /** The patched document the compiler read; compiled by ajv as a whole. */
  readonly document: Readonly<Record<string, unknown>>;
  /** ajv's validate function for a definition of the model (lifted params included). */
  validator(definition: string): ValidateFunction;
  /** ajv's validate function for any schema node of the document, by pointer (`#/$defs/X/...`). */
  atPointer(pointer: string): ValidateFunction;
}

const oracles = new Map<string, Oracle>();

/**
 * The oracle of one revision, built once per process; or of a pinned extension, by its folder
 * (`extensions/tasks`), whose document ajv compiles on its own, as upstream wrote it.
 */
export function oracleFor(revision: string): Oracle {
  const cached = oracles.get(revision);
  if (cached) return cached;
  const loaded = loadSchema(revision, schemaText(revision));
  const extension = Object.entries(readPinned(ROOT).extensions ?? {}).find(([, entry]) => entry.folder === revision);
  const core = extension?.[1].core;
  const coreSchema = core === undefined ? undefined : loadSchema(core, schemaText(core));
  const protocol =
    extension && core && coreSchema
      ? buildProtocol(loaded, { id: extension[0], folder: revision, core: buildProtocol(loadSchema(core, schemaText(core))), coreSchema })
      : buildProtocol(loaded);
  const id = `https://mcp-codegen.invalid/${revision}/schema.json`;
  const ajv = createAjv(loaded.dialect);
  // The document as loaded (patched), minus any $id of its own, under an id we choose.
  const { $id: _ignored, ...document } = loaded.document as Record<string, unknown>;
  ajv.addSchema(document as AnySchema, id);

  const byPointer = new Map<string, ValidateFunction>();
  const atPointer = (pointer: string): ValidateFunction => {
    let validate = byPointer.get(pointer);
    if (!validate) {
      validate = ajv.getSchema(`${id}${pointer}`);
      if (!validate) throw new Error(`${revision}: ajv cannot resolve ${pointer}`);
      byPointer.set(pointer, validate);
    }
    return validate;
  };
  const validator = (definition: string): ValidateFunction => {
    const found = protocol.definitions.get(definition);
    if (!found) throw new Error(`${revision}: no definition ${definition}`);
    // A named definition lives at #/<definitionsKey>/<name>; a lifted one at the pointer it came from.
    return atPointer(found.liftedFrom !== undefined ? found.schema.pointer : `#/${loaded.definitionsKey}/${definition}`);
  };
  const oracle: Oracle = { revision, protocol, document: loaded.document, validator, atPointer };
  oracles.set(revision, oracle);
  return oracle;
}
