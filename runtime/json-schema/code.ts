import { SUPPORT_FUNCTIONS } from "../support/functions.js";
import type { SchemaIssue } from "./issue.js";
import type { Schema } from "./model/schema.js";
import { pointerTokens } from "./pointer.js";
import { writeDefinitions } from "./render/functions.js";
import type { Lowering } from "./render/lower.js";
import { Helpers, identifierOf } from "./render/names.js";
import { CheckRenderer } from "./render/render-check.js";
import { IsRenderer } from "./render/render-is.js";
import { supportUsedBy } from "./render/support.js";
import { SourceWriter } from "./render/writer.js";

/**
 * Code mode of the compiler (compile.ts): the definitions of a document printed as `generate
 * --tools` prints a tool's (render/: `isX` and `checkX` for each), here as JavaScript that
 * `new Function` turns into functions at registration. Each compiled schema gets functions of its
 * own, so V8 specialises them to it.
 */

export interface CodeCheck {
  is(value: unknown): boolean;
  check(value: unknown): SchemaIssue[];
}

/** The document's source, and the RegExp and JSON constants it names (`x.patterns[k]`, `x.constants[k]`). */
export interface Emitted {
  readonly source: string;
  readonly externs: { readonly patterns: readonly RegExp[]; readonly constants: readonly unknown[] };
}

/** The source of the checks of `definitions`, `root`'s returned. */
export function emitCode(definitions: ReadonlyMap<string, Schema>, lowering: Lowering, root: string): Emitted {
  const w = new SourceWriter();
  const helpers = new Helpers(
    (name) => definitions.has(name),
    (pointer) => identifierOf(pointer.startsWith("#") ? [root, ...pointerTokens(pointer)] : ["Remote", pointer]),
  );
  writeDefinitions(w, definitions, lowering, helpers, new IsRenderer(w, helpers, false), new CheckRenderer(w, helpers, false), (pointer) => pointer);
  const body = w.toString();
  const head = [
    '"use strict";',
    `const { ${supportUsedBy(body).join(", ")} } = h;`,
    ...[...lowering.patterns.values()].map((name, k) => `const ${name} = x.patterns[${k}];`),
    ...[...lowering.constants.values()].map(({ name }, k) => `const ${name} = x.constants[${k}];`),
  ];
  return {
    source: `${head.join("\n")}\n${body}\nreturn { is: is${root}, check: (value) => check${root}(value, "", []) };`,
    // The RegExps are made here, not in the source: a RegExp is not code generation.
    externs: { patterns: [...lowering.patterns.values()].map((name) => lowering.patternOf(name)), constants: [...lowering.constants.values()].map(({ value }) => value) },
  };
}

/** Compiles emitted source; throws where code generation is forbidden (an EvalError, as under a CSP). */
export function compileCode({ source, externs }: Emitted): CodeCheck {
  return evaluate(source, externs) as CodeCheck;
}

/** The one place code is generated from a string (test/runtime/transports/http/web-only.test.ts holds it to one). */
function evaluate(source: string, externs: Emitted["externs"]): unknown {
  return new Function("x", "h", source)(externs, SUPPORT_FUNCTIONS);
}
