import { ErrorCode, RpcError } from "../jsonrpc/errors.js";
import { decodeHeaderValue } from "../shared/header-value.js";
import type { Tool } from "../shared/types.js";

/**
 * SEP-2243 (2026-07-28 over Streamable HTTP): a tool argument whose schema carries
 * `"x-mcp-header": "Name"` is mirrored by the client into an `Mcp-Param-Name` header, so that
 * proxies can route on it. The server checks that the two agree: a header that is missing while
 * the argument is given, present while it is not, not decodable, or different, is -32020
 * (HeaderMismatch), which Streamable HTTP answers with 400.
 *
 * Values are compared as text (String(argument)). A header value `=?base64?...?=` is standard
 * base64 of UTF-8, with correct padding; anything else is taken literally, surrounding
 * whitespace aside.
 */
export function checkParamHeaders(tool: Tool, args: Readonly<Record<string, unknown>>, headers: Readonly<Record<string, unknown>>): void {
  const properties = (tool.inputSchema as { properties?: Record<string, { "x-mcp-header"?: unknown }> }).properties ?? {};
  for (const [name, schema] of Object.entries(properties)) {
    const headerName = schema?.["x-mcp-header"];
    if (typeof headerName !== "string" || headerName === "") continue;
    const field = `Mcp-Param-${headerName}`;
    const raw = headers[field.toLowerCase()];
    const value = typeof raw === "string" ? raw.trim() : Array.isArray(raw) ? String(raw[0]).trim() : undefined;
    const argument = Object.prototype.hasOwnProperty.call(args, name) ? args[name] : undefined;
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
