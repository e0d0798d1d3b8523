import { SUPPORT_FUNCTIONS } from "../support/functions.js";
import type { SchemaIssue } from "./issue.js";
import type { Schema } from "./model/schema.js";
import { pointerTokens } from "./pointer.js";
import type { Lowering } from "./render/lower.js";
import { Helpers, identifierOf } from "./render/names.js";
import { CheckRenderer } from "./render/render-check.js";
import { IsRenderer } from "./render/render-is.js";
import { SUPPORT } from "./render/support.js";
import { SourceWriter } from "./render/writer.js";
import { noHelpersPrinted, reachable, writeHelpers } from "./render/functions.js";

/**
 * Code mode of the compiler (compile.ts): the definitions of a document printed as `generate
 * --tools` prints a tool's (render/: `isX` and `checkX` for each), here as JavaScript that
 * `new Function` turns into functions at registration. Each compiled schema gets functions of its
 * own, so V8 specialises them to it. The `checkX` functions are printed and compiled on the first
 * `check`: most schemas never meet an invalid value, and registration then prints and compiles
 * half as much (the second `new Function` costs the first invalid value instead). A tool's
 * invalid arguments take `describeX` instead, compiled the same way: the issues joined into the
 * message as they are found, with no issue objects (half the cost of `checkX` then joining).
 */

export interface CodeCheck {
  is(value: unknown): boolean;
  check(value: unknown): SchemaIssue[];
  /** The issues of `check` as one string, "/a: must be string; (root): ...", printed and compiled on first use like `check`. */
  describe(value: unknown): string;
  /** undefined when `is` passes, else `describe`'s text. */
  validate(value: unknown): string | undefined;
}

/** The boolean checks' source, the issue checks' on demand, and the RegExp and JSON constants both name (`x.patterns[k]`, `x.constants[k]`). */
export interface Emitted {
  /** Returns `{ is, fs }`: the root's boolean check, and every boolean check by name for `issues`. */
  readonly source: string;
  /** The source of the issue checks, given the boolean checks as `fs`; returns the root's. */
  readonly issues: () => string;
  /** The same, as functions that join the issues into one string (render-check.ts, `describe`). */
  readonly describe: () => string;
  readonly externs: { readonly patterns: readonly RegExp[]; readonly constants: readonly unknown[] };
}

/** The source of the checks of `definitions`, `root`'s returned. */
export function emitCode(definitions: ReadonlyMap<string, Schema>, lowering: Lowering, root: string): Emitted {
  // Only the functions some printed code calls (render/functions.ts, reachable): less to print and compile.
  const reached = reachable(definitions, lowering, [root]);
  const helpers = new Helpers(
    (name) => definitions.has(name),
    (pointer) => identifierOf(pointer.startsWith("#") ? [root, ...pointerTokens(pointer)] : ["Remote", pointer]),
  );
  const w = new SourceWriter();
  const is = new IsRenderer(w, helpers, false);
  for (const [name, schema] of reached.is) is.function(`is${name}`, "boolean", lowering.lower(schema), false);
  const printed = noHelpersPrinted();
  writeHelpers(w, helpers, is, [], undefined, printed);
  const booleans = [...reached.is.keys(), ...[...printed.is].map((helper) => helper.base)].map((name) => `is${name}`).join(", ");
  // Every constant is made by lowering, before either source is printed.
  const head = [
    '"use strict";',
    `const { ${SUPPORT.join(", ")} } = h;`,
    ...[...lowering.patterns.values()].map((name, k) => `const ${name} = x.patterns[${k}];`),
    ...[...lowering.constants.values()].map(({ name }, k) => `const ${name} = x.constants[${k}];`),
    "",
  ].join("\n");
  const lazy = (describe: boolean) => () => {
    const w = new SourceWriter();
    const is = new IsRenderer(w, helpers, false);
    const check = new CheckRenderer(w, helpers, false, describe);
    // Each definition's nodes as lowered for the boolean checks (lower.ts keeps them).
    for (const [name, schema] of reached.check) check.function(`${check.prefix}${name}`, lowering.lower(schema), false);
    // Each lazy source prints its own issue helpers, and the boolean ones `source` lacks.
    writeHelpers(w, helpers, is, [check], undefined, { ...noHelpersPrinted(), is: new Set(printed.is) });
    return `${head}const { ${booleans} } = fs;\n${w.toString()}\nreturn (value) => ${check.prefix}${root}(value, "", ${describe ? '""' : "[]"});`;
  };
  return {
    source: `${head}${w.toString()}\nreturn { is: is${root}, fs: { ${booleans} } };`,
    issues: lazy(false),
    describe: lazy(true),
    // The RegExps are made here, not in the source: a RegExp is not code generation.
    externs: { patterns: [...lowering.patterns.values()].map((name) => lowering.patternOf(name)), constants: [...lowering.constants.values()].map(({ value }) => value) },
  };
}

/** Compiles emitted source (the issue checks on the first `check` or `describe`); throws where code generation is forbidden (an EvalError, as under a CSP). */
export function compileCode({ source, issues, describe, externs }: Emitted): CodeCheck & { readonly mode: "code" } {
  const compiled = evaluate(source, externs) as { is: (value: unknown) => boolean; fs: unknown };
  const code = {
    mode: "code" as const,
    is: compiled.is,
    // Once compiled, the issue check takes this one's place: later calls go straight to the schema's own function.
    check(value: unknown): SchemaIssue[] {
      code.check = evaluate(issues(), externs, compiled.fs) as (value: unknown) => SchemaIssue[];
      return code.check(value);
    },
    describe(value: unknown): string {
      code.describe = evaluate(describe(), externs, compiled.fs) as (value: unknown) => string;
      return code.describe(value);
    },
    validate(value: unknown): string | undefined {
      return code.is(value) ? undefined : code.describe(value);
    },
  };
  return code;
}

/** The one place code is generated from a string (test/runtime/transports/http/web-only.test.ts holds it to one). */
function evaluate(source: string, externs: Emitted["externs"], fs?: unknown): unknown {
  return new Function("x", "h", "fs", source)(externs, SUPPORT_FUNCTIONS, fs);
}
