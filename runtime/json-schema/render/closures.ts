import { SUPPORT_FUNCTIONS } from "../../support/functions.js";
import { hasMaxLength, hasMinLength, isMultipleOf, isObject, own as ownProperty, pointerToken } from "../../support/validation.js";
import type { ValidationIssue } from "../../support/validation.js";
import { joinIssue } from "../issue.js";
import { mapChildren } from "../keywords/expr.js";
import type { AnyOfNode, Assert, Branch, ElementNode, EntriesNode, Expr, Failure, Guard, ItemsNode, Node, PropertyNode } from "../keywords/ir.js";
import { escapeToken } from "../pointer.js";
import { checkedExprs, sequence } from "./inline.js";
import { boundedLeaf, CALL, leafOf, oneOf, runLeaf, type Leaf } from "./leaf.js";
import type { Lowering } from "./lower.js";
import {
  CHECK_ITEMS_POOL,
  CHECK_POOL,
  CHECK_GATED_POOL,
  ENTRY_POOL,
  GATED_POOL,
  ITEMS_POOL,
  POOL,
  WIDTH,
  type CheckGatedTemplate,
  type CheckItemsTemplate,
  type CheckStep,
  type CheckTemplate,
  type EntryTemplate,
  type GatedTemplate,
  type ItemsTemplate,
  type Template,
} from "./pool.js";

/**
 * The check IR as closures, for platforms that forbid code generation (Workers): the third
 * renderer beside render-is.ts and render-check.ts, with their semantics node for node, so a
 * schema has the same verdicts and the same issues (path, schemaPath, keyword, message, order)
 * on every platform, for JSON values (a run of properties read by a for-in sees enumerable keys,
 * where the printed code reads each name: objects with getters or inherited properties differ).
 * Each node becomes one closure over the closures of its parts; a call of a definition goes
 * through a slot filled once the definition is compiled (definitions recurse).
 *
 * Speed: every closure made at one place of this file shares that place's call feedback, so each
 * call between closures is one V8 cannot inline, while a call of a module function is. The
 * frequent shapes therefore take fewer closure calls and more data: a run of properties is one
 * loop (fused with additionalProperties: false, and with the object type test that gates it), a
 * type or enum test runs inline in it as an op code (leaf.ts), issues are records `report` reads,
 * and the issue check makes a part's path only when the part has an issue. The issue check
 * writes to a Sink: the issues, or their text joined as it goes (`describe`, what a tool's
 * caller reads). A run of up to WIDTH distinct properties, a loop over items checked by a
 * closure, a guard or a `when` (a type test or a condition, then the checks it gates) and a
 * sequence of checks (a gate every subject passes) gets a template of the pool for good while the
 * pool lasts (pool.ts, packages/closure-pool.ts): a
 * function literal of its own, whose reads by name and calls V8 makes as fast as the printed code's.
 */

type Is = (v: unknown) => boolean;
type Check = (v: unknown, path: string, issues: Sink) => void;

/**
 * What the issue check gives its issues to: a list, or (`describe`) a text that joins them as it
 * goes (joinIssue), with no issue objects: code mode's describeX (render-check.ts), here as one
 * check that writes either.
 */
type Sink = ValidationIssue[] | Joined;

export class Joined {
  text = "";
}
type Value = (v: unknown) => unknown;

const BUILTINS: Readonly<Record<string, (...args: never[]) => unknown>> = {
  "Array.isArray": Array.isArray,
  "Number.isInteger": Number.isInteger,
  "Object.keys": Object.keys,
  "Object.prototype.hasOwnProperty.call": (object: object, key: string) => Object.prototype.hasOwnProperty.call(object, key),
};

const TRUE: Is = () => true;
const NOTHING = (): void => {};

/**
 * `callee(v, constant)` for the frequent callees, each written here: a closure made at a place of
 * its own calls one function, which V8 inlines; the shared `(v) => f(v, constant)` calls all of them.
 */
const SUBJECT_AND_CONSTANT: ReadonlyMap<string, (constant: unknown) => Is> = new Map<string, (constant: unknown) => Is>([
  ["Object.prototype.hasOwnProperty.call", (key) => (v) => Object.prototype.hasOwnProperty.call(v, key as string)],
  ["hasMinLength", (limit) => (v) => hasMinLength(v as string, limit as number)],
  ["hasMaxLength", (limit) => (v) => hasMaxLength(v as string, limit as number)],
  ["isMultipleOf", (divisor) => (v) => isMultipleOf(v as number, divisor as number)],
]);

/** A memoised branch check's last subject (NONE: none this call) and its verdict (ClosureRenderer.memoOf). */
interface Memo {
  last: unknown;
  verdict: boolean;
}

/** No subject: not `undefined`, which a validator may be given. */
const NONE = {};

function forget(cells: readonly Memo[]): void {
  for (let k = 0; k < cells.length; k++) cells[k]!.last = NONE;
}

/**
 * Whether an entries node passes over `key` of `v`; `held`: one array per call of the node's
 * check, the verdicts of its conditions found so far (each tested once per call, if at all; a
 * memo of one subject per validator call would not do: a key's value, checked between two keys,
 * replaces it with its own, and a recursive schema then tests each level's conditions again for
 * each key, exponentially).
 */
type KeyFilter = (v: unknown, key: string, held: (boolean | undefined)[]) => boolean;

/** `held` of a filter with no conditions, which never writes to it. */
const NOTHING_HELD: (boolean | undefined)[] = Object.freeze([]) as unknown as (boolean | undefined)[];

/** One of `regexps` matches `key`: a loop, not `some` and a closure per key. */
function anyMatches(regexps: readonly RegExp[], key: string): boolean {
  for (let k = 0; k < regexps.length; k++) if (regexps[k]!.test(key)) return true;
  return false;
}

/** A definition's closure; `done` once compiled (until then, a call of it must read `fn` late: recursion). */
interface Slot<F> {
  fn: F;
  done: boolean;
}

export class ClosureRenderer {
  private readonly isSlots = new Map<string, Slot<Is>>();
  private readonly checkSlots = new Map<string, Slot<Check>>();
  /** Per property node, once its run is first rendered: whether the run is read through templates (by name, in both checks). */
  private readonly templated = new WeakMap<PropertyNode, boolean>();
  /** Branch bodies tested more than once on one subject (share), and their memoised checks (memoOf). */
  private readonly shared = new WeakSet<readonly Node[]>();
  private readonly memos = new WeakMap<readonly Node[], Is>();
  private readonly cells: Memo[] = [];

  /** `templates`: where a run's templates come from (default: the pool's next, until it is spent). */
  constructor(
    private readonly lowering: Lowering,
    private readonly templates: Templates = POOL_TEMPLATES,
  ) {}

  /**
   * The boolean check of the root as the validator's entry, once both checks are made: the memos
   * (memoOf) last one call, so that none gives an earlier call's verdict on a subject changed
   * since, nor holds the subject.
   */
  entryIs(is: Is): Is {
    return this.oneCall(is);
  }

  /** The issue check of the root as the validator's entry, as entryIs. */
  entryCheck(check: Check): Check {
    const cells = this.cells;
    if (cells.length === 0) return check;
    return (v, path, issues) => {
      try {
        check(v, path, issues);
      } finally {
        forget(cells);
      }
    };
  }

  /**
   * A tool's argument check: undefined when `is` passes, else the issues joined (`describe`), in
   * one call of the memos: the issue check finds the verdicts the boolean check reached. In a
   * template of the pool where one is left, so that its calls of the two checks are its own, which
   * V8 may inline, where a shared entry's calls reach every validator's.
   */
  entryValidate(is: Is, check: Check): (v: unknown) => string | undefined {
    const template = this.templates.entry();
    if (template) {
      const cells = this.cells;
      return template<Joined>(is, check, Joined, cells.length === 0 ? NOTHING : () => forget(cells));
    }
    return this.oneCall((v) => {
      if (is(v)) return undefined;
      const joined = new Joined();
      check(v, "", joined);
      return joined.text;
    });
  }

