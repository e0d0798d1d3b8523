import {
  ERAS,
  FEATURES,
  LATEST_REVISION,
  LOADERS,
  REVISIONS,
  type DefaultRevision,
  type Revision as PinnedRevision,
  type RevisionTypesByName,
} from "../../generated/registry.js";
import type { CapabilityGate, Era, MethodDescriptor, RevisionFeatures, RevisionModule, Validator } from "../contract.js";

export type { CapabilityGate, DefaultRevision, Era, MethodDescriptor, PinnedRevision, RevisionFeatures, RevisionModule, RevisionTypesByName };

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
  readonly features: RevisionFeatures;
  readonly methods: ReadonlyMap<string, MethodDescriptor>;
  readonly inputRequests: ReadonlyMap<string, MethodDescriptor>;
  readonly capabilityGates: ReadonlyMap<string, CapabilityGate>;
  /** False for {@link startRevision}'s view, which has only the validators that answer initialize and server/discover. */
  readonly complete: boolean;
  validator(definition: string): Validator;
}

function view(module: RevisionModule, validators: Readonly<Record<string, Validator>>, complete: boolean): LoadedRevision {
  const byName = new Map(Object.entries(validators));
  const methods = new Map(Object.entries(module.methods));
  return {
    revision: module.revision,
    era: module.era,
    batches: module.batches,
    // A module from a generator before features: core tasks read from its methods, as the generator does (codegen/model/features.ts).
    features: module.features ?? { coreTasks: module.era === "session" && methods.get("tasks/get")?.kind === "request", ssePriming: false },
    methods,
    inputRequests: new Map(Object.entries(module.inputRequests)),
    capabilityGates: new Map(Object.entries(module.capabilityGates)),
    complete,
    validator(definition) {
      const found = byName.get(definition);
      if (found) return found;
      throw new Error(`MCP ${module.revision} has no definition ${definition}${complete ? "" : " among its start-up validators (loadRevision loads them all)"}`);
    },
  };
}

/**
 * Pinned revisions are imported on first use: a revision's validators are a few hundred
 * kilobytes, and a server answering one revision should not start up paying for five. Nor for
 * all of one: a module with `loadValidators` answers initialize and server/discover with its
 * start-up validators ({@link startRevision}), and imports the rest when another method comes
 * ({@link loadRevision}). A module handed to {@link useRevision} is known at once, and takes the
 * place of a pinned revision of the same name in this process.
 */
const modules = new Map<string, RevisionModule | Promise<RevisionModule>>();
const started = new Map<string, LoadedRevision>();
const loaded = new Map<string, LoadedRevision>();
const loading = new Map<string, Promise<LoadedRevision>>();
const views = new WeakMap<RevisionModule, LoadedRevision>();

/** Every pinned revision, oldest first. */
export const ALL_REVISIONS: readonly PinnedRevision[] = REVISIONS;
export { LATEST_REVISION };

function isPinned(value: string): value is PinnedRevision {
  return Object.prototype.hasOwnProperty.call(ERAS, value);
}

/** Makes a generated module servable under its revision name; returns what the runtime reads of it (its start-up view when it loads its validators on demand). */
export function useRevision(module: RevisionModule): LoadedRevision {
  const current = modules.get(module.revision) === module ? (loaded.get(module.revision) ?? started.get(module.revision)) : undefined;
  if (current) return current;
  modules.set(module.revision, module);
  loading.delete(module.revision);
  const ready = views.get(module) ?? view(module, module.validators, module.loadValidators === undefined);
  views.set(module, ready);
  if (ready.complete) {
    loaded.set(module.revision, ready);
    started.delete(module.revision);
  } else {
    loaded.delete(module.revision);
    started.set(module.revision, ready);
  }
  return ready;
}

/** The name of a revision reference; a module becomes known to this process. */
export function revisionName(ref: RevisionRef): Revision {
  if (typeof ref === "string") return ref;
  return useRevision(ref).revision;
}

/** A revision already loaded with every validator; see {@link loadRevision}. */
export function revisionModule(revision: string): LoadedRevision | undefined {
  return loaded.get(revision);
}

function moduleOf(revision: Revision): RevisionModule | Promise<RevisionModule> {
  const known = modules.get(revision);
  if (known) return known;
  if (!isPinned(revision)) throw new Error(`unknown MCP revision ${revision} (pinned: ${ALL_REVISIONS.join(", ")})`);
  const importing = LOADERS[revision]().then((module: RevisionModule) => {
    if (modules.get(revision) === importing) modules.set(revision, module);
    return modules.get(revision)!;
  });
  modules.set(revision, importing);
  return importing;
}

/** A revision with at least the validators that answer initialize and server/discover: at once when it is known, else once its module is imported. */
export function startRevision(revision: Revision): LoadedRevision | Promise<LoadedRevision> {
  const ready = loaded.get(revision) ?? started.get(revision);
  if (ready) return ready;
  const startUp = (module: RevisionModule) => loaded.get(revision) ?? started.get(revision) ?? useRevision(module);
  try {
    const module = moduleOf(revision);
    return module instanceof Promise ? module.then(startUp) : startUp(module);
  } catch (error) {
    return Promise.reject(error as Error);
  }
}

/** A revision with every validator, imported on first use. */
export function loadRevision(revision: Revision): Promise<LoadedRevision> {
  const done = loaded.get(revision);
  if (done) return Promise.resolve(done);
  const pending = loading.get(revision);
  if (pending) return pending;
  const next = Promise.resolve()
    .then(() => moduleOf(revision))
    .then(async (module): Promise<LoadedRevision> => {
      if (!module.loadValidators) return loaded.get(revision) ?? useRevision(module);
      const all = view(module, await module.loadValidators(), true);
      if (modules.get(revision) !== module) return loadRevision(revision); // another module took its place meanwhile
      loaded.set(revision, all);
      started.delete(revision);
      views.set(module, all);
      return all;
    })
    .finally(() => {
      if (loading.get(revision) === next) loading.delete(revision);
    });
  loading.set(revision, next);
  return next;
}

/** A pinned revision, or one a generated module made known. */
export function isRevision(value: unknown): value is Revision {
  return typeof value === "string" && (loaded.has(value) || started.has(value) || isPinned(value));
}

/**
 * Whether a revision has tasks in its core protocol (2025-11-25's experimental tasks, before they
 * became an extension): its features, known before its module is loaded (a fresh process answers
 * its first initialize from the start-up module: featuresOf).
 */
export function hasCoreTasks(revision: Revision): boolean {
  return isRevision(revision) && featuresOf(revision).coreTasks;
}

/** Whether a loaded revision defines `method`: a notification one revision defines is not a vendor's in another that lacks it. */
export function definedByAnyRevision(method: string): boolean {
  for (const module of loaded.values()) if (module.methods.has(method)) return true;
  return false;
}

/** What the runtime does differently in `revision` (the contract's RevisionFeatures): from its module once known, else from the registry. */
export function featuresOf(revision: Revision): RevisionFeatures {
  const known = loaded.get(revision) ?? started.get(revision);
  if (known) return known.features;
  if (isPinned(revision)) return FEATURES[revision];
  throw new Error(`unknown MCP revision ${revision}`);
}

export function eraOf(revision: Revision): Era {
  const known = loaded.get(revision) ?? started.get(revision);
  if (known) return known.era;
  if (isPinned(revision)) return ERAS[revision];
  throw new Error(`unknown MCP revision ${revision}`);
}
