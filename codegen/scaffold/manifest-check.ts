/**
 * The deeper checks of mcp.server.json, run before anything is written: unknown keys (with "did
 * you mean"), every tool schema meta-validated in its dialect and compiled (a dangling $ref),
 * `required` naming declared properties, each `example` valid for its schema, and URI templates
 * parsed by the runtime's own RFC 6570 parser. Each problem is a JSON Pointer into the manifest
 * and what to do about it.
 */
import { createRequire } from "node:module";
import type { Ajv, ErrorObject } from "ajv";
import { UriTemplate } from "../../runtime/server/uri-template.js";
import { didYouMean } from "../did-you-mean.js";
import { sampleOf } from "./samples.js";

const require = createRequire(import.meta.url);
const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;

/** The keys each part of the manifest may have (the protocol's fields, plus `example`). */
export const MANIFEST_KEYS = {
  top: ["$schema", "name", "version", "description", "revisions", "transport", "tools", "resources", "resourceTemplates", "prompts"],
  tools: ["name", "title", "description", "inputSchema", "outputSchema", "annotations", "icons", "execution", "_meta", "example"],
  resources: ["name", "uri", "title", "description", "mimeType", "size", "annotations", "icons", "_meta"],
  resourceTemplates: ["name", "uriTemplate", "title", "description", "mimeType", "annotations", "icons", "_meta", "example"],
  prompts: ["name", "title", "description", "arguments", "icons", "_meta", "example"],
} as const;

const escape = (token: string | number) => String(token).replace(/~/g, "~0").replace(/\//g, "~1");
const object = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Problems as `#/pointer: what is wrong; what to do`. */
export function checkManifestDeeply(raw: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const unknownKeys = (value: Record<string, unknown>, allowed: readonly string[], at: string) => {
    for (const key of Object.keys(value))
      if (!allowed.includes(key)) problems.push(`#${at}/${escape(key)}: unknown key${didYouMean(key, allowed) || `; allowed: ${allowed.join(", ")}`}`);
  };
  unknownKeys(raw, MANIFEST_KEYS.top, "");
  for (const kind of ["tools", "resources", "resourceTemplates", "prompts"] as const) {
    const list = raw[kind];
    if (!Array.isArray(list)) continue;
    list.forEach((entry, i) => {
      if (!object(entry)) return;
      const at = `/${kind}/${i}`;
      unknownKeys(entry, MANIFEST_KEYS[kind], at);
      if (kind === "tools") {
        for (const which of ["inputSchema", "outputSchema"] as const)
          if (object(entry[which])) problems.push(...checkSchema(entry[which], `${at}/${which}`, ...(which === "inputSchema" ? [entry.example, `${at}/example`] as const : [])));
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

/** One tool schema: meta-validated in its dialect, compiled, its `required` names declared, its example valid. */
function checkSchema(schema: Record<string, unknown>, at: string, example?: unknown, exampleAt?: string): string[] {
  const ajv = ajvFor(schema);
  if (!ajv.validateSchema(schema)) return (ajv.errors ?? []).map((e) => `#${at}${e.instancePath}: ${metaProblem(e, schema)}`);
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
    return [...problems, `#${at}: ${(error as Error).message}; every $ref must point into this schema (its $defs or definitions)`];
  }
  if (example !== undefined && !validate(example))
    for (const e of validate.errors ?? []) problems.push(`#${exampleAt}${e.instancePath}: ${instanceProblem(e)}; make the example satisfy its inputSchema`);
  // No example: the generated test sends arguments made from the schema, and they must be valid too.
  if (example === undefined && exampleAt !== undefined) {
    const sample = sampleOf(schema);
    if (!validate(sample)) {
      const first = validate.errors?.[0];
      problems.push(
        `#${exampleAt.slice(0, -"/example".length)}: cannot make arguments that satisfy its inputSchema (tried ${JSON.stringify(sample)}: ` +
          `${first ? `${first.instancePath || "(root)"}: ${instanceProblem(first)}` : "invalid"}); add an "example" with valid arguments to this tool`,
      );
    }
  }
  return problems;
}

function metaProblem(error: ErrorObject, schema: Record<string, unknown>): string {
  const params = error.params as { allowedValues?: unknown[] };
  if (error.keyword === "enum" && Array.isArray(params.allowedValues)) {
    const found = error.instancePath.split("/").slice(1).reduce<unknown>((node, token) => (node as Record<string, unknown>)?.[token.replace(/~1/g, "/").replace(/~0/g, "~")], schema);
    const allowed = params.allowedValues.map(String);
    const hint = typeof found === "string" ? didYouMean(found, allowed) : "";
    return `${JSON.stringify(found)} is not one of ${allowed.map((v) => JSON.stringify(v)).join(", ")}${hint}`;
  }
  return `${error.message ?? error.keyword} (not a valid JSON Schema ${error.schemaPath.includes("draft-07") ? "draft-07" : "2020-12"} keyword value)`;
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

let draft07: Ajv | undefined;
let draft2020: Ajv | undefined;
/** ajv in the schema's dialect, as the runtime compiles it (runtime/server/json-schema.ts): draft-07 when `$schema` says so, else 2020-12. */
function ajvFor(schema: Record<string, unknown>): Ajv {
  const options = { strict: false, allErrors: true, validateFormats: false };
  if (typeof schema.$schema === "string" && DRAFT_07.test(schema.$schema)) return (draft07 ??= new (require("ajv") as typeof import("ajv")).Ajv(options));
  return (draft2020 ??= new (require("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js")).Ajv2020(options) as unknown as Ajv);
}
