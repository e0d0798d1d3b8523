import type { Writer } from "./writer.js";
import { access, and, call, compare, isFalse, matches, name, not, or, print, SUBJECT, subjectCount, typeTest } from "../keywords/expr.js";
import type { Expr, Node, PropertyNode } from "../keywords/ir.js";
import { alwaysFails, constant, endsFailing, expand, expressionOf, printShared, readsSubject, rejectsUndefined, sequence, SharedChecks } from "./inline.js";
import { writeElement, writeEntries, writeItems } from "./loops.js";
import { Scope, type Helpers } from "./names.js";

/** Prints check nodes as `isX`: a type guard that returns false at the first failed check and allocates nothing. */
export class IsRenderer {
  /** `typed`: TypeScript (a generated file), else JavaScript (source the runtime compiles). */
  constructor(
    private readonly w: Writer,
    private readonly helpers: Helpers,
    private readonly typed = true,
  ) {}

  /** The checks of the function being printed that its statements share (none while one expression is printed). */
  private shared: SharedChecks | undefined;

  function(name: string, returns: string, nodes: readonly Node[], exported: boolean): void {
    const { w } = this;
    // A parameter the checks do not read is named `_value`: noUnusedParameters accepts it.
    const inline = expressionOf(nodes);
    const expanded = inline === undefined ? undefined : expand(inline, this.helpers);
    const value = (expanded === undefined ? readsSubject(nodes, false) : subjectCount(expanded) > 0) ? "value" : "_value";
    w.write(`${exported ? "export " : ""}function ${name}${this.typed ? `(${value}: unknown): ${returns}` : `(${value})`}`).block(() => {
      if (expanded !== undefined) {
        w.writeLine(`return ${print(expanded, value)};`);
        return;
      }
      const scope = new Scope();
      this.shared = new SharedChecks(nodes, this.helpers, scope, true);
      const { declared } = this.shared;
      if (declared.length > 0) w.writeLine(`let ${declared.join(", ")};`);
      this.statements(nodes, value, scope);
      this.shared = undefined;
      if (!endsFailing(sequence(nodes))) w.writeLine("return true;");
    });
  }

  /** Statements that `return false` when `v` fails a node. */
  private statements(nodes: readonly Node[], v: string, scope: Scope): void {
    const { w } = this;
    for (const node of sequence(nodes)) {
      switch (node.kind) {
        case "assert":
          // A test that always fails ends the sequence: no `if (true)`, after which TypeScript would narrow nothing; one
          // that always passes is not printed.
          if (isFalse(node.valid)) w.writeLine("return false;");
          else this.failWhere(node.valid, v);
          break;
        case "call":
          this.failWhere(call(`is${node.definition}`, SUBJECT), v);
          break;
        case "guard":
          w.write(`if (${this.print(typeTest([node.type]), v)})`).block(() => this.statements(node.body, v, scope));
          break;
        case "property":
          this.property(node, v, scope);
          break;
        case "entries":
          writeEntries(w, node, v, scope, () => w.writeLine("return false;"), (_key, entry) => this.nested(node.body, entry, scope), (e) => this.expand(e, v), readsSubject(node.body, false), false);
          break;
        case "items":
          writeItems(w, v, scope, readsSubject(node.body, false), (_index, item) => this.nested(node.body, item, scope), node.from);
          break;
        case "element":
          writeElement(w, v, node.index, scope, readsSubject(node.body, false), (item) => this.nested(node.body, item, scope));
          break;
        case "when":
          w.write(`if (${this.print(node.condition, v)})`).block(() => this.statements(node.body, v, scope));
          break;
        case "each": {
          w.writeLine(`if (${printShared(this.expand(not(node.valid), v), w, scope, v)}) return false;`);
          break;
        }
        case "anyOf":
          // The branches as sub-schema tests, named (hoisted) only where the union is printed as more than a constant.
          this.failWhere(or(node.branches.map(matches)), v);
          break;
      }
    }
  }

  /** The nodes of a value bound to `v`: one line when they are one expression. */
  private nested(nodes: readonly Node[], v: string, scope: Scope): void {
    const inline = expressionOf(nodes);
    if (inline === undefined) this.statements(nodes, v, scope);
    else this.failWhere(inline, v);
  }

  /** `return false` where `v` fails `test`; nothing where it never does (a test every value passes). */
  private failWhere(test: Expr, v: string): void {
    const fails = this.expand(not(test), v);
    if (!isFalse(fails)) this.w.writeLine(`if (${print(fails, v)}) return false;`);
  }

  private property(node: PropertyNode, v: string, scope: Scope): void {
    const { w } = this;
    const read = access(v, node.name);
    const required = node.required !== undefined;
    if (required && node.body.length === 0) {
      w.writeLine(`if (${read} === undefined) return false;`);
      return;
    }
    const inline = expressionOf(node.body);
    // A body every value passes (`{ "anyOf": [true, ...] }`) is not printed: only the presence test of a required one;
    // a required one no value passes fails the object, present or not (it ends the sequence: alwaysFails).
    if (alwaysFails(node)) {
      w.writeLine("return false;");
      return;
    }
    if (inline !== undefined && constant(inline) === true) {
      if (required) w.writeLine(`if (${read} === undefined) return false;`);
      return;
    }
    const failsOnUndefined = rejectsUndefined(node.body);
    // A test that fails on undefined by itself needs no presence check, and reads the property once.
    if (required && failsOnUndefined && inline !== undefined && subjectCount(inline) === 1) {
      w.writeLine(`if (${this.print(not(inline), read)}) return false;`);
      return;
    }
    const local = scope.fresh(node.name);
    w.writeLine(`const ${local} = ${read};`);
    if (required && !(inline !== undefined && failsOnUndefined)) w.writeLine(`if (${local} === undefined) return false;`);
    if (node.body.length === 0) return;
    // The presence test and the failing one as one expression: a disjunction is parenthesised after `&&`.
    if (inline !== undefined) w.writeLine(`if (${this.print(required ? not(inline) : and([compare(SUBJECT, "!==", name("undefined")), not(inline)]), local)}) return false;`);
    else if (required) this.statements(node.body, local, scope);
    else w.write(`if (${local} !== undefined)`).block(() => this.statements(node.body, local, scope));
  }

  /** Prints `e` for the subject `v`, sub-schema tests inlined or hoisted. */
  private print(e: Expr, v: string): string {
    return print(this.expand(e, v), v);
  }

  /** `e` with sub-schema tests inlined or hoisted, and the function's shared checks read through their locals. */
  private expand(e: Expr, v: string): Expr {
    const expanded = expand(e, this.helpers);
    return this.shared ? this.shared.apply(expanded, v) : expanded;
  }
}
