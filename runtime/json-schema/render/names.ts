import { escapeToken } from "../pointer.js";
import type { Branch, Node } from "../keywords/ir.js";

const RESERVED = new Set(
  ("break case catch class const continue debugger default delete do else enum export extends false finally for " +
    "function if import in instanceof new null return super switch this throw true try typeof var void while with " +
    "yield let static implements interface package private protected public await arguments eval undefined NaN " +
    "Infinity Object Array Number String value path issues out T")
    .split(" "),
);

/** Local variable names of one generated function: readable, unique, never shadowing. */
export class Scope {
  private readonly used = new Set<string>();
  fresh(hint: string): string {
    let base = hint.replace(/[^A-Za-z0-9_$]/g, "_").replace(/^(\d)/, "_$1") || "v";
    if (/^(is|check|describe)[A-Z]/.test(base)) base = `_${base}`;
    let name = base;
    for (let n = 2; RESERVED.has(name) || this.used.has(name); n++) name = `${base}${n}`;
    this.used.add(name);
    return name;
  }
}

/** A JSON Pointer being built by generated code: the caller's `path`, then literal and computed tokens. */
export class PathExpr {
  constructor(private readonly parts: readonly ({ literal: string } | { expression: string })[] = []) {}
  property(name: string): PathExpr {
    return new PathExpr([...this.parts, { literal: `/${escapeToken(name)}` }]);
  }
  dynamic(token: string): PathExpr {
    return new PathExpr([...this.parts, { literal: "/" }, { expression: token }]);
  }
  /** `path`, or a template literal such as `${path}/content/${i}`. */
  render(): string {
    if (this.parts.length === 0) return "path";
    const body = this.parts
      // A raw CR in a template literal reads as LF (ECMAScript's template line terminators): escaped, as LF is for the reader.
      .map((part) => ("literal" in part ? part.literal.replace(/[`\\$]/g, (c) => `\\${c}`).replace(/\r/g, "\\r").replace(/\n/g, "\\n") : `\${${part.expression}}`))
      .join("");
    return `\`\${path}${body}\``;
  }
}

export interface Helper {
  readonly base: string;
  readonly pointer: string;
  readonly body: readonly Node[];
}

/** Anonymous sub-schemas that need functions of their own, named after their JSON Pointer; emitted after the definitions. */
export class Helpers {
  private readonly byPointer = new Map<string, Helper>();
  private readonly names = new Set<string>();
  /** The helpers whose boolean check, and those whose issue check, some printed code calls: only those get one. */
  private readonly tested = new Set<string>();
  private readonly checked = new Set<string>();

  /** `baseOf`: a helper's name from its pointer; by default the tokens after the definitions key. */
  constructor(
    private readonly taken: (name: string) => boolean,
    private readonly baseOf: (pointer: string) => string = (pointer) => identifierOf(pointer.split("/").slice(2)),
  ) {}

  /** The helper of `branch`, whose boolean check printed code calls. */
  name(branch: Branch): string {
    const base = this.register(branch);
    this.tested.add(base);
    return base;
  }

  /** The helper of `branch`, whose issue check printed code calls. */
  checkName(branch: Branch): string {
    const base = this.register(branch);
    this.checked.add(base);
    return base;
  }

  /** Whether printed code calls the helper's boolean check (a oneOf's branch may be called for its issues only). */
  isTested(helper: Helper): boolean {
    return this.tested.has(helper.base);
  }

  /** Whether printed code calls the helper's issue check. */
  isChecked(helper: Helper): boolean {
    return this.checked.has(helper.base);
  }

  private register(branch: Branch): string {
    const existing = this.byPointer.get(branch.pointer);
    if (existing) return existing.base;
    let base = this.baseOf(branch.pointer);
    while (this.names.has(base) || this.taken(base)) base = `${base}_`;
    this.names.add(base);
    this.byPointer.set(branch.pointer, { base, pointer: branch.pointer, body: branch.body });
    return base;
  }

  /** Every helper, including those registered while the caller iterates. */
  all(): IterableIterator<Helper> {
    return this.byPointer.values();
  }
}

/** Pointer tokens as one identifier: `properties` dropped, other characters as `_`. */
export function identifierOf(tokens: readonly string[]): string {
  return tokens
    .filter((t) => t !== "properties")
    .map((t) => t.replace(/~1/g, "_").replace(/~0/g, "_").replace(/[^A-Za-z0-9]/g, "_"))
    .join("_");
}