  /** `entry`, its memos forgotten when it returns or throws. */
  private oneCall<R>(entry: (v: unknown) => R): (v: unknown) => R {
    const cells = this.cells;
    if (cells.length === 0) return entry;
    return (v) => {
      try {
        return entry(v);
      } finally {
        forget(cells);
      }
    };
  }

  /** The boolean check of a definition. */
  is(definition: string): Is {
    return this.isSlot(definition).fn;
  }

  /** The issue check of a definition. */
  check(definition: string): Check {
    return this.checkSlot(definition).fn;
  }

  private isSlot(definition: string): Slot<Is> {
    let slot = this.isSlots.get(definition);
    if (slot === undefined) {
      const filled: Slot<Is> = { fn: TRUE, done: false };
      this.isSlots.set(definition, (slot = filled));
      filled.fn = this.isNodes(this.lowering.lower(this.lowering.definition(definition)));
      filled.done = true;
    }
    return slot;
  }

  private checkSlot(definition: string): Slot<Check> {
    let slot = this.checkSlots.get(definition);
    if (slot === undefined) {
      const filled: Slot<Check> = { fn: () => {}, done: false };
      this.checkSlots.set(definition, (slot = filled));
      filled.fn = this.checkNodes(this.lowering.lower(this.lowering.definition(definition)));
      filled.done = true;
    }
    return slot;
  }

  // The boolean check: false at the first failed node, as render-is.ts prints it.

  /**
   * Two checks or more in a gated template behind TRUE, where one is left: its calls of them are
   * its own, where `all`'s reach every schema's (figures: docs/decisions.md).
   */
  private isNodes(nodes: readonly Node[]): Is {
    const tests = this.isTests(nodes);
    return (tests.length > 1 ? this.gatedIs(TRUE, tests) : undefined) ?? all(tests);
  }

  /** The boolean checks of `nodes`, to be passed in order. */
  private isTests(nodes: readonly Node[]): Is[] {
    this.share(nodes, true);
    const runs = grouped(sequence(nodes));
    const tests: Is[] = [];
    for (let k = 0; k < runs.length; k++) {
      const run = runs[k]!;
      // The type test right before the loop it gates runs in the loop's closure: one call less per value.
      const gate = Array.isArray(run) ? "isObject" : (run.kind === "items" && !run.from) || run.kind === "element" ? "Array.isArray" : undefined;
      const gated = gate !== undefined && k > 0 && gateOf(runs[k - 1]!) === gate;
      if (gated) tests.pop();
      if (!Array.isArray(run) && run.kind === "element") {
        // prefixItems (or tuple items): its elements in one loop, as a run of properties.
        const end = elementsEnd(runs, k);
        // The items after them (`items` beside prefixItems) in the same closure.
        const next = runs[end + 1];
        const rest = next !== undefined && !Array.isArray(next) && next.kind === "items" ? next : undefined;
        tests.push(this.isElements(runs.slice(k, end + 1) as ElementNode[], rest, gated));
        k = rest ? end + 1 : end;
      } else if (!Array.isArray(run)) tests.push(run.kind === "items" ? this.isItems(run, gated) : this.isNode(run));
      else {
        // additionalProperties: false right after the properties it allows: one loop does both.
        const closed = closedBy(runs[k + 1], run) !== undefined;
        tests.push(this.isRun(run, closed, gated ? false : undefined));
        if (closed) k++;
      }
    }
    return tests;
  }

  /** `tests` behind `gate` in a template of the pool (gated), or undefined. */
  private gatedIs(gate: Is, tests: readonly Is[]): Is | undefined {
    return gated(tests.length > 0 ? this.templates.gated() : undefined, gate, tests, all);
  }

  /**
   * A run of properties in one loop (`closed`: and the additionalProperties: false after it);
   * `nonObject`: the verdict on a subject that is no object (an object type test before the run,
   * or a guard around it), undefined where the run does not test it.
   */
  private isRun(run: PropertyNode[], closed: boolean, nonObject: boolean | undefined): Is {
    const template = this.templateFor(run, () => this.templates.is());
    if (template) {
      const { required, ops, args } = this.propertyLeaves(run);
      return template(nonObject, closed, run.length, run.map((node) => node.name), required, ops, args);
    }
    return this.byName(run, closed) ? this.isPropertyReads(run, nonObject, closed) : this.isPropertyKeys(run, closed, nonObject);
  }

  /** The boolean check of `nodes` as a leaf: inline when it is one test. */
  private isLeaf(nodes: readonly Node[]): Leaf {
    const flat = sequence(nodes);
    if (flat.length === 1 && flat[0]!.kind === "assert") return leafOf(flat[0]!.valid, (e) => this.test(e));
    return bodyLeaf(flat) ?? { op: CALL, arg: this.isNodes(flat) };
  }

  /**
   * Consecutive property nodes (distinct names) in one loop over the object's keys, their tests
   * inline where they are leaves: a for-in reads a key's value from the object's enum cache, far
   * cheaper than a read by a name the loop varies; on JSON values (own enumerable properties
   * only) the same as reading each name. `closed`: any other key fails.
   */
  private isPropertyKeys(nodes: readonly PropertyNode[], closed: boolean, nonObject: boolean | undefined): Is {
    const indexOf = keyIndex(nodes);
    const { required, ops, args } = this.propertyLeaves(nodes);
    const requiredCount = required.filter(Boolean).length;
    return (v) => {
      if (nonObject !== undefined && !isObject(v)) return nonObject;
      const object = v as Record<string, unknown>;
      let present = 0;
      let k = 0;
      for (const key in object) {
        const i = indexOf(key, k++);
        if (i === undefined) {
          if (closed) return false;
          continue;
        }
        const value = object[key];
        if (value === undefined) continue;
        if (!runLeaf(ops[i]!, args[i], value)) return false;
        if (required[i]) present++;
      }
      return present === requiredCount;
    };
  }

  /** What a property run's loop reads of each property: whether it is required, and its boolean check as a leaf (an op and its argument). */
  private propertyLeaves(nodes: readonly PropertyNode[]): { required: boolean[]; ops: Leaf["op"][]; args: Leaf["arg"][] } {
    const leaves = nodes.map((node) => this.isLeaf(node.body));
    return { required: nodes.map((node) => node.required !== undefined), ops: leaves.map((leaf) => leaf.op), args: leaves.map((leaf) => leaf.arg) };
  }

  /** Consecutive property nodes in one loop over their names (a name may come twice: allOf); `closed`: any other key fails. */
  private isPropertyReads(nodes: readonly PropertyNode[], nonObject: boolean | undefined, closed: boolean): Is {
    const { names, own, count } = table(nodes);
    const { required, ops, args } = this.propertyLeaves(nodes);
    const known = closed ? new Set(names) : undefined;
    return (v) => {
      if (nonObject !== undefined && !isObject(v)) return nonObject;
      const object = v as Record<string, unknown>;
      // Other keys first: a refused key does not wait for every value's check (each value read once).
      if (known) for (const key in object) if (!known.has(key)) return false;
      for (let i = 0; i < count; i++) {
        const value = own[i] ? ownProperty(object, names[i]!) : object[names[i]!];
        if (value === undefined) {
          if (required[i]) return false;
        } else if (!runLeaf(ops[i]!, args[i], value)) return false;
      }
      return true;
    };
  }

