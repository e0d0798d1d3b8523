import { GenerationError } from "../errors.js";
import type { LoadedSchema } from "../load/load.js";
import type { Schema } from "../../runtime/json-schema/model/schema.js";
import { capabilityGates } from "./capabilities.js";
import type { CapabilityGate, Definition, Era, ExtensionBasis, NotificationMethod, Protocol, RequestMethod, Side } from "./protocol.js";
import { openDefinitions } from "./openness.js";
import { resultsOf } from "./results.js";

/** The unions that list each side's messages, in every revision so far. */
const UNIONS = {
  request: { client: "ClientRequest", server: "ServerRequest" },
  notification: { client: "ClientNotification", server: "ServerNotification" },
} as const;
const INPUT_REQUEST_UNION = "InputRequest";
const BATCH_DEFINITION = "JSONRPCBatchRequest";

/** What an extension's model is built on: its identity, and its core revision as loaded (before lifting) and modelled. */
export interface ExtensionSource extends Omit<ExtensionBasis, "imported"> {
  readonly coreSchema: LoadedSchema;
}

/**
 * The model of a revision's schema, or, given `extension`, of an extension's schema read on top of
 * its core revision: `loaded.revision` then names the extension's schema file, for errors.
 */
export function buildProtocol(loaded: LoadedSchema, extension?: ExtensionSource): Protocol {
  const source = loaded.revision;
  const revision = extension?.core.revision ?? source;
  const fail = (pointer: string, reason: string): never => {
    throw new GenerationError(source, pointer, reason);
  };
  const definitions = new Map<string, Definition>();
  for (const [name, schema] of loaded.definitions) definitions.set(name, { name, schema });
  const schemaOf = (name: string): Schema => definitions.get(name)!.schema;

  /** Members of a union definition. Upstream collapses a union of one into the member itself. */
  const unionMembers = (union: string): string[] => {
    const definition = definitions.get(union);
    if (!definition) return [];
    const { schema } = definition;
    if (schema.anyOf?.every((member) => member.ref !== undefined)) return schema.anyOf.map((member) => member.ref!);
    if (methodOf(schema) !== undefined) return [canonicalName(union)];
    return fail(schema.pointer, `${union} is neither a union of message definitions nor a single message definition`);
  };

  /** For a collapsed union of one, the named definition it duplicates (ClientNotification -> CancelledNotification). */
  const canonicalName = (name: string): string => {
    const shape = shapeOf(schemaOf(name));
    for (const [other, { schema }] of definitions)
      if (other !== name && methodOf(schema) === methodOf(schemaOf(name)) && shapeOf(schema) === shape) return other;
    return name;
  };

  /** Names the params object of a message, lifting an inline one into `<Message>Params`. */
  const paramsOf = (message: string): { params?: string; paramsRequired: boolean } => {
    const whole = schemaOf(message);
    // An extension's schema writes a message as allOf [JSONRPCRequest, { method, params }].
    const schema = ownPart(whole, "params");
    const paramsRequired = schema.required?.includes("params") ?? false;
    const property = schema.properties?.find((p) => p.name === "params");
    if (!property) return { paramsRequired };
    if (property.schema.ref !== undefined) return { params: property.schema.ref, paramsRequired };

    const lifted = `${message}Params`;
    const existing = definitions.get(lifted);
    // A schema generated from zod (ext-tasks) inlines a params definition it also names: the same shape is that definition.
    const restated = existing !== undefined && existing.liftedFrom === undefined && shapeOf(existing.schema) === shapeOf(property.schema);
    if (existing && !restated && existing.liftedFrom !== message)
      fail(property.schema.pointer, `cannot name these inline params ${lifted}: that definition already exists`);
    if (!restated) definitions.set(lifted, { name: lifted, schema: property.schema, liftedFrom: message });
    const reference: Schema = { pointer: property.schema.pointer, ref: lifted, description: property.schema.description };
    const rewritten: Schema = { ...schema, properties: schema.properties!.map((p) => (p === property ? { name: p.name, schema: reference } : p)) };
    definitions.set(message, {
      name: message,
      schema: schema === whole ? rewritten : { ...whole, allOf: whole.allOf!.map((member) => (member === schema ? rewritten : member)) },
    });
    return { params: lifted, paramsRequired };
  };

  const isCacheable = (result: string) => schemaOf(result).properties?.some((p) => p.name === "ttlMs") ?? false;
  const methodName = (message: string): string =>
    methodOf(schemaOf(message)) ?? fail(schemaOf(message).pointer, `${message} has no const "method"`);

  const describeRequest = (request: string, senders: Side[]): RequestMethod => {
    const method = methodName(request);
    const params = paramsOf(request);
    const results = resultsOf(request, method, params.params, definitions, fail);
    return { kind: "request", method, senders, request, ...params, results, cacheable: isCacheable(results[0]!) };
  };
  const describeNotification = (notification: string, senders: Side[]): NotificationMethod => ({
    kind: "notification",
    method: methodName(notification),
    senders,
    notification,
    ...paramsOf(notification),
  });
  /** Adds one side's message; a method both sides send (ping, progress...) is one entry with two senders. */
  const collect = <M extends RequestMethod | NotificationMethod>(
    methods: Map<string, M>,
    message: string,
    side: Side,
    describe: (message: string, senders: Side[]) => M,
  ): void => {
    const method = methodName(message);
    const known = methods.get(method);
    if (!known) {
      methods.set(method, describe(message, [side]));
      return;
    }
    const definedBy = known.kind === "request" ? known.request : known.notification;
    if (definedBy !== message) fail(schemaOf(message).pointer, `${method} is defined by both ${definedBy} and ${message}`);
    methods.set(method, { ...known, senders: [...known.senders, side] });
  };

  const requests = new Map<string, RequestMethod>();
  const notifications = new Map<string, NotificationMethod>();
  const imported = extension ? importedDefinitions(loaded, extension, fail) : new Set<string>();
  for (const side of ["client", "server"] as const) {
    for (const request of messagesOf("request", side)) collect(requests, request, side, describeRequest);
    for (const notification of messagesOf("notification", side)) collect(notifications, notification, side, describeNotification);
  }
  /**
   * A side's messages: its union's members. An extension's schema lists no unions (ext-tasks does
   * not): its own requests are then the client's and its own notifications the server's, as in
   * every SEP-2133 extension so far (tasks.md: the client sends tasks/*, the server notifications/tasks).
   */
  function messagesOf(kind: "request" | "notification", side: Side): string[] {
    if (!extension || definitions.has(UNIONS[kind][side])) return unionMembers(UNIONS[kind][side]);
    if (side !== (kind === "request" ? "client" : "server")) return [];
    const suffix = kind === "request" ? "Request" : "Notification";
    return [...loaded.definitions.keys()].filter((name) => !imported.has(name) && name.endsWith(suffix) && methodOf(schemaOf(name)) !== undefined);
  }
  const inputRequests = extension ? [] : unionMembers(INPUT_REQUEST_UNION).map((request) => describeRequest(request, ["server"]));

  const requestList = [...requests.values()];
  const notificationList = [...notifications.values()];
  const era = extension ? extension.core.era : eraOf(requestList, definitions, revision);
  return {
    revision,
    dialect: loaded.dialect,
    era,
    definitions,
    requests: requestList,
    notifications: notificationList,
    inputRequests,
    capabilityGates: extension
      ? extensionGates(extension.id, [...requestList, ...notificationList])
      : capabilityGates(definitions, [...requestList, ...notificationList, ...inputRequests]),
    batches: !extension && definitions.has(BATCH_DEFINITION),
    open: openDefinitions(definitions, new Set(requestList.flatMap((r) => r.results))),
    ...(extension ? { extension: { id: extension.id, folder: extension.folder, core: extension.core, imported } } : {}),
  };
}

