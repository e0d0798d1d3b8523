import { ERAS, LATEST_REVISION, LOADERS, REVISIONS, type Revision } from "../../generated/registry.js";
import type { Validator } from "../../generated/validation.js";

export type { Revision };
export type Era = "session" | "stateless";

/** What the generated METHODS table says of one method. */
export interface MethodDescriptor {
  readonly kind: "request" | "notification";
  readonly senders: readonly ("client" | "server")[];
  /** The definition that validates the whole message. */
  readonly message: string;
  readonly params?: string;
  readonly paramsRequired: boolean;
  readonly results?: readonly string[];
  readonly cacheable?: boolean;
}

export interface CapabilityGate {
  readonly owner: "client" | "server";
  readonly path: readonly string[];
}

/** One generated revision, through the shape every revision shares. */
export interface RevisionModule {
  readonly revision: Revision;
  readonly era: Era;
  readonly batches: boolean;
  /** A Map, not the generated object: method names come off the wire (`constructor`...). */
  readonly methods: ReadonlyMap<string, MethodDescriptor>;
  readonly inputRequests: ReadonlyMap<string, MethodDescriptor>;
  readonly capabilityGates: ReadonlyMap<string, CapabilityGate>;
  validator(definition: string): Validator;
}

type GeneratedModule = Awaited<ReturnType<(typeof LOADERS)[Revision]>>;

function view(revision: Revision, module: GeneratedModule): RevisionModule {
  const validators = new Map<string, Validator>(Object.entries(module.validators as Readonly<Record<string, Validator>>));
  return {
    revision,
    era: ERAS[revision],
    batches: module.BATCHES,
    methods: new Map(Object.entries(module.METHODS as Readonly<Record<string, MethodDescriptor>>)),
    inputRequests: new Map(Object.entries(module.INPUT_REQUESTS as Readonly<Record<string, MethodDescriptor>>)),
    capabilityGates: new Map(Object.entries(module.CAPABILITY_GATES as Readonly<Record<string, CapabilityGate>>)),
    validator(definition) {
      const found = validators.get(definition);
      if (!found) throw new Error(`MCP ${revision} has no definition ${definition}`);
      return found;
    },
  };
}

/**
 * Revisions are imported on first use: a revision's validators are a few hundred kilobytes,
 * and a server answering one revision should not start up paying for five.
 */
const loaded = new Map<string, RevisionModule>();
const loading = new Map<string, Promise<RevisionModule>>();

/** Every generated revision, oldest first. */
export const ALL_REVISIONS: readonly Revision[] = REVISIONS;
export { LATEST_REVISION };

/** A revision already loaded; see {@link loadRevision}. */
export function revisionModule(revision: string): RevisionModule | undefined {
  return loaded.get(revision);
}

export function loadRevision(revision: Revision): Promise<RevisionModule> {
  const done = loaded.get(revision);
  if (done) return Promise.resolve(done);
  const pending = loading.get(revision);
  if (pending) return pending;
  const next = (LOADERS[revision]() as Promise<GeneratedModule>).then((module) => {
    const ready = view(revision, module);
    loaded.set(revision, ready);
    loading.delete(revision);
    return ready;
  });
  loading.set(revision, next);
  return next;
}

export function isRevision(value: unknown): value is Revision {
  return typeof value === "string" && Object.prototype.hasOwnProperty.call(ERAS, value);
}

export function eraOf(revision: Revision): Era {
  return ERAS[revision];
}
