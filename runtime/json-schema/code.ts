import { SUPPORT_FUNCTIONS } from "../support/functions.js";
import type { SchemaIssue } from "./issue.js";
import type { Node } from "./keywords/ir.js";
import type { Schema } from "./model/schema.js";
import { pointerTokens } from "./pointer.js";
import type { Lowering } from "./render/lower.js";
import { Helpers, identifierOf } from "./render/names.js";
import { CheckRenderer } from "./render/render-check.js";
import { IsRenderer } from "./render/render-is.js";
import { SUPPORT } from "./render/support.js";
import { SourceWriter } from "./render/writer.js";

/**
 * Code mode of the compiler (compile.ts): the definitions of a document printed as `generate
 * --tools` prints a tool's (render/: `isX` and `checkX` for each), here as JavaScript that
 * `new Function` turns into functions at registration. Each compiled schema gets functions of its
 * own, so V8 specialises them to it. The `checkX` functions are printed and compiled on the first
 * `check`: most schemas never meet an invalid value, and registration then prints and compiles
 * half as much (the second `new Function` costs the first invalid value instead).
 */

export interface CodeCheck {
  is(value: unknown): boolean;
  check(value: unknown): SchemaIssue[];
}

/** The boolean checks' source, the issue checks' on demand, and the RegExp and JSON constants both name (`x.patterns[k]`, `x.constants[k]`). */
export interface Emitted {
  /** Returns `{ is, fs }`: the root's boolean check, and every boolean check by name for `issues`. */
  readonly source: string;
  /** The source of the issue checks, given the boolean checks as `fs`; returns the root's. */
  readonly issues: () => string;
  readonly externs: { readonly patterns: readonly RegExp[]; readonly constants: readonly unknown[] };
}

/** The source of the checks of `definitions`, `root`'s returned. */
export function emitCode(definitions: ReadonlyMap<string, Schema>, lowering: Lowering, root: string): Emitted {
  const helpers = new Helpers(
    (name) => definitions.has(name),
    (pointer) => identifierOf(pointer.startsWith("#") ? [root, ...pointerTokens(pointer)] : ["Remote", pointer]),
  );
  const nodes = new Map<string, Node[]>();
  const w = new SourceWriter();
  const is = new IsRenderer(w, helpers, false);
  for (const [name, schema] of definitions) {
    nodes.set(name, lowering.lower(schema));
    is.function(`is${name}`, "boolean", nodes.get(name)!, false);
  }
  // Helpers can discover helpers of their own; the registry grows while we walk it.
  const printed = new Set<string>();
  for (const helper of helpers.all()) {
    is.function(`is${helper.base}`, "boolean", helper.body, false);
    printed.add(helper.base);
  }
  const booleans = [...[...definitions.keys(), ...printed].map((name) => `is${name}`)].join(", ");
  // Every constant is made by lowering, before either source is printed.
  const head = [
    '"use strict";',
    `const { ${SUPPORT.join(", ")} } = h;`,
    ...[...lowering.patterns.values()].map((name, k) => `const ${name} = x.patterns[${k}];`),
    ...[...lowering.constants.values()].map(({ name }, k) => `const ${name} = x.constants[${k}];`),
    "",
  ].join("\n");
  const issues = () => {
    const w = new SourceWriter();
    const is = new IsRenderer(w, helpers, false);
    const check = new CheckRenderer(w, helpers, false);
    for (const name of definitions.keys()) check.function(`check${name}`, nodes.get(name)!, false);
    // Only the issue checks some printed code calls; a check printed may name helpers of its own: until nothing is left.
    const checked = new Set<string>();
    for (let more = true; more; ) {
      more = false;
      for (const helper of helpers.all()) {
        if (!printed.has(helper.base)) {
          printed.add(helper.base);
          more = true;
          is.function(`is${helper.base}`, "boolean", helper.body, false);
        }
        if (helpers.isChecked(helper) && !checked.has(helper.base)) {
          checked.add(helper.base);
          more = true;
          check.function(`check${helper.base}`, helper.body, false);
        }
      }
    }
    return `${head}const { ${booleans} } = fs;\n${w.toString()}\nreturn (value) => check${root}(value, "", []);`;
  };
  return {
    source: `${head}${w.toString()}\nreturn { is: is${root}, fs: { ${booleans} } };`,
    issues,
    // The RegExps are made here, not in the source: a RegExp is not code generation.
    externs: { patterns: [...lowering.patterns.values()].map((name) => lowering.patternOf(name)), constants: [...lowering.constants.values()].map(({ value }) => value) },
  };
}

/** Compiles emitted source (the issue checks on the first `check`); throws where code generation is forbidden (an EvalError, as under a CSP). */
export function compileCode({ source, issues, externs }: Emitted): CodeCheck & { readonly mode: "code" } {
  const compiled = evaluate(source, externs) as { is: (value: unknown) => boolean; fs: unknown };
  const code = {
    mode: "code" as const,
    is: compiled.is,
    // Once compiled, the issue check takes this one's place: later calls go straight to the schema's own function.
    check(value: unknown): SchemaIssue[] {
      code.check = evaluate(issues(), externs, compiled.fs) as (value: unknown) => SchemaIssue[];
      return code.check(value);
    },
  };
  return code;
}

/** The one place code is generated from a string (test/runtime/transports/http/web-only.test.ts holds it to one). */
function evaluate(source: string, externs: Emitted["externs"], fs?: unknown): unknown {
  return new Function("x", "h", "fs", source)(externs, SUPPORT_FUNCTIONS, fs);
}
