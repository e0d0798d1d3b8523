import { SUPPORT_FUNCTIONS } from "../../support/functions.js";
import { and, call, isFalse, literal, mapChildren, matches, not, or, print, SUBJECT, TRUE } from "../keywords/expr.js";
import type { Branch, Expr, Node } from "../keywords/ir.js";
import type { Helpers, Scope } from "./names.js";
import type { Writer } from "./writer.js";

/**
 * What a boolean check needs of the nodes: as a flat sequence (a passed gate lets the rest run,
 * an implied gate is skipped), and as one inline expression when no node needs statements.
 */

export function sequence(nodes: readonly Node[]): readonly Node[] {
  const flat: Node[] = [];
  // A loop, not flatMap and spreads: compiling at registration calls this for every node, more than once.
  const visit = (list: readonly Node[]): boolean => {
    for (const node of list) {
      if (node.kind !== "assert") flat.push(node);
      else if (!node.implied) flat.push(node.then.length === 0 ? node : { ...node, then: [] });
      // A node that always fails ends the sequence: nothing after it runs.
      if (alwaysFails(node)) return false;
      if (node.kind === "assert" && node.then.length > 0 && !visit(node.then)) return false;
    }
    return true;
  };
  visit(nodes);
  return flat;
}

/** The boolean check of `nodes` always fails at its last node (sequence): nothing is printed after it. */
export function endsFailing(flat: readonly Node[]): boolean {
  const last = flat[flat.length - 1];
  return last !== undefined && alwaysFails(last);
}

/**
 * A node no value passes, which the boolean check prints as `return false;`: a test that always
 * fails (a `false` schema, an enum no value of the type is in), or a required property no value
 * of passes. After it TypeScript would know the code never runs, and narrow nothing there.
 */
export function alwaysFails(node: Node): boolean {
  if (node.kind === "assert") return isFalse(node.valid);
  if (node.kind !== "property" || node.required === undefined) return false;
  const inline = expressionOf(node.body);
  return inline !== undefined && constant(inline) === false;
}

/**
 * Each list's expression, once: the renderers, reachable and readsSubject ask for it, and
 * sequence for each required property's (alwaysFails); lists are lowered once (lower.ts) and never
 * changed. (A sequence is not kept: made afresh, it cost less than the WeakMap.)
 */
const expressions = new WeakMap<readonly Node[], Expr | null>();

/** One expression for `nodes`: asserts, references and unions of such; undefined when a node needs statements. */
export function expressionOf(nodes: readonly Node[]): Expr | undefined {
  let e = expressions.get(nodes);
  if (e === undefined) expressions.set(nodes, (e = expressionOfList(nodes) ?? null));
  return e ?? undefined;
}

