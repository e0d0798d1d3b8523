import type { Expr, Node } from "../keywords/ir.js";
import type { Schema } from "../model/schema.js";
import { isFalse, mapChildren, matches, or } from "../keywords/expr.js";
import { constant, sequence } from "./inline.js";
import type { Lowering } from "./lower.js";
import type { Helper, Helpers } from "./names.js";
import type { CheckRenderer } from "./render-check.js";
import type { IsRenderer } from "./render-is.js";
import type { Writer } from "./writer.js";

/** The functions of a set of definitions, as `generate --tools` prints them and the runtime compiles them. */

/** The definitions printed code calls: for their boolean check (`isX`), for their issue check (`checkX`). */
export interface Reached {
  readonly is: ReadonlyMap<string, Schema>;
  readonly check: ReadonlyMap<string, Schema>;
}

/**
 * The definitions whose checks printed code calls, from `roots` (both checks of each), each in
 * the order of `definitions`: a definition nothing reaches (an unused `$defs` entry), or reaches
 * only through a boolean test (an anyOf of `$ref`s), gets no function it would never call (a
 * project may build with noUnusedLocals), and code mode compiles less. Mirrors the renderers: an
 * issue check calls the issue checks of its statements' references and explaining branches,
 * everything else is a boolean test.
 */
export function reachable(definitions: ReadonlyMap<string, Schema>, lowering: Lowering, roots: Iterable<string>): Reached {
  type Mode = "is" | "check";
  const reached: Record<Mode, Set<string>> = { is: new Set(), check: new Set() };
  const pending: [string, Mode][] = [...roots].flatMap((root): [string, Mode][] => [[root, "is"], [root, "check"]]);
  const seen: Record<Mode, WeakSet<object>> = { is: new WeakSet(), check: new WeakSet() };
  const visitNodes = (nodes: readonly Node[], mode: Mode): void => {
    if (seen[mode].has(nodes)) return;
    seen[mode].add(nodes);
    // The boolean check prints its nodes in sequence, none after a test that always fails.
    for (const node of mode === "is" ? sequence(nodes) : nodes) visitNode(node, mode);
  };
  const visitNode = (node: Node, mode: Mode): void => {
    switch (node.kind) {
      case "call":
        return void pending.push([node.definition, mode]);
      case "assert":
        visitExpr(node.valid);
        // Explaining branches are called where the test can fail.
        if (mode === "check" && constant(node.valid) !== true) node.explain?.forEach((branch) => visitNodes(branch.body, "check"));
        return isFalse(node.valid) ? undefined : visitNodes(node.then, mode);
      case "guard":
      case "property":
      case "items":
      case "element":
        return visitNodes(node.body, mode);
      case "entries":
        node.knownWhen?.forEach(({ when }) => visitExpr(when));
        return visitNodes(node.body, mode);
      case "each":
        // The boolean check tests `valid` alone; the issue check walks `keys` through `body`.
        if (mode === "is") return visitExpr(node.valid);
        visitExpr(node.keys);
        return visitNodes(node.body, "check");
      case "when":
        visitExpr(node.condition);
        return visitNodes(node.body, mode);
      case "anyOf": {
        const passes = or(node.branches.map(matches));
        visitExpr(passes);
        // The evident branch's issues are reported where the union can fail.
        if (mode === "check" && constant(passes) !== true) node.discriminator?.cases.forEach(({ branch }) => visitNodes(branch.body, "check"));
        return;
      }
    }
  };
  const visitExpr = (e: Expr): void => {
    // A constant is printed as one: it calls nothing (inline.ts, expand).
    if (constant(e) !== undefined) return;
    if (e.kind === "matches" || e.kind === "test") return visitNodes(e.branch.body, "is");
    if (e.kind === "arrow") return visitExpr(e.body);
    mapChildren(e, (child) => (visitExpr(child), child));
  };
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [name, mode] = next;
    if (reached[mode].has(name)) continue;
    reached[mode].add(name);
    visitNodes(lowering.lower(definitions.get(name)!), mode);
  }
  const inOrder = (names: Set<string>) => new Map([...definitions].filter(([name]) => names.has(name)));
  return { is: inOrder(reached.is), check: inOrder(reached.check) };
}

/**
 * `isX` and the issue checks (`checkX`, and `describeX` with a describing renderer) of each
 * definition `roots` reach (reachable), each under a comment naming its place (`label`), then the
 * hoisted sub-schemas.
 */
export function writeDefinitions(w: Writer, definitions: ReadonlyMap<string, Schema>, roots: Iterable<string>, lowering: Lowering, helpers: Helpers, is: IsRenderer, checks: readonly CheckRenderer[], label: (pointer: string) => string): void {
  const reached = reachable(definitions, lowering, roots);
  for (const [name, schema] of definitions) {
    if (!reached.is.has(name) && !reached.check.has(name)) continue;
    const nodes = lowering.lower(schema);
    w.blankLine();
    w.writeLine(`/** ${label(schema.pointer)} */`);
    if (reached.is.has(name)) is.function(`is${name}`, "boolean", nodes, false);
    if (!reached.check.has(name)) continue;
    for (const check of checks) {
      if (reached.is.has(name) || check !== checks[0]) w.blankLine();
      check.function(`${check.prefix}${name}`, nodes, false);
    }
  }
  writeHelpers(w, helpers, is, checks, label);
}

/** The helpers whose functions a source already holds (a second source, printed later, adds only the rest). */
export interface PrintedHelpers {
  readonly is: Set<Helper>;
  readonly check: Set<Helper>;
  readonly describe: Set<Helper>;
}

/** Nothing printed yet. */
export const noHelpersPrinted = (): PrintedHelpers => ({ is: new Set(), check: new Set(), describe: new Set() });

/**
 * The hoisted sub-schemas not yet `printed`: a boolean check for those some printed code tests,
 * and an issue check (by each of `checks`) for those some printed code calls for their issues (a
 * discriminated union's branch, a oneOf's); each under a comment naming its place, with `label`.
 */
export function writeHelpers(
  w: Writer,
  helpers: Helpers,
  is: IsRenderer,
  checks: readonly CheckRenderer[],
  label: ((pointer: string) => string) | undefined,
  printed: PrintedHelpers = noHelpersPrinted(),
): void {
  // A function printed may name helpers of its own, or call the issue check of one printed before: until nothing is left.
  for (let more = true; more; ) {
    more = false;
    for (const helper of helpers.all()) {
      const tested = helpers.isTested(helper) && !printed.is.has(helper);
      const checked = helpers.isChecked(helper) ? checks.filter((check) => !printed[check.prefix].has(helper)) : [];
      if (!tested && checked.length === 0) continue;
      more = true;
      // The comment before the helper's first function.
      if (label) w.blankLine();
      if (label && !printed.is.has(helper) && checks.every((check) => !printed[check.prefix].has(helper))) w.writeLine(`/** ${label(helper.pointer).replace(/\*\//g, "*\\/")} */`);
      if (tested) {
        printed.is.add(helper);
        is.function(`is${helper.base}`, "boolean", helper.body, false);
      }
      checked.forEach((check, k) => {
        printed[check.prefix].add(helper);
        if (label && (tested || k > 0)) w.blankLine();
        check.function(`${check.prefix}${helper.base}`, helper.body, false);
      });
    }
  }
}
