/**
 * Records what crosses an SDK transport, for checking the raw results a peer sent against the
 * generated validators of the negotiated revision (the SDK's own parsing may reshape them).
 */
import type { Transport as SdkTransport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { expectValid } from "./mcp.js";

export interface Wire {
  readonly sent: JSONRPCMessage[];
  readonly received: JSONRPCMessage[];
}

/** Wraps `transport`'s send and onmessage (whoever sets it later, e.g. Protocol.connect) to record both directions. */
export function recordWire(transport: SdkTransport): Wire {
  const wire: Wire = { sent: [], received: [] };
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    wire.sent.push(message);
    return send(message, options);
  };
  let handler: SdkTransport["onmessage"];
  Object.defineProperty(transport, "onmessage", {
    configurable: true,
    get: () =>
      handler &&
      ((message: JSONRPCMessage, extra?: unknown) => {
        wire.received.push(message);
        (handler as (m: JSONRPCMessage, e?: unknown) => void)(message, extra);
      }),
    set: (value: SdkTransport["onmessage"]) => (handler = value),
  });
  return wire;
}

/** The result definition of each client request method, in every revision. */
export const RESULT_OF: Readonly<Record<string, string>> = {
  initialize: "InitializeResult",
  ping: "EmptyResult",
  "tools/list": "ListToolsResult",
  "tools/call": "CallToolResult",
  "resources/list": "ListResourcesResult",
  "resources/templates/list": "ListResourceTemplatesResult",
  "resources/read": "ReadResourceResult",
  "prompts/list": "ListPromptsResult",
  "prompts/get": "GetPromptResult",
  "completion/complete": "CompleteResult",
  "server/discover": "DiscoverResult",
};

/**
 * Every successful response in `wire.received` to a request in `wire.sent` is a valid result of
 * its method in `revision`. Returns how many were checked, so a test can insist it was not none.
 */
export function expectResultsValid(wire: Wire, revision: string): number {
  const methods = new Map<unknown, string>();
  for (const message of wire.sent) if ("method" in message && "id" in message) methods.set(message.id, message.method);
  let checked = 0;
  for (const message of wire.received) {
    if (!("result" in message) || !("id" in message)) continue;
    const method = methods.get(message.id);
    const definition = method === undefined ? undefined : RESULT_OF[method];
    if (!definition) throw new Error(`a response to ${method ?? "an unknown request"} (id ${String(message.id)}): add its result to RESULT_OF`);
    expectValid(revision, definition, message.result);
    checked += 1;
  }
  return checked;
}