function expressionOfList(nodes: readonly Node[]): Expr | undefined {
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

/**
 * Whether the printed checks of `nodes` read their subject (`issues`: as the issue check prints
 * them, with their messages), so that a renderer names a local or a parameter only for a subject
 * it reads: a project may build with noUnusedLocals and noUnusedParameters. True when unsure.
 */
export function readsSubject(nodes: readonly Node[], issues: boolean): boolean {
  return (issues ? nodes : sequence(nodes)).some((node) => {
    switch (node.kind) {
      case "assert":
        return reads(node.valid) || readsSubject(node.then, issues) || (issues && constant(node.valid) !== true && (reads(node.message) || node.explain !== undefined));
      case "when":
        return reads(node.condition) || readsSubject(node.body, issues);
      case "anyOf": {
        const passes = or(node.branches.map(matches));
        return reads(passes) || (issues && constant(passes) !== true && (reads(node.message) || node.discriminator !== undefined));
      }
      default:
        return true;
    }
  });
}

/** Whether the issue check of `nodes` may report an issue (and so reads its path): not where every test always passes. True when unsure. */
export function mayReport(nodes: readonly Node[]): boolean {
  return nodes.some((node) => {
    if (node.kind === "assert") return constant(node.valid) !== true || mayReport(node.then);
    if (node.kind === "anyOf") return constant(or(node.branches.map(matches))) !== true;
    return true;
  });
}

/** Whether `e` printed reads its subject: not where it is printed as a constant (expand folds it), nor in an arrow (it reads its own); a sub-schema test reads it unless inlined as a test that does not. */
function reads(e: Expr): boolean {
  if (e.kind === "subject") return true;
  if (constant(e) !== undefined) return false;
  if (e.kind === "matches") {
    const inline = expressionOf(e.branch.body);
    return inline === undefined || reads(inline);
  }
  let found = false;
  mapChildren(e, (child) => ((found ||= reads(child)), child));
  return found;
}

/** The value of a test the same for every subject, as `expand` folds it (`and`, `or`, `not` of constants, a branch inlined as one), else undefined. */
export function constant(e: Expr): boolean | undefined {
  switch (e.kind) {
    case "literal":
      return typeof e.value === "boolean" ? e.value : undefined;
    case "not": {
      const c = constant(e.operand);
      return c === undefined ? undefined : !c;
    }
    case "and":
    case "or": {
      // A deciding operand decides; else the whole is constant only if every operand is.
      const decides = e.kind === "or";
      let all = true;
      for (const operand of e.operands) {
        const c = constant(operand);
        if (c === decides) return decides;
        if (c === undefined) all = false;
      }
      return all ? !decides : undefined;
    }
    case "matches": {
      // Once per branch: reachable and readsSubject ask at every level of a nested test.
      const body = e.branch.body;
      let c = branchConstants.get(body);
      if (c === undefined) {
        const inline = expressionOf(body);
        branchConstants.set(body, (c = (inline === undefined ? undefined : constant(inline)) ?? null));
      }
      return c ?? undefined;
    }
    default:
      return undefined;
  }
}

const branchConstants = new WeakMap<readonly Node[], boolean | null>();

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
    // A constant is printed as one, its branches never named (a helper no code calls); else built again, so that a
    // branch inlined as `true` or `false` decides the whole where it can.
    case "and":
    case "or": {
      const c = constant(e);
      if (c !== undefined) return literal(c);
      return e.kind === "and" ? and(e.operands.map(x)) : or(e.operands.map(x));
    }
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

/** The callee of a printed boolean check of the subject itself (`isA(v)`), else undefined: not a support function (isObject narrows the type where it is called, and is cheap). */
const subjectCheck = (x: Expr): string | undefined =>
  x.kind === "call" && x.args.length === 1 && x.args[0]!.kind === "subject" && /^is[A-Z]/.test(x.callee) && !Object.hasOwn(SUPPORT_FUNCTIONS, x.callee) ? x.callee : undefined;

/** Counts the boolean checks of the subject `e` calls, and notes those whose first call always runs; an arrow's are left out (its subject is its own parameter). */
function countChecks(e: Expr, counts: Map<string, number>, always: Set<string>, runs = true): void {
  const callee = subjectCheck(e);
  if (callee !== undefined) {
    counts.set(callee, (counts.get(callee) ?? 0) + 1);
    if (runs) always.add(callee);
    return;
  }
  const visit = (x: Expr, r: boolean) => countChecks(x, counts, always, r);
  switch (e.kind) {
    case "call":
      return e.args.forEach((a) => visit(a, runs));
    case "and":
    case "or":
      return e.operands.forEach((o, k) => visit(o, runs && k === 0));
    case "count":
      return e.operands.forEach((o) => visit(o, runs));
    case "not":
    case "typeof":
      return visit(e.operand, runs);
    case "compare":
      visit(e.left, runs);
      return visit(e.right, runs);
    case "member":
      return visit(e.object, runs);
    case "concat":
      return e.parts.forEach((p) => visit(p, runs));
  }
}

/** `e` with the subject checks `locals` names replaced by what `read` prints for each. */
function swapChecks(e: Expr, locals: ReadonlyMap<string, string>, read: (local: string, callee: string) => string): Expr {
  const swap = (x: Expr): Expr => {
    const callee = subjectCheck(x);
    const local = locals.get(callee ?? "");
    return local !== undefined ? { kind: "name", name: read(local, callee!) } : mapChildren(x, swap);
  };
  return locals.size === 0 ? e : swap(e);
}

/**
 * `e` (expanded) with each boolean check of its subject that it calls more than once, the first
 * call always run, bound once (`bind` names it and prints `const`): unevaluatedItems' evaluations
 * repeat a branch's test in each condition (`isA(v) && isB(v)`, `isA(v) && isC(v)`...). Only
 * a call that runs anyway is hoisted, so no branch runs that `&&` or `||` would have skipped.
 */
export function shareCalls(e: Expr, bind: (test: Expr) => string): Expr {
  const counts = new Map<string, number>();
  const always = new Set<string>();
  countChecks(e, counts, always);
  const shared = new Map<string, string>();
  for (const [callee, n] of counts) if (n > 1 && always.has(callee)) shared.set(callee, bind(call(callee, SUBJECT)));
  return swapChecks(e, shared, (local) => local);
}

/**
 * The boolean checks a function calls more than once on its own subject (`value`), each kept in
 * a local computed on first use, `(passes ??= isA(value))`, so none runs that would not have run:
 * unevaluatedProperties' conditions repeat the checks of the applicators beside it (anyOf, oneOf,
 * if, dependentSchemas). `forIs`: the nodes as the boolean check prints them (calls of
 * definitions, implied asserts left out), else as the issue check does.
 */
export class SharedChecks {
  private readonly locals = new Map<string, string>();

  constructor(nodes: readonly Node[], helpers: Helpers, scope: Scope, forIs: boolean) {
    const exprs = checkedExprs(nodes, forIs);
    const counts = new Map<string, number>();
    for (const e of exprs) countChecks(expand(e, helpers), counts, new Set());
    for (const [callee, n] of counts) if (n > 1) this.locals.set(callee, scope.fresh("passes"));
  }

  /** The locals to declare (`let`) at the top of the function. */
  get declared(): string[] {
    return [...this.locals.values()];
  }

  /** `e` (expanded) with the shared checks read through their locals, where `v` is the function's own subject. */
  apply(e: Expr, v: string): Expr {
    return v === "value" ? swapChecks(e, this.locals, (local, callee) => `(${local} ??= ${callee}(${v}))`) : e;
  }
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

/**
 * The expressions a function's nodes test on their own subject (not inside parts): what
 * SharedChecks counts, and the closures (render/closures.ts, share) too. `forIs`: the nodes as
 * the boolean check prints them (calls of definitions, implied asserts left out), else as the
 * issue check does.
 */
export function checkedExprs(nodes: readonly Node[], forIs: boolean): Expr[] {
  const exprs: Expr[] = [];
  // The boolean check's nodes in sequence (none after a test that always fails), the issue check's as they nest.
  const visit = (list: readonly Node[]): void => {
    for (const node of forIs ? sequence(list) : list)
      switch (node.kind) {
        case "assert":
          exprs.push(node.valid);
          if (!isFalse(node.valid)) visit(node.then);
          break;
        case "call":
          if (forIs) exprs.push(call(`is${node.definition}`, SUBJECT));
          break;
        case "guard":
          visit(node.body);
          break;
        case "when":
          exprs.push(node.condition);
          visit(node.body);
          break;
        case "each":
          exprs.push(forIs ? node.valid : node.keys);
          break;
        case "anyOf":
          exprs.push(or(node.branches.map(matches)));
          break;
        case "entries":
          for (const { when } of node.knownWhen ?? []) exprs.push(when);
          break;
      }
  };
  visit(nodes);
  return exprs;
}
