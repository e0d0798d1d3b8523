import { decodeHeaderValue } from "../../shared/header-value.js";
import { ErrorCode } from "../../jsonrpc/errors.js";
import { isRequestId } from "../../jsonrpc/messages.js";
import { HttpError } from "./errors.js";
import type { Incoming } from "./incoming.js";

/** The header names of Streamable HTTP, lower case (header lookups are by lower-case name). */
export const HEADER = {
  sessionId: "mcp-session-id",
  protocolVersion: "mcp-protocol-version",
  method: "mcp-method",
  name: "mcp-name",
  lastEventId: "last-event-id",
} as const;

const PROTOCOL_VERSION_META = "io.modelcontextprotocol/protocolVersion";

/** Which param each method names in Mcp-Name: SEP-2243's, and the tasks extension's (its "Routing Headers"). */
export const NAMED_BY: Readonly<Record<string, string>> = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
  "tasks/get": "taskId",
  "tasks/update": "taskId",
  "tasks/cancel": "taskId",
};

/** The protocol version a stateless request names in its `_meta`, if any. */
export function metaVersion(message: unknown): unknown {
  const params = (message as { params?: { _meta?: Record<string, unknown> } } | null)?.params;
  const meta = params?._meta;
  return typeof meta === "object" && meta !== null ? meta[PROTOCOL_VERSION_META] : undefined;
}

/**
 * Stateless era: the headers must say what the body says (SEP-2243), so that a proxy can route on
 * them without reading the body. MCP-Protocol-Version must equal `_meta`'s version, Mcp-Method the
 * method, and Mcp-Name the tool or prompt name or resource URI. Header names are case-insensitive,
 * values case-sensitive, surrounding whitespace ignored; a value may be `=?base64?...?=`.
 * A mismatch or a missing header is -32020 with HTTP 400, except a notification's missing Mcp-Method.
 */
export function checkStatelessHeaders(req: Incoming, message: Record<string, unknown>): HttpError | undefined {
  const id = isRequestId(message.id) ? message.id : null;
  const mismatch = (what: string, found: string | undefined, expected: string) =>
    new HttpError(
      400,
      ErrorCode.HeaderMismatch,
      found === undefined ? `Header mismatch: the ${what} header is missing; the body says ${JSON.stringify(expected)}` : `Header mismatch: ${what} is ${JSON.stringify(found)} but the body says ${JSON.stringify(expected)}`,
      { header: what, ...(found === undefined ? {} : { found }), expected },
      id,
    );

  const version = metaVersion(message);
  const versionHeader = req.header(HEADER.protocolVersion);
  if (typeof version === "string" && versionHeader !== version) return mismatch("MCP-Protocol-Version", versionHeader, version);

  const method = message.method;
  if (typeof method !== "string") return undefined;
  const methodHeader = decoded(req.header(HEADER.method));
  // The header is required of requests only; SDK v2 posts notifications without it (as when a
  // subscriptions/listen is closed), and the SDK servers accept them.
  if (methodHeader === undefined && message.id === undefined) return undefined;
  if (methodHeader !== method) return mismatch("Mcp-Method", methodHeader ?? undefined, method);

  const param = NAMED_BY[method];
  const named = param === undefined ? undefined : (message.params as Record<string, unknown> | undefined)?.[param];
  if (typeof named === "string") {
    const nameHeader = decoded(req.header(HEADER.name));
    if (nameHeader !== named) return mismatch("Mcp-Name", nameHeader ?? undefined, named);
  }
  return undefined;
}

/** A header value, decoded when it is `=?base64?...?=` (SEP-2243); null when that is malformed. */
export function decoded(value: string | undefined): string | null | undefined {
  return value === undefined ? undefined : decodeHeaderValue(value);
}
