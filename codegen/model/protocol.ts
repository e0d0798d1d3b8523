import type { CapabilityGate as RuntimeGate, Era, Side } from "../../runtime/contract.js";
import type { Dialect, Schema } from "../../runtime/json-schema/model/schema.js";

/** The era and sides are the runtime contract's (runtime/contract.ts). */
export type { Era, Side };

export interface Definition {
  readonly name: string;
  readonly schema: Schema;
  /** Set on a params object the model lifted out of a method definition to give it a name. */
  readonly liftedFrom?: string;
}

interface MethodBase {
  readonly method: string;
  /** Who may send it; ping, progress and cancellation travel both ways. */
  readonly senders: readonly Side[];
  /** The definition of its params object; absent when the method takes none. */
  readonly params?: string;
  readonly paramsRequired: boolean;
}

export interface RequestMethod extends MethodBase {
  readonly kind: "request";
  readonly request: string;
  /** The primary result first; alternatives follow (CreateTaskResult, InputRequiredResult). */
  readonly results: readonly string[];
  /** The primary result carries caching hints (`ttlMs`, 2026-07-28 list, read and discover results). */
  readonly cacheable: boolean;
}

export interface NotificationMethod extends MethodBase {
  readonly kind: "notification";
  readonly notification: string;
}

/** A capability that must be declared for a method to be used (PROTOCOL-NOTES, runtime rules). */
export interface CapabilityGate extends RuntimeGate {
  readonly method: string;
}

/** An extension's schema (SEP-2133), read on top of the core revision it builds on. */
export interface ExtensionBasis {
  /** The extension identifier, e.g. "io.modelcontextprotocol/tasks". */
  readonly id: string;
  /** Where its module goes, relative to the output root, e.g. "extensions/tasks". */
  readonly folder: string;
  /** The core revision's model. */
  readonly core: Protocol;
  /** Definitions the extension restates from the core revision, equal there: imported, never emitted again. */
  readonly imported: ReadonlySet<string>;
}

/** Everything the emitters need to know about one revision (or one extension). */
export interface Protocol {
  readonly revision: string;
  readonly dialect: Dialect;
  readonly era: Era;
  /** Source order, lifted params appended. */
  readonly definitions: ReadonlyMap<string, Definition>;
  readonly requests: readonly RequestMethod[];
  readonly notifications: readonly NotificationMethod[];
  /**
   * Stateless era: server-to-client requests that travel inside an InputRequiredResult
   * (no id, no jsonrpc) instead of as JSON-RPC requests.
   */
  readonly inputRequests: readonly RequestMethod[];
  readonly capabilityGates: readonly CapabilityGate[];
  /** The schema defines JSON-RPC batches (2025-03-26 only, so far). */
  readonly batches: boolean;
  /** Definitions typed with an index signature, as upstream's schema.ts has them (model/openness.ts). */
  readonly open: ReadonlySet<string>;
  /** Set for an extension: `revision` and `era` are then its core revision's. */
  readonly extension?: ExtensionBasis;
}

/** Where a module's files live, relative to the output root: `2025-11-25` or `extensions/tasks`. */
export function folderOf(protocol: Protocol): string {
  return protocol.extension?.folder ?? protocol.revision;
}

/** From a module's folder back to the output root, where the support files and the revisions live: `../` or `../../`. */
export function toRoot(protocol: Protocol): string {
  return "../".repeat(folderOf(protocol).split("/").length);
}

/** The definitions a module emits itself: an extension's own, not those it takes from its core revision. */
export function ownDefinitions(protocol: Protocol): Definition[] {
  return [...protocol.definitions.values()].filter((d) => !protocol.extension?.imported.has(d.name));
}

export function sentBy<M extends MethodBase>(methods: readonly M[], side: Side): M[] {
  return methods.filter((m) => m.senders.includes(side));
}
