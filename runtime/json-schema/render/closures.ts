import { SUPPORT_FUNCTIONS } from "../../support/functions.js";
import { isObject, own, pointerToken } from "../../support/validation.js";
import type { ValidationIssue } from "../../support/validation.js";
import { typeTest } from "../keywords/expr.js";
import type { AnyOfNode, Branch, EntriesNode, Expr, Failure, Node, PropertyNode } from "../keywords/ir.js";
import { escapeToken } from "../pointer.js";
import { sequence } from "./inline.js";
import type { Lowering } from "./lower.js";

/**
 * The check IR as closures, for platforms that forbid code generation (Workers): the third
 * renderer beside render-is.ts and render-check.ts, with their semantics node for node, so a
 * schema has the same verdicts and the same issues (path, schemaPath, keyword, message, order)
 * on every platform. Each node becomes one closure over the closures of its parts; a call of a
 * definition goes through a slot filled once the definition is compiled (definitions recurse).
 */

type Is = (v: unknown) => boolean;
type Check = (v: unknown, path: string, issues: ValidationIssue[]) => void;
type Value = (v: unknown) => unknown;

const BUILTINS: Readonly<Record<string, (...args: never[]) => unknown>> = {
  "Array.isArray": Array.isArray,
  "Number.isInteger": Number.isInteger,
  "Object.keys": Object.keys,
  "Object.prototype.hasOwnProperty.call": (object: object, key: string) => Object.prototype.hasOwnProperty.call(object, key),
};

const TRUE: Is = () => true;

export class ClosureRenderer {
  private readonly isSlots = new Map<string, { fn: Is }>();
  private readonly checkSlots = new Map<string, { fn: Check }>();

  constructor(private readonly lowering: Lowering) {}

  /** The boolean check of a definition. */
  is(definition: string): Is {
    return this.isSlot(definition).fn;
  }

  /** The issue check of a definition. */
  check(definition: string): Check {
    return this.checkSlot(definition).fn;
  }

  private isSlot(definition: string): { fn: Is } {
    let slot = this.isSlots.get(definition);
    if (slot === undefined) {
      const filled: { fn: Is } = { fn: TRUE };
      this.isSlots.set(definition, (slot = filled));
      filled.fn = this.isNodes(this.lowering.lower(this.lowering.definition(definition)));
    }
    return slot;
  }

  private checkSlot(definition: string): { fn: Check } {
    let slot = this.checkSlots.get(definition);
    if (slot === undefined) {
      const filled: { fn: Check } = { fn: () => {} };
      this.checkSlots.set(definition, (slot = filled));
      filled.fn = this.checkNodes(this.lowering.lower(this.lowering.definition(definition)));
    }
    return slot;
  }

  // The boolean check: false at the first failed node, as render-is.ts prints it.

  private isNodes(nodes: readonly Node[]): Is {
    return all(sequence(nodes).map((node) => this.isNode(node)));
  }

  private isNode(node: Node): Is {
    switch (node.kind) {
      case "assert":
        return this.test(node.valid);
      case "call": {
        const slot = this.isSlot(node.definition);
        return (v) => slot.fn(v);
      }
      case "guard": {
        const type = this.test(typeTest([node.type]));
        const body = this.isNodes(node.body);
        return (v) => !type(v) || body(v);
      }
      case "property": {
        const read = reader(node.name);
        const body = this.isNodes(node.body);
        if (node.required) return (v) => {
          const value = read(v);
          return value !== undefined && body(value);
        };
        return (v) => {
          const value = read(v);
          return value === undefined || body(value);
        };
      }
      case "entries": {
        const skip = this.keyFilter(node);
        const body = node.refuse ? undefined : this.isNodes(node.body);
        return (v) => {
          const object = v as Record<string, unknown>;
          for (const key in object) {
            if (skip(key)) continue;
            if (body === undefined || !body(object[key])) return false;
          }
          return true;
        };
      }
      case "items": {
        const body = this.isNodes(node.body);
        const from = node.from ?? 0;
        return (v) => {
          const array = v as unknown[];
          for (let i = from; i < array.length; i++) if (!body(array[i])) return false;
          return true;
        };
      }
      case "element": {
        const body = this.isNodes(node.body);
        const { index } = node;
        return (v) => (v as unknown[]).length <= index || body((v as unknown[])[index]);
      }
      case "when": {
        const condition = this.test(node.condition);
        const body = this.isNodes(node.body);
        return (v) => !condition(v) || body(v);
      }
      case "each":
        return this.test(node.valid);
      case "anyOf":
        return any(node.branches.map((branch) => this.isNodes(branch.body)));
    }
  }

  // The issue check: one issue per failed node, as render-check.ts prints it.

  private checkNodes(nodes: readonly Node[]): Check {
    const checks = nodes.map((node) => this.checkNode(node));
    if (checks.length === 1) return checks[0]!;
    return (v, path, issues) => {
      for (let k = 0; k < checks.length; k++) checks[k]!(v, path, issues);
    };
  }

