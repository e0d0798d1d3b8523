import type { Writer } from "./writer.js";
import { access, concat, isFalse, literal, matches, not, or, print, typeTest } from "../keywords/expr.js";
import type { AnyOfNode, Expr, Failure, Node } from "../keywords/ir.js";
import { expand, mayReport, printShared, readsSubject, referenceOf, SharedChecks } from "./inline.js";
import { bound, writeElement, writeEntries, writeItems } from "./loops.js";
import { PathExpr, Scope, type Helpers } from "./names.js";

/**
 * Prints check nodes as `checkX`: every failed check pushes an issue (value path, schemaPath,
 * keyword, message). With `describe`, as `describeX`, which appends each issue to the string `out`
 * as the runtime's describeIssues would join them (runtime/shared/json-schema.ts): no issue
 * objects, no array and no second pass for a tool's invalid arguments.
 */
export class CheckRenderer {
  /** What the printed functions' names start with, and the issues' accumulator. */
  readonly prefix: "check" | "describe";
  private readonly into: "issues" | "out";

  /** `typed`: TypeScript (a generated file), else JavaScript (source the runtime compiles). */
  constructor(
    private readonly w: Writer,
    private readonly helpers: Helpers,
    private readonly typed = true,
    private readonly describe = false,
  ) {
    this.prefix = describe ? "describe" : "check";
    this.into = describe ? "out" : "issues";
  }

  function(name: string, nodes: readonly Node[], exported: boolean): void {
    // Parameters the checks do not read are named `_value`, `_path`: noUnusedParameters accepts them.
    const value = readsSubject(nodes, true) ? "value" : "_value";
    const path = mayReport(nodes) ? "path" : "_path";
    const [type, empty] = this.describe ? ["string", '""'] : ["ValidationIssue[]", "[]"];
    const signature = !this.typed
      ? `(${value}, ${path}, ${this.into})`
      : exported
        ? `(${value}: unknown, ${path} = "", ${this.into}: ${type} = ${empty}): ${type}`
        : `(${value}: unknown, ${path}: string, ${this.into}: ${type}): ${type}`;
    this.w.write(`${exported ? "export " : ""}function ${name}${signature}`).block(() => {
      const scope = new Scope();
      this.shared = new SharedChecks(nodes, this.helpers, scope, false);
      const { declared } = this.shared;
      if (declared.length > 0) this.w.writeLine(`let ${declared.join(", ")};`);
      this.statements(nodes, value, new PathExpr(), scope);
      this.shared = undefined;
      this.w.writeLine(`return ${this.into};`);
    });
  }

  /** The checks of the function being printed that its statements share. */
  private shared: SharedChecks | undefined;

