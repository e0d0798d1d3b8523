import {
  ERAS,
  LATEST_REVISION,
  LOADERS,
  REVISIONS,
  type DefaultRevision,
  type Revision as PinnedRevision,
  type RevisionTypesByName,
} from "../../generated/registry.js";
import type { CapabilityGate, Era, MethodDescriptor, RevisionModule, Validator } from "../contract.js";

export type { CapabilityGate, DefaultRevision, Era, MethodDescriptor, PinnedRevision, RevisionModule, RevisionTypesByName };

/** A protocol version string: a pinned revision's, or one a generated module brings. */
export type Revision = string;

/** A revision by name (pinned with this runtime) or as a module generated into one's own project. */
export type RevisionRef = PinnedRevision | Revision | RevisionModule;

/**
 * What the runtime reads of a {@link RevisionModule}: the same tables as Maps, because method
 * and definition names come off the wire (`constructor`, `__proto__`...), and a validator
 * lookup that names what is missing.
 */
export interface LoadedRevision {
  readonly revision: Revision;
  readonly era: Era;
  readonly batches: boolean;
  readonly methods: ReadonlyMap<string, MethodDescriptor>;
  readonly inputRequests: ReadonlyMap<string, MethodDescriptor>;
  readonly capabilityGates: ReadonlyMap<string, CapabilityGate>;
  validator(definition: string): Validator;
}

function view(module: RevisionModule): LoadedRevision {
  const validators = new Map(Object.entries(module.validators));
  return {
    revision: module.revision,
    era: module.era,
    batches: module.batches,
    methods: new Map(Object.entries(module.methods)),
    inputRequests: new Map(Object.entries(module.inputRequests)),
    capabilityGates: new Map(Object.entries(module.capabilityGates)),
    validator(definition) {
      const found = validators.get(definition);
      if (!found) throw new Error(`MCP ${module.revision} has no definition ${definition}`);
      return found;
    },
  };
}

/**
 * Pinned revisions are imported on first use: a revision's validators are a few hundred
 * kilobytes, and a server answering one revision should not start up paying for five. A module
 * handed to {@link useRevision} is known at once, and takes the place of a pinned revision of the
 * same name in this process.
 */
const loaded = new Map<string, LoadedRevision>();
const loading = new Map<string, Promise<LoadedRevision>>();
const views = new WeakMap<RevisionModule, LoadedRevision>();

/** Every pinned revision, oldest first. */
export const ALL_REVISIONS: readonly PinnedRevision[] = REVISIONS;
export { LATEST_REVISION };

function isPinned(value: string): value is PinnedRevision {
  return Object.prototype.hasOwnProperty.call(ERAS, value);
}

/** Makes a generated module servable under its revision name; returns what the runtime reads of it. */
export function useRevision(module: RevisionModule): LoadedRevision {
  const ready = views.get(module) ?? view(module);
  views.set(module, ready);
  loaded.set(module.revision, ready);
  loading.delete(module.revision);
  return ready;
}
/** The name of a revision reference; a module becomes known to this process. */
export function revisionName(ref: RevisionRef): Revision {
  if (typeof ref === "string") return ref;
  return useRevision(ref).revision;
}

/** A revision already loaded; see {@link loadRevision}. */
export function revisionModule(revision: string): LoadedRevision | undefined {
  return loaded.get(revision);
}

export function loadRevision(revision: Revision): Promise<LoadedRevision> {
  const done = loaded.get(revision);
  if (done) return Promise.resolve(done);
  const pending = loading.get(revision);
  if (pending) return pending;
  if (!isPinned(revision)) return Promise.reject(new Error(`unknown MCP revision ${revision} (pinned: ${ALL_REVISIONS.join(", ")})`));
  const next = LOADERS[revision]().then((module: RevisionModule) => loaded.get(revision) ?? useRevision(module));
  loading.set(revision, next);
  return next;
}

/** A pinned revision, or one a generated module made known. */
export function isRevision(value: unknown): value is Revision {
  return typeof value === "string" && (loaded.has(value) || isPinned(value));
}

/**
 * Whether a loaded revision has tasks in its core protocol (tasks/get a client request of a
 * session-era revision: 2025-11-25's experimental tasks, before they became an extension), read
 * from its method table rather than named.
 */
export function hasCoreTasks(revision: Revision): boolean {
  const module = loaded.get(revision);
  return module?.era === "session" && module.methods.get("tasks/get")?.kind === "request";
}

/** Whether a loaded revision defines `method`: a notification one revision defines is not a vendor's in another that lacks it. */
export function definedByAnyRevision(method: string): boolean {
  for (const module of loaded.values()) if (module.methods.has(method)) return true;
  return false;
}

export function eraOf(revision: Revision): Era {
  const known = loaded.get(revision);
  if (known) return known.era;
  if (isPinned(revision)) return ERAS[revision];
  throw new Error(`unknown MCP revision ${revision}`);
}
