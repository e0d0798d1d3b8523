import type { Located, SchemaIndex } from "../index.js";

/**
 * The two functions of each schema node n, and how a keyword is written in each (its Mode):
 * - `f<n>(v)`: the boolean check; a failure returns false at once;
 * - `g<n>(v, p, i[, e])`: the check that pushes onto `i` the issues of `v` (at JSON Pointer `p`),
 *   as compile.ts's closures push them: every keyword runs, a valid sub-value costs its `f` only.
 *   In documents using `unevaluated*` it also takes `e`, the annotations of `v` to fill (null
 *   when nothing reads them), and `i` may be null: then it is a boolean check that fills `e`, for
 *   the in-place sub-schemas of a node with `unevaluated*` (2020-12 core 11.2).
 */

export interface EmitContext {
  readonly index: SchemaIndex;
  readonly assertFormats: boolean;
  /** The document (or a remote) uses `unevaluatedProperties`/`unevaluatedItems`: annotations are tracked. */
  readonly tracking: boolean;
  /** A `pattern`, compiled as compile.ts compiles it. */
  pattern(source: string): RegExp;
}

/** What keywords see of the emitter. */
export interface Emit {
  readonly context: EmitContext;
  /** A value the source refers to as `x<k>`. */
  extern(value: unknown): string;
  /** The number n of a node's functions `f<n>` and `g<n>`. */
  id(at: Located): number;
  child(parent: Located, schema: unknown, ...tokens: (string | number)[]): Located;
}

/** How a keyword writes a failure and a call to a sub-schema, in one of the two functions of a node. */
export interface Mode {
  readonly issues: boolean;
  /** The variable holding the annotations of `v` ("e", maybe null; "u", the node's own), or null where none are collected. */
  readonly ev: string | null;
  /** The statement for a failed test; `message` is a JavaScript expression. */
  fail(keyword: string, message: string, where?: Where): string;
  /** The statement after a sub-schema failed (its issues already pushed). */
  readonly failed: string;
  /** A sub-schema on another value (a property, an item), at JavaScript path `path`: an expression, true when valid (the path is built only when it is not). */
  sub(at: Located, value: string, path: string): string;
  /** A sub-schema on `v` itself (allOf, $ref, then...), its annotations into `ev`. */
  inPlace(at: Located): string;
}

/** Where a failure's issue goes: its path (default `p`), schema path (default the keyword's), statements run before it, `i`'s index to insert it at (default: pushed last). */
export interface Where {
  readonly path?: string;
  readonly schemaPath?: string;
  readonly before?: string;
  readonly index?: string;
}

/** One node being emitted, as the keyword families read it. */
export interface Node {
  readonly at: Located;
  readonly s: Record<string, unknown>;
  readonly dialect: string;
  readonly mode: Mode;
  readonly emitter: Emit;
}

export const own = (object: object, key: string) => Object.prototype.hasOwnProperty.call(object, key);
export const text = (value: string) => JSON.stringify(value);

export function booleanMode(emitter: Emit): Mode {
  return {
    issues: false,
    ev: null,
    fail: () => "return false;",
    failed: "return false;",
    sub: (at, value) => `f${emitter.id(at)}(${value})`,
    inPlace: (at) => `f${emitter.id(at)}(v)`,
  };
}

/** The mode of `g<n>` for the node at `location`; `ev` as in Mode. */
export function issueMode(emitter: Emit, location: string, ev: string | null): Mode {
  const tracking = emitter.context.tracking;
  // With annotations, `i` may be null: a boolean check, which stops at the first failure.
  const bail = tracking ? "if (i === null) return false; " : "";
  const g = (at: Located) => `g${emitter.id(at)}`;
  const f = (at: Located) => `f${emitter.id(at)}`;
  return {
    issues: true,
    ev,
    fail: (keyword, message, where = {}) => {
      const issue = `{ path: ${where.path ?? "p"}, schemaPath: ${text(where.schemaPath ?? `${location}/${keyword}`)}, keyword: ${text(keyword)}, message: ${message} }`;
      return `{ ${bail}ok = false; ${where.before ?? ""}${where.index === undefined ? `i.push(${issue})` : `i.splice(${where.index}, 0, ${issue})`}; }`;
    },
    failed: `{ ${bail}ok = false; }`,
    sub: (at, value, path) => (tracking ? `(${f(at)}(${value}) || (i !== null && ${g(at)}(${value}, ${path}, i, null)))` : `(${f(at)}(${value}) || ${g(at)}(${value}, ${path}, i))`),
    // The path stays `p`: g at once costs a valid sub-schema no more than f, and a failing one half.
    inPlace: (at) => (tracking ? `${g(at)}(v, p, i, ${ev ?? "e"})` : `${g(at)}(v, p, i)`),
  };
}