  private isNode(node: Node): Is {
    switch (node.kind) {
      case "assert":
        return this.test(node.valid);
      case "call": {
        const slot = this.isSlot(node.definition);
        return slot.done ? slot.fn : (v) => slot.fn(v);
      }
      case "guard": {
        // Around one run of properties (a sub-schema with no type): the run's loop tests the type, one closure for both.
        const run = node.type === "object" ? guardedRun(grouped(sequence(node.body))) : undefined;
        if (run) {
          this.share(node.body, true);
          return this.isRun(run.properties, run.closed !== undefined, true);
        }
        const tests = this.isTests(node.body);
        const gated = this.gatedIs(GATES[node.type], tests);
        if (gated) return gated;
        // A literal per type: its test runs inline, not through a closure every guard's call shares.
        const body = all(tests);
        switch (node.type) {
          case "object":
            return (v) => !isObject(v) || body(v);
          case "array":
            return (v) => !Array.isArray(v) || body(v);
          case "string":
            return (v) => typeof v !== "string" || body(v);
          case "number":
            return (v) => typeof v !== "number" || body(v);
        }
      }
      case "property":
        return this.isNodes([node]);
      case "entries":
        return this.isEntries(node);
      case "items":
        return this.isItems(node, false);
      case "element":
        return this.isNodes([node]);
      case "when": {
        const condition = this.test(node.condition);
        const tests = this.isTests(node.body);
        const gated = this.gatedIs(condition, tests);
        if (gated) return gated;
        const body = all(tests);
        return (v) => !condition(v) || body(v);
      }
      case "each":
        return this.test(node.valid);
      case "anyOf":
        return any(node.branches.map((branch) => this.branchIs(branch.body)));
    }
  }

  /**
   * Marks the branch bodies that `nodes` test more than once on their own subject: the
   * conditions of unevaluatedProperties and unevaluatedItems repeat the checks of the
   * applicators beside them (anyOf, oneOf, if, dependentSchemas), in the expressions code mode's
   * SharedChecks counts (inline.ts, checkedExprs). `forIs`: as the boolean check reads the nodes,
   * else as the issue check.
   */
  private share(nodes: readonly Node[], forIs: boolean): void {
    const counts = new Map<readonly Node[], number>();
    const count = (e: Expr): Expr => {
      if (e.kind === "matches") counts.set(e.branch.body, (counts.get(e.branch.body) ?? 0) + 1);
      return mapChildren(e, count);
    };
    for (const e of checkedExprs(nodes, forIs)) count(e);
    for (const [body, n] of counts) if (n > 1) this.shared.add(body);
  }

  /** A branch's boolean check: memoised where it is tested more than once on one subject (share). */
  private branchIs(body: readonly Node[]): Is {
    return this.shared.has(body) ? this.memoOf(body) : this.isNodes(body);
  }

  /**
   * A branch's boolean check that runs once per subject in a validator's call: its last subject
   * and verdict, forgotten when the call ends (entryIs). Code mode's `(passes ??= isA(value))`
   * lasts one function call; this lasts the validator's, across frames, which gives the same
   * verdicts as a branch's verdict depends on its subject alone (a $dynamicRef's scope is resolved
   * into definitions of its own). Recursion only overwrites them with another subject's: a miss.
   */
  private memoOf(body: readonly Node[]): Is {
    let memo = this.memos.get(body);
    if (memo === undefined) {
      const test = this.isNodes(body);
      const cell: Memo = { last: NONE, verdict: false };
      this.cells.push(cell);
      memo = (v) => {
        if (cell.last === v) return cell.verdict;
        const verdict = test(v);
        cell.last = v;
        cell.verdict = verdict;
        return verdict;
      };
      this.memos.set(body, memo);
    }
    return memo;
  }

  /**
   * Consecutive element nodes (prefixItems) in one loop, their tests inline where they are leaves,
   * then the items node after them (`rest`), if any, in a loop of its own: one closure for a tuple.
   * `gated`: the subject must be an array too.
   */
  private isElements(nodes: readonly ElementNode[], rest: ItemsNode | undefined, gated: boolean): Is {
    const indexes = nodes.map((node) => node.index);
    const leaves = nodes.map((node) => this.isLeaf(node.body));
    const ops = leaves.map((leaf) => leaf.op);
    const args = leaves.map((leaf) => leaf.arg);
    const { op, arg } = rest ? this.isLeaf(rest.body) : { op: CALL, arg: TRUE };
    const from = rest?.from ?? 0;
    return (v) => {
      if (gated && !Array.isArray(v)) return false;
      const array = v as unknown[];
      for (let k = 0; k < indexes.length; k++) {
        const index = indexes[k]!;
        if (array.length > index && !runLeaf(ops[k]!, args[k], array[index])) return false;
      }
      if (rest) for (let i = from; i < array.length; i++) if (!runLeaf(op, arg, array[i])) return false;
      return true;
    };
  }

  /** `gated`: the subject must be an array too. */
  private isItems(node: ItemsNode, gated: boolean): Is {
    const { op, arg } = this.isLeaf(node.body);
    const from = node.from ?? 0;
    // Items checked by a closure (an object's run, a union): a loop of their own calls it from one place, where V8 inlines it.
    const template = op === CALL ? this.templates.items() : undefined;
    if (template) return template(gated, from, arg as Is);
    return (v) => {
      if (gated && !Array.isArray(v)) return false;
      const array = v as unknown[];
      for (let i = from; i < array.length; i++) if (!runLeaf(op, arg, array[i])) return false;
      return true;
    };
  }

  private isEntries(node: EntriesNode): Is {
    const known = plainKnown(node);
    // additionalProperties: false beside properties, the most frequent: a Set lookup per key.
    if (node.refuse && known) {
      return (v) => {
        for (const key in v as object) if (!known.has(key)) return false;
        return true;
      };
    }
    const skip = this.keyFilter(node);
    const conditional = node.knownWhen !== undefined;
    const { op, arg } = node.refuse ? { op: CALL, arg: FALSE } : this.isLeaf(node.body);
    return (v) => {
      const object = v as Record<string, unknown>;
      const held = conditional ? [] : NOTHING_HELD;
      for (const key in object) if (!skip(v, key, held) && !runLeaf(op, arg, object[key])) return false;
      return true;
    };
  }

  // The issue check: one issue per failed node, as render-check.ts prints it.

  /** As isNodes: two checks or more in a gated template behind TRUE, where one is left. */
  private checkNodes(nodes: readonly Node[]): Check {
    const checks = this.checkList(nodes);
    return (checks.length > 1 ? this.gatedCheck(TRUE, checks) : undefined) ?? every(checks);
  }

  /** The issue checks of `nodes`, run in order. */
  private checkList(nodes: readonly Node[]): Check[] {
    this.share(nodes, false);
    const runs = grouped(nodes);
    const checks: Check[] = [];
    for (let k = 0; k < runs.length; k++) {
      const run = runs[k]!;
      if (!Array.isArray(run) && run.kind === "element") {
        // prefixItems: its elements in one loop, as isNodes reads them.
        const end = elementsEnd(runs, k);
        checks.push(this.checkElements(runs.slice(k, end + 1) as ElementNode[]));
        k = end;
      } else if (!Array.isArray(run)) checks.push(this.checkNode(run));
      else {
        const closed = closedBy(runs[k + 1], run);
        checks.push(this.checkPropertyRun(run, closed, undefined));
        if (closed) k++;
      }
    }
    return checks;
  }

  /** `checks` behind `gate` in a template of the pool (gated), or undefined. */
  private gatedCheck(gate: Is, checks: readonly Check[]): Check | undefined {
    return gated(checks.length > 0 ? this.templates.checkGated() : undefined, gate, checks, every);
  }

