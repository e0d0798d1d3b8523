import { appliedInPlace } from "../model/in-place.js";
import { isFalseSchema, type Schema } from "../model/schema.js";
import { and, call, has, isTrue, literal, matches, name, not, SUBJECT, test, text } from "./expr.js";
import type { Expr, GuardType, KnownWhen } from "./ir.js";
import { at, only, schemaIn, type Keyword, type LowerContext } from "./keyword.js";

/**
 * The annotations `unevaluatedProperties` and `unevaluatedItems` read (JSON Schema 2020-12 core
 * section 11), worked out when the validator is compiled: which properties (items) of the instance
 * the node's other keywords evaluate, and those of every sub-schema applied in place (`$ref`, `$dynamicRef`,
 * `allOf`, `anyOf`, `oneOf`, `if`/`then`/`else`, `dependentSchemas`; never `not`), each under the
 * condition that makes it count: the sub-schema passes. Conditions are expressions over the
 * instance; what a sub-schema that must pass for the node to pass evaluates counts always (when it
 * fails, so does the node, whatever the unevaluated keyword says).
 */
interface Evaluation {
  readonly when: Expr;
  readonly schema: Schema;
}

/**
 * Most evaluations one unevaluated keyword may read. Each is a sub-schema reached in place under
 * a set of conditions, found once however many paths reach it; references in a lattice (each
 * `$defs` entry naming the next twice) would otherwise make one per path, exponentially many.
 */
const MAX_EVALUATIONS = 1000;

/** The evaluations `keyword` of `s` reads: `s` itself (without its unevaluated keywords), then each sub-schema it applies in place, each once per set of conditions. */
function inPlace(s: Schema, ctx: LowerContext, keyword: string): Evaluation[] {
  const out: Evaluation[] = [];
  const reached = new Map<Schema, Set<string>>();
  const visit = (node: Schema, when: readonly Expr[], path: ReadonlySet<Schema>): void => {
    if (path.has(node)) return;
    // The conditions by the sub-schemas they test (their pointers), not by the nodes lowered from them.
    const key = JSON.stringify(when, (k, v: unknown) => (k === "body" ? undefined : v));
    const keys = reached.get(node) ?? new Set<string>();
    if (keys.has(key)) return;
    reached.set(node, keys.add(key));
    if (out.length === MAX_EVALUATIONS)
      ctx.fail(at(s, keyword), `reads more than ${MAX_EVALUATIONS} evaluations of sub-schemas applied in place ($ref, allOf, anyOf, oneOf, if, dependentSchemas): reference fewer schemas around it`);
    out.push({ when: and(when), schema: node === s ? ({ ...s, unevaluatedProperties: undefined, unevaluatedItems: undefined } as Schema) : node });
    const inner = new Set(path).add(node);
    const passes = (branch: Schema) => matches({ pointer: branch.pointer, body: ctx.lower(branch) });
    for (const { schema, by, property } of appliedInPlace(node, (name) => ctx.definition(name))) {
      // What `not` applies evaluates nothing (core section 10.2.1.4: it drops its annotations).
      if (by === "not") continue;
      const condition = by === "anyOf" || by === "oneOf" || by === "if" ? passes(schema) : by === "then" ? passes(node.if!) : by === "else" ? not(passes(node.if!)) : by === "dependentSchemas" ? has(property!) : undefined;
      visit(schema, condition ? [...when, condition] : when, inner);
    }
  };
  visit(s, [], new Set());
  return out;
}

/**
 * What the other keywords evaluate, known at compile time when every evaluation counts always
 * (no condition): the renderers then print `unevaluated*` as `additionalProperties` (`items`) is
 * printed, no support call nor annotation per value.
 */
type Evaluated = Expr[] | "all" | ReturnType<typeof evaluatedProperties> | { readonly from: number };

/**
 * `unevaluatedProperties`: the names and patterns of the evaluations that count always, and
 * those of the others each under its condition (a renderer tests a key's name first, then the
 * condition, once per subject).
 */
