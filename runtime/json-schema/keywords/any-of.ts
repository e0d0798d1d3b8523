import type { JsonPrimitive, Schema } from "../model/schema.js";
import { text } from "./expr.js";
import type { AnyOfNode, Branch } from "./ir.js";
import { at, schemasIn, type Keyword, type LowerContext } from "./keyword.js";

/**
 * `anyOf`. When no branch matches, an issue collector reports the branch the value evidently
 * meant (the one whose constant discriminator it carries, e.g. `type: "text"` or
 * `method: "tools/call"`), else one issue naming the branches.
 */
export const anyOf: Keyword = {
  reads: { anyOf: schemasIn("anyOf", "anyOf") },
  children: (s) => s.anyOf ?? [],
  lower(s, ctx) {
    if (!s.anyOf) return [];
    const branches = s.anyOf.map((schema): Branch => ({ pointer: schema.pointer, body: ctx.lower(schema) }));
    const node: AnyOfNode = {
      kind: "anyOf",
      keyword: "anyOf",
      schemaPath: at(s, "anyOf"),
      message: text(`must match one of: ${s.anyOf.map(describe).join(", ")}`),
      branches,
    };
    const discriminator = discriminate(s.anyOf, ctx);
    return [
      discriminator
        ? { ...node, discriminator: { property: discriminator.property, cases: [...discriminator.cases].map(([value, i]) => ({ value, branch: branches[i]! })) } }
        : node,
    ];
  },
};

function describe(s: Schema): string {
  if (s.ref !== undefined) return s.ref;
  if (s.type) return s.type.join(" | ");
  return `the schema at ${s.pointer}`;
}

/** A property every object branch requires with a distinct constant: `type`, `method`, ... (value -> branch index). */
function discriminate(branches: readonly Schema[], ctx: LowerContext): { property: string; cases: Map<JsonPrimitive, number> } | undefined {
  const constants = branches.map((branch) => requiredConstants(resolve(branch, ctx), ctx));
  const candidates = new Set(constants.flatMap((c) => [...c.keys()]));
  let best: { property: string; cases: Map<JsonPrimitive, number> } | undefined;
  for (const property of candidates) {
    const cases = new Map<JsonPrimitive, number>();
    constants.forEach((c, i) => {
      const value = c.get(property);
      if (value !== undefined && !cases.has(value)) cases.set(value, i);
    });
    if (cases.size >= 2 && (!best || cases.size > best.cases.size)) best = { property, cases };
  }
  return best;
}

function requiredConstants(s: Schema, ctx: LowerContext): Map<string, JsonPrimitive> {
  const constants = new Map<string, JsonPrimitive>();
  if (s.type?.length !== 1 || s.type[0] !== "object") return constants;
  for (const property of s.properties ?? []) {
    if (!s.required?.includes(property.name)) continue;
    const target = resolve(property.schema, ctx);
    const value = target.const ?? (target.enum?.length === 1 ? target.enum[0] : undefined);
    if (value !== undefined) constants.set(property.name, value);
  }
  return constants;
}

/** Follows references that carry no constraint of their own. */
function resolve(s: Schema, ctx: LowerContext): Schema {
  let current = s;
  for (let hops = 0; current.ref !== undefined && isPureRef(current) && hops < 32; hops++) current = ctx.definition(current.ref);
  return current;
}

/** `{ $ref }` and annotations only. */
export function isPureRef(s: Schema): boolean {
  return s.ref !== undefined && Object.keys(s).every((k) => k === "ref" || k === "pointer" || k === "description");
}