  private checkNode(node: Node): Check {
    switch (node.kind) {
      case "assert": {
        // An object type test whose `then` is its properties: one closure does both (as isNodes gates its loops).
        const runs = gateOf(node) === "isObject" && node.then.length > 0 && !node.explain ? grouped(node.then) : [];
        const [run, next] = runs;
        const closed = Array.isArray(run) ? closedBy(next, run) : undefined;
        if (Array.isArray(run) && runs.length === (closed ? 2 : 1)) {
          const fail = this.assertFailure(node);
          return this.checkPropertyRun(run, closed, (v, path, issues) => report(fail, v, path, issues));
        }
        const valid = this.test(node.valid);
        const fail = this.assertFailure(node);
        const then = node.then.length > 0 ? this.checkNodes(node.then) : undefined;
        return (v, path, issues) => {
          if (!valid(v)) report(fail, v, path, issues);
          else if (then) then(v, path, issues);
        };
      }
      case "call": {
        const slot = this.checkSlot(node.definition);
        return slot.done ? slot.fn : (v, path, issues) => slot.fn(v, path, issues);
      }
      case "guard": {
        const run = node.type === "object" ? guardedRun(grouped(node.body)) : undefined;
        if (run) {
          this.share(node.body, false);
          return this.checkPropertyRun(run.properties, run.closed, NO_ISSUE);
        }
        const checks = this.checkList(node.body);
        const gated = this.gatedCheck(GATES[node.type], checks);
        if (gated) return gated;
        const body = every(checks);
        switch (node.type) {
          case "object":
            return (v, path, issues) => {
              if (isObject(v)) body(v, path, issues);
            };
          case "array":
            return (v, path, issues) => {
              if (Array.isArray(v)) body(v, path, issues);
            };
          case "string":
            return (v, path, issues) => {
              if (typeof v === "string") body(v, path, issues);
            };
          case "number":
            return (v, path, issues) => {
              if (typeof v === "number") body(v, path, issues);
            };
        }
      }
      case "property":
        return this.checkNodes([node]);
      case "entries": {
        const skip = this.keyFilter(node);
        const conditional = node.knownWhen !== undefined;
        const refuse = node.refuse ? this.failure(node.refuse) : undefined;
        const body = this.checkNodes(node.body);
        return (v, path, issues) => {
          const object = v as Record<string, unknown>;
          const held = conditional ? [] : NOTHING_HELD;
          for (const key in object) {
            if (skip(v, key, held)) continue;
            const at = `${path}/${pointerToken(key)}`;
            if (refuse) report(refuse, v, at, issues);
            else body(object[key], at, issues);
          }
        };
      }
      case "items": {
        const chains = this.chainsOf(node.body);
        const from = node.from ?? 0;
        const leaf = chains ? undefined : this.isLeaf(node.body);
        const template = leaf?.op === CALL ? this.templates.checkItems() : undefined;
        if (template) return template(from, leaf!.arg as Is, this.checkNodes(node.body));
        if (chains)
          return (v, path, issues) => {
            const array = v as unknown[];
            for (let i = from; i < array.length; i++) runChains(chains, array[i], path, i, issues);
          };
        // Each item tested first, checked only where it fails (partOf).
        const { op, arg, check } = this.partOf(node.body, leaf);
        return (v, path, issues) => {
          const array = v as unknown[];
          for (let i = from; i < array.length; i++) if (!runLeaf(op, arg, array[i])) check(array[i], `${path}/${i}`, issues);
        };
      }
      case "element":
        return this.checkElements([node]);
      case "when": {
        const condition = this.test(node.condition);
        const checks = this.checkList(node.body);
        const gated = this.gatedCheck(condition, checks);
        if (gated) return gated;
        const body = every(checks);
        return (v, path, issues) => {
          if (condition(v)) body(v, path, issues);
        };
      }
      case "each": {
        const refuse = node.refuse ? this.failure(node.refuse) : undefined;
        const body = this.checkNodes(node.body);
        // The items unevaluatedItems leaves, when they are those from one index on: a loop, no array of indexes.
        const from = node.keys.kind === "call" && node.keys.callee === "unevaluatedIndexes" ? this.unevaluatedFrom(node.keys.args.slice(1)) : undefined;
        if (from)
          return (v, path, issues) => {
            const array = v as unknown[];
            for (let index = from(v); index < array.length; index++) {
              const at = `${path}/${index}`;
              if (refuse) report(refuse, v, at, issues);
              else body(array[index], at, issues);
            }
          };
        const indexes = this.value(node.keys) as (v: unknown) => number[];
        return (v, path, issues) => {
          for (const index of indexes(v)) {
            const at = `${path}/${index}`;
            if (refuse) report(refuse, v, at, issues);
            else body((v as unknown[])[index], at, issues);
          }
        };
      }
      case "anyOf":
        return this.checkAnyOf(node);
    }
  }

  /** A run of properties, read as the boolean check reads it (byName), so that both see the same values; `refuse` and `nonObject` as for checkPropertyKeys. */
  private checkPropertyRun(nodes: readonly PropertyNode[], refuse: Failure | undefined, nonObject: Check | undefined): Check {
    const template = this.templateFor(nodes, () => this.templates.check());
    if (template) {
      const values = this.checkValues(nodes);
      const step: CheckStep<Sink> = (x, i, v, path, issues) => checkValue(values, i, x, v, path, issues);
      const refused = refuse ? this.failure(refuse) : undefined;
      // A sub-schema's value tested and checked from the copy (its part where that test is a call), else by step.
      const called = values.parts.map((part) => (part?.op === CALL ? part : undefined));
      return template(
        nonObject,
        refused && ((v, path, issues) => report(refused, v, path, issues)),
        nodes.length,
        nodes.map((node) => node.name),
        values.missing.map((fail) => fail !== undefined),
        values.ops.map((op) => op !== CALL),
        values.ops,
        values.args.map((arg, i) => called[i]?.arg ?? arg),
        called.map((part) => part?.check),
        values.tokens,
        step,
      );
    }
    return this.byName(nodes, refuse !== undefined) ? this.checkProperties(nodes, refuse, nonObject) : this.checkPropertyKeys(nodes, refuse, nonObject);
  }

  /**
   * A template for a run, decided at its first rendering (the boolean or the issue check) for
   * both: a run that got one is read by name in both, with a template or, where that pool is
   * spent, by the shared closures; a run that got none reads as byName says, in both.
   */
  private templateFor<T>(run: readonly PropertyNode[], take: () => T | undefined): T | undefined {
    if (!poolable(run) || this.templated.get(run[0]!) === false) return undefined;
    const template = take();
    if (!this.templated.has(run[0]!)) for (const node of run) this.templated.set(node, template !== undefined);
    return template;
  }

  /** Whether a run is read by name: byName's rule, or a template was given to it (templateFor). */
  private byName(run: readonly PropertyNode[], closed: boolean): boolean {
    return byName(run, closed) || run.every((node) => this.templated.get(node) === true);
  }

  /**
   * Consecutive property nodes (distinct names): their values gathered in one for-in over the
   * object's keys (as isPropertyKeys), then checked in the nodes' order, so the issues come in
   * the printed code's order; `refuse` (additionalProperties: false) refuses the other keys after.
   * `nonObject`: the check of a subject that is no object (an object type test's issue, or none
   * under a guard), undefined where the run does not test it.
   */
  private checkPropertyKeys(nodes: readonly PropertyNode[], refuse: Failure | undefined, nonObject: Check | undefined): Check {
    const indexOf = keyIndex(nodes);
    const values = this.checkValues(nodes);
    const refused = refuse ? this.failure(refuse) : undefined;
    const count = nodes.length;
    return (v, path, issues) => {
      if (nonObject && !isObject(v)) return nonObject(v, path, issues);
      const object = v as Record<string, unknown>;
      const found = new Array<unknown>(count);
      let others: string[] | undefined;
      let k = 0;
      for (const key in object) {
        const i = indexOf(key, k++);
        if (i !== undefined) found[i] = object[key];
        else if (refused) (others ??= []).push(key);
      }
      checkValues(values, v, found, path, issues);
      if (others) for (const key of others) report(refused!, v, `${path}/${pointerToken(key)}`, issues);
    };
  }

