import type { JsonPrimitive, JsonType } from "../model/schema.js";
import type { Branch, Comparison, Expr } from "./ir.js";

/** Constructors and the printer of {@link Expr}: the only place that knows JavaScript's syntax for a check. */

export const SUBJECT: Expr = { kind: "subject" };
export const TRUE: Expr = { kind: "literal", value: true };
export const FALSE: Expr = { kind: "literal", value: false };

export const literal = (value: JsonPrimitive): Expr => ({ kind: "literal", value });
export const call = (callee: string, ...args: Expr[]): Expr => ({ kind: "call", callee, args });
export const member = (object: Expr, name: string): Expr => ({ kind: "member", object, name });
export const compare = (left: Expr, op: Comparison, right: Expr): Expr => ({ kind: "compare", op, left, right });
export const concat = (...parts: Expr[]): Expr => ({ kind: "concat", parts });
export const text = (message: string): Expr => literal(message);
export const matches = (branch: Branch): Expr => ({ kind: "matches", branch });
export const name = (identifier: string): Expr => ({ kind: "name", name: identifier });
export const test = (branch: Branch): Expr => ({ kind: "test", branch });
/** The subject has `key` as an own property (JSON Schema's "present"). */
export const has = (key: string): Expr => call("Object.prototype.hasOwnProperty.call", SUBJECT, literal(key));

/** The conjunction; one that a `false` operand decides is `false` (a test of no side effect is left out). */
export function and(operands: readonly Expr[]): Expr {
  return junction("and", operands, true);
}

/** The disjunction; one that a `true` operand decides is `true`. */
export function or(operands: readonly Expr[]): Expr {
  return junction("or", operands, false);
}

/** `operands` joined by `kind`, flattened, without the `neutral` constants; the other constant if one is among them. */
function junction(kind: "and" | "or", operands: readonly Expr[], neutral: boolean): Expr {
  // Loops, not flatMap and filter: compiling at registration builds these for every keyword.
  const flat: Expr[] = [];
  /** False when `x` decides the whole. */
  const take = (x: Expr): boolean => {
    if (x.kind !== "literal" || typeof x.value !== "boolean") flat.push(x);
    return !(x.kind === "literal" && x.value === !neutral);
  };
  for (const e of operands) {
    if (e.kind !== kind) {
      if (!take(e)) return literal(!neutral);
    } else for (const x of e.operands) if (!take(x)) return literal(!neutral);
  }
  return flat.length === 0 ? literal(neutral) : flat.length === 1 ? flat[0]! : { kind, operands: flat };
}

const FLIPPED: Readonly<Record<Comparison, Comparison>> = { "===": "!==", "!==": "===", "<": ">=", ">=": "<", ">": "<=", "<=": ">" };

/** An operand that is never NaN on the compiler's own expressions: a number of the schema (JSON has no NaN), an array's or a string's length, a count. */
const ordered = (e: Expr): boolean => e.kind === "literal" || e.kind === "member" || e.kind === "call";

/**
 * The negation, written the way a person would: `a !== b`, `a.length > 3`, `!isX(a)`, else
 * `!(test)`. An order on a value stays under `!`: `!(v <= 5)`, not `v > 5`, which NaN passes
 * too (not JSON, but a server's own code may return it), so the boolean check and the issues
 * tell the same.
 */
export function not(e: Expr): Expr {
  if (e.kind === "not") return e.operand;
  if (e.kind === "compare" && (e.op === "===" || e.op === "!==" || (ordered(e.left) && ordered(e.right)))) return { ...e, op: FLIPPED[e.op] };
  if (e.kind === "literal" && typeof e.value === "boolean") return literal(!e.value);
  return { kind: "not", operand: e };
}

/** `e` with `f` applied to each operand it tests on its own subject; an arrow (its own subject), a branch and a leaf are left as they are. */
export function mapChildren(e: Expr, f: (child: Expr) => Expr): Expr {
  switch (e.kind) {
    case "member":
      return { ...e, object: f(e.object) };
    case "call":
      return { ...e, args: e.args.map(f) };
    case "not":
    case "typeof":
      return { ...e, operand: f(e.operand) };
    case "compare":
      return { ...e, left: f(e.left), right: f(e.right) };
    case "and":
    case "or":
    case "count":
      return { ...e, operands: e.operands.map(f) };
    case "concat":
      return { ...e, parts: e.parts.map(f) };
    default:
      return e;
  }
}