  private checkNode(node: Node): Check {
    switch (node.kind) {
      case "assert": {
        const valid = this.test(node.valid);
        const explain = (node.explain ?? []).map((branch) => this.branchCheck(branch));
        const report = this.failure(node);
        const fail: Check = explain.length === 0 ? report : (v, path, issues) => {
          for (let k = 0; k < explain.length; k++) explain[k]!(v, path, issues);
          report(v, path, issues);
        };
        const then = node.then.length > 0 ? this.checkNodes(node.then) : undefined;
        return (v, path, issues) => {
          if (!valid(v)) fail(v, path, issues);
          else if (then) then(v, path, issues);
        };
      }
      case "call": {
        const slot = this.checkSlot(node.definition);
        return (v, path, issues) => slot.fn(v, path, issues);
      }
      case "guard": {
        const type = this.test(typeTest([node.type]));
        const body = this.checkNodes(node.body);
        return (v, path, issues) => {
          if (type(v)) body(v, path, issues);
        };
      }
      case "property":
        return this.checkProperty(node);
      case "entries": {
        const skip = this.keyFilter(node);
        const refuse = node.refuse ? this.failure(node.refuse) : undefined;
        const body = this.checkNodes(node.body);
        return (v, path, issues) => {
          const object = v as Record<string, unknown>;
          for (const key in object) {
            if (skip(key)) continue;
            const at = `${path}/${pointerToken(key)}`;
            if (refuse) refuse(v, at, issues);
            else body(object[key], at, issues);
          }
        };
      }
      case "items": {
        const body = this.checkNodes(node.body);
        const from = node.from ?? 0;
        return (v, path, issues) => {
          const array = v as unknown[];
          for (let i = from; i < array.length; i++) body(array[i], `${path}/${i}`, issues);
        };
      }
      case "element": {
        const body = this.checkNodes(node.body);
        const { index } = node;
        const token = `/${index}`;
        return (v, path, issues) => {
          if ((v as unknown[]).length > index) body((v as unknown[])[index], path + token, issues);
        };
      }
      case "when": {
        const condition = this.test(node.condition);
        const body = this.checkNodes(node.body);
        return (v, path, issues) => {
          if (condition(v)) body(v, path, issues);
        };
      }
      case "each": {
        const keys = this.value(node.keys) as (v: unknown) => (string | number)[];
        const refuse = node.refuse ? this.failure(node.refuse) : undefined;
        const body = this.checkNodes(node.body);
        return (v, path, issues) => {
          for (const key of keys(v)) {
            const at = `${path}/${pointerToken(String(key))}`;
            if (refuse) refuse(v, at, issues);
            else body((v as Record<string | number, unknown>)[key], at, issues);
          }
        };
      }
      case "anyOf":
        return this.checkAnyOf(node);
    }
  }

  private checkProperty(node: PropertyNode): Check {
    const read = reader(node.name);
    const missing = node.required ? this.failure(node.required) : undefined;
    const token = `/${escapeToken(node.name)}`;
    const body = this.checkNodes(node.body);
    return (v, path, issues) => {
      const value = read(v);
      if (value === undefined) {
        if (missing) missing(v, path, issues);
      } else body(value, path + token, issues);
    };
  }

  private checkAnyOf(node: AnyOfNode): Check {
    const passes = any(node.branches.map((branch) => this.isNodes(branch.body)));
    const fail = this.failure(node);
    const { discriminator } = node;
    if (!discriminator) {
      return (v, path, issues) => {
        if (!passes(v)) fail(v, path, issues);
      };
    }
    const read = reader(discriminator.property);
    const cases = new Map<unknown, Check>(discriminator.cases.map(({ value, branch }) => [value, this.branchCheck(branch)]));
    return (v, path, issues) => {
      if (passes(v)) return;
      const branch = cases.get(isObject(v) ? read(v) : undefined);
      if (branch) branch(v, path, issues);
      else fail(v, path, issues);
    };
  }

  private branchCheck(branch: Branch): Check {
    return this.checkNodes(branch.body);
  }

  /** Pushes the failure's issue, its message computed from the value. */
  private failure(failure: Failure): Check {
    const { schemaPath, keyword } = failure;
    const message = this.value(failure.message);
    return (v, path, issues) => {
      issues.push({ path, schemaPath, keyword, message: message(v) as string });
    };
  }

  /** The property names an entries node passes over: those `matching` does not match, and those `known` names or one of `patterns` matches. */
  private keyFilter(node: EntriesNode): (key: string) => boolean {
    const names = new Set(node.known);
    const regexps = (node.patterns ?? []).map((name) => this.lowering.patternOf(name));
    const known = regexps.length === 0 ? (key: string) => names.has(key) : (key: string) => names.has(key) || regexps.some((r) => r.test(key));
    if (node.matching === undefined) return known;
    const matching = this.lowering.patternOf(node.matching);
    return (key) => !matching.test(key) || known(key);
  }

  // Expressions.

  private test(e: Expr): Is {
    return this.value(e) as Is;
  }

