import type { Schema } from "../../runtime/json-schema/model/schema.js";
import type { CapabilityGate, Definition, Side } from "./protocol.js";

/**
 * Which declared capability each method needs (PROTOCOL-NOTES, "Use only negotiated
 * capabilities"). The schema cannot say this. A gate is emitted for a revision only when both
 * the method and the capability path exist in that revision's schema, so 2024-11-05 (no
 * `completions` capability yet) has no gate on completion/complete.
 */
const GATES: readonly CapabilityGate[] = [
  { method: "tools/list", owner: "server", path: ["tools"] },
  { method: "tools/call", owner: "server", path: ["tools"] },
  { method: "notifications/tools/list_changed", owner: "server", path: ["tools", "listChanged"] },
  { method: "resources/list", owner: "server", path: ["resources"] },
  { method: "resources/templates/list", owner: "server", path: ["resources"] },
  { method: "resources/read", owner: "server", path: ["resources"] },
  { method: "resources/subscribe", owner: "server", path: ["resources", "subscribe"] },
  { method: "resources/unsubscribe", owner: "server", path: ["resources", "subscribe"] },
  { method: "notifications/resources/updated", owner: "server", path: ["resources", "subscribe"] },
  { method: "notifications/resources/list_changed", owner: "server", path: ["resources", "listChanged"] },
  { method: "prompts/list", owner: "server", path: ["prompts"] },
  { method: "prompts/get", owner: "server", path: ["prompts"] },
  { method: "notifications/prompts/list_changed", owner: "server", path: ["prompts", "listChanged"] },
  { method: "logging/setLevel", owner: "server", path: ["logging"] },
  { method: "notifications/message", owner: "server", path: ["logging"] },
  { method: "completion/complete", owner: "server", path: ["completions"] },
  { method: "sampling/createMessage", owner: "client", path: ["sampling"] },
  { method: "roots/list", owner: "client", path: ["roots"] },
  { method: "notifications/roots/list_changed", owner: "client", path: ["roots", "listChanged"] },
  { method: "elicitation/create", owner: "client", path: ["elicitation"] },
];

const CAPABILITIES: Record<Side, string> = { server: "ServerCapabilities", client: "ClientCapabilities" };

export function capabilityGates(
  definitions: ReadonlyMap<string, Definition>,
  methods: readonly { method: string }[],
): CapabilityGate[] {
  const present = new Set(methods.map((m) => m.method));
  return GATES.filter((gate) => {
    const capabilities = definitions.get(CAPABILITIES[gate.owner])?.schema;
    return present.has(gate.method) && capabilities !== undefined && hasPath(capabilities, gate.path, definitions);
  });
}

function hasPath(schema: Schema, path: readonly string[], definitions: ReadonlyMap<string, Definition>): boolean {
  if (path.length === 0) return true;
  if (schema.ref !== undefined) return hasPath(definitions.get(schema.ref)!.schema, path, definitions);
  const next = schema.properties?.find((p) => p.name === path[0]);
  return next !== undefined && hasPath(next.schema, path.slice(1), definitions);
}
