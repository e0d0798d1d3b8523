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

function inPlace(s: Schema, ctx: LowerContext, own: boolean, when: readonly Expr[], seen: ReadonlySet<Schema>, out: Evaluation[]): void {
  if (seen.has(s)) return;
  const path = new Set(seen).add(s);
  out.push({ when: and(when), schema: own ? { ...s, unevaluatedProperties: undefined, unevaluatedItems: undefined } as Schema : s });
  const visit = (child: Schema, condition?: Expr) => inPlace(child, ctx, false, condition ? [...when, condition] : when, path, out);
  if (s.ref !== undefined) visit(ctx.definition(s.ref));
  if (s.dynamicRef !== undefined) visit(ctx.definition(s.dynamicRef));
  for (const branch of s.allOf ?? []) visit(branch);
  for (const branch of [...(s.anyOf ?? []), ...(s.oneOf ?? [])]) visit(branch, matches({ pointer: branch.pointer, body: ctx.lower(branch) }));
  if (s.if) {
    const passed = matches({ pointer: s.if.pointer, body: ctx.lower(s.if) });
    visit(s.if, passed);
    if (s.then) visit(s.then, passed);
    if (s.else) visit(s.else, not(passed));
  }
  for (const { name: property, schema } of s.dependentSchemas ?? []) visit(schema, has(property));
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
  const found: Evaluation[] = [];
  inPlace(s, ctx, true, [], new Set(), found);
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
  const found: Evaluation[] = [];
  inPlace(s, ctx, true, [], new Set(), found);
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
