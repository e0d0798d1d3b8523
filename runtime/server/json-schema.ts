import { createRequire } from "node:module";
import type { Ajv, ErrorObject, ValidateFunction } from "ajv";
import type { Ajv2020 } from "ajv/dist/2020.js";
import { isByte, isUri, isUriTemplate } from "../../generated/validation.js";
import type { Logger } from "../util/logger.js";

const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;
/** ajv is CommonJS: required on first use, one dialect at a time, so a server starts without it. */
const require = createRequire(import.meta.url);

/**
 * Compiles the JSON Schemas users give their tools, once each. The dialect follows
 * `$schema`: draft-07 when it says so, 2020-12 otherwise (MCP's default since 2025-11-25).
 *
 * Schemas are not validated against the dialect's meta-schema (`validateSchema: false`): ajv
 * still refuses, as it compiles, every keyword whose value has the wrong type or shape (a
 * `required` that is not an array, an unknown type, a bad pattern, an unresolved $ref), and
 * compiling the meta-schema first would add ~30 ms to every server's start.
 *
 * Formats: byte, uri and uri-template are checked by the same rules as the protocol's own
 * validators; other formats are annotations, as JSON Schema 2020-12 defines them by default.
 */
export class SchemaCompiler {
  private draft07?: Ajv;
  private draft2020?: Ajv2020;

  constructor(private readonly logger: Logger) {}

  compile(schema: Record<string, unknown>): ValidateFunction {
    const ajv =
      typeof schema.$schema === "string" && DRAFT_07.test(schema.$schema)
        ? (this.draft07 ??= this.create((require("ajv") as typeof import("ajv")).Ajv))
        : (this.draft2020 ??= this.create((require("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js")).Ajv2020));
    return ajv.compile(schema);
  }

  private create<A extends Ajv | Ajv2020>(Kind: new (options: object) => A): A {
    const ajv = new Kind({
      strict: false,
      allErrors: true,
      validateSchema: false,
      logger: { log: () => {}, warn: (message: string) => this.logger("debug", `ajv: ${message}`), error: (message: string) => this.logger("warn", `ajv: ${message}`) },
    });
    ajv.addFormat("byte", isByte);
    ajv.addFormat("uri", isUri);
    ajv.addFormat("uri-template", isUriTemplate);
    return ajv;
  }
}

/** "/location: must be string; /priority: must be one of \"low\", \"high\"; (root): must have required property 'city'". */
export function describeErrors(errors: readonly ErrorObject[] | null | undefined): string {
  return (errors ?? []).map((e) => `${e.instancePath || "(root)"}: ${describeError(e)}`).join("; ");
}

/** ajv's message, with the allowed values where it only says that there are some. */
function describeError(error: ErrorObject): string {
  const params = error.params as { allowedValues?: unknown[]; allowedValue?: unknown };
  if (error.keyword === "enum" && Array.isArray(params.allowedValues)) return `must be one of ${params.allowedValues.map((v) => JSON.stringify(v)).join(", ")}`;
  if (error.keyword === "const") return `must be ${JSON.stringify(params.allowedValue)}`;
  return error.message ?? error.keyword;
}
