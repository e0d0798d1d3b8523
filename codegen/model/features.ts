import type { RevisionFeatures } from "../../runtime/contract.js";
import type { Protocol } from "./protocol.js";

export type { RevisionFeatures };

/**
 * The first revision whose Streamable HTTP transport primes SSE streams: SEP-1699 ("the server
 * SHOULD immediately send an SSE event consisting of an event ID and an empty data field", MCP
 * 2025-11-25, basic/transports). A transport rule no schema shows, so declared here, the one
 * place that names it; later revisions (by name) keep it.
 */
const SSE_PRIMING_SINCE = "2025-11-25";

/** What the runtime does differently in `protocol`'s revision (runtime/contract.ts), read from its schema where it shows. */
export function featuresOf(protocol: Protocol): RevisionFeatures {
  return {
    coreTasks: protocol.era === "session" && protocol.requests.some((m) => m.method === "tasks/get" && m.senders.includes("client")),
    ssePriming: protocol.revision >= SSE_PRIMING_SINCE,
  };
}