/**
 * SEP-2133: an extension's methods may be used only when it was negotiated, the receiver having
 * declared it under `capabilities.extensions[id]`. Requests the client sends are gated on the
 * server's declaration, notifications the server sends on the client's.
 */
function extensionGates(id: string, methods: readonly (RequestMethod | NotificationMethod)[]): CapabilityGate[] {
  return methods.map((m) => ({ method: m.method, owner: m.senders.includes("client") ? "server" : "client", path: ["extensions", id] }));
}

/**
 * The definitions an extension's schema restates from its core revision (Result, RequestId, the
 * JSON-RPC envelopes...): each must equal the core's, prose aside, and is then taken from there.
 * An unequal one would be two types of one name: an error at the extension's definition.
 */
function importedDefinitions(loaded: LoadedSchema, { core, coreSchema }: ExtensionSource, fail: (pointer: string, reason: string) => never): Set<string> {
  const imported = new Set<string>();
  for (const [name, schema] of loaded.definitions) {
    const theirs = coreSchema.definitions.get(name);
    if (!theirs) continue;
    if (shapeOf(schema) !== shapeOf(theirs))
      fail(schema.pointer, `${name} is also defined by MCP ${core.revision} (${theirs.pointer}), differently: an extension may restate a core definition only unchanged`);
    imported.add(name);
  }
  return imported;
}

/** The part of a message schema that declares `property`: the schema itself, or the allOf member that does. */
function ownPart(schema: Schema, property: string): Schema {
  if (schema.properties?.some((p) => p.name === property)) return schema;
  return schema.allOf?.find((member) => member.properties?.some((p) => p.name === property)) ?? schema;
}

/**
 * DESIGN.md decision 4: eras come from the schema. `initialize` marks the session era;
 * `server/discover` with `_meta` required on every client request marks the stateless era.
 */
function eraOf(requests: readonly RequestMethod[], definitions: ReadonlyMap<string, Definition>, revision: string): Era {
  const byClient = requests.filter((r) => r.senders.includes("client"));
  const has = (method: string) => byClient.some((r) => r.method === method);
  const metaOnEveryRequest = byClient.every(
    (r) => r.paramsRequired && r.params !== undefined && definitions.get(r.params)!.schema.required?.includes("_meta"),
  );
  if (has("initialize") && !has("server/discover")) return "session";
  if (has("server/discover") && !has("initialize") && metaOnEveryRequest) return "stateless";
  throw new GenerationError(
    revision,
    "#",
    "cannot tell the era: expected either an initialize request (session era) or server/discover " +
      "with required params._meta on every client request (stateless era)",
  );
}

function methodOf(schema: Schema): string | undefined {
  const method = ownPart(schema, "method").properties?.find((p) => p.name === "method")?.schema.const;
  return typeof method === "string" ? method : undefined;
}

/** A definition's structure without its location and prose, for equality. */
function shapeOf(schema: Schema): string {
  return JSON.stringify(schema, (key, value) => (key === "pointer" || key === "description" ? undefined : value));
}
