import type { Schema } from "../model/schema.js";
import type { GuardType, Node } from "../keywords/ir.js";
import type { LowerContext } from "../keywords/keyword.js";
import { KEYWORDS } from "../keywords/registry.js";

/** Lowers schema nodes to check nodes, keyword by keyword in the registry's order (keywords/registry.ts). */
export class Lowering implements LowerContext {
  /** Regular expressions by source, each a module-level constant of the emitted file. */
  readonly patterns = new Map<string, string>();

  /** `fail` refuses a schema while lowering it (the loader's refusals come before). */
  constructor(
    private readonly definitions: (name: string) => Schema,
    readonly fail: (at: string, reason: string) => never = (at, reason) => {
      throw new Error(`${at}: ${reason}`);
    },
  ) {}

  definition(name: string): Schema {
    return this.definitions(name);
  }

  /** JSON values by their text, each a module-level constant of the emitted file. */
  readonly constants = new Map<string, { name: string; value: unknown }>();

  constant(value: unknown): string {
    const key = JSON.stringify(value);
    let entry = this.constants.get(key);
    if (entry === undefined) this.constants.set(key, (entry = { name: `VALUE_${this.constants.size}`, value }));
    return entry.name;
  }

  pattern(source: string): string {
    let name = this.patterns.get(source);
    if (name === undefined) this.patterns.set(source, (name = `PATTERN_${this.patterns.size}`));
    return name;
  }

  private readonly regexps = new Map<string, RegExp>();

  /** The RegExp a pattern constant names, for a renderer that runs the nodes rather than prints them. */
  patternOf(name: string): RegExp {
    let regexp = this.regexps.get(name);
    if (regexp === undefined) {
      const source = [...this.patterns].find(([, n]) => n === name)?.[0];
      if (source === undefined) throw new Error(`no pattern constant ${name}`);
      this.regexps.set(name, (regexp = new RegExp(source, "u")));
    }
    return regexp;
  }

  /** The value a module-level constant names (a JSON value, or a pattern's RegExp). */
  valueOf(name: string): unknown {
    for (const entry of this.constants.values()) if (entry.name === name) return entry.value;
    return this.patternOf(name);
  }

  /** Each schema node's check nodes, lowered once: the boolean and the issue renderers, and keywords that read a sub-schema twice, share them. */
  private readonly lowered = new WeakMap<Schema, Node[]>();

  /** The schema nodes being lowered, outermost first. */
  private readonly lowering = new Set<Schema>();

  lower(s: Schema): Node[] {
    let nodes = this.lowered.get(s);
    if (nodes !== undefined) return nodes;
    // Only unevaluated*'s conditions (keywords/evaluated.ts) lower a sub-schema not under the one being lowered: one that
    // contains it (through a property) would contain its own checks, without end (a stack overflow).
    if (this.lowering.has(s))
      this.fail(
        s.pointer,
        "needs its own checks to be compiled: an unevaluatedProperties or unevaluatedItems inside it tests whether it passes (a $ref applies it there in place): make it a $defs entry and refer to it",
      );
    this.lowering.add(s);
    try {
      this.lowered.set(s, (nodes = this.lowerNode(s)));
    } finally {
      this.lowering.delete(s);
    }
    return nodes;
  }

  private lowerNode(s: Schema): Node[] {
    const rest: Node[] = [];
    let group: { type: GuardType; body: Node[] } | undefined;
    const close = () => {
      if (group && group.body.length > 0) rest.push(...(fixesType(s, group.type) ? group.body : [{ kind: "guard" as const, type: group.type, body: group.body }]));
      group = undefined;
    };
    // Keywords before the gate (`$ref`) stand outside it; the gate (`type`) wraps all after it.
    const before: Node[] = [];
    let gate: ((s: Schema, rest: Node[]) => Node[]) | undefined;
    for (const keyword of KEYWORDS) {
      if (keyword.gate) gate = keyword.gate;
      if (!keyword.lower) continue;
      if (!gate) {
        before.push(...keyword.lower(s, this));
        continue;
      }
      if (keyword.about !== group?.type) close();
      if (keyword.about && !group) group = { type: keyword.about, body: [] };
      (group ? group.body : rest).push(...keyword.lower(s, this));
    }
    close();
    return [...before, ...(gate ? gate(s, rest) : rest)];
  }
}

/** The node's `type` already guarantees that keywords about `type` apply. */
function fixesType(s: Schema, type: GuardType): boolean {
  return s.type?.length === 1 && (s.type[0] === type || (type === "number" && s.type[0] === "integer"));
}
