import { ErrorCode, RpcError } from "../jsonrpc/errors.js";
import { decodeHeaderValue, encodeHeaderValue } from "./header-value.js";

/**
 * SEP-2243 (2026-07-28, Streamable HTTP): a tool argument whose schema says
 * `"x-mcp-header": "Region"` is mirrored by the client into an `Mcp-Param-Region` header so that
 * proxies can route on it without reading the body, and the server checks that the two agree.
 * Both sides read the annotations with {@link scanHeaderAnnotations}, at any depth under
 * `properties`, and write or read the values with the one codec of header-value.ts.
 */

/** One annotated argument: where it sits under `arguments`, and the `{Name}` of its header. */
export interface HeaderDeclaration {
  readonly path: readonly string[];
  readonly header: string;
}

export type HeaderScan = { readonly valid: true; readonly declarations: readonly HeaderDeclaration[] } | { readonly valid: false; readonly reason: string };

/** RFC 9110 section 5.6.2 `token`: no space, control character, delimiter or non-ASCII. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** The spec allows the annotation on string, integer and boolean properties only (not number). */
const PRIMITIVES = new Set(["string", "integer", "boolean"]);
/** Subschema keywords an annotated property may not sit under: it must be reachable through `properties` alone. */
const UNREACHABLE = ["items", "prefixItems", "contains", "additionalProperties", "unevaluatedProperties", "unevaluatedItems", "propertyNames"];
const UNREACHABLE_LISTS = ["oneOf", "anyOf", "allOf"];
const UNREACHABLE_SINGLE = ["not", "if", "then", "else"];
const UNREACHABLE_MAPS = ["patternProperties", "dependentSchemas", "$defs", "definitions"];

/**
 * Every `x-mcp-header` of a tool's inputSchema, or why the tool is invalid. The spec: a client
 * MUST exclude a tool whose annotation is empty, not a token, on a non-primitive property,
 * duplicated (case-insensitively), or not statically reachable through `properties`.
 */
export function scanHeaderAnnotations(inputSchema: unknown): HeaderScan {
  const declarations: HeaderDeclaration[] = [];
  const seen = new Map<string, string>();
  const visit = (node: unknown, path: readonly string[], reachable: boolean): string | undefined => {
    if (typeof node !== "object" || node === null || Array.isArray(node)) return undefined;
    const schema = node as Record<string, unknown>;
    if (Object.prototype.hasOwnProperty.call(schema, "x-mcp-header")) {
      const where = path.length === 0 ? "the root" : path.join(".");
      const header = schema["x-mcp-header"];
      if (!reachable || path.length === 0) return `${where}: x-mcp-header is allowed only on a property reached through "properties" alone`;
      if (typeof header !== "string" || header === "") return `${where}: x-mcp-header must be a non-empty string`;
      if (!TOKEN.test(header)) return `${where}: x-mcp-header ${JSON.stringify(header)} is not an HTTP token (RFC 9110)`;
      if (typeof schema.type !== "string" || !PRIMITIVES.has(schema.type))
        return `${where}: x-mcp-header is allowed on string, integer and boolean properties, not on ${JSON.stringify(schema.type ?? "an untyped one")}`;
      const prior = seen.get(header.toLowerCase());
      if (prior !== undefined) return `${where}: x-mcp-header ${JSON.stringify(header)} repeats ${JSON.stringify(prior)} (headers are case-insensitive)`;
      seen.set(header.toLowerCase(), header);
      declarations.push({ path, header });
    }
    const properties = schema.properties;
    if (typeof properties === "object" && properties !== null)
      for (const [key, child] of Object.entries(properties)) {
        const fault = visit(child, [...path, key], reachable);
        if (fault) return fault;
      }
    const branches: unknown[] = [];
    for (const k of UNREACHABLE) branches.push(schema[k]);
    for (const k of UNREACHABLE_SINGLE) branches.push(schema[k]);
    for (const k of UNREACHABLE_LISTS) if (Array.isArray(schema[k])) branches.push(...(schema[k] as unknown[]));
    for (const k of UNREACHABLE_MAPS)
      if (typeof schema[k] === "object" && schema[k] !== null) branches.push(...Object.values(schema[k] as Record<string, unknown>));
    if (Array.isArray(schema.items)) branches.push(...(schema.items as unknown[]));
    for (const branch of branches) {
      const fault = visit(branch, [...path, "*"], false);
      if (fault) return fault;
    }
    return undefined;
  };
  const fault = visit(inputSchema, [], true);
  return fault === undefined ? { valid: true, declarations } : { valid: false, reason: fault };
}

/**
 * The `Mcp-Param-*` headers of one tools/call. An argument that is absent or null gets no header
 * (the spec: the client MUST omit it); booleans are `true`/`false`, numbers their decimal text;
 * values that are not plain visible ASCII travel as `=?base64?...?=`.
 */
export function paramHeaders(declarations: readonly HeaderDeclaration[], args: Readonly<Record<string, unknown>>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const { path, header } of declarations) {
    const text = headerText(valueAt(args, path));
    if (text !== undefined) headers[`Mcp-Param-${header}`] = encodeHeaderValue(text);
  }
  return headers;
}

/**
 * The server's half: a header that is missing while its argument is given, present while it is
 * not (absent or null), not decodable, or different, is -32020 (HeaderMismatch), which Streamable
 * HTTP answers with 400. Header names are looked up in lower case (as transports keep them);
 * surrounding whitespace is ignored. A tool whose annotations are invalid has no header a client
 * would send (the client leaves such a tool out), so none is checked.
 */
export function checkParamHeaders(inputSchema: unknown, args: Readonly<Record<string, unknown>>, headers: Readonly<Record<string, unknown>>): void {
  const scan = scanOf(inputSchema);
  if (!scan.valid) return;
  for (const { path, header } of scan.declarations) {
    const field = `Mcp-Param-${header}`;
    const raw = headers[field.toLowerCase()];
    const value = typeof raw === "string" ? raw.trim() : Array.isArray(raw) ? String(raw[0]).trim() : undefined;
    const argument = valueAt(args, path);
    const name = path.join(".");
    const mismatch = (why: string) => new RpcError(ErrorCode.HeaderMismatch, `Header mismatch: ${field} ${why}`, { header: field, argument: name });
    if (argument === undefined || argument === null) {
      if (value !== undefined) throw mismatch(`is sent, but the arguments have no ${name}`);
      continue;
    }
    if (value === undefined) throw mismatch(`is missing; the arguments give ${name}`);
    const decoded = decodeHeaderValue(value);
    if (decoded === null) throw mismatch("is not valid =?base64?...?= text");
    if (decoded !== (typeof argument === "string" ? argument : JSON.stringify(argument))) throw mismatch(`does not match the argument ${name}`);
  }
}

/** A tool's scan, once per inputSchema object: the server checks every call against it. */
const scans = new WeakMap<object, HeaderScan>();
function scanOf(inputSchema: unknown): HeaderScan {
  if (typeof inputSchema !== "object" || inputSchema === null) return scanHeaderAnnotations(inputSchema);
  let scan = scans.get(inputSchema);
  if (!scan) scans.set(inputSchema, (scan = scanHeaderAnnotations(inputSchema)));
  return scan;
}

function valueAt(args: Readonly<Record<string, unknown>>, path: readonly string[]): unknown {
  let value: unknown = args;
  for (const key of path) value = typeof value === "object" && value !== null && Object.prototype.hasOwnProperty.call(value, key) ? (value as Record<string, unknown>)[key] : undefined;
  return value;
}

function headerText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return undefined;
}
