import type { Ajv } from "ajv";
import type { Ajv2020 } from "ajv/dist/2020.js";
import type { Logger } from "../util/logger.js";
import type { Dialect } from "../json-schema/dialect.js";

/** ajv's two classes: draft-07's (`ajv`) and 2020-12's (`ajv/dist/2020.js`); the caller loads them (require, or import on first use). */
export interface AjvClasses {
  readonly Ajv: new (options: object) => Ajv;
  readonly Ajv2020: new (options: object) => Ajv2020;
}

export interface AjvSetup {
  /** Where ajv's warnings go (debug) and its errors (warn); ajv's own console logger without. */
  readonly logger?: Logger;
  /** Formats to assert, by name; any other format is an annotation. */
  readonly formats?: Readonly<Record<string, (value: string) => boolean>>;
  /** Check each schema against its dialect's meta-schema, and assert no format (the manifest check); else neither (the runtime). */
  readonly metaValidate?: boolean;
}

/**
 * One ajv for a dialect, set up once for everything that runs ajv: the runtime's tool schemas
 * (shared/json-schema.ts) and the generator's manifest check. Not strict: MCP schemas carry
 * annotations ajv does not know; every error, not the first.
 */
export function newAjv(classes: AjvClasses, dialect: Dialect, setup: AjvSetup = {}): Ajv {
  const { logger, formats = {}, metaValidate = false } = setup;
  const ajv = new (dialect === "draft-07" ? classes.Ajv : classes.Ajv2020)({
    strict: false,
    allErrors: true,
    ...(metaValidate ? { validateFormats: false } : { validateSchema: false }),
    ...(logger && { logger: { log: () => {}, warn: (message: string) => logger("debug", `ajv: ${message}`), error: (message: string) => logger("warn", `ajv: ${message}`) } }),
  }) as Ajv;
  for (const [name, check] of Object.entries(formats)) ajv.addFormat(name, check);
  return ajv;
}
