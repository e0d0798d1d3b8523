import { hasMaxLength, hasMinLength } from "../../support/validation.js";
import type { Expr } from "../keywords/ir.js";

/**
 * The tests closures run most (a `type` of one property, an `enum` of strings, a `type` with its
 * bounds: `minimum`, `maxLength` and the like) as data a loop runs inline, without a call: a closure per test costs a call V8 cannot inline, as every
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
/** A number in bounds (`type` number or integer with minimum, maximum and their exclusive forms): a Range. */
const NUMBER_IN = 7;
/** A string of bounded length (`type` string with minLength, maxLength): a Range of code points. */
const STRING_IN = 8;
/** `v === arg`: a `const` (or one-value `enum`) of a primitive, no Set to hash into. */
const EQUALS = 9;
const TYPE_NAMES: ReadonlyMap<unknown, Leaf["op"]> = new Map<unknown, Leaf["op"]>([
  ["string", STRING],
  ["number", NUMBER],
  ["boolean", BOOLEAN],
  ["object", OBJECT],
]);

/** A type test, `v === arg`, `arg.has(v)`, `arg(v)`, or a type test with bounds (`arg` a Range). */
export interface Leaf {
  readonly op: typeof ONE_OF | typeof CALL | typeof STRING | typeof NUMBER | typeof BOOLEAN | typeof OBJECT | typeof NUMBER_IN | typeof STRING_IN | typeof EQUALS;
  readonly arg: unknown;
}

/** Inclusive bounds (-Infinity and Infinity where the schema has none), exclusive ones (undefined where it has none), and whether a number must be an integer. */
interface Range {
  integer: boolean;
  min: number;
  max: number;
  above: number | undefined;
  below: number | undefined;
}

/**
 * Kept small so that V8 inlines it at every place of a template (its inlining budget is per
 * function: a switch of every op, inlined at eight places, was not): the frequent ops here, the
 * others in otherLeaf (fill_form's item check 25 -> 21 ns). A call (a sub-schema's closure) is
 * among the frequent: an array or an object inside a run.
 */
export function runLeaf(op: number, arg: unknown, v: unknown): boolean {
  return op === STRING ? typeof v === "string" : op === CALL ? (arg as Is)(v) : op === EQUALS ? v === arg : op === ONE_OF ? (arg as Set<unknown>).has(v) : op === NUMBER ? typeof v === "number" : op === BOOLEAN ? typeof v === "boolean" : otherLeaf(op, arg, v);
}

function otherLeaf(op: number, arg: unknown, v: unknown): boolean {
  switch (op) {
    case OBJECT:
      return typeof v === "object";
    case NUMBER_IN: {
      const r = arg as Range;
      // An exclusive bound only where the schema has one: JSON's 1e400 is Infinity, which no absent bound may refuse.
      return typeof v === "number" && v >= r.min && v <= r.max && (r.above === undefined || v > r.above) && (r.below === undefined || v < r.below) && (!r.integer || Number.isInteger(v));
    }
    case STRING_IN: {
      const r = arg as Range;
      return typeof v === "string" && hasMinLength(v, r.min) && hasMaxLength(v, r.max);
    }
    default:
      return (arg as Is)(v);
  }
}

/** `e` as a leaf: one of the inline shapes, else a call of `closure(e)`. */
export function leafOf(e: Expr, closure: (e: Expr) => Is): Leaf {
  if (e.kind === "compare" && e.op === "===" && e.right.kind === "literal") {
    const type = e.left.kind === "typeof" && e.left.operand.kind === "subject" ? TYPE_NAMES.get(e.right.value) : undefined;
    if (type !== undefined) return { op: type, arg: undefined };
    if (e.left.kind === "subject") return { op: EQUALS, arg: e.right.value };
  }
  const constants = oneOf(e);
  if (constants) return { op: ONE_OF, arg: new Set(constants) };
  return { op: CALL, arg: closure(e) };
}

/**
 * The tests of a sequence of asserts as one leaf, where they are a type test and its bounds (the
 * most frequent number and string properties of tool schemas: `"type": "integer", "minimum": 1`),
 * else undefined. The type test must be there: without it a bound says nothing of other types.
 */
export function boundedLeaf(tests: readonly Expr[]): Leaf | undefined {
  const operands = tests.flatMap((e) => (e.kind === "and" ? e.operands : [e]));
  const r: Range = { integer: false, min: -Infinity, max: Infinity, above: undefined, below: undefined };
  let type: unknown;
  let compares = false;
  let lengths = false;
  for (const e of operands) {
    if (e.kind === "compare" && e.op === "===" && e.left.kind === "typeof" && e.left.operand.kind === "subject" && e.right.kind === "literal" && type === undefined) type = e.right.value;
    else if (e.kind === "call" && e.callee === "Number.isInteger" && e.args.length === 1 && e.args[0]!.kind === "subject") r.integer = true;
    else if (e.kind === "compare" && e.left.kind === "subject" && e.right.kind === "literal" && typeof e.right.value === "number") {
      const bound = e.right.value;
      compares = true;
      if (e.op === ">=") r.min = Math.max(r.min, bound);
      else if (e.op === "<=") r.max = Math.min(r.max, bound);
      else if (e.op === ">") r.above = Math.max(r.above ?? bound, bound);
      else if (e.op === "<") r.below = Math.min(r.below ?? bound, bound);
      else return undefined;
    } else if (e.kind === "call" && (e.callee === "hasMinLength" || e.callee === "hasMaxLength") && e.args.length === 2 && e.args[0]!.kind === "subject" && e.args[1]!.kind === "literal" && typeof e.args[1]!.value === "number") {
      const bound = e.args[1]!.value;
      lengths = true;
      if (e.callee === "hasMinLength") r.min = Math.max(r.min, bound);
      else r.max = Math.min(r.max, bound);
    } else return undefined;
  }
  if (type === "number" && !lengths) return { op: NUMBER_IN, arg: r };
  if (type === "string" && !compares && !r.integer) return { op: STRING_IN, arg: r };
  return undefined;
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
