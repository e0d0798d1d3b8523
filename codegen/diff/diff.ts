import type { Schema } from "../../runtime/json-schema/model/schema.js";
import type { NotificationMethod, Protocol, RequestMethod } from "../model/protocol.js";
import { flowsOf } from "./flows.js";
import { findRenames } from "./renames.js";
import type {
  DefinitionChanges,
  DefinitionEntry,
  DiffReport,
  Direction,
  Impact,
  MethodChange,
  PropertyChange,
  Role,
} from "./report.js";
import { admitsAll, alternativesOf, constraintsOf, describe, isInlineObject, objectShape, type Naming } from "./shapes.js";

/**
 * What a change costs whoever sends values of the changed type (the producer) and whoever
 * receives them (the consumer). A required field added costs the producer; a field removed
 * costs the consumer; a widened type costs the consumer, a narrowed one the producer.
 */
interface Effect {
  readonly producer: boolean;
  readonly consumer: boolean;
}

const ADDITIVE: Impact = { server: "additive", client: "additive" };
const BREAKING: Impact = { server: "breaking", client: "breaking" };
const other = (side: Direction): Direction => (side === "client" ? "server" : "client");

/** Maps an effect on producers and consumers to each role, given who sends the type. */
function impactOf(effect: Effect, flows: readonly Direction[]): Impact {
  const breaks = (role: Role) =>
    flows.some((sender) => (sender === role ? effect.producer : effect.consumer)) ? ("breaking" as const) : ("additive" as const);
  return { server: breaks("server"), client: breaks("client") };
}

/** Breaking for `role` only. */
function only(role: Role): Impact {
  return role === "server" ? { server: "breaking", client: "additive" } : { server: "additive", client: "breaking" };
}

/**
 * Compares two revisions' models (never their raw schemas): methods per direction, definitions
 * added, removed and (best effort) renamed, and property by property what changed in the
 * definitions both have, each change classified for server implementers and for clients.
 */
export function diffProtocols(a: Protocol, b: Protocol): DiffReport {
  const removedNames = [...a.definitions.keys()].filter((name) => !b.definitions.has(name));
  const addedNames = [...b.definitions.keys()].filter((name) => !a.definitions.has(name));
  const renamed = findRenames(removedNames, addedNames, a, b);
  const renamedTo = new Map(renamed.map((r) => [r.from, r.to]));
  const naming: Naming = (name) => renamedTo.get(name) ?? name;
  const flowsA = flowsOf(a);
  const flowsB = flowsOf(b);
  const flowsBoth = (nameA: string, nameB: string): Direction[] => {
    const set = new Set([...(a.definitions.has(nameA) ? flowsA(nameA) : []), ...(b.definitions.has(nameB) ? flowsB(nameB) : [])]);
    return (["client", "server"] as const).filter((side) => set.has(side));
  };

  const entry = (name: string, flows: Direction[], impact: Impact): DefinitionEntry => ({ name, flows, impact });
  const definitions = {
    added: addedNames.filter((name) => !renamed.some((r) => r.to === name)).map((name) => entry(name, flowsB(name), ADDITIVE)),
    removed: removedNames.filter((name) => !renamedTo.has(name)).map((name) => entry(name, flowsA(name), BREAKING)),
    renamed,
    named: [...b.definitions.keys()].filter((name) => a.definitions.get(name)?.liftedFrom && !b.definitions.get(name)!.liftedFrom),
    inlined: [...b.definitions.keys()].filter((name) => b.definitions.get(name)!.liftedFrom && a.definitions.has(name) && !a.definitions.get(name)!.liftedFrom),
  };

  const changed: DefinitionChanges[] = [];
  const pairs: [string, string][] = [
    ...[...b.definitions.keys()].filter((name) => a.definitions.has(name)).map((name): [string, string] => [name, name]),
    ...renamed.map((r): [string, string] => [r.from, r.to]),
  ];
  const envelopes = envelopeProperties(a);
  for (const [nameA, nameB] of pairs) {
    const flows = flowsBoth(nameA, nameB);
    const envelope = envelopes.get(nameA);
    const changes = compareSchemas(a.definitions.get(nameA)!.schema, b.definitions.get(nameB)!.schema, "", { a, b, naming, flows, envelope });
    if (changes.length > 0 || nameA !== nameB)
      changed.push({ definition: nameB, ...(nameA !== nameB ? { was: nameA } : {}), flows, changes });
  }
  const order = new Map([...b.definitions.keys()].map((name, i) => [name, i]));
  changed.sort((x, y) => order.get(x.definition)! - order.get(y.definition)!);

  const methods = diffMethods(a, b, naming);
  const era = a.era === b.era ? undefined : { from: a.era, to: b.era, impact: BREAKING };

  const summary = { server: { breaking: 0, additive: 0 }, client: { breaking: 0, additive: 0 } };
  const count = (impact: Impact) => {
    for (const role of ["server", "client"] as const) summary[role][impact[role]]++;
  };
  if (era) count(era.impact);
  for (const change of methods) count(change.impact);
  for (const e of [...definitions.added, ...definitions.removed]) count(e.impact);
  for (const _ of renamed) count(BREAKING);
  for (const d of changed) for (const change of d.changes) count(change.impact);

  const info = (p: Protocol) => ({ revision: p.revision, era: p.era, dialect: p.dialect, definitions: p.definitions.size });
  return { from: info(a), to: info(b), ...(era ? { era } : {}), methods, definitions, changed, summary };
}

