/**
 * The contract between generated code and the runtime, declared once. Every generated revision
 * module (generated/<rev>/module.ts, or one that `mcp-codegen generate --out` writes into a
 * user's project) exports a {@link RevisionModule}; the generator's emitters type what they
 * print by it, and the runtime serves any value of it. A module written by another version of
 * the generator that no longer fits fails the user's compile here, not at run time.
 */
import type { Validator } from "./support/validation.js";

export type { ValidationIssue, Validator } from "./support/validation.js";

/** Read from the schema: `initialize` makes a session-era revision, `server/discover` a stateless one. */
export type Era = "session" | "stateless";

/** Which end of a connection: the client or the server. */
export type Side = "client" | "server";

/** One JSON-RPC method of a revision, by the names of the definitions that validate it. */
export interface MethodDescriptor {
  readonly kind: "request" | "notification";
  /** Who may send it; ping, progress and cancellation travel both ways. */
  readonly senders: readonly Side[];
  /** The definition that validates the whole message. */
  readonly message: string;
  /** The definition of its params object; absent when the method takes none. */
  readonly params?: string;
  readonly paramsRequired: boolean;
  /** Requests: the primary result first, then alternatives (CreateTaskResult, InputRequiredResult). */
  readonly results?: readonly string[];
  /** The primary result carries caching hints (2026-07-28 list, read and discover results). */
  readonly cacheable?: boolean;
}

/** A capability that must be declared before a method may be used. */
export interface CapabilityGate {
  /** Whose capabilities declare it. */
  readonly owner: Side;
  readonly path: readonly string[];
}

/** A revision's method maps: method -> params and result (generated/<rev>/protocol.ts). */
export interface RevisionTypes {
  readonly ClientRequests: object;
  readonly ServerRequests: object;
  readonly ClientNotifications: object;
  readonly ServerNotifications: object;
}

/**
 * What the runtime does differently by revision beyond the method tables, so that no runtime
 * file names a revision. The generator reads each from the schema where the schema shows it,
 * and declares the rest in one table citing the spec (codegen/model/features.ts).
 */
export interface RevisionFeatures {
  /** tasks/* are requests of the core protocol (a session-era schema defining tasks/get), not of the tasks extension. */
  readonly coreTasks: boolean;
  /** Streamable HTTP: an SSE stream starts with a priming event, an id and empty data (SEP-1699). */
  readonly ssePriming: boolean;
}

/** One revision of the protocol (or an extension), as a value the runtime can serve. */
export interface RevisionModule<Types extends RevisionTypes = RevisionTypes> {
  /** The protocol version string on the wire, e.g. "2025-11-25". */
  readonly revision: string;
  readonly era: Era;
  /** The schema defines JSON-RPC batches (2025-03-26 only). */
  readonly batches: boolean;
  /** Absent in modules of generators before it: coreTasks is then read from `methods`, ssePriming is false. */
  readonly features?: RevisionFeatures;
  /** Every JSON-RPC method, by method name. */
  readonly methods: Readonly<Record<string, MethodDescriptor>>;
  /** Stateless era: requests the server embeds in an InputRequiredResult. */
  readonly inputRequests: Readonly<Record<string, MethodDescriptor>>;
  /** Gated methods, by method name. */
  readonly capabilityGates: Readonly<Record<string, CapabilityGate>>;
  /**
   * A validator for every definition, by definition name; with {@link loadValidators}, only
   * those that answer `initialize` and `server/discover` (generated/<rev>/startup.ts).
   */
  readonly validators: Readonly<Record<string, Validator>>;
  /**
   * Every definition's validator, imported on demand: a server answers its first message with
   * {@link validators} alone, and loads these on the first use of another method (parsing a
   * revision's whole validators was most of a stdio server's start-up).
   */
  readonly loadValidators?: () => Promise<Readonly<Record<string, Validator>>>;
  /** Types only, never present at run time: what handlers of this revision receive and return. */
  readonly types?: Types;
}

/**
 * An extension (SEP-2133) as a value the runtime can serve: generated from the extension's own
 * schema (generated/extensions/<name>/module.ts, or `mcp-codegen generate --extension`), its
 * tables shaped like a revision's. `revision` and `era` are those of the core revision its
 * schema builds on; `validators` holds every definition the extension's schema restates too.
 */
export interface ExtensionModule<Types extends RevisionTypes = RevisionTypes>
  extends Pick<RevisionModule<Types>, "revision" | "era" | "methods" | "capabilityGates" | "validators" | "types"> {
  /** The extension identifier negotiated under `capabilities.extensions`, e.g. "io.modelcontextprotocol/tasks". */
  readonly extension: string;
}