  private value(e: Expr): Value {
    switch (e.kind) {
      case "subject":
        return (v) => v;
      case "literal": {
        const value = e.value;
        return () => value;
      }
      case "name": {
        const value = this.named(e.name);
        return () => value;
      }
      case "member": {
        const object = this.value(e.object);
        const read = reader(e.name);
        return e.object.kind === "subject" ? read : (v) => read(object(v));
      }
      case "call":
        return this.call(e.callee, e.args);
      case "typeof": {
        const operand = this.value(e.operand);
        return e.operand.kind === "subject" ? (v) => typeof v : (v) => typeof operand(v);
      }
      case "compare":
        return compare(e.op, this.value(e.left), this.value(e.right), e.right.kind === "literal" ? e.right.value : NOT_LITERAL, e.left.kind === "subject");
      case "and":
        return all(e.operands.map((x) => this.test(x)));
      case "or":
        return any(e.operands.map((x) => this.test(x)));
      case "not": {
        const operand = this.test(e.operand);
        return (v) => !operand(v);
      }
      case "matches":
        return this.isNodes(e.branch.body);
      case "test": {
        const test = this.isNodes(e.branch.body);
        return () => test;
      }
      case "arrow":
        return this.value(e.body);
      case "count": {
        const operands = e.operands.map((x) => this.test(x));
        return (v) => {
          let n = 0;
          for (let k = 0; k < operands.length; k++) if (operands[k]!(v)) n++;
          return n;
        };
      }
      case "concat": {
        const parts = e.parts.map((x) => this.value(x));
        return (v) => {
          let out = "";
          for (let k = 0; k < parts.length; k++) out += String(parts[k]!(v));
          return out;
        };
      }
    }
  }

  private call(callee: string, args: readonly Expr[]): Value {
    const method = /^(\w+)\.test$/.exec(callee);
    const fn = method ? RegExp.prototype.test.bind(this.lowering.patternOf(method[1]!)) : ((SUPPORT_FUNCTIONS as Record<string, unknown>)[callee] ?? BUILTINS[callee]);
    if (typeof fn !== "function") throw new Error(`the check IR calls ${callee}, which the closures do not know`);
    const f = fn as (...a: unknown[]) => unknown;
    // The common shapes without a closure per argument: f(subject), f(subject, constant).
    if (args.length === 1 && args[0]!.kind === "subject") return (v) => f(v);
    const values = args.map((a) => this.value(a));
    if (args.length === 1) {
      const a = values[0]!;
      return (v) => f(a(v));
    }
    if (args.length === 2 && args[0]!.kind === "subject") {
      const b = values[1]!;
      return (v) => f(v, b(v));
    }
    return (v) => f(...values.map((a) => a(v)));
  }

  /** A module-level name of the printed source: a RegExp, a JSON constant, or a global. */
  private named(name: string): unknown {
    if (name === "Infinity") return Infinity;
    return this.lowering.valueOf(name);
  }
}

const NOT_LITERAL = Symbol("not a literal");

function compare(op: string, left: Value, right: Value, literal: unknown, subjectLeft: boolean): Is {
  if (literal !== NOT_LITERAL) {
    const r = literal;
    const l = subjectLeft ? (v: unknown) => v : left;
    switch (op) {
      case "===":
        return subjectLeft ? (v) => v === r : (v) => l(v) === r;
      case "!==":
        return subjectLeft ? (v) => v !== r : (v) => l(v) !== r;
      case "<":
        return (v) => (l(v) as number) < (r as number);
      case "<=":
        return (v) => (l(v) as number) <= (r as number);
      case ">":
        return (v) => (l(v) as number) > (r as number);
      case ">=":
        return (v) => (l(v) as number) >= (r as number);
    }
  }
  switch (op) {
    case "===":
      return (v) => left(v) === right(v);
    case "!==":
      return (v) => left(v) !== right(v);
    case "<":
      return (v) => (left(v) as number) < (right(v) as number);
    case "<=":
      return (v) => (left(v) as number) <= (right(v) as number);
    case ">":
      return (v) => (left(v) as number) > (right(v) as number);
    default:
      return (v) => (left(v) as number) >= (right(v) as number);
  }
}

/** Reads a property as the printed code does (expr.ts `access`): names Object.prototype has count as own properties only. */
function reader(name: string): Value {
  if (name in Object.prototype) return (v) => own(v as Record<string, unknown>, name);
  return (v) => (v as Record<string, unknown>)[name];
}

function all(tests: readonly Is[]): Is {
  switch (tests.length) {
    case 0:
      return TRUE;
    case 1:
      return tests[0]!;
    case 2: {
      const [a, b] = tests as [Is, Is];
      return (v) => a(v) && b(v);
    }
    case 3: {
      const [a, b, c] = tests as [Is, Is, Is];
      return (v) => a(v) && b(v) && c(v);
    }
    default:
      return (v) => {
        for (let k = 0; k < tests.length; k++) if (!tests[k]!(v)) return false;
        return true;
      };
  }
}

function any(tests: readonly Is[]): Is {
  if (tests.length === 1) return tests[0]!;
  if (tests.length === 2) {
    const [a, b] = tests as [Is, Is];
    return (v) => a(v) || b(v);
  }
  return (v) => {
    for (let k = 0; k < tests.length; k++) if (tests[k]!(v)) return true;
    return false;
  };
}