  /** What checkValues reads of each property: its path token, its issue when missing, and its checks (chains, else a part check). */
  private checkValues(nodes: readonly PropertyNode[]): Values {
    const chains = nodes.map((node) => this.chainsOf(node.body));
    // One chain of one test (a `type`, the most frequent): its op, argument and issue in arrays of their own, run inline.
    const single = chains.map((chain) => (chain?.length === 1 && chain[0]!.length === 1 ? chain[0]![0] : undefined));
    // Else the chains' boolean check where it is a leaf (a type and its bounds, an enum): a value without issues passes it.
    const leaves = nodes.map((node, i): Leaf => single[i] ?? (chains[i] ? bodyLeaf(node.body) : undefined) ?? { op: CALL, arg: undefined });
    const parts = nodes.map((node, i) => (chains[i] ? undefined : this.partOf(node.body)));
    return {
      tokens: nodes.map((node) => escapeToken(node.name)),
      missing: nodes.map((node) => (node.required ? this.failure(node.required) : undefined)),
      ops: leaves.map((leaf) => leaf.op),
      args: leaves.map((leaf) => leaf.arg),
      fails: single.map((link) => link?.fail),
      chains: chains.map((chain, i) => (single[i] ? undefined : chain)),
      parts,
    };
  }

  /**
   * The check of a part of the subject (a property's value, an item), for a loop to run inline: a
   * part that passes the leaf (op, arg) has no issue, and its path is never made; one that fails
   * it is checked at its path.
   */
  private partOf(nodes: readonly Node[], leaf?: Leaf): Part {
    // An array whose items its check tests each before checking it (the items node): testing the array first would test them twice.
    if (itemsOnly(nodes)) return { op: CALL, arg: FALSE, check: this.checkNodes(nodes) };
    const { op, arg } = leaf ?? this.isLeaf(nodes);
    return { op, arg, check: this.checkNodes(nodes) };
  }

  /** Consecutive element nodes (prefixItems) in one loop, each tested first, as a property's value (partOf): an element that passes has no issue, and no path made. */
  private checkElements(nodes: readonly ElementNode[]): Check {
    const indexes = nodes.map((node) => node.index);
    const parts = nodes.map((node) => this.partOf(node.body));
    const ops = parts.map((part) => part.op);
    const args = parts.map((part) => part.arg);
    const checks = parts.map((part) => part.check);
    return (v, path, issues) => {
      const array = v as unknown[];
      for (let k = 0; k < indexes.length; k++) {
        const index = indexes[k]!;
        if (array.length > index && !runLeaf(ops[k]!, args[k], array[index])) checks[k]!(array[index], `${path}/${index}`, issues);
      }
    };
  }

  /** Consecutive property nodes in one loop over their names (a name may come twice: allOf); a property's path is made only when it has an issue, where its checks are chains. `refuse` and `nonObject` as for checkPropertyKeys. */
  private checkProperties(nodes: readonly PropertyNode[], refuse: Failure | undefined, nonObject: Check | undefined): Check {
    const { names, own, count } = table(nodes);
    const values = this.checkValues(nodes);
    const refused = refuse ? this.failure(refuse) : undefined;
    const known = refused && new Set(names);
    return (v, path, issues) => {
      if (nonObject && !isObject(v)) return nonObject(v, path, issues);
      const object = v as Record<string, unknown>;
      const found = new Array<unknown>(count);
      for (let i = 0; i < count; i++) found[i] = own[i] ? ownProperty(object, names[i]!) : object[names[i]!];
      checkValues(values, v, found, path, issues);
      if (refused) for (const key in object) if (!known!.has(key)) report(refused, v, `${path}/${pointerToken(key)}`, issues);
    };
  }

  /**
   * `nodes` as chains of leaf tests when each node is an assert whose `then` is at most one such
   * assert (a `type`, then its `enum`): each chain stops at its first failure, as `then` runs
   * only on a passed test.
   */
  private chainsOf(nodes: readonly Node[]): Link[][] | undefined {
    // The shape first: a test compiled and then dropped would keep the templates it took.
    const links = (node: Node): Assert[] | undefined => {
      const chain: Assert[] = [];
      for (let n: Node | undefined = node; n !== undefined; n = (n as Assert).then[0]) {
        if (n.kind !== "assert" || n.then.length > 1) return undefined;
        chain.push(n);
      }
      return chain;
    };
    const asserts = nodes.map(links);
    if (asserts.some((chain) => chain === undefined)) return undefined;
    return asserts.map((chain) =>
      chain!.map((n) => {
        const { op, arg } = leafOf(n.valid, (e) => this.test(e));
        return { op, arg, fail: this.assertFailure(n) };
      }),
    );
  }

  /** An assert's issue, after the issues of the branches it explains itself by (oneOf). */
  private assertFailure(node: Assert): Report {
    const explain = (node.explain ?? []).map((branch) => this.branchCheck(branch));
    return this.failure(node, explain.length > 0 ? explain : undefined);
  }

  private checkAnyOf(node: AnyOfNode): Check {
    const passes = any(node.branches.map((branch) => this.branchIs(branch.body)));
    const fail = this.failure(node);
    const { discriminator } = node;
    if (!discriminator) {
      return (v, path, issues) => {
        if (!passes(v)) report(fail, v, path, issues);
      };
    }
    const read = reader(discriminator.property);
    const cases = new Map<unknown, Check>(discriminator.cases.map(({ value, branch }) => [value, this.branchCheck(branch)]));
    return (v, path, issues) => {
      if (passes(v)) return;
      const branch = cases.get(isObject(v) ? read(v) : undefined);
      if (branch) branch(v, path, issues);
      else report(fail, v, path, issues);
    };
  }

  private branchCheck(branch: Branch): Check {
    return this.checkNodes(branch.body);
  }

  /**
   * The failure's issue as data for report(): its message a text, or a text and what the value
   * adds ("must be string, found " + kindOf(v), the most frequent), or computed whole.
   */
  private failure(failure: Failure, explain?: Check[]): Report {
    const { schemaPath, keyword, message } = failure;
    if (message.kind === "literal") return { schemaPath, keyword, text: String(message.value), colonText: ": " + String(message.value), describe: undefined, explain };
    const [first, second] = message.kind === "concat" ? message.parts : [];
    if (message.kind === "concat" && message.parts.length === 2 && first!.kind === "literal")
      return { schemaPath, keyword, text: String(first!.value), colonText: ": " + String(first!.value), describe: this.value(second!), explain };
    return { schemaPath, keyword, text: "", colonText: ": ", describe: this.value(message), explain };
  }

  /**
   * Whether an entries node passes over a key of a subject: one `matching` does not match, one of
   * the `known` names or that one of `patterns` matches, or one a condition knows (knownWhen): its
   * name tests first, then the condition, tested once per call of the node's check (`held`).
   */
  private keyFilter(node: EntriesNode): KeyFilter {
    const known = this.knownFilter(node);
    if (node.knownWhen === undefined) return (_, key) => known(key);
    // Known names only (no patterns, no `matching`): a Set lookup here, not a call.
    const names = node.matching === undefined && (node.patterns ?? []).length === 0 ? new Set(node.known) : undefined;
    const conditions = node.knownWhen;
    const holds = conditions.map(({ when }) => this.test(when));
    // The conditions a key's name is among, by name: one lookup per key, not one per condition.
    const byName = new Map<string, number[]>();
    conditions.forEach(({ known: named }, k) => {
      for (const name of named) byName.set(name, [...(byName.get(name) ?? []), k]);
    });
    // The others: for every name (`all`), or for those a pattern matches.
    const general = conditions.flatMap(({ all, patterns }, k) => (all || patterns.length > 0 ? [k] : []));
    const all = conditions.map((condition) => condition.all);
    const regexps = conditions.map(({ patterns }) => patterns.map((name) => this.lowering.patternOf(name)));
    return (v, key, held) => {
      if (names ? names.has(key) : known(key)) return true;
      const named = byName.get(key);
      if (named !== undefined)
        for (let j = 0; j < named.length; j++) {
          const k = named[j]!;
          if ((held[k] ??= holds[k]!(v))) return true;
        }
      for (let j = 0; j < general.length; j++) {
        const k = general[j]!;
        if ((all[k] || anyMatches(regexps[k]!, key)) && (held[k] ??= holds[k]!(v))) return true;
      }
      return false;
    };
  }

