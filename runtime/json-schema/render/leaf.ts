import type { Expr } from "../keywords/ir.js";

/**
 * The tests closures run most (a `type` of one property, an `enum` of strings) as data a loop
 * runs inline, without a call: a closure per test costs a call V8 cannot inline, as every
 * closure made at one place in the source shares that place's (megamorphic) call feedback.
 */

type Is = (v: unknown) => boolean;

export const TYPEOF = 0;
export const ONE_OF = 1;
export const CALL = 2;

/** `typeof v === arg`, `arg.has(v)`, or `arg(v)`. */
export interface Leaf {
  readonly op: typeof TYPEOF | typeof ONE_OF | typeof CALL;
  readonly arg: unknown;
}

export function runLeaf(op: number, arg: unknown, v: unknown): boolean {
  if (op === TYPEOF) return typeof v === arg;
  if (op === ONE_OF) return (arg as Set<unknown>).has(v);
  return (arg as Is)(v);
}

/** `e` as a leaf: one of the inline shapes, else a call of `closure(e)`. */
export function leafOf(e: Expr, closure: (e: Expr) => Is): Leaf {
  if (e.kind === "compare" && e.op === "===" && e.right.kind === "literal") {
    if (e.left.kind === "typeof" && e.left.operand.kind === "subject") return { op: TYPEOF, arg: e.right.value };
    if (e.left.kind === "subject") return { op: ONE_OF, arg: new Set([e.right.value]) };
  }
  const constants = oneOf(e);
  if (constants) return { op: ONE_OF, arg: new Set(constants) };
  return { op: CALL, arg: closure(e) };
}

/**
 * The constants of `v === a || v === b || ...` (an `enum` or `const` of primitives), for a Set:
 * JSON has no NaN, and Set's SameValueZero is `===` on everything else.
 */
export function oneOf(e: Expr): unknown[] | undefined {
  if (e.kind !== "or") return undefined;
  const constants: unknown[] = [];
  for (const x of e.operands) {
    if (x.kind !== "compare" || x.op !== "===" || x.left.kind !== "subject" || x.right.kind !== "literal") return undefined;
    constants.push(x.right.value);
  }
  return constants;
}