  /** Statements that push an issue for every node `v` fails. */
  private statements(nodes: readonly Node[], v: string, path: PathExpr, scope: Scope): void {
    const { w } = this;
    for (const node of nodes) {
      switch (node.kind) {
        case "assert": {
          const report = () => {
            for (const branch of node.explain ?? []) this.call(referenceOf(branch) ?? this.helpers.checkName(branch), v, path);
            this.push(path, node, v);
          };
          // A test that always fails (a `false` schema) reports, with no `if (true)`, and what it gates never runs; one that
          // always passes reports nothing, and what it gates always runs (no `if (false)`: code that never runs).
          if (isFalse(node.valid)) {
            report();
            break;
          }
          const fails = this.expand(not(node.valid), v);
          if (isFalse(fails)) {
            this.statements(node.then, v, path, scope);
            break;
          }
          w.write(`if (${print(fails, v)}) `).inlineBlock(report);
          if (node.then.length > 0) w.write(" else ").inlineBlock(() => this.statements(node.then, v, path, scope));
          w.newLine();
          break;
        }
        case "call":
          this.call(node.definition, v, path);
          break;
        case "guard":
          w.write(`if (${this.print(typeTest([node.type]), v)})`).block(() => this.statements(node.body, v, path, scope));
          break;
        case "property": {
          const read = access(v, node.name);
          const nested = (local: string) => () => this.statements(node.body, local, path.property(node.name), scope);
          if (node.body.length === 0) {
            w.write(`if (${read} === undefined)`).block(() => this.push(path, node.required!, v));
            break;
          }
          const local = scope.fresh(node.name);
          w.writeLine(`const ${local} = ${read};`);
          if (node.required) {
            w.write(`if (${local} === undefined) `).inlineBlock(() => this.push(path, node.required!, local));
            w.write(" else ").inlineBlock(nested(local));
            w.newLine();
          } else w.write(`if (${local} !== undefined)`).block(nested(local));
          break;
        }
        case "entries":
          writeEntries(
            w,
            node,
            v,
            scope,
            (key) => this.push(path.dynamic(`pointerToken(${key})`), node.refuse!, v),
            (key, entry) => this.statements(node.body, entry, path.dynamic(`pointerToken(${key})`), scope),
            (e) => this.expand(e, v),
            readsSubject(node.body, true),
            // The key is read for an issue's path: not where none can be reported.
            node.refuse !== undefined || mayReport(node.body),
          );
          break;
        case "items":
          writeItems(w, v, scope, readsSubject(node.body, true), (index, item) => this.statements(node.body, item, path.dynamic(index), scope), node.from);
          break;
        case "element":
          writeElement(w, v, node.index, scope, readsSubject(node.body, true), (item) => this.statements(node.body, item, path.property(String(node.index)), scope));
          break;
        case "when":
          w.write(`if (${this.print(node.condition, v)})`).block(() => this.statements(node.body, v, path, scope));
          break;
        case "each": {
          const index = scope.fresh("i");
          const at = path.dynamic(index);
          w.write(`for (const ${index} of ${printShared(this.expand(node.keys, v), w, scope, v)})`).block(() => {
            if (node.refuse) return this.push(at, node.refuse, v);
            this.statements(node.body, bound(w, scope, "item", `${v}[${index}]`, readsSubject(node.body, true)), at, scope);
          });
          break;
        }
        case "anyOf":
          this.anyOf(node, v, path);
          break;
      }
    }
  }

  private anyOf(node: AnyOfNode, v: string, path: PathExpr): void {
    const { w } = this;
    // The branches as sub-schema tests, named (hoisted) only where the union is printed as more than a constant; one
    // that always passes reports nothing.
    const fails = this.expand(not(or(node.branches.map(matches))), v);
    if (isFalse(fails)) return;
    w.write(`if (${print(fails, v)})`).block(() => {
      const { discriminator } = node;
      if (!discriminator) {
        this.push(path, node, v);
        return;
      }
      w.write(`switch (isObject(${v}) ? ${access(v, discriminator.property)} : undefined)`).block(() => {
        for (const { value, branch } of discriminator.cases) {
          w.writeLine(`case ${this.print(literal(value), v)}:`);
          w.indent(() => {
            this.call(referenceOf(branch) ?? this.helpers.checkName(branch), v, path);
            w.writeLine("break;");
          });
        }
        w.writeLine("default:");
        w.indent(() => this.push(path, node, v));
      });
    });
  }

  /** The issues of definition or helper `base` on `v`. */
  private call(base: string, v: string, path: PathExpr): void {
    const args = `${v}, ${path.render()}, ${this.into}`;
    this.w.writeLine(this.describe ? `out = describe${base}(${args});` : `check${base}(${args});`);
  }

  /** One issue: where in the value, which keyword of which schema node (`schemaPath`, as ajv's), and why. */
  private push(path: PathExpr, failure: Failure, v: string): void {
    const at = path.render();
    const q = JSON.stringify;
    if (this.describe) {
      // joinIssue (json-schema/issue.ts) printed inline, its ": " folded into the message's first literal: a call of
      // it made invalid values a fifth slower. code.test.ts holds the two equal on every datum of the suite.
      const { message } = failure;
      const parts = message.kind === "concat" ? message.parts : [message];
      const first = parts[0]!;
      const text = first.kind === "literal" && typeof first.value === "string" ? [literal(`: ${first.value}`), ...parts.slice(1)] : [literal(": "), ...parts];
      const where = at === "path" ? `(path === "" ? "(root)" : path)` : at;
      this.w.writeLine(`out += (out === "" ? "" : "; ") + ${where} + ${this.print(concat(...text), v)};`);
      return;
    }
    this.w.writeLine(`issues.push({ ${at === "path" ? "path" : `path: ${at}`}, schemaPath: ${q(failure.schemaPath)}, keyword: ${q(failure.keyword)}, message: ${this.print(failure.message, v)} });`);
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
