/**
 * Arguments for a tool's inputSchema, made from the schema alone: one with the required
 * properties only, one with every property, then a few meant to fail (a required property left
 * out, a property of the wrong type at the top and deeper down, a property the schema does not
 * allow). Values honour the easy keywords (type, const, enum, minimum/maximum, minLength/maxLength,
 * pattern among a few candidates, minItems, local $ref, the first branch of anyOf/oneOf). What
 * each datum "means" is a guess: the bench asks ajv for every verdict.
 */

type Schema = Record<string, unknown> | boolean;

export interface Datum {
  readonly label: string;
  readonly value: unknown;
}

/** The data for `root` (a tool's inputSchema); none when it does not describe an object. */
export function sampleArguments(root: Record<string, unknown>): Datum[] {
  const sampler = new Sampler(root);
  const minimal = sampler.sample(root, false);
  const full = sampler.sample(root, true);
  if (!isObject(full) || !isObject(minimal)) return [];
  const data: Datum[] = [
    { label: "required properties", value: minimal },
    { label: "every property", value: full },
  ];
  const schema = sampler.resolve(root);
  const required = typeof schema === "object" && Array.isArray(schema.required) ? (schema.required as string[]) : [];
  for (const key of required.slice(0, 2)) {
    const { [key]: _dropped, ...rest } = full;
    data.push({ label: `without required "${key}"`, value: rest });
  }
  const keys = [...required.filter((k) => k in full), ...Object.keys(full).filter((k) => !required.includes(k))];
  for (const key of keys.slice(0, 2)) data.push({ label: `"${key}" of the wrong type`, value: { ...full, [key]: wrongType(full[key]) } });
  const deep = deepLeaf(full, []);
  if (deep) data.push({ label: `/${deep.join("/")} of the wrong type`, value: replaced(full, deep) });
  if (typeof schema === "object" && schema.additionalProperties === false) data.push({ label: "an extra property", value: { ...full, unexpected_property: true } });
  return data;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** A value of another JSON type than `value`'s. */
function wrongType(value: unknown): unknown {
  if (typeof value === "string") return 42;
  if (typeof value === "number") return String(value);
  if (typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return { not: "an array" };
  if (value === null) return 0;
  return ["not an object"];
}

/** The path of the first scalar at depth 2 or more, inside an object or array property. */
function deepLeaf(value: unknown, path: string[]): string[] | undefined {
  if (path.length >= 2 && !isObject(value) && !Array.isArray(value)) return path;
  const entries: [string, unknown][] = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : isObject(value) ? Object.entries(value) : [];
  for (const [key, child] of entries) {
    const found = deepLeaf(child, [...path, key]);
    if (found) return found;
  }
  return undefined;
}

function replaced(value: unknown, path: readonly string[]): unknown {
  if (path.length === 0) return wrongType(value);
  const [key, ...rest] = path as [string, ...string[]];
  if (Array.isArray(value)) return value.map((v, i) => (String(i) === key ? replaced(v, rest) : v));
  return { ...(value as Record<string, unknown>), [key]: replaced((value as Record<string, unknown>)[key], rest) };
}

const FORMATS: Record<string, string> = {
  "date-time": "2026-01-01T12:00:00Z",
  date: "2026-01-01",
  time: "12:00:00Z",
  uri: "https://example.com/a",
  url: "https://example.com/a",
  email: "user@example.com",
  uuid: "123e4567-e89b-12d3-a456-426614174000",
};
const STRINGS = ["example", "https://example.com/a", "/tmp/example.txt", "user@example.com", "2026-01-01", "a", "A1", "0", "abc-123", "x_y"];
/** Nesting deeper than this gets the required properties only, so recursive schemas end. */
const MAX_DEPTH = 6;

class Sampler {
  constructor(private readonly root: Record<string, unknown>) {}

  /** `schema` with its local $ref followed. */
  resolve(schema: Schema): Schema {
    for (let hops = 0; typeof schema === "object" && typeof schema.$ref === "string" && hops < 32; hops++) {
      const target = this.pointer(schema.$ref as string);
      if (target === undefined) return schema;
      const { $ref: _ref, ...rest } = schema;
      schema = typeof target === "object" ? { ...target, ...rest } : target;
    }
    return schema;
  }

  private pointer(ref: string): Schema | undefined {
    if (!ref.startsWith("#")) return undefined;
    let node: unknown = this.root;
    for (const part of ref.slice(1).split("/").slice(1)) {
      const key = decodeURIComponent(part).replace(/~1/g, "/").replace(/~0/g, "~");
      node = isObject(node) ? node[key] : undefined;
    }
    return isObject(node) || typeof node === "boolean" ? node : undefined;
  }

  sample(input: Schema, full: boolean, depth = 0): unknown {
    const schema = this.resolve(input);
    if (schema === true || (typeof schema === "object" && Object.keys(schema).length === 0)) return "anything";
    if (schema === false) return null;
    if ("const" in schema) return schema.const;
    if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
    const branches = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
    if (Array.isArray(branches) && branches.length > 0) {
      const { anyOf: _a, oneOf: _o, ...rest } = schema;
      const branch = this.resolve(branches[0]!);
      return this.sample(typeof branch === "object" ? { ...rest, ...branch } : branch, full, depth);
    }
    switch (typeOf(schema)) {
      case "object":
        return this.object(schema, full && depth < MAX_DEPTH, depth);
      case "array":
        return this.array(schema, full && depth < MAX_DEPTH, depth);
      case "string":
        return string(schema);
      case "integer":
        return number(schema, true);
      case "number":
        return number(schema, false);
      case "boolean":
        return true;
      case "null":
        return null;
      default:
        return "default" in schema ? schema.default : "anything";
    }
  }

  private object(schema: Record<string, unknown>, full: boolean, depth: number): Record<string, unknown> {
    const properties = (isObject(schema.properties) ? schema.properties : {}) as Record<string, Schema>;
    const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
    const keys = full ? [...new Set([...required, ...Object.keys(properties)])] : required;
    const extra = (schema.additionalProperties ?? true) as Schema;
    return Object.fromEntries(keys.map((key) => [key, this.sample(properties[key] ?? extra, full, depth + 1)]));
  }

  private array(schema: Record<string, unknown>, full: boolean, depth: number): unknown[] {
    const prefix = (Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : []) as Schema[];
    const rest = (Array.isArray(schema.items) ? (schema.additionalItems ?? true) : (schema.items ?? true)) as Schema;
    const length = Math.max(typeof schema.minItems === "number" ? schema.minItems : 0, full ? Math.max(prefix.length, 1) : 0);
    return Array.from({ length }, (_, i) => this.sample(prefix[i] ?? rest, full, depth + 1));
  }
}

function typeOf(schema: Record<string, unknown>): string | undefined {
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === "string" ? [schema.type] : [];
  const type = types.find((t) => t !== "null") ?? types[0];
  if (type) return type;
  if ("properties" in schema || "required" in schema || "additionalProperties" in schema) return "object";
  if ("items" in schema || "prefixItems" in schema || "minItems" in schema) return "array";
  if ("minLength" in schema || "maxLength" in schema || "pattern" in schema || "format" in schema) return "string";
  if ("minimum" in schema || "maximum" in schema || "multipleOf" in schema) return "number";
  return undefined;
}

function string(schema: Record<string, unknown>): string {
  const min = typeof schema.minLength === "number" ? schema.minLength : 0;
  const max = typeof schema.maxLength === "number" ? schema.maxLength : Number.POSITIVE_INFINITY;
  const pattern = typeof schema.pattern === "string" ? safeRegExp(schema.pattern) : undefined;
  const format = typeof schema.format === "string" ? FORMATS[schema.format] : undefined;
  const candidates = [...(format ? [format] : []), ...STRINGS].map((s) => s.padEnd(min, "a").slice(0, max));
  return candidates.find((s) => !pattern || pattern.test(s)) ?? candidates[0]!;
}

function safeRegExp(source: string): RegExp | undefined {
  try {
    return new RegExp(source, "u");
  } catch {
    return undefined;
  }
}

function number(schema: Record<string, unknown>, integer: boolean): number {
  const num = (key: string) => (typeof schema[key] === "number" ? (schema[key] as number) : undefined);
  const exclusiveMin = num("exclusiveMinimum");
  const exclusiveMax = num("exclusiveMaximum");
  const low = num("minimum") ?? (exclusiveMin !== undefined ? exclusiveMin + 1 : undefined);
  const high = num("maximum") ?? (exclusiveMax !== undefined ? exclusiveMax - 1 : undefined);
  let value = low ?? (high !== undefined && high < 1 ? high : 1);
  const step = num("multipleOf");
  if (step) value = Math.ceil(value / step) * step;
  return integer ? Math.ceil(value) : value;
}