  /** The names an entries node passes over whatever the subject: those `matching` does not match, and those `known` names or one of `patterns` matches. */
  private knownFilter(node: EntriesNode): (key: string) => boolean {
    const names = new Set(node.known);
    const regexps = (node.patterns ?? []).map((name) => this.lowering.patternOf(name));
    const known =
      regexps.length === 0
        ? (key: string) => names.has(key)
        : (key: string) => names.has(key) || anyMatches(regexps, key);
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
        if (e.left.kind === "typeof" && e.left.operand.kind === "subject" && e.right.kind === "literal" && e.op === "===") return TYPE_IS.get(e.right.value) ?? compare(e.op, this.value(e.left), this.value(e.right), e.right.value, false);
        return compare(e.op, this.value(e.left), this.value(e.right), e.right.kind === "literal" ? e.right.value : NOT_LITERAL, e.left.kind === "subject");
      case "and":
        return all(e.operands.map((x) => this.test(x)));
      case "or": {
        const constants = oneOf(e);
        if (constants) {
          const set = new Set(constants);
          return (v) => set.has(v);
        }
        return any(e.operands.map((x) => this.test(x)));
      }
      case "not": {
        const operand = this.test(e.operand);
        return (v) => !operand(v);
      }
      case "matches":
        return this.branchIs(e.branch.body);
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
        const [first, second] = e.parts;
        // A text and the value's kind ("must be string, found " + kindOf(v)), the most frequent message.
        if (e.parts.length === 2 && first!.kind === "literal") {
          const prefix = String(first!.value);
          const rest = this.value(second!);
          return (v) => prefix + String(rest(v));
        }
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
    const unevaluated = this.unevaluatedItems(callee, args);
    if (unevaluated) return unevaluated;
    const f = this.callee(callee);
    // The common shapes without a closure per argument: f(subject), f(subject, constants...).
    if (args.length === 1 && args[0]!.kind === "subject") return f;
    // Told by kind before anything is compiled: a sub-schema's test is compiled once (it takes templates of the pool).
    if (args[0]!.kind === "subject" && args.slice(1).every(constantKind)) {
      const constants = args.slice(1).map((a) => this.constantOf(a));
      // f(subject, a constant), the most frequent (hasMaxLength(v, 140)): no arguments array, and
      // for the frequent callees a closure of their own, whose call V8 inlines (SUBJECT_AND_CONSTANT).
      if (constants.length === 1) {
        const constant = constants[0];
        return SUBJECT_AND_CONSTANT.get(callee)?.(constant) ?? ((v) => f(v, constant));
      }
      // Two (countOf's test and bound: contains): no arguments array either.
      if (constants.length === 2) {
        const [first, second] = constants;
        return (v) => f(v, first, second);
      }
      // One arguments array per call site, its first slot the subject: apply copies it into the callee's frame, so a re-entrant call cannot disturb it.
      const list = [undefined, ...constants];
      return (v) => {
        list[0] = v;
        return f.apply(undefined, list);
      };
    }
    if (args.length === 1) {
      const a = this.value(args[0]!);
      return (v) => f(a(v));
    }
    // The constants placed once (everyUnevaluatedItem's counts and tests), the subject and the
    // others each call; an arguments array per call, as an argument may re-enter this call (recursion).
    const fixed = args.map((a) => (constantKind(a) ? this.constantOf(a) : undefined));
    const at = args.flatMap((a, k) => (constantKind(a) || a.kind === "subject" ? [] : [k]));
    const values = at.map((k) => this.value(args[k]!));
    const subjects = args.flatMap((a, k) => (a.kind === "subject" ? [k] : []));
    return (v) => {
      const list = fixed.slice();
      for (let k = 0; k < subjects.length; k++) list[subjects[k]!] = v;
      for (let k = 0; k < at.length; k++) list[at[k]!] = values[k]!(v);
      return f.apply(undefined, list);
    };
  }

  /**
   * everyUnevaluatedItem and unevaluatedIndexes where no evaluation has a `contains` test: by
   * validation.ts's itemEvaluated, an item is evaluated when an applying evaluation covers it
   * among its leading items, so the items left start past the largest count that applies: one
   * loop from there (closures.test.ts holds it to code mode, which calls those functions), with no arguments array per call (the rest parameter and apply: under
   * anyOf, 48 ns a check, 30 ns without them; code mode 9 ns). A condition that could cover no
   * more than those before it is not tested: conditions are checks of the subject, with no
   * effect on JSON values.
   */
  private unevaluatedItems(callee: string, args: readonly Expr[]): Value | undefined {
    const every = callee === "everyUnevaluatedItem";
    if (!every && callee !== "unevaluatedIndexes") return undefined;
    const from = this.unevaluatedFrom(args.slice(every ? 2 : 1));
    if (!from) return this.unevaluatedCovered(every, args);
    const test = every ? (this.constantOf(args[1]!) as Is) : undefined;
    if (test)
      return (v) => {
        const values = v as unknown[];
        for (let i = from(v); i < values.length; i++) if (!test(values[i])) return false;
        return true;
      };
    return (v) => {
      const values = v as unknown[];
      const left: number[] = [];
      for (let i = from(v); i < values.length; i++) left.push(i);
      return left;
    };
  }

  /**
   * The same where an evaluation has a `contains` test (it evaluates each item it matches, wherever
   * it is): each item is tested against the evaluations that apply, as validation.ts's
   * itemEvaluated does, their conditions tested once per call, with no arguments array and no
   * rest parameter per call (the generic call's: a tenth of the suite's unevaluatedItems file).
   */
  private unevaluatedCovered(every: boolean, args: readonly Expr[]): Value | undefined {
    const triples = args.slice(every ? 2 : 1);
    const at = (k: number) => triples.filter((_, i) => i % 3 === k);
    if (!at(1).every(constantKind) || !at(2).every(constantKind)) return undefined;
    const conditions = at(0).map((e) => this.test(e));
    const counts = at(1).map((e) => this.constantOf(e) as number);
    const contains = at(2).map((e) => this.constantOf(e) as Is | null);
    const n = conditions.length;
    const applying = (v: unknown): boolean[] => {
      const applies = new Array<boolean>(n);
      for (let k = 0; k < n; k++) applies[k] = conditions[k]!(v);
      return applies;
    };
    const covered = (values: readonly unknown[], i: number, applies: readonly boolean[]): boolean => {
      for (let k = 0; k < n; k++) if (applies[k] && (i < counts[k]! || (contains[k] !== null && contains[k]!(values[i])))) return true;
      return false;
    };
    const test = every ? (this.constantOf(args[1]!) as Is) : undefined;
    if (test)
      return (v) => {
        const values = v as unknown[];
        const applies = applying(v);
        for (let i = 0; i < values.length; i++) if (!covered(values, i, applies) && !test(values[i])) return false;
        return true;
      };
    return (v) => {
      const values = v as unknown[];
      const applies = applying(v);
      const left: number[] = [];
      for (let i = 0; i < values.length; i++) if (!covered(values, i, applies)) left.push(i);
      return left;
    };
  }

