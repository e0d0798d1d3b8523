import { GenerationError } from "../errors.js";
import type { LoadedSchema } from "../load/load.js";
import type { Schema } from "../load/schema.js";
import { capabilityGates } from "./capabilities.js";
import type { Definition, Era, NotificationMethod, Protocol, RequestMethod, Side } from "./protocol.js";
import { openDefinitions } from "./openness.js";
import { resultsOf } from "./results.js";

/** The unions that list each side's messages, in every revision so far. */
const UNIONS = {
  request: { client: "ClientRequest", server: "ServerRequest" },
  notification: { client: "ClientNotification", server: "ServerNotification" },
} as const;
const INPUT_REQUEST_UNION = "InputRequest";
const BATCH_DEFINITION = "JSONRPCBatchRequest";

export function buildProtocol(loaded: LoadedSchema): Protocol {
  const { revision } = loaded;
  const fail = (pointer: string, reason: string): never => {
    throw new GenerationError(revision, pointer, reason);
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
    const schema = schemaOf(message);
    const paramsRequired = schema.required?.includes("params") ?? false;
    const property = schema.properties?.find((p) => p.name === "params");
    if (!property) return { paramsRequired };
    if (property.schema.ref !== undefined) return { params: property.schema.ref, paramsRequired };

    const lifted = `${message}Params`;
    const existing = definitions.get(lifted);
    if (existing && existing.liftedFrom !== message)
      fail(property.schema.pointer, `cannot name these inline params ${lifted}: that definition already exists`);
    definitions.set(lifted, { name: lifted, schema: property.schema, liftedFrom: message });
    const reference: Schema = { pointer: property.schema.pointer, ref: lifted, description: property.schema.description };
    definitions.set(message, {
      name: message,
      schema: {
        ...schema,
        properties: schema.properties!.map((p) => (p === property ? { name: p.name, schema: reference } : p)),
      },
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
  for (const side of ["client", "server"] as const) {
    for (const request of unionMembers(UNIONS.request[side])) collect(requests, request, side, describeRequest);
    for (const notification of unionMembers(UNIONS.notification[side])) collect(notifications, notification, side, describeNotification);
  }
  const inputRequests = unionMembers(INPUT_REQUEST_UNION).map((request) => describeRequest(request, ["server"]));

  const requestList = [...requests.values()];
  const era = eraOf(requestList, definitions, revision);
  return {
    revision,
    dialect: loaded.dialect,
    era,
    definitions,
    requests: requestList,
    notifications: [...notifications.values()],
    inputRequests,
    capabilityGates: capabilityGates(definitions, [...requestList, ...notifications.values(), ...inputRequests]),
    batches: definitions.has(BATCH_DEFINITION),
    open: openDefinitions(definitions, new Set(requestList.flatMap((r) => r.results))),
  };
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
  const method = schema.properties?.find((p) => p.name === "method")?.schema.const;
  return typeof method === "string" ? method : undefined;
}

/** A definition's structure without its location and prose, for equality. */
function shapeOf(schema: Schema): string {
  return JSON.stringify(schema, (key, value) => (key === "pointer" || key === "description" ? undefined : value));
}
