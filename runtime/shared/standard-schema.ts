import { isThenable } from "../util/thenable.js";

/**
 * Standard Schema (https://standardschema.dev, v1): the interface zod 4, valibot, arktype and
 * others implement under `~standard`, declared here so the runtime depends on none of them. A
 * tool's inputSchema or outputSchema may be one: the library validates (and transforms), and the
 * JSON Schema tools/list publishes comes from the Standard JSON Schema interface
 * (`~standard.jsonSchema`) or the library's own converter.
 */

/** An object implementing Standard Schema v1. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly "~standard": StandardSchemaProps<Input, Output>;
}

export interface StandardSchemaProps<Input = unknown, Output = Input> {
  readonly version: 1;
  readonly vendor: string;
  readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
  /** Types only, never present at run time. */
  readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  /** Standard JSON Schema v1, where the library implements it. */
  readonly jsonSchema?: StandardJsonSchemaConverter | undefined;
}

export type StandardResult<Output> = { readonly value: Output; readonly issues?: undefined } | { readonly issues: readonly StandardIssue[] };

export interface StandardIssue {
  readonly message: string;
  readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[] | undefined;
}

/** Standard JSON Schema v1: the schema of what a value may be before validation (`input`) and after (`output`). */
export interface StandardJsonSchemaConverter {
  readonly input: (options: { readonly target: string }) => Record<string, unknown>;
  readonly output: (options: { readonly target: string }) => Record<string, unknown>;
}

/** What a Standard Schema accepts. */
export type InferInput<S extends StandardSchemaV1> = NonNullable<S["~standard"]["types"]>["input"];
/** What a Standard Schema's validation produces (transforms and defaults applied). */
export type InferOutput<S extends StandardSchemaV1> = NonNullable<S["~standard"]["types"]>["output"];

export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return false;
  const props = (value as { "~standard"?: unknown })["~standard"];
  return typeof props === "object" && props !== null && typeof (props as StandardSchemaProps).validate === "function";
}

/** The dialect published: MCP's default since 2025-11-25, and what every converter offers. */
const TARGET = "draft-2020-12";

/**
 * The JSON Schema of a Standard Schema's `input` (what a client sends) or `output` (what a
 * result carries): Standard JSON Schema where the library has it, else zod 4's own
 * `toJSONSchema`. Throws, saying what to pass, when neither is there or conversion fails.
 */
export function standardJsonSchema(schema: StandardSchemaV1, io: "input" | "output"): Record<string, unknown> {
  const props = schema["~standard"];
  const converter = props.jsonSchema;
  const own = (schema as { toJSONSchema?: unknown }).toJSONSchema;
  try {
    if (converter && typeof converter[io] === "function") return converter[io]({ target: TARGET });
    if (typeof own === "function") return (own as (options: object) => Record<string, unknown>).call(schema, { target: TARGET, io });
  } catch (error) {
    throw new Error(`${props.vendor} could not convert it to JSON Schema (${(error as Error).message}); make the schema representable in JSON Schema (no transforms or custom checks at its surface), or pass a JSON Schema`);
  }
  const hints: Record<string, string> = {
    valibot: " (valibot: wrap it with toStandardJsonSchema from @valibot/to-json-schema)",
    // zod 3 (and zod/v3) schemas describe no JSON Schema; zod 4's do.
    zod: " (zod 3: use zod 4, `import * as z from \"zod\"` with zod 4 installed, or `zod/v4`)",
  };
  const hint = Object.hasOwn(hints, props.vendor) ? hints[props.vendor] : "";
  throw new Error(
    `this ${props.vendor} schema has no JSON Schema converter for tools/list: pass a schema that implements Standard JSON Schema (~standard.jsonSchema)${hint}, or a JSON Schema`,
  );
}

/** The library's verdict: its output, or its issues as "/path: message; ...". */
export function validateStandard(schema: StandardSchemaV1, value: unknown): Checked | Promise<Checked> {
  const result = schema["~standard"].validate(value);
  return isThenable(result) ? Promise.resolve(result).then(verdict) : verdict(result);
}

export type Checked = { readonly value: unknown; readonly problem?: undefined } | { readonly problem: string };

function verdict(result: StandardResult<unknown>): Checked {
  if (!result.issues) return { value: result.value };
  return { problem: result.issues.map((issue) => `${pointer(issue.path)}: ${issue.message}`).join("; ") || "(root): invalid" };
}

/** A Standard Schema issue path as a JSON Pointer (RFC 6901), like every other validation message. */
function pointer(path: StandardIssue["path"]): string {
  if (!path || path.length === 0) return "(root)";
  return path.map((segment) => "/" + String(typeof segment === "object" ? segment.key : segment).replace(/~/g, "~0").replace(/\//g, "~1")).join("");
}