  /**
   * The first index unevaluatedItems leaves, of (condition, count, contains) triples where no
   * evaluation has a `contains` test (unevaluatedItems above); undefined where one has.
   */
  private unevaluatedFrom(triples: readonly Expr[]): ((v: unknown) => number) | undefined {
    const at = (k: number) => triples.filter((_, i) => i % 3 === k);
    if (at(2).some((e) => e.kind !== "literal" || e.value !== null) || !at(1).every(constantKind)) return undefined;
    // An evaluation whose condition is `true` (the node's own prefixItems, an allOf's) covers its count on every value: the loop starts there.
    const always = at(0).map((e) => e.kind === "literal" && e.value === true);
    const base = Math.max(0, ...at(1).filter((_, k) => always[k]).map((e) => this.constantOf(e) as number));
    const counts = at(1).filter((_, k) => !always[k]).map((e) => this.constantOf(e) as number);
    const whens = at(0).filter((_, k) => !always[k]).map((e) => this.test(e));
    return (v) => {
      let covered = base;
      for (let k = 0; k < whens.length; k++) if (counts[k]! > covered && whens[k]!(v)) covered = counts[k]!;
      return covered;
    };
  }

  /** The function a call names: a pattern's `test`, a support function or a built-in. */
  private callee(callee: string): (...a: unknown[]) => unknown {
    const method = /^(\w+)\.test$/.exec(callee);
    if (method) {
      const regexp = this.lowering.patternOf(method[1]!);
      return (v) => regexp.test(v as string);
    }
    const fn = (SUPPORT_FUNCTIONS as Record<string, unknown>)[callee] ?? BUILTINS[callee];
    if (typeof fn !== "function") throw new Error(`the check IR calls ${callee}, which the closures do not know`);
    return fn as (...a: unknown[]) => unknown;
  }

  /** The value of an expression of a constantKind: a literal, a constant, a sub-schema's test. */
  private constantOf(e: Expr): unknown {
    if (e.kind === "literal") return e.value;
    if (e.kind === "name") return this.named(e.name);
    return this.isNodes((e as Extract<Expr, { kind: "test" }>).branch.body);
  }

  /** A module-level name of the printed source: a RegExp, a JSON constant, or a global. */
  private named(name: string): unknown {
    if (name === "Infinity") return Infinity;
    return this.lowering.valueOf(name);
  }
}

const NOT_LITERAL = Symbol("not a literal");
/** An expression that does not depend on the subject. */
function constantKind(e: Expr): boolean {
  return e.kind === "literal" || e.kind === "name" || e.kind === "test";
}

/** `typeof v === t` for each t, so that a type test is one closure, not a compare over a typeof. */
const TYPE_IS: ReadonlyMap<unknown, Is> = new Map<unknown, Is>([
  ["string", (v) => typeof v === "string"],
  ["number", (v) => typeof v === "number"],
  ["boolean", (v) => typeof v === "boolean"],
  ["object", (v) => typeof v === "object"],
]);

const FALSE: Is = () => false;

/** A leaf test with the issue it pushes when it fails. */
interface Link extends Leaf {
  readonly fail: Report;
}

/**
 * An issue to push: data read by report(), one function, not a closure per failure (a call of
 * one closure among many is one V8 cannot inline; report's is).
 */
interface Report {
  readonly schemaPath: string;
  readonly keyword: string;
  /** The message, or its beginning when `describe` adds the rest from the value. */
  readonly text: string;
  readonly colonText: string;
  readonly describe: Value | undefined;
  /** Checks whose issues come first (the branches of a oneOf). */
  readonly explain: readonly Check[] | undefined;
}

/** Stores at the end rather than calling push: V8 left that push a call of the builtin (a tenth of an issue check). */
function report(failure: Report, v: unknown, path: string, issues: Sink): void {
  const { explain, describe } = failure;
  if (explain !== undefined) for (let k = 0; k < explain.length; k++) explain[k]!(v, path, issues);
  if (issues instanceof Joined) {
    issues.text = joinIssue(issues.text, path, describe === undefined ? failure.colonText : failure.colonText + String(describe(v)));
    return;
  }
  const message = describe === undefined ? failure.text : failure.text + String(describe(v));
  issues[issues.length] = { path, schemaPath: failure.schemaPath, keyword: failure.keyword, message };
}

/** A part of the subject (partOf): a leaf (op, arg) that a part without issues passes, and its issue check. */
type Part = Leaf & { check: Check };

/** What checkValues reads of a run of properties, each at its index. */
interface Values {
  readonly tokens: readonly string[];
  readonly missing: readonly (Report | undefined)[];
  /** A property's boolean check as a leaf, where it is one (no CALL): its one test, or a type and its bounds; `fails`, the issue of one test. */
  readonly ops: readonly Leaf["op"][];
  readonly args: readonly unknown[];
  readonly fails: readonly (Report | undefined)[];
  /** Else its chains, else its part (partOf). */
  readonly chains: readonly (Link[][] | undefined)[];
  readonly parts: readonly (Part | undefined)[];
}

/**
 * The nodes are an items node whose items are one check of a part each (partOf: tested, then
 * checked only where they fail), maybe behind the array type test.
 */
function itemsOnly(nodes: readonly Node[]): boolean {
  if (nodes.length !== 1) return false;
  const node = nodes[0]!;
  if (node.kind === "assert") return !node.explain && gateOf(node) === "Array.isArray" && node.then.length === 1 && itemsOnly(node.then);
  return node.kind === "items" && node.body.length > 0;
}

/**
 * The boolean check of a body of asserts as one leaf, where it is one without a closure: one
 * test (a `type`, an `enum` whose type test it implies) or a type and its bounds (boundedLeaf).
 * Compiles nothing.
 */
function bodyLeaf(nodes: readonly Node[]): Leaf | undefined {
  const flat = sequence(nodes);
  if (!flat.every((node) => node.kind === "assert")) return undefined;
  if (flat.length !== 1) return boundedLeaf(flat.map((node) => (node as Assert).valid));
  const leaf = leafOf((flat[0] as Assert).valid, () => FALSE);
  return leaf.op === CALL ? undefined : leaf;
}

/** Checks the properties' values (undefined: absent), the path of each made only when it has an issue, where its checks are chains. */
function checkValues(values: Values, v: unknown, found: readonly unknown[], path: string, issues: Sink): void {
  for (let i = 0; i < found.length; i++) checkValue(values, i, found[i], v, path, issues);
}

/** The issues of the `i`th property, of `value` (undefined: absent), in the subject `v` at `path`. */
function checkValue(values: Values, i: number, value: unknown, v: unknown, path: string, issues: Sink): void {
  if (value === undefined) {
    const fail = values.missing[i];
    if (fail) report(fail, v, path, issues);
    return;
  }
  const fail = values.fails[i];
  if (fail !== undefined) {
    if (!runLeaf(values.ops[i]!, values.args[i], value)) report(fail, value, `${path}/${values.tokens[i]}`, issues);
    return;
  }
  const chain = values.chains[i];
  if (chain) runChains(chain, value, path, values.tokens[i]!, issues);
  else {
    const { op, arg, check } = values.parts[i]!;
    if (!runLeaf(op, arg, value)) check(value, `${path}/${values.tokens[i]}`, issues);
  }
}

/** Runs each chain on `value` until a link fails; the failure's path, `${path}/${token}`, is made only then. */
function runChains(chains: readonly (readonly Link[])[], value: unknown, path: string, token: string | number, issues: Sink): void {
  for (let c = 0; c < chains.length; c++) {
    const chain = chains[c]!;
    for (let k = 0; k < chain.length; k++) {
      const link = chain[k]!;
      if (!runLeaf(link.op, link.arg, value)) {
        report(link.fail, value, `${path}/${token}`, issues);
        break;
      }
    }
  }
}

/** Places of a for-in whose last key is remembered (a key no name is as long as is not: what is kept is bounded by the schema). */
const REMEMBERED_KEYS = 64;

/**
 * The index among `nodes` of a property name (undefined: none of them), given its place `k` in
 * the object's for-in: the answer for the key last found at that place (objects of one shape list
 * the same key strings in the same order), else the names of the key's length compared until one
 * is the key. Key strings of JSON objects are interned, so a compare is mostly an identity check;
 * a Map lookup hashes the key, and was two fifths of a small object's check.
 */
