import { and, call, mapChildren, not, or, print, SUBJECT, TRUE } from "../keywords/expr.js";
import type { Branch, Expr, Node } from "../keywords/ir.js";
import type { Helpers, Scope } from "./names.js";
import type { Writer } from "./writer.js";

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
    case "not":
      return not(x(e.operand));
    default:
      return mapChildren(e, x);
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

/**
 * `e` (expanded) with each boolean check of its subject that it calls more than once, the first
 * call always run, bound once (`bind` names it and prints `const`): unevaluated*'s evaluations
 * repeat a branch's test in each condition (`isA(v) && isB(v)`, `isA(v) && isC(v)`...). Only
 * a call that runs anyway is hoisted, so no branch runs that `&&` or `||` would have skipped;
 * `lazy`: every repeated call, `bind` printing what computes it on first use.
 */
export function shareCalls(e: Expr, bind: (test: Expr) => string, lazy = false): Expr {
  // The callee of a boolean check of the subject itself, else undefined.
  const subjectCheck = (x: Expr): string | undefined => (x.kind === "call" && x.args.length === 1 && x.args[0]!.kind === "subject" && /^is[A-Z]/.test(x.callee) ? x.callee : undefined);
  const counts = new Map<string, number>();
  const always = new Set<string>();
  // An arrow's calls are left alone (its subject is its own parameter).
  const visit = (x: Expr, runs: boolean): void => {
    const callee = subjectCheck(x);
    if (callee !== undefined) {
      counts.set(callee, (counts.get(callee) ?? 0) + 1);
      if (runs) always.add(callee);
      return;
    }
    switch (x.kind) {
      case "call":
        return x.args.forEach((a) => visit(a, runs));
      case "and":
      case "or":
        return x.operands.forEach((o, k) => visit(o, runs && k === 0));
      case "count":
        return x.operands.forEach((o) => visit(o, runs));
      case "not":
      case "typeof":
        return visit(x.operand, runs);
      case "compare":
        visit(x.left, runs);
        return visit(x.right, runs);
      case "member":
        return visit(x.object, runs);
      case "concat":
        return x.parts.forEach((p) => visit(p, runs));
    }
  };
  visit(e, true);
  const shared = new Map<string, string>();
  for (const [callee, n] of counts) if (n > 1 && (lazy || always.has(callee))) shared.set(callee, bind(call(callee, SUBJECT)));
  if (shared.size === 0) return e;
  const swap = (x: Expr): Expr => {
    const local = shared.get(subjectCheck(x) ?? "");
    return local !== undefined ? { kind: "name", name: local } : mapChildren(x, swap);
  };
  return swap(e);
}

/** `e` (expanded) for the subject `v`, its shared calls (shareCalls) printed before it as `const` locals of `scope`. */
export function printShared(e: Expr, w: Writer, scope: Scope, v: string): string {
  const test = shareCalls(e, (check) => {
    const local = scope.fresh("passes");
    w.writeLine(`const ${local} = ${print(check, v)};`);
    return local;
  });
  return print(test, v);
}
