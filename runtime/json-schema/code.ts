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
 * keywords, code/emitter.ts walks the nodes), compiled once with `new Function`. Each compiled
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
}

export interface CodeCheck {
  is(value: unknown): boolean;
  check(value: unknown): SchemaIssue[];
}

const own = (object: object, key: string) => Object.prototype.hasOwnProperty.call(object, key);
const HELPERS = { own, jsonEqual, isMultipleOf, stringLength, hasUniqueItems, escapePointerToken, fresh, merge, markNames, markItem, seenName, seenItem };

/** The source of the checks of `root` and what it refers to; `compileCheck` turns it into functions. */
export function emitCheck(root: Located, context: EmitContext): Emitted {
  const emitter = new Emitter(context);
  const n = emitter.id(root);
  const declarations = emitter.externs.map((_, k) => `const x${k} = x[${k}];`).join("\n");
  const check = `check: (v) => { const i = []; g${n}(v, "", i${context.tracking ? ", null" : ""}); return i; }`;
  const source = `"use strict";\nconst { ${Object.keys(HELPERS).join(", ")} } = h;\n${declarations}\n${emitter.functions.join("\n")}\nreturn { is: f${n}, ${check} };`;
  return { source, externs: emitter.externs };
}

/** Compiles emitted source; throws where code generation is forbidden. */
export function compileCheck({ source, externs }: Emitted): CodeCheck {
  return new Function("x", "h", source)(externs, HELPERS) as CodeCheck;
}