// -- methods ---------------------------------------------------------------------------------------

type AnyMethod = (RequestMethod | NotificationMethod) & { readonly input?: boolean };
type Kind = MethodChange["kind"];

function methodTable(p: Protocol): Map<string, { kind: Kind; sender: Direction; method: AnyMethod }> {
  const table = new Map<string, { kind: Kind; sender: Direction; method: AnyMethod }>();
  const add = (kind: Kind, sender: Direction, method: AnyMethod) => table.set(`${kind}|${sender}|${method.method}`, { kind, sender, method });
  for (const request of p.requests) for (const sender of request.senders) add("request", sender, request);
  for (const notification of p.notifications) for (const sender of notification.senders) add("notification", sender, notification);
  for (const input of p.inputRequests) add("input request", "server", input);
  return table;
}

const KIND_ORDER: Record<Kind, number> = { request: 0, "input request": 1, notification: 2 };
const CHANGE_ORDER: Record<MethodChange["change"], number> = { removed: 0, added: 1, "results changed": 2, "params changed": 3 };

function diffMethods(a: Protocol, b: Protocol, naming: Naming): MethodChange[] {
  const before = methodTable(a);
  const after = methodTable(b);
  const changes: MethodChange[] = [];
  const gated = (p: Protocol, method: string, receiver: Direction) => p.capabilityGates.find((g) => g.method === method && g.owner === receiver);

  for (const [key, { kind, sender, method }] of after) {
    if (before.has(key)) continue;
    const receiver = other(sender);
    if (kind === "notification") {
      changes.push({ method: method.method, direction: sender, kind, change: "added", impact: ADDITIVE, reason: `the ${sender} may send it; a ${receiver} may ignore it` });
      continue;
    }
    const gate = gated(b, method.method, receiver);
    changes.push({
      method: method.method,
      direction: sender,
      kind,
      change: "added",
      impact: gate ? ADDITIVE : only(receiver),
      reason: gate
        ? `only sent to a ${receiver} that declares the ${gate.path.join(".")} capability`
        : `every ${receiver} must answer it (the generated ${receiver === "server" ? "ServerHandlers" : kind === "input request" ? "ClientInputHandlers" : "ClientHandlers"} gain a member; the defaults answer -32601)`,
    });
  }
  for (const [key, { kind, sender, method }] of before) {
    if (after.has(key)) continue;
    const receiver = other(sender);
    const elsewhere = [...after.values()].find((m) => m.method.method === method.method && m.sender === sender);
    const moved = elsewhere ? ` (it remains as ${elsewhere.kind === "input request" ? "an input request, embedded in InputRequiredResult" : `a ${elsewhere.kind}`})` : "";
    changes.push({
      method: method.method,
      direction: sender,
      kind,
      change: "removed",
      impact: kind === "notification" ? BREAKING : only(sender),
      reason:
        kind === "notification"
          ? `the ${sender} may no longer send it, and a ${receiver} waiting for it never hears it${moved}`
          : `a ${sender} may no longer send it${moved}; a ${receiver} no longer answers it`,
    });
  }
  for (const [key, { kind, sender, method }] of after) {
    const previous = before.get(key)?.method;
    if (!previous) continue;
    const receiver = other(sender);
    if ("results" in method && "results" in previous) {
      const was = new Set(previous.results.map(naming));
      const now = new Set(method.results);
      if (was.size !== now.size || [...now].some((r) => !was.has(r))) {
        const widened = [...was].every((r) => now.has(r));
        const narrowed = [...now].every((r) => was.has(r));
        changes.push({
          method: method.method,
          direction: sender,
          kind,
          change: "results changed",
          detail: `${previous.results.join(" | ")} → ${method.results.join(" | ")}`,
          impact: widened ? only(sender) : narrowed ? only(receiver) : BREAKING,
          reason: widened
            ? `a ${sender} must handle the new result`
            : narrowed
              ? `a ${receiver} may no longer answer with the removed result`
              : `a ${receiver} answers differently and a ${sender} must read the new results`,
        });
      }
    }
    const paramsWas = previous.params === undefined ? undefined : naming(previous.params);
    if (paramsWas !== method.params || previous.paramsRequired !== method.paramsRequired) {
      const nowRequired = method.paramsRequired && !previous.paramsRequired;
      const nowOptional = !method.paramsRequired && previous.paramsRequired;
      const parts: string[] = [];
      if (paramsWas !== method.params) parts.push(`${previous.params ?? "none"} → ${method.params ?? "none"}`);
      if (nowRequired) parts.push("params now required");
      if (nowOptional) parts.push("params now optional");
      changes.push({
        method: method.method,
        direction: sender,
        kind,
        change: "params changed",
        detail: parts.join("; "),
        impact: nowRequired ? only(sender) : nowOptional ? only(receiver) : ADDITIVE,
        reason: nowRequired
          ? `a ${sender} must now send params`
          : nowOptional
            ? `a ${receiver} must accept a message without params`
            : "the params type is another definition now; what changed inside it is listed with the definitions",
      });
    }
  }
  return changes.sort(
    (x, y) =>
      KIND_ORDER[x.kind] - KIND_ORDER[y.kind] ||
      x.direction.localeCompare(y.direction) ||
      CHANGE_ORDER[x.change] - CHANGE_ORDER[y.change] ||
      x.method.localeCompare(y.method),
  );
}

