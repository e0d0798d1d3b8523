/**
 * The checks of mcp.server.json, run before anything is written: its structure against the
 * manifest's own JSON Schema (manifest-schema.ts: unknown keys with "did you mean", types, names),
 * then what a schema cannot say: every tool schema meta-validated in its dialect and compiled (a
 * dangling $ref), `required` naming declared properties, each `example` valid for its schema, and
 * URI templates parsed by the runtime's own RFC 6570 parser. Each problem is a JSON Pointer into
 * the manifest and what to do about it.
 */
import { createRequire } from "node:module";
import type { Ajv, ErrorObject, ValidateFunction } from "ajv";
import { dialectOf, type Dialect } from "../../runtime/json-schema/dialect.js";
import { loadDocument } from "../../runtime/json-schema/model/document.js";
import { newAjv } from "../../runtime/shared/ajv.js";
import { UriTemplate } from "../../runtime/shared/uri-template.js";
import { didYouMean } from "../did-you-mean.js";
import { MANIFEST_SCHEMA } from "./manifest-schema.js";
import { sampleOf } from "./samples.js";

const require = createRequire(import.meta.url);

const escape = (token: string | number) => String(token).replace(/~/g, "~0").replace(/\//g, "~1");
const object = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Problems as `#/pointer: what is wrong; what to do`. `remotes`: documents a tool schema's `$ref` may name (generate --tools-remotes). */
export function checkManifest(raw: Record<string, unknown>, remotes: Readonly<Record<string, unknown>> = {}): string[] {
  const problems = structureProblems(raw);
  for (const kind of ["tools", "resourceTemplates"] as const) {
    const list = raw[kind];
    if (!Array.isArray(list)) continue;
    list.forEach((entry, i) => {
      if (!object(entry)) return;
      const at = `/${kind}/${i}`;
      if (kind === "tools") {
        for (const which of ["inputSchema", "outputSchema"] as const)
          if (object(entry[which])) problems.push(...checkSchema(entry[which], `${at}/${which}`, remotes, ...(which === "inputSchema" ? [entry.example, `${at}/example`] as const : [])));
      }
      if (kind === "resourceTemplates" && typeof entry.uriTemplate === "string")
        try {
          new UriTemplate(entry.uriTemplate);
        } catch (error) {
          problems.push(`#${at}/uriTemplate: ${(error as Error).message}; write RFC 6570 expressions such as {id}, {+path} or {?q,page}`);
        }
    });
  }
  return problems;
}

let manifestValidator: ValidateFunction | undefined;
/** The manifest against MANIFEST_SCHEMA, each ajv error said with the fix the schema describes. */
function structureProblems(raw: Record<string, unknown>): string[] {
  manifestValidator ??= new (require("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js")).Ajv2020({ allErrors: true, verbose: true }).compile(MANIFEST_SCHEMA);
  if (manifestValidator(raw)) return [];
  return (manifestValidator.errors ?? []).map((error) => {
    const parent = (error.parentSchema ?? {}) as { description?: string; properties?: Record<string, { description?: string }> };
    const params = error.params as { additionalProperty?: string; missingProperty?: string; allowedValues?: unknown[]; allowedValue?: unknown; pattern?: string };
    const fix = (description?: string) => (description ? `; ${description[0]!.toLowerCase()}${description.slice(1).replace(/\.$/, "")}` : "");
    const at = `#${error.instancePath}`;
    switch (error.keyword) {
      case "additionalProperties": {
        const key = params.additionalProperty!;
        const allowed = Object.keys(parent.properties ?? {});
        return `${at}/${escape(key)}: unknown key${didYouMean(key, allowed) || `; allowed: ${allowed.join(", ")}`}`;
      }
      case "required":
        return `${at}: "${params.missingProperty}" is missing${fix(parent.properties?.[params.missingProperty!]?.description)}`;
      case "enum": {
        const allowed = (params.allowedValues ?? []).map(String);
        const hint = typeof error.data === "string" ? didYouMean(error.data, allowed) : "";
        return `${at}: ${JSON.stringify(error.data)} is not one of ${allowed.map((v) => JSON.stringify(v)).join(", ")}${hint}`;
      }
      case "const":
        return `${at}: must be ${JSON.stringify(params.allowedValue)}, not ${JSON.stringify(error.data)}${fix(parent.description)}`;
      case "pattern":
        return `${at}: ${JSON.stringify(error.data)} does not match ${params.pattern}${fix(parent.description)}`;
      default:
        return `${at}: ${error.message ?? error.keyword}${fix(parent.description)}`;
    }
  });
}

/** One tool schema: meta-validated in its dialect, compiled, its `required` names declared, its example valid. */
function checkSchema(schema: Record<string, unknown>, at: string, remotes: Readonly<Record<string, unknown>>, example?: unknown, exampleAt?: string): string[] {
  const ajv = ajvFor(schema, remotes);
  if (!ajv.validateSchema(schema)) return mostSpecific(ajv.errors ?? []).map((e) => `#${at}${e.instancePath}: ${metaProblem(e, schema)}`);
  const problems: string[] = [];
  walkObjects(schema, at, (node, pointer) => {
    if (!Array.isArray(node.required) || !object(node.properties)) return;
    const declared = Object.keys(node.properties);
    node.required.forEach((name, i) => {
      if (typeof name === "string" && !declared.includes(name))
        problems.push(`#${pointer}/required/${i}: "${name}" is not one of its properties${didYouMean(name, declared) || ` (${declared.join(", ")})`}`);
    });
  });
  let validate;
  try {
    validate = ajv.compile(schema);
  } catch (error) {
    // Our compiler's loader names the place (the `pattern`, the `$ref`); ajv names only the schema.
    const precise = loaderProblem(schema, at, remotes);
    return [...problems, precise ?? `#${at}: ${(error as Error).message}; every $ref must point into this schema (its $defs or definitions) or into a remote document given to generate --tools-remotes`];
  }
  // A schema that applies itself in place never ends its check: ajv overflows the stack, and our loader names the $ref that closes the loop.
  let endless: string | undefined;
  const valid = (value: unknown): boolean => {
    if (endless !== undefined) return true;
    try {
      return validate(value);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      endless = loaderProblem(schema, at, remotes) ?? `#${at}: checking a value against it never ends (it applies itself in place: a $ref back to a schema that contains it, with no property or item between)`;
      return true;
    }
  };
  if (example !== undefined && !valid(example))
    for (const e of validate.errors ?? []) problems.push(`#${exampleAt}${e.instancePath}: ${instanceProblem(e)}; make the example satisfy its inputSchema`);
  // No example: the generated test sends arguments made from the schema, and they must be valid too.
  if (example === undefined && exampleAt !== undefined) {
    const sample = sampleOf(schema);
    if (!valid(sample)) {
      const first = validate.errors?.[0];
      problems.push(
        `#${exampleAt.slice(0, -"/example".length)}: cannot make arguments that satisfy its inputSchema (tried ${JSON.stringify(sample)}: ` +
          `${first ? `${first.instancePath || "(root)"}: ${instanceProblem(first)}` : "invalid"}); add an "example" with valid arguments to this tool`,
      );
    }
  }
  return endless === undefined ? problems : [...problems, endless];
}

/**
 * What our compiler's loader refuses in a schema, at its pointer into the manifest (a `$ref` that
 * names nothing, a `pattern` that is no regular expression, the `$ref` that closes an in-place
 * loop: the runtime refuses it so at registration); undefined when it accepts the schema.
 */
function loaderProblem(schema: Record<string, unknown>, at: string, remotes: Readonly<Record<string, unknown>>): string | undefined {
  class Refused extends Error {}
  const fail = (where: string, reason: string): never => {
    throw new Refused(`${where}: ${reason}`);
  };
  try {
    loadDocument(`#${at}`, schema, "T", new Map(), { remotes, unknownDialect: "default", remotesOption: "--tools-remotes <file.json>", unread: () => {}, fail });
  } catch (error) {
    if (error instanceof Refused) return error.message;
    throw error;
  }
  return undefined;
}

/**
 * An `anyOf` of the meta-schema (`type`: a name or a list of names; draft-07's `items`: a schema or
 * a list) reports each alternative's errors, then its own. The user gets the errors below its
 * place (every problem of the branch that was meant), else one at its place, an enum first (it
 * says "did you mean"); the other branches' "must be array" and the anyOf itself are dropped.
 */
function mostSpecific(errors: readonly ErrorObject[]): ErrorObject[] {
  const kept: ErrorObject[] = [];
  for (const error of errors) {
    // ajv reports an anyOf's alternatives before it: those at its place or below.
    const alternatives = error.keyword === "anyOf" ? kept.filter((e) => e.instancePath === error.instancePath || e.instancePath.startsWith(`${error.instancePath}/`)) : [];
    if (alternatives.length === 0) {
      kept.push(error);
      continue;
    }
    const below = alternatives.filter((e) => e.instancePath !== error.instancePath);
    const chosen = below.length > 0 ? below : [alternatives.find((e) => e.keyword === "enum") ?? alternatives.find((e) => e.keyword !== "type") ?? alternatives[0]!];
    kept.splice(0, kept.length, ...kept.filter((e) => !alternatives.includes(e) || chosen.includes(e)));
  }
  return kept;
}

function metaProblem(error: ErrorObject, schema: Record<string, unknown>): string {
  const params = error.params as { allowedValues?: unknown[] };
  if (error.keyword === "enum" && Array.isArray(params.allowedValues)) {
    const found = error.instancePath.split("/").slice(1).reduce<unknown>((node, token) => (node as Record<string, unknown>)?.[token.replace(/~1/g, "/").replace(/~0/g, "~")], schema);
    const allowed = params.allowedValues.map(String);
    const hint = typeof found === "string" ? didYouMean(found, allowed) : "";
    return `${JSON.stringify(found)} is not one of ${allowed.map((v) => JSON.stringify(v)).join(", ")}${hint}`;
  }
  return `${error.message ?? error.keyword} (not a valid JSON Schema ${dialectOf(schema)} keyword value)`;
}

function instanceProblem(error: ErrorObject): string {
  const params = error.params as { allowedValues?: unknown[] };
  if (error.keyword === "enum" && Array.isArray(params.allowedValues)) return `must be one of ${params.allowedValues.map((v) => JSON.stringify(v)).join(", ")}`;
  return error.message ?? error.keyword;
}

/** Every object node below a schema, with its pointer (the keywords that hold schemas, and their maps and lists). */
function walkObjects(node: unknown, pointer: string, visit: (node: Record<string, unknown>, pointer: string) => void): void {
  if (Array.isArray(node)) node.forEach((item, i) => walkObjects(item, `${pointer}/${i}`, visit));
  else if (object(node)) {
    visit(node, pointer);
    for (const [key, value] of Object.entries(node)) if (key !== "enum" && key !== "const" && key !== "examples" && key !== "default") walkObjects(value, `${pointer}/${escape(key)}`, visit);
  }
}

const ajvs: Partial<Record<Dialect, Ajv>> = {};
/** ajv in the schema's dialect, set up as the runtime's (runtime/shared/ajv.ts), and meta-validating. */
function ajvFor(schema: Record<string, unknown>, remotes: Readonly<Record<string, unknown>>): Ajv {
  const classes = { Ajv: (require("ajv") as typeof import("ajv")).Ajv, Ajv2020: (require("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js")).Ajv2020 };
  const dialect = dialectOf(schema);
  if (Object.keys(remotes).length === 0) return (ajvs[dialect] ??= newAjv(classes, dialect, { metaValidate: true }));
  // With remotes: an ajv of its own that knows them (not meta-validated here: the compiler reads them).
  const ajv = newAjv(classes, dialect, { metaValidate: true });
  for (const [uri, document] of Object.entries(remotes)) ajv.addSchema(document as object, uri, undefined, false);
  return ajv;
}