function keyIndex(nodes: readonly PropertyNode[]): (key: string, k: number) => number | undefined {
  const names = nodes.map((node) => node.name);
  const byLength: number[][] = [];
  names.forEach((name, i) => (byLength[name.length] ??= []).push(i));
  const keys: string[] = [];
  const indexes: (number | undefined)[] = [];
  const lookup = (key: string) => {
    const candidates = byLength[key.length];
    if (candidates === undefined) return undefined;
    for (let c = 0; c < candidates.length; c++) if (names[candidates[c]!] === key) return candidates[c];
    return undefined;
  };
  return (key, k) => {
    if (keys[k] === key) return indexes[k];
    const i = lookup(key);
    if (k < REMEMBERED_KEYS && key.length < byLength.length) {
      keys[k] = key;
      indexes[k] = i;
    }
    return i;
  };
}

/** The nodes with each run of consecutive property nodes gathered in an array (one closure reads them all). */
function grouped(nodes: readonly Node[]): (Node | PropertyNode[])[] {
  const out: (Node | PropertyNode[])[] = [];
  for (const node of nodes) {
    const last = out[out.length - 1];
    if (node.kind !== "property") out.push(node);
    else if (Array.isArray(last)) last.push(node);
    else out.push([node]);
  }
  return out;
}

/** The index of the last of the element nodes from `runs[k]` on (prefixItems: consecutive, in index order). */
function elementsEnd(runs: readonly (Node | PropertyNode[])[], k: number): number {
  let end = k;
  while (end + 1 < runs.length && !Array.isArray(runs[end + 1]) && (runs[end + 1] as Node).kind === "element") end++;
  return end;
}

/** No issue: the check of a subject a guard passes over. */
const NO_ISSUE: Check = () => {};

/** A guard's body (grouped: as the check reads it, or its sequence, as the boolean check does) when it is one run of properties, and the additionalProperties: false that closes it, if any. */
function guardedRun(runs: readonly (Node | PropertyNode[])[]): { properties: PropertyNode[]; closed: Failure | undefined } | undefined {
  const [run, next] = runs;
  if (!Array.isArray(run)) return undefined;
  const closed = closedBy(next, run);
  return runs.length === (closed ? 2 : 1) ? { properties: run, closed } : undefined;
}

/** Property names as a loop reads them: `own` where Object.prototype has the name (expr.ts `access`). */
function table(nodes: readonly PropertyNode[]): { names: string[]; own: boolean[]; count: number } {
  const names = nodes.map((node) => node.name);
  return { names, own: names.map((name) => name in Object.prototype), count: names.length };
}

/** The support function or built-in an assert's test is, when it is a call of one on the subject (a `type` of object or array). */
function gateOf(run: Node | PropertyNode[]): string | undefined {
  if (Array.isArray(run) || run.kind !== "assert" || run.valid.kind !== "call") return undefined;
  const { callee, args } = run.valid;
  return args.length === 1 && args[0]!.kind === "subject" ? callee : undefined;
}

/** Where a renderer gets a run's templates: undefined when there is none for it. */
export interface Templates {
  is(): Template | undefined;
  check(): CheckTemplate | undefined;
  items(): ItemsTemplate | undefined;
  checkItems(): CheckItemsTemplate | undefined;
  gated(): GatedTemplate | undefined;
  checkGated(): CheckGatedTemplate | undefined;
  entry(): EntryTemplate | undefined;
}

/**
 * The pool's templates, each handed out once, to one run for good, so that its feedback stays
 * that run's: until the pool is spent (a server registers its tools once; 96 runs are some
 * hundred tools), then the shared closures.
 */
const POOL_TEMPLATES: Templates = (() => {
  const taken = { is: 0, check: 0, items: 0, checkItems: 0, gated: 0, checkGated: 0, entry: 0 };
  const next = <T>(pool: readonly T[], which: keyof typeof taken): T | undefined => (taken[which] < pool.length ? pool[taken[which]++] : undefined);
  return {
    is: () => next(POOL, "is"),
    check: () => next(CHECK_POOL, "check"),
    items: () => next(ITEMS_POOL, "items"),
    checkItems: () => next(CHECK_ITEMS_POOL, "checkItems"),
    gated: () => next(GATED_POOL, "gated"),
    checkGated: () => next(CHECK_GATED_POOL, "checkGated"),
    entry: () => next(ENTRY_POOL, "entry"),
  };
})();

/** A run a template reads: at most WIDTH distinct names, none of Object.prototype's (those are read as own properties). */
function poolable(nodes: readonly PropertyNode[]): boolean {
  return nodes.length <= WIDTH && unique(nodes) && nodes.every((node) => !(node.name in Object.prototype));
}

/** The property nodes name distinct properties. */
function unique(nodes: readonly PropertyNode[]): boolean {
  return new Set(nodes.map((node) => node.name)).size === nodes.length;
}

/**
 * Whether a run of properties is read by name rather than by a for-in over the object's keys:
 * where a name comes twice (allOf), or where nothing refuses other keys and at most one read can
 * miss (a miss walks the prototype chain; measured up to 1.3x faster than the for-in, whose cost
 * is a step per key the object has); a run given a template is read by name too (templateFor).
 * The boolean and the issue check decide alike, so they read the same values, whatever the
 * object (a getter, a property not enumerable).
 */
function byName(nodes: readonly PropertyNode[], closed: boolean): boolean {
  return !unique(nodes) || (!closed && nodes.filter((node) => node.required === undefined).length <= 1);
}

/** The failure of the entries node after `properties`, when it refuses every key but theirs. */
function closedBy(next: Node | PropertyNode[] | undefined, properties: readonly PropertyNode[]): Failure | undefined {
  return unique(properties) && next !== undefined && !Array.isArray(next) && next.kind === "entries" && closes(next, properties) ? next.refuse : undefined;
}

/** The entries node refuses every key but the properties' names (additionalProperties: false beside properties). */
function closes(node: EntriesNode, properties: readonly PropertyNode[]): boolean {
  const known = plainKnown(node);
  return node.refuse !== undefined && known !== undefined && known.size === properties.length && properties.every((p) => known.has(p.name));
}

/** The names an entries node passes over, when they are all it passes over (no patterns, no conditions). */
function plainKnown(node: EntriesNode): Set<string> | undefined {
  return node.matching === undefined && (node.patterns ?? []).length === 0 && node.knownWhen === undefined ? new Set(node.known) : undefined;
}

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
  if (name in Object.prototype) return (v) => ownProperty(v as Record<string, unknown>, name);
  return (v) => (v as Record<string, unknown>)[name];
}

/**
 * `parts` behind `gate` (a guard's type test, a `when`'s condition), which passes a subject it
 * refuses, in `template`: its calls of the gate and the parts are its own, which V8 may inline,
 * where a shared closure's calls reach every schema's. It takes four parts: past four, the fourth
 * is the rest, joined. Undefined where the pool is spent.
 */
function gated<F>(template: ((g: Is, a: F, b: F | undefined, c: F | undefined, d: F | undefined) => F) | undefined, gate: Is, parts: readonly F[], join: (parts: readonly F[]) => F): F | undefined {
  if (!template) return undefined;
  const [a, b, c] = parts;
  return template(gate, a!, b, c, parts.length > 4 ? join(parts.slice(3)) : parts[3]);
}

/** A guard's type test, as a gate (gatedIs). */
const GATES: Readonly<Record<Guard["type"], Is>> = {
  object: isObject,
  array: Array.isArray,
  string: (v) => typeof v === "string",
  number: (v) => typeof v === "number",
};

/** The issue checks in order, in the shared closures. */
function every(checks: readonly Check[]): Check {
  if (checks.length === 1) return checks[0]!;
  if (checks.length === 2) {
    const [a, b] = checks as [Check, Check];
    return (v, path, issues) => {
      a(v, path, issues);
      b(v, path, issues);
    };
  }
  return (v, path, issues) => {
    for (let k = 0; k < checks.length; k++) checks[k]!(v, path, issues);
  };
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
