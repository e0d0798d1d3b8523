import type { RequestId } from "../jsonrpc/messages.js";
import type { InboundRequest } from "../jsonrpc/peer.js";
import type { Era, Revision } from "../session/revisions.js";

/** Who is calling, as they declared it: at initialize (session era) or in each request's `_meta` (stateless). */
export interface ClientIdentity {
  readonly info?: { readonly name: string; readonly version: string; readonly [key: string]: unknown };
  readonly capabilities: Readonly<Record<string, unknown>>;
}

/** What a handler knows about the request it answers. */
export interface RequestContext {
  /** Aborted when the client cancels the request or the connection closes. */
  readonly signal: AbortSignal;
  /** The revision this request is served under: negotiated, or from its `_meta`. */
  readonly revision: Revision;
  readonly era: Era;
  readonly requestId: RequestId;
  readonly method: string;
  readonly client: ClientIdentity;
  /** The request's `params._meta`, as sent. */
  readonly meta: Readonly<Record<string, unknown>> | undefined;
}

/** A request handler: params in, result out; throw an RpcError to choose the error code. */
export type Handler = (params: Record<string, unknown>, context: RequestContext) => unknown;

export function createContext(
  inbound: InboundRequest,
  revision: Revision,
  era: Era,
  client: ClientIdentity,
  meta: Readonly<Record<string, unknown>> | undefined,
): RequestContext {
  return {
    get signal() {
      return inbound.signal;
    },
    revision,
    era,
    requestId: inbound.id,
    method: inbound.method,
    client,
    meta,
  };
}
