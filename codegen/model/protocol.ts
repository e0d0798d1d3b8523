import type { CapabilityGate as RuntimeGate, Era, Side } from "../../runtime/contract.js";
import type { Dialect, Schema } from "../load/schema.js";

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

/** Everything the emitters need to know about one revision. */
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
}

export function sentBy<M extends MethodBase>(methods: readonly M[], side: Side): M[] {
  return methods.filter((m) => m.senders.includes(side));
}