export function evaluatedProperties(s: Schema, ctx: LowerContext): "all" | { readonly known: readonly string[]; readonly patterns: readonly string[]; readonly knownWhen?: readonly KnownWhen[] } {
  const found = inPlace(s, ctx, "unevaluatedProperties");
  const evaluatesAll = (schema: Schema) => schema.additionalProperties !== undefined || schema.unevaluatedProperties !== undefined;
  if (found.some(({ when, schema }) => isTrue(when) && evaluatesAll(schema))) return "all";
  const names = (schema: Schema) => (schema.properties ?? []).map((p) => p.name);
  const patterns = (schema: Schema) => (schema.patternProperties ?? []).map((p) => ctx.pattern(p.pattern));
  const always = found.filter(({ when }) => isTrue(when));
  const knownWhen = found
    .filter(({ when }) => !isTrue(when))
    .map(({ when, schema }) => ({ when, known: names(schema), patterns: patterns(schema), all: evaluatesAll(schema) }))
    .filter((k) => k.all || k.known.length > 0 || k.patterns.length > 0);
  return { known: [...new Set(always.flatMap(({ schema }) => names(schema)))], patterns: [...new Set(always.flatMap(({ schema }) => patterns(schema)))], ...(knownWhen.length > 0 && { knownWhen }) };
}

/** `unevaluatedItems`: for each evaluation, its condition, how many leading items it evaluates (Infinity: all), and its `contains` test (or null); or how many, when all count always. */
export function evaluatedItems(s: Schema, ctx: LowerContext): Evaluated {
  const found = inPlace(s, ctx, "unevaluatedItems");
  const evaluatesAll = (schema: Schema) => schema.items !== undefined || schema.unevaluatedItems !== undefined;
  if (found.some(({ when, schema }) => isTrue(when) && evaluatesAll(schema))) return "all";
  if (found.every(({ when, schema }) => isTrue(when) && !schema.contains)) return { from: Math.max(0, ...found.map(({ schema }) => schema.prefixItems?.length ?? 0)) };
  const args: Expr[] = [];
  for (const { when, schema } of found) {
    const all = evaluatesAll(schema);
    const prefix = schema.prefixItems?.length ?? 0;
    if (all || prefix > 0 || schema.contains)
      args.push(when, all ? name("Infinity") : literal(prefix), schema.contains ? test({ pointer: schema.contains.pointer, body: ctx.lower(schema.contains) }) : literal(null));
  }
  return args;
}

/**
 * The keyword `unevaluatedProperties` or `unevaluatedItems`: its schema applied to what
 * `evaluated` leaves, each at its property (item): the properties as an entries node, the items
 * as an items node where they are known when compiling, else by the support functions
 * everyUnevaluatedItem (one test) and unevaluatedIndexes (for the issues).
 */
export function unevaluated(keyword: "unevaluatedProperties" | "unevaluatedItems", about: GuardType, evaluated: (s: Schema, ctx: LowerContext) => Evaluated, what: string): Keyword {
  return {
    reads: { [keyword]: only("2020-12", schemaIn(keyword)) },
    children: (s) => [s[keyword]],
    about,
    lower(s, ctx) {
      const schema = s[keyword];
      if (!schema) return [];
      const body = ctx.lower(schema);
      const evaluations = body.length === 0 ? "all" : evaluated(s, ctx);
      if (evaluations === "all") return [];
      const refuse = { keyword, schemaPath: at(s, keyword), message: text(`must NOT have unevaluated ${what}`) };
      if ("known" in evaluations) return [{ kind: "entries", ...evaluations, ...(isFalseSchema(schema) ? { refuse, body: [] } : { body }) }];
      if ("from" in evaluations) return [{ kind: "items", from: evaluations.from, body: isFalseSchema(schema) ? [{ kind: "assert", valid: literal(false), then: [], ...refuse }] : body }];
      const valid = call("everyUnevaluatedItem", SUBJECT, test({ pointer: schema.pointer, body }), ...evaluations);
      const keys = call("unevaluatedIndexes", SUBJECT, ...evaluations);
      if (!isFalseSchema(schema)) return [{ kind: "each", valid, keys, body }];
      return [{ kind: "each", valid, keys, refuse, body: [] }];
    },
  };
}
