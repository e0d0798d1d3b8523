import type { Schema } from "../../runtime/json-schema/model/schema.js";
import type { Protocol } from "../model/protocol.js";
import type { Direction } from "./report.js";

/** Every definition a schema references, directly or through others. */
export function referencedFrom(roots: Iterable<string>, protocol: Protocol): Set<string> {
  const seen = new Set<string>();
  const pending = [...roots];
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (seen.has(name)) continue;
    const definition = protocol.definitions.get(name);
    if (!definition) continue;
    seen.add(name);
    visit(definition.schema, (ref) => pending.push(ref));
  }
  return seen;
}

function visit(schema: Schema, onRef: (name: string) => void): void {
  if (schema.ref !== undefined) onRef(schema.ref);
  for (const property of schema.properties ?? []) visit(property.schema, onRef);
  if (schema.additionalProperties) visit(schema.additionalProperties, onRef);
  if (schema.items) visit(schema.items, onRef);
  for (const member of [...(schema.anyOf ?? []), ...(schema.allOf ?? [])]) visit(member, onRef);
}

/**
 * Who sends values of each definition, read from the methods: a client sends its requests, its
 * notifications, the results of the server's requests and the answers to input requests; the
 * server the rest. The side unions (ClientRequest, ServerResult...) count too. A definition no
 * message reaches (a standalone helper type) is taken to flow both ways.
 */
export function flowsOf(protocol: Protocol): (definition: string) => Direction[] {
  const roots: Record<Direction, string[]> = { client: ["ClientRequest", "ClientNotification", "ClientResult"], server: ["ServerRequest", "ServerNotification", "ServerResult"] };
  for (const request of protocol.requests) {
    for (const sender of request.senders) {
      const receiver: Direction = sender === "client" ? "server" : "client";
      roots[sender].push(request.request, ...(request.params ? [request.params] : []));
      roots[receiver].push(...request.results);
    }
  }
  for (const notification of protocol.notifications)
    for (const sender of notification.senders) roots[sender].push(notification.notification, ...(notification.params ? [notification.params] : []));
  for (const input of protocol.inputRequests) {
    roots.server.push(input.request, ...(input.params ? [input.params] : []));
    roots.client.push(...input.results);
  }
  const reached = { client: referencedFrom(roots.client, protocol), server: referencedFrom(roots.server, protocol) };
  return (definition) => {
    const flows = (["client", "server"] as const).filter((side) => reached[side].has(definition));
    return flows.length > 0 ? flows : ["client", "server"];
  };
}
