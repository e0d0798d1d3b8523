/**
 * What `mcp-codegen diff` reports: the shape of its JSON output, and what the Markdown renders.
 * Every change says what it means for each role, because a server implementer and a client
 * author read the same change differently: a result gaining a required field is work for the
 * server that produces it and a bonus for the client that reads it.
 */
import type { Era } from "../model/protocol.js";

export type Role = "server" | "client";

/**
 * breaking: code written for the older revision in that role must change (the generated types
 * flag most of it at compile time). additive: nothing written for the older revision stops
 * working; there is something new it may use.
 */
export type Severity = "breaking" | "additive";

export interface Impact {
  readonly server: Severity;
  readonly client: Severity;
}

/** Who sends a message: `client` means client -> server. */
export type Direction = "client" | "server";

export interface MethodChange {
  readonly method: string;
  /** The sender. */
  readonly direction: Direction;
  /** input request: embedded by a stateless server in an InputRequiredResult (no JSON-RPC id). */
  readonly kind: "request" | "notification" | "input request";
  readonly change: "added" | "removed" | "results changed" | "params changed";
  /** e.g. the results before and after. */
  readonly detail?: string;
  readonly impact: Impact;
  /** Why it is classified so. */
  readonly reason: string;
}

export interface Rename {
  readonly from: string;
  readonly to: string;
  /** 0..1: how alike the two definitions are: 0.7 x structure + 0.3 x name (codegen/diff/renames.ts). */
  readonly similarity: number;
  /** Why they were paired, so a reader can check it. */
  readonly evidence: RenameEvidence;
}

export interface RenameEvidence {
  /** 0..1: property names and their types (objects), or the type alternatives (anything else). */
  readonly structure: number;
  /** 0..1: the CamelCase words the two names share. */
  readonly name: number;
  /** Properties present in both with the same type. */
  readonly same: readonly string[];
  /** Properties present in both whose type differs. */
  readonly retyped: readonly string[];
  readonly onlyBefore: readonly string[];
  readonly onlyAfter: readonly string[];
  readonly sharedWords: readonly string[];
}

export interface PropertyChange {
  /** The property, dotted for nested inline objects (`error.code`), `[]` for array items; "" for the definition itself. */
  readonly path: string;
  readonly change:
    | "property added"
    | "property removed"
    | "now required"
    | "now optional"
    | "type widened"
    | "type narrowed"
    | "type changed"
    | "constraint changed";
  readonly from?: string;
  readonly to?: string;
  /** For a union that kept some members: the members added and removed (from and to hold the whole types). */
  readonly membersAdded?: readonly string[];
  readonly membersRemoved?: readonly string[];
  readonly impact: Impact;
}

export interface DefinitionChanges {
  /** The name in the newer revision. */
  readonly definition: string;
  /** The name in the older revision, when it was renamed. */
  readonly was?: string;
  /** Who sends values of it (from the methods that reach it); both when unknown. */
  readonly flows: readonly Direction[];
  readonly changes: readonly PropertyChange[];
}

export interface DefinitionEntry {
  readonly name: string;
  readonly flows: readonly Direction[];
  readonly impact: Impact;
}

export interface RevisionInfo {
  readonly revision: string;
  readonly era: Era;
  readonly dialect: string;
  readonly definitions: number;
}

export interface DiffReport {
  readonly from: RevisionInfo;
  readonly to: RevisionInfo;
  /** Set when the era changes: the lifecycle itself differs. */
  readonly era?: { readonly from: Era; readonly to: Era; readonly impact: Impact };
  readonly methods: readonly MethodChange[];
  readonly definitions: {
    readonly added: readonly DefinitionEntry[];
    readonly removed: readonly DefinitionEntry[];
    /** Best effort: a removed and an added definition alike enough, and unambiguously so. */
    readonly renamed: readonly Rename[];
    /** Params the older schema declared inline (mcp-codegen named them) that the newer one defines by name. */
    readonly named: readonly string[];
    /** The reverse: named params that became inline. */
    readonly inlined: readonly string[];
  };
  /** Definitions present in both (or renamed) whose structure changed. */
  readonly changed: readonly DefinitionChanges[];
  readonly summary: Readonly<Record<Role, Readonly<Record<Severity, number>>>>;
}