export function isTrue(e: Expr): boolean {
  return e.kind === "literal" && e.value === true;
}

export function isFalse(e: Expr): boolean {
  return e.kind === "literal" && e.value === false;
}

/** JSON Schema's `type`: the subject is one of `types` (integer is a number with no fraction). */
export function typeTest(types: readonly JsonType[]): Expr {
  return or(
    types
      .filter((t) => !(t === "integer" && types.includes("number")))
      .map((t): Expr => {
        switch (t) {
          case "object":
            return call("isObject", SUBJECT);
          case "array":
            return call("Array.isArray", SUBJECT);
          case "null":
            return compare(SUBJECT, "===", literal(null));
          case "integer":
            return and([compare({ kind: "typeof", operand: SUBJECT }, "===", literal("number")), call("Number.isInteger", SUBJECT)]);
          default:
            return compare({ kind: "typeof", operand: SUBJECT }, "===", literal(t));
        }
      }),
  );
}

/** How many times the printed expression evaluates the subject. */
export function subjectCount(e: Expr): number {
  switch (e.kind) {
    case "subject":
      return 1;
    case "literal":
    case "name":
    case "arrow":
    case "test":
      return 0;
    case "member":
      return subjectCount(e.object);
    case "typeof":
    case "not":
      return subjectCount(e.operand);
    case "compare":
      return subjectCount(e.left) + subjectCount(e.right);
    case "call":
      return e.args.reduce((n, a) => n + subjectCount(a), 0);
    case "and":
    case "or":
      return e.operands.reduce((n, a) => n + subjectCount(a), 0);
    case "concat":
      return e.parts.reduce((n, a) => n + subjectCount(a), 0);
    case "count":
      return e.operands.reduce((n, a) => n + subjectCount(a), 0);
    case "matches":
      return 2; // unknown until the renderer inlines or hoists it: not once
  }
}

/** Prints `e` with `subject` (a variable or a property read) for the subject. */
export function print(e: Expr, subject: string): string {
  const p = (x: Expr) => print(x, subject);
  switch (e.kind) {
    case "subject":
      return subject;
    case "literal":
      // A schema's 1e400 parses to Infinity, which JSON.stringify would print as null (and `>= null` is `>= 0`).
      if (typeof e.value === "number" && !Number.isFinite(e.value)) return e.value > 0 ? "Infinity" : "-Infinity";
      return Object.is(e.value, -0) ? "0" : JSON.stringify(e.value);
    case "name":
      return e.name;
    case "arrow":
      // A test that reads nothing of the item (`items: true` under `contains`) takes no parameter: noUnusedParameters.
      return `${subjectCount(e.body) === 0 ? "()" : "(item)"} => ${print(e.body, "item")}`;
    case "test":
      throw new Error(`a sub-schema test (${e.branch.pointer}) must be expanded before printing`);
    case "member":
      return access(p(e.object), e.name);
    case "call":
      return `${e.callee}(${e.args.map(p).join(", ")})`;
    case "typeof":
      return `typeof ${p(e.operand)}`;
    case "compare":
      return `${p(e.left)} ${e.op} ${p(e.right)}`;
    case "not":
      return e.operand.kind === "call" || e.operand.kind === "subject" ? `!${p(e.operand)}` : `!(${p(e.operand)})`;
    // A conjunction inside a disjunction is parenthesised for the reader; the reverse for the parser.
    case "and":
      return e.operands.map((x) => (x.kind === "or" ? `(${p(x)})` : p(x))).join(" && ");
    case "or":
      return e.operands.map((x) => (x.kind === "and" ? `(${p(x)})` : p(x))).join(" || ");
    case "concat":
      return e.parts.map(p).join(" + ");
    case "count":
      return `(${e.operands.map((x) => `(${p(x)} ? 1 : 0)`).join(" + ")})`;
    case "matches":
      throw new Error(`a sub-schema test (${e.branch.pointer}) must be expanded before printing`);
  }
}

/** Property read; names that Object.prototype has must be own properties to count. */
export function access(object: string, name: string): string {
  if (name in Object.prototype) return `own(${object}, ${JSON.stringify(name)})`;
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? `${object}.${name}` : `${object}[${JSON.stringify(name)}]`;
}