// -- definitions -------------------------------------------------------------------------------------

interface CompareContext {
  readonly a: Protocol;
  readonly b: Protocol;
  readonly naming: Naming;
  readonly flows: readonly Direction[];
  /** For a message definition: the envelope it travelled in before, and the properties that envelope carried. */
  readonly envelope?: { readonly name: string; readonly properties: ReadonlySet<string> };
}

/**
 * Up to 2025-06-18 a request definition holds only method and params; the wire message is
 * JSONRPCRequest & it (PROTOCOL-NOTES, trap 11). `jsonrpc` and `id` appearing in the message
 * definition later are the same bytes on the wire, declared in one place.
 */
function envelopeProperties(p: Protocol): Map<string, { name: string; properties: ReadonlySet<string> }> {
  const out = new Map<string, { name: string; properties: ReadonlySet<string> }>();
  const of = (name: string) => {
    const definition = p.definitions.get(name);
    const shape = definition && objectShape(definition.schema, p.definitions);
    return shape ? { name, properties: new Set(shape.properties.keys()) } : undefined;
  };
  const request = of("JSONRPCRequest");
  const notification = of("JSONRPCNotification");
  for (const r of [...p.requests, ...p.inputRequests]) if (request) out.set(r.request, request);
  for (const n of p.notifications) if (notification) out.set(n.notification, notification);
  return out;
}

