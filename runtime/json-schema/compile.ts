import { compileCode, emitCode } from "./code.js";
import type { Dialect } from "./dialect.js";
import type { SchemaIssue } from "./issue.js";
import { loadDocument } from "./model/document.js";
import type { Schema } from "./model/schema.js";
import type { Node } from "./keywords/ir.js";
import { ClosureRenderer, Joined, type Templates } from "./render/closures.js";
import { sequence } from "./render/inline.js";
import { CALL, leafOf } from "./render/leaf.js";
import { Lowering } from "./render/lower.js";

/**
 * The runtime's JSON Schema compiler (draft-07 and 2020-12, every keyword of both), for schemas
 * known only at run time (tool schemas): the compiler `generate --tools` and the protocol's
 * validators use, stage for stage. The document is loaded and normalised (model/document.ts:
 * `$ref`, `$dynamicRef` and remotes resolved ahead of time, one definition per place and dynamic
 * scope), each definition lowered to the check IR by one module per keyword (keywords/), then run
 * by one of two renderers of the same nodes: JavaScript compiled with `new Function` (code.ts,
 * "code" mode), or closures (render/closures.ts: no code generated from strings, for Workers). The
 * verdicts and the issues are the same in both.
 */

export type { SchemaIssue };

export interface CompileOptions {
  /** The dialect of a schema whose `$schema` names neither dialect (nor a meta-schema among `remotes`). Default 2020-12. */
  readonly dialect?: Dialect;
  /** Other documents `$ref` may name, by URI. Nothing is ever fetched. */
  readonly remotes?: Readonly<Record<string, unknown>>;
  /** "annotation" (default): `format` checks nothing; "assert": the formats the support module knows are checked, others stay annotations. */
  readonly formats?: "annotation" | "assert";
  /**
   * "closures" (default): no code generation. "code": JavaScript compiled with `new Function`
   * (closures where that throws an EvalError). "auto": code where it pays (`pays`), else closures.
   */
  readonly mode?: "closures" | "code" | "auto";
  /** @internal Where closures get a run's templates (render/closures.ts); tests hand out one to every run, or none. */
  readonly templates?: Templates;
}

export interface CompiledValidator {
  /** How `is` and `check` run: generated code, or closures (asked for, no faster as code, or code generation refused by the platform). */
  readonly mode: "code" | "closures";
  is(value: unknown): boolean;
  check(value: unknown): SchemaIssue[];
  /** `check`'s issues joined into one string, as runtime/shared/json-schema.ts's describeIssues joins them, in one pass. */
  describe(value: unknown): string;
  /** undefined when `is` passes, else `describe`'s text: what a tool call's arguments get (closures: one call of their memos for both). */
  validate(value: unknown): string | undefined;
}

/** Why a schema cannot be compiled, with the JSON Pointer (fragment) of the offending place. */
export class SchemaCompileError extends Error {
  constructor(
    readonly schemaPath: string,
    reason: string,
  ) {
    super(`${schemaPath}: ${reason}`);
    this.name = "SchemaCompileError";
  }
}

/** The name of the document's own definition (the others are named after it and their place). */
const ROOT = "Root";

/** Definitions beyond this many (dynamic scopes multiply them) are refused: compiling is bounded. */
const MAX_DEFINITIONS = 2000;

export function compileSchema(schema: unknown, options: CompileOptions = {}): CompiledValidator {
  const definitions = load(schema, options);
  const lowering = new Lowering(
    (name) => definitions.get(name)!,
    (at, reason) => {
      throw new SchemaCompileError(at, reason);
    },
  );
  if (options.mode === "code" || (options.mode === "auto" && pays(lowering.lower(definitions.get(ROOT)!)))) {
    // The object itself, not a copy: it swaps in the issue check on its first use (code.ts).
    const code = generate(definitions, lowering);
    if (code) return code;
  }
  const closures = new ClosureRenderer(lowering, options.templates);
  const made = { is: closures.is(ROOT), check: closures.check(ROOT) };
  // Once both are made: the memos of either (memoOf) are all there.
  const is = closures.entryIs(made.is);
  const check = closures.entryCheck(made.check);
  return {
    mode: "closures",
    validate: closures.entryValidate(made.is, made.check),
    is,
    check: (value) => {
      const issues: SchemaIssue[] = [];
      check(value, "", issues);
      return issues;
    },
    describe: (value) => {
      const joined = new Joined();
      check(value, "", joined);
      return joined.text;
    },
  };
}

/** The document's definitions, each normalised; a SchemaCompileError names what cannot be compiled. */
function load(schema: unknown, options: CompileOptions): Map<string, Schema> {
  const definitions = new Map<string, Schema>();
  loadDocument("#", schema, ROOT, definitions, {
    ...(options.remotes ? { remotes: options.remotes } : {}),
    ...(options.dialect ? { dialect: options.dialect } : {}),
    assertFormats: options.formats === "assert",
    maxDefinitions: MAX_DEFINITIONS,
    unknownDialect: "default",
    remotesOption: "the toolSchemaRemotes option",
    fail: (at, reason) => {
      throw new SchemaCompileError(at, reason);
    },
    // A keyword this compiler does not read in the document's dialect checks nothing there (2020-12's `dependencies`,
    // 2019-09's `$recursiveRef`), as JSON Schema ignores keywords a dialect does not define.
    unread: () => {},
  });
  return definitions;
}

/**
 * Whether generated code pays for its `new Function`: not for a schema whose boolean check is at
 * most one test of the value itself (one JSON type other than integer, an enum or const of
 * primitives; annotations only), which closures run in one call, as fast, and compile in about
 * half the time (bench/tool-schemas.ts).
 * Anything more is a chain of closure calls through sites every schema shares: code is faster.
 */
function pays(nodes: readonly Node[]): boolean {
  const flat = sequence(nodes);
  if (flat.length === 0) return false;
  const [node] = flat;
  if (flat.length > 1 || node!.kind !== "assert") return true;
  // One test: a support function or built-in of the value (isObject), or one the closures run inline (leaf.ts: a type, an enum).
  const test = node!.valid;
  const direct = test.kind === "call" && test.args.length === 1 && test.args[0]!.kind === "subject";
  return !direct && leafOf(test, () => () => true).op === CALL;
}

/** Both checks as generated code; undefined where the platform refuses `new Function` (an EvalError, as under a CSP). */
function generate(definitions: ReadonlyMap<string, Schema>, lowering: Lowering): CompiledValidator | undefined {
  try {
    return compileCode(emitCode(definitions, lowering, ROOT));
  } catch (error) {
    if (error instanceof EvalError) return undefined;
    throw error;
  }
}
