/**
 * Handler types derived from the revisions a server serves. A handler is written once for all
 * of them: it receives the params of any served revision that has its method, and must return a
 * result valid in every served revision that has it (the runtime checks each result against the
 * revision of its request). So a new revision that makes a result field required, or reshapes a
 * params object, fails the user's compile in the handler it reaches, naming the field.
 */
import type { RevisionModule, RevisionTypes } from "../contract.js";
import type { NotifyArgs, RequestContext } from "../dispatch/context.js";
import type { Written } from "../dispatch/router.js";
import type { DefaultRevision, PinnedRevision, RevisionRef, RevisionTypesByName } from "../session/revisions.js";

/** The method maps of a revision reference. */
export type TypesOf<R extends RevisionRef> = R extends PinnedRevision
  ? RevisionTypesByName[R]
  : R extends RevisionModule<infer T>
    ? T
    : never;

/**
 * What handlers are typed by when a server does not list its revisions, or lists them in a way
 * the compiler cannot see (a `string[]`, a module of unknown type): the latest revision of each
 * era. The server still serves every pinned revision, and a result that an older revision cannot
 * carry is refused at run time (-32603). List the revisions to have the compiler check them all.
 */
export type DefaultTypes = RevisionTypesByName[DefaultRevision];

/** The method maps of the revisions a server was given. */
export type ServedTypes<R extends RevisionRef> = string extends R ? DefaultTypes : RevisionModule extends R ? DefaultTypes : TypesOf<R>;

type Requests<T> = T extends { readonly ClientRequests: infer C } ? C : never;

/** Every request method a client may send in at least one served revision. */
export type ServedMethod<T extends RevisionTypes> = Methods<Known<T>>;
type Methods<T extends RevisionTypes> = T extends unknown ? Extract<keyof Requests<T>, string> : never;

/** `McpServer` with no type argument serves revisions the compiler does not know: its handlers are typed by the defaults. */
type Known<T extends RevisionTypes> = 0 extends 1 & T ? DefaultTypes : T;

/** What a handler of `M` receives: the params of any served revision that has `M` (absent params arrive as `{}`). */
export type ServedParams<T extends RevisionTypes, M extends string> = Params<Known<T>, M>;
type Params<T extends RevisionTypes, M extends string> = T extends unknown
  ? M extends keyof Requests<T>
    ? Requests<T>[M] extends { readonly params?: infer P }
      ? NonNullable<P> extends never
        ? Record<string, never>
        : NonNullable<P>
      : Record<string, never>
    : never
  : never;

/** The context a served handler gets: `notify` typed by the served revisions. */
export type ServedContext<T extends RevisionTypes> = RequestContext<Known<T>>;

/** What `server.notify(M, ...)` takes: the params of `M` in the served revisions that define it, or any object for a vendor's method. */
export type ServedNotifyArgs<T extends RevisionTypes, M extends string> = NotifyArgs<Known<T>, M>;

/** What a handler of `M` returns: a result valid in every served revision that has `M`. */
export type ServedResult<T extends RevisionTypes, M extends string> = Result<Known<T>, M>;
type Result<T extends RevisionTypes, M extends string> = Unbox<
  UnionToIntersection<T extends unknown ? (M extends keyof Requests<T> ? Box<Written<ResultOf<Requests<T>[M]>>> : never) : never>
>;

/** The primary result: the alternatives (CreateTaskResult, InputRequiredResult) are the runtime's to send. */
type ResultOf<E> = E extends { readonly handlerResult: infer R } ? R : never;


// Boxing keeps each revision's result union whole while the revisions are intersected.
type Box<T> = { readonly value: T };
type Unbox<B> = B extends { readonly value: unknown } ? B["value"] : never;
type UnionToIntersection<U> = (U extends unknown ? (value: U) => void : never) extends (value: infer I) => void ? I : never;
