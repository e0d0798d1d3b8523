import { hasUniqueItems, isMultipleOf, jsonEqual, stringLength } from "../support/validation.js";
import { fresh, markItem, markNames, merge, seenItem, seenName } from "./code/annotations.js";
import { Emitter } from "./code/emitter.js";
import type { EmitContext } from "./code/modes.js";
import type { Located } from "./index.js";
import type { SchemaIssue } from "./issue.js";
import { escapePointerToken } from "./uri.js";

/**
 * Code mode of the compiler (compile.ts): a whole schema document as JavaScript source, two
 * functions per schema node (code/modes.ts: the boolean check, and the check that collects the
 * issues the closures collect, word for word and in their order; code/keywords.ts writes the
 * keywords, code/emitter.ts walks the nodes), compiled once with `new Function` (the issue checks
 * on the first `check`, in documents tracking no annotations; see `emitCheck`). Each compiled
 * schema gets functions of its own, so V8 specialises them to it, where the closures of
 * compile.ts are shared by every schema. `unevaluatedProperties` and `unevaluatedItems` are
 * generated too, with annotations (code/annotations.ts) only in documents using them, and none
 * where what a node evaluates is known at compile time.
 *
 * Nothing is left to closures inside a document; compile.ts keeps two kinds of document in
 * closure mode: those reaching a `$dynamicRef`, whose target depends on the dynamic scope (the
 * resources evaluation entered on its way, 2020-12 core 8.2.3.2), state a function per node
 * cannot specialise away and that the closures already carry; and those whose meta-schema leaves
 * out the validation vocabulary (core 8.1.2), rare enough not to be worth a second emitter.
 */

export type { EmitContext } from "./code/modes.js";

export interface Emitted {
  readonly source: string;
  readonly externs: unknown[];
  /** The source of the issue check, where it is emitted on first need (`fs`: the boolean checks). */
  readonly issues?: () => string;
}

export interface CodeCheck {
  is(value: unknown): boolean;
  check(value: unknown): SchemaIssue[];
}

const own = (object: object, key: string) => Object.prototype.hasOwnProperty.call(object, key);
const HELPERS = { own, jsonEqual, isMultipleOf, stringLength, hasUniqueItems, escapePointerToken, fresh, merge, markNames, markItem, seenName, seenItem };

const prelude = (emitter: Emitter) => `"use strict";\nconst { ${Object.keys(HELPERS).join(", ")} } = h;\n${emitter.externs.map((_, k) => `const x${k} = x[${k}];`).join("\n")}\n`;

/**
 * The source of the checks of `root` and what it refers to; `compileCheck` turns it into functions.
 * Where no annotations are tracked, the issue check is emitted and compiled on the first `check`:
 * most schemas never meet an invalid value, and without it emitting and compiling take a third to
 * a half less time (the second `new Function` then costs the first invalid value).
 */
export function emitCheck(root: Located, context: EmitContext): Emitted {
  const deferred = !context.tracking;
  const emitter = new Emitter(context, deferred);
  const n = emitter.id(root);
  if (!deferred) {
    const check = `check: (v) => { const i = []; g${n}(v, "", i, null); return i; }`;
    return { source: `${prelude(emitter)}${emitter.functions.join("\n")}\nreturn { is: f${n}, ${check} };`, externs: emitter.externs };
  }
  const booleans = Array.from({ length: emitter.size }, (_, k) => `f${k}`).join(", ");
  const source = `${prelude(emitter)}${emitter.functions.join("\n")}\nreturn { is: f${n}, fs: { ${booleans} } };`;
  emitter.functions.length = 0; // kept until the first check: only what emitIssues adds
  const issues = () => {
    emitter.emitIssues();
    return `${prelude(emitter)}const { ${booleans} } = fs;\n${emitter.functions.join("\n")}\nreturn (v) => { const i = []; g${n}(v, "", i); return i; };`;
  };
  return { source, externs: emitter.externs, issues };
}

/** Compiles emitted source; throws where code generation is forbidden. */
export function compileCheck({ source, externs, issues }: Emitted): CodeCheck {
  const compiled = evaluate(source, externs) as CodeCheck & { fs: unknown };
  if (!issues) return compiled;
  let check: ((value: unknown) => SchemaIssue[]) | undefined;
  // The issue source extends `externs` in place before it runs.
  return { is: compiled.is, check: (value) => (check ??= evaluate(issues(), externs, compiled.fs) as typeof check)!(value) };
}

/** The one place code is generated from a string (test/runtime/transports/http/web-only.test.ts holds it to one). */
function evaluate(source: string, externs: unknown[], fs?: unknown): unknown {
  return new Function("x", "h", "fs", source)(externs, HELPERS, fs);
}
