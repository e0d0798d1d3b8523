import type { Expr } from "../keywords/ir.js";

/**
 * The tests closures run most (a `type` of one property, an `enum` of strings) as data a loop
 * runs inline, without a call: a closure per test costs a call V8 cannot inline, as every
 * closure made at one place in the source shares that place's (megamorphic) call feedback.
 */

type Is = (v: unknown) => boolean;

export const ONE_OF = 1;
export const CALL = 2;
/** `typeof v === "string"` and the like: a constant type name, so V8 tests the type and makes no string. */
const STRING = 3;
const NUMBER = 4;
const BOOLEAN = 5;
const OBJECT = 6;
const TYPE_NAMES: ReadonlyMap<unknown, Leaf["op"]> = new Map<unknown, Leaf["op"]>([
  ["string", STRING],
  ["number", NUMBER],
  ["boolean", BOOLEAN],
  ["object", OBJECT],
]);

/** A type test, `arg.has(v)`, or `arg(v)`. */
export interface Leaf {
  readonly op: typeof ONE_OF | typeof CALL | typeof STRING | typeof NUMBER | typeof BOOLEAN | typeof OBJECT;
  readonly arg: unknown;
}

export function runLeaf(op: number, arg: unknown, v: unknown): boolean {
  switch (op) {
    case STRING:
      return typeof v === "string";
    case NUMBER:
      return typeof v === "number";
    case BOOLEAN:
      return typeof v === "boolean";
    case OBJECT:
      return typeof v === "object";
    case ONE_OF:
      return (arg as Set<unknown>).has(v);
    default:
      return (arg as Is)(v);
  }
}

/** `e` as a leaf: one of the inline shapes, else a call of `closure(e)`. */
export function leafOf(e: Expr, closure: (e: Expr) => Is): Leaf {
  if (e.kind === "compare" && e.op === "===" && e.right.kind === "literal") {
    const type = e.left.kind === "typeof" && e.left.operand.kind === "subject" ? TYPE_NAMES.get(e.right.value) : undefined;
    if (type !== undefined) return { op: type, arg: undefined };
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
