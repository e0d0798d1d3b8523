import { and, call, not, or, SUBJECT, TRUE } from "../keywords/expr.js";
import type { Branch, Expr, Node } from "../keywords/ir.js";
import type { Helpers } from "./names.js";

/**
 * What a boolean check needs of the nodes: as a flat sequence (a passed gate lets the rest run,
 * an implied gate is skipped), and as one inline expression when no node needs statements.
 */

export function sequence(nodes: readonly Node[]): Node[] {
  const flat: Node[] = [];
  // A loop, not flatMap and spreads: compiling at registration calls this for every node, more than once.
  const visit = (list: readonly Node[]): void => {
    for (const node of list) {
      if (node.kind !== "assert") flat.push(node);
      else {
        if (!node.implied) flat.push(node.then.length === 0 ? node : { ...node, then: [] });
        if (node.then.length > 0) visit(node.then);
      }
    }
  };
  visit(nodes);
  return flat;
}

/** One expression for `nodes`: asserts, references and unions of such; undefined when a node needs statements. */
export function expressionOf(nodes: readonly Node[]): Expr | undefined {
  const tests: Expr[] = [];
  for (const node of sequence(nodes)) {
    if (node.kind === "assert") tests.push(node.valid);
    else if (node.kind === "call") tests.push(call(`is${node.definition}`, SUBJECT));
    else if (node.kind === "anyOf") {
      const branches = node.branches.map((b) => expressionOf(b.body));
      if (!branches.every((b): b is Expr => b !== undefined && b.kind !== "and")) return undefined;
      tests.push(or(branches));
    } else return undefined;
  }
  return tests.length === 0 ? TRUE : and(tests);
}

/** A branch as an expression, hoisting it into a helper when it needs statements. */
export function branchTest(branch: Branch, helpers: Helpers): Expr {
  return expressionOf(branch.body) ?? call(`is${helpers.name(branch)}`, SUBJECT);
}

/** `e` with every sub-schema test inlined or hoisted (registering the helpers it needs). */
export function expand(e: Expr, helpers: Helpers): Expr {
  const x = (y: Expr) => expand(y, helpers);
  switch (e.kind) {
    case "matches":
      return x(branchTest(e.branch, helpers));
    case "test": {
      const inline = expressionOf(e.branch.body);
      return inline !== undefined ? { kind: "arrow", body: x(inline) } : { kind: "name", name: `is${helpers.name(e.branch)}` };
    }
    case "member":
      return { ...e, object: x(e.object) };
    case "call":
      return { ...e, args: e.args.map(x) };
    case "not":
      return not(x(e.operand));
    case "typeof":
      return { ...e, operand: x(e.operand) };
    case "compare":
      return { ...e, left: x(e.left), right: x(e.right) };
    case "and":
    case "or":
    case "count":
      return { ...e, operands: e.operands.map(x) };
    case "concat":
      return { ...e, parts: e.parts.map(x) };
    default:
      return e;
  }
}

/** True when the nodes alone already fail on `undefined` (a type, const or enum among them). */
export function rejectsUndefined(nodes: readonly Node[]): boolean {
  return sequence(nodes).some((n) => n.kind === "assert" && (n.keyword === "type" || n.keyword === "const" || n.keyword === "enum"));
}

/** The definition a branch is exactly a reference to, if it is one. */
export function referenceOf(branch: Branch): string | undefined {
  const [only] = branch.body;
  return branch.body.length === 1 && only!.kind === "call" ? only!.definition : undefined;
}