function compareSchemas(x: Schema, y: Schema, path: string, ctx: CompareContext): PropertyChange[] {
  const shapeX = objectShape(x, ctx.a.definitions);
  const shapeY = objectShape(y, ctx.b.definitions);
  if (!shapeX || !shapeY) return compareTypes(x, y, path, ctx);

  const changes: PropertyChange[] = [];
  const at = (name: string) => (path ? `${path}.${name}` : name);
  const push = (change: Omit<PropertyChange, "impact">, effect: Effect) => changes.push({ ...change, impact: impactOf(effect, ctx.flows) });
  for (const [name, schema] of shapeY.properties) {
    if (shapeX.properties.has(name)) continue;
    const required = shapeY.required.has(name);
    const type = `${describe(schema)}${required ? ", required" : ", optional"}`;
    if (path === "" && ctx.envelope?.properties.has(name))
      changes.push({ path: name, change: "property added", to: `${type}; on the wire already, through ${ctx.envelope.name}`, impact: ADDITIVE });
    else push({ path: at(name), change: "property added", to: type }, { producer: required, consumer: false });
  }
  for (const [name, schema] of shapeX.properties) {
    if (shapeY.properties.has(name)) continue;
    push({ path: at(name), change: "property removed", from: `${describe(schema)}${shapeX.required.has(name) ? ", required" : ", optional"}` }, { producer: false, consumer: true });
  }
  for (const [name, before] of shapeX.properties) {
    const after = shapeY.properties.get(name);
    if (!after) continue;
    const wasRequired = shapeX.required.has(name);
    const isRequired = shapeY.required.has(name);
    if (!wasRequired && isRequired) push({ path: at(name), change: "now required" }, { producer: true, consumer: false });
    if (wasRequired && !isRequired) push({ path: at(name), change: "now optional" }, { producer: false, consumer: true });
    if (isInlineObject(before) && isInlineObject(after)) changes.push(...compareSchemas(before, after, at(name), ctx));
    else if (isInlineObject(before) && after.ref !== undefined && isInlineObject(ctx.b.definitions.get(after.ref)!.schema)) {
      // An inline object became a named one (`_meta` -> MetaObject): a new name, and whatever changed inside.
      changes.push({ path: at(name), change: "type changed", from: "inline object", to: `${after.ref} (named)`, impact: ADDITIVE });
      changes.push(...compareSchemas(before, ctx.b.definitions.get(after.ref)!.schema, at(name), ctx));
    } else if (before.ref !== undefined && isInlineObject(after) && isInlineObject(ctx.a.definitions.get(before.ref)!.schema)) {
      changes.push({ path: at(name), change: "type changed", from: `${before.ref} (named)`, to: "inline object", impact: ADDITIVE });
      changes.push(...compareSchemas(ctx.a.definitions.get(before.ref)!.schema, after, at(name), ctx));
    } else if (before.items && after.items && isInlineObject(before.items) && isInlineObject(after.items)) {
      changes.push(...compareConstraints(before, after, at(name), ctx));
      changes.push(...compareSchemas(before.items, after.items, `${at(name)}[]`, ctx));
    } else changes.push(...compareTypes(before, after, at(name), ctx));
  }
  return changes;
}

function compareTypes(x: Schema, y: Schema, path: string, ctx: CompareContext): PropertyChange[] {
  const changes = compareConstraints(x, y, path, ctx);
  const before = alternativesOf(x, ctx.naming);
  const after = alternativesOf(y);
  if (before.size === after.size && [...after].every((t) => before.has(t))) return changes;
  const widened = admitsAll(after, before);
  const narrowed = admitsAll(before, after);
  const change = widened && !narrowed ? "type widened" : narrowed && !widened ? "type narrowed" : "type changed";
  const effect: Effect = { producer: change !== "type widened", consumer: change !== "type narrowed" };
  const kept = [...after].filter((t) => before.has(t));
  const members =
    kept.length > 0 && (before.size > 2 || after.size > 2)
      ? { membersAdded: [...after].filter((t) => !before.has(t)), membersRemoved: [...before].filter((t) => !after.has(t)) }
      : {};
  changes.push({ path, change, from: describe(x), to: describe(y), ...members, impact: impactOf(effect, ctx.flows) });
  return changes;
}

function compareConstraints(x: Schema, y: Schema, path: string, ctx: CompareContext): PropertyChange[] {
  const before = constraintsOf(x);
  const after = constraintsOf(y);
  const changes: PropertyChange[] = [];
  for (const key of ["maxItems", "minimum", "maximum"] as const) {
    const was = before[key];
    const now = after[key];
    if (was === now) continue;
    // A lower bound that rises, an upper bound that falls, or a new bound: producers must keep within it.
    const tighter = was === undefined || (now !== undefined && (key === "minimum" ? now > was : now < was));
    changes.push({
      path,
      change: "constraint changed",
      from: was === undefined ? `no ${key}` : `${key} ${was}`,
      to: now === undefined ? `no ${key}` : `${key} ${now}`,
      impact: impactOf({ producer: tighter, consumer: !tighter }, ctx.flows),
    });
  }
  return changes;
}
