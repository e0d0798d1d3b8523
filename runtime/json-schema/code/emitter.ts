import { dialectOfSchema, type Located } from "../index.js";
import { applicators, array, evaluation, object, scalar, unevaluated, type Evaluation } from "./keywords.js";
import { booleanMode, issueMode, own, text, type Emit, type EmitContext, type Mode, type Node } from "./modes.js";

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Emits the two functions of every node reached from a root (modes.ts says which two). With
 * `deferIssues`, the boolean checks only, until `emitIssues`: most documents never meet an invalid
 * value, and compile faster without their issue checks.
 */
export class Emitter implements Emit {
  private readonly ids = new Map<unknown, number>();
  readonly functions: string[] = [];
  readonly externs: unknown[] = [];
  /** The nodes whose issue check is yet to emit. */
  private readonly pending: [Located, number][] = [];

  constructor(
    readonly context: EmitContext,
    private deferIssues = false,
  ) {}

  /** How many nodes have functions. */
  get size(): number {
    return this.ids.size;
  }

  /** The issue checks deferred so far, and those of the nodes they reach first. */
  emitIssues(): void {
    this.deferIssues = false;
    for (const [at, n] of this.pending.splice(0)) this.issueChecks(at, n);
  }

  private readonly named = new Map<unknown, string>();

  /** One name per value: f and g of a node share theirs. */
  extern(value: unknown): string {
    let name = this.named.get(value);
    if (name === undefined) this.named.set(value, (name = `x${this.externs.push(value) - 1}`));
    return name;
  }

  /** Emitted once per node, recursion included. */
  id(at: Located): number {
    const key = typeof at.schema === "object" && at.schema !== null ? at.schema : at;
    const known = this.ids.get(key);
    if (known !== undefined) return known;
    const n = this.ids.size;
    this.ids.set(key, n);
    const annotates = this.annotates(at);
    // Where what the node's keywords evaluate is known now, f and g check unevaluated* against it;
    // d, which tracks annotations at run time, serves callers that read the node's own.
    const fixed = annotates ? evaluation(this.context.index, at) : undefined;
    this.functions.push(`function f${n}(v) {\n${this.body(at, n, booleanMode(this), fixed)}return true;\n}`);
    if (this.deferIssues) this.pending.push([at, n]); // only where nothing is tracked: no `fixed`
    else this.issueChecks(at, n, fixed);
    return n;
  }

  /** g<n> (and d<n>, where `fixed`: see `id`). */
  private issueChecks(at: Located, n: number, fixed?: Evaluation): void {
    const annotates = this.annotates(at);
    const params = `v, p, i${this.context.tracking ? ", e" : ""}`;
    if (fixed) {
      const issues = this.body(at, n, issueMode(this, at.location, null), fixed);
      this.functions.push(`function g${n}(${params}) {\nif (e !== null) return d${n}(v, p, i, e);\nlet ok = true;\n${issues}return ok;\n}`);
    }
    const ev = annotates ? "u" : this.context.tracking ? "e" : null;
    const issues = this.body(at, n, issueMode(this, at.location, ev));
    this.functions.push(`function ${fixed ? "d" : "g"}${n}(${params}) {\nlet ok = true;\n${ev === "u" ? "let u = fresh();\n" : ""}${issues}return ok;\n}`);
  }

  child(parent: Located, schema: unknown, ...tokens: (string | number)[]): Located {
    return this.context.index.child(parent, schema, ...tokens);
  }

  /** A 2020-12 node with `unevaluated*`: they read the annotations of its other keywords (draft-07 has neither). */
  private annotates(at: Located): boolean {
    const s = at.schema;
    if (!isObject(s) || !this.context.tracking || (dialectOfSchema(s) ?? at.dialect) !== "2020-12") return false;
    return own(s, "unevaluatedProperties") || own(s, "unevaluatedItems");
  }

  private body(at: Located, n: number, mode: Mode, fixed?: Evaluation): string {
    const { schema } = at;
    if (schema === true) return "";
    if (!isObject(schema)) return `${mode.fail("false schema", text("boolean schema is false"), { schemaPath: at.location })}\n`;
    const s = schema;
    const dialect = dialectOfSchema(s) ?? at.dialect;
    const ref = typeof s.$ref === "string" ? `if (!${mode.inPlace(this.context.index.resolve(s.$ref, at.base)!)}) ${mode.failed}\n` : "";
    // draft-07 section 8.3: every other keyword beside $ref is ignored.
    if (ref && dialect === "draft-07") return ref;
    // Else the boolean check of a node with unevaluated* is its other function, filling annotations of its own.
    if (!mode.issues && !fixed && this.annotates(at)) return `return g${n}(v, "", null, null);\n`;
    const node: Node = { at, s, dialect, mode, emitter: this };
    return ref + scalar(node) + applicators(node) + object(node) + array(node) + (fixed || mode.ev === "u" ? unevaluated(node, fixed) : "");
  }
}
