import { ANNOTATIONS } from "../keywords/annotations.js";
import { isPlainObject, type Fields, type ReadContext } from "../keywords/keyword.js";
import { RULES } from "../keywords/registry.js";
import { childPointer, unescapeToken } from "../pointer.js";
import type { Dialect, Schema } from "./schema.js";

export { isPlainObject };

export interface NormalizeContext {
  /** Refuses the schema: the keyword at `at` (a JSON Pointer) and why (the generator's error names the file, the runtime's the schema). */
  readonly fail: (at: string, reason: string) => never;
  /** A `description`, as the caller keeps it (the generator repairs the MCP schemas' doc links). */
  readonly description?: (text: string) => string;
  readonly dialect: Dialect;
  /** `definitions` (draft-07) or `$defs` (2020-12): the only place a `$ref` may point into. */
  readonly definitionsKey: string;
  readonly definitionNames: ReadonlySet<string>;
  /** Keywords of a vocabulary the document's meta-schema leaves out: ignored (2020-12 core section 8.1.2). */
  readonly ignored?: ReadonlySet<string>;
  /** The document's `$schema`; a node may restate it (ext-tasks declares it on every definition), never change it. */
  readonly declared?: string;
  /**
   * A tool schema (`generate --tools`): the keywords whose rules are for tool schemas are read
   * too, an unknown format is an annotation, and `$ref` goes through `resolveRef`.
   */
  readonly tool?: {
    readonly resolveRef: (ref: unknown, at: string) => string;
    /** A `$dynamicRef` (2020-12), resolved in the dynamic scope of the definition being read. */
    readonly resolveDynamicRef: (ref: unknown, at: string) => string;
    /** Assert the formats of FORMATS (docs/validators.md, "Formats"); else every format is an annotation. */
    readonly assertFormats?: boolean;
    /** A keyword this compiler does not read: reported (all of them, then refused or warned about), and skipped. */
    readonly unread: (keyword: string, at: string) => void;
  };
}

/**
 * Turns one raw schema node into a {@link Schema}, each keyword by its module's rule
 * (keywords/registry.ts). Every keyword is either understood or an error naming its pointer: a
 * check is never skipped silently.
 */
export function normalize(raw: unknown, pointer: string, ctx: NormalizeContext): Schema {
  const { fail } = ctx;
  if (raw === true) return { pointer };
  // `false` admits nothing: `not` of the schema that admits everything.
  if (raw === false && ctx.tool) return { pointer, not: { pointer } };
  if (!isPlainObject(raw)) return fail(pointer, `expected a schema object, found ${JSON.stringify(raw)}`);

  // draft-07 section 8.3: beside $ref every keyword is ignored.
  if (ctx.tool && ctx.dialect === "draft-07" && typeof raw.$ref === "string") return { pointer, ref: ctx.tool.resolveRef(raw.$ref, childPointer(pointer, "$ref")) };
  const unread = (keyword: string, at: string) => (ctx.tool ? ctx.tool.unread(keyword, at) : fail(at, `unsupported keyword "${keyword}"`));
  const read: ReadContext = {
    dialect: ctx.dialect,
    tool: ctx.tool !== undefined,
    pointer,
    raw,
    child: (value, at) => normalize(value, at, ctx),
    ref: (value, at) => (ctx.tool ? ctx.tool.resolveRef(value, at) : resolveRef(value, at, ctx, fail)),
    dynamicRef: (value, at) => (ctx.tool ? ctx.tool.resolveDynamicRef(value, at) : fail(at, `unsupported keyword "$dynamicRef"`)),
    unread,
    fail,
    ...(ctx.declared !== undefined ? { declared: ctx.declared } : {}),
    description: ctx.description ?? ((text) => text),
    assertFormats: ctx.tool?.assertFormats === true,
  };
  const node: Fields = { pointer };
  for (const [keyword, value] of Object.entries(raw)) {
    const at = childPointer(pointer, keyword);
    const rule = RULES.get(keyword);
    if (ctx.ignored?.has(keyword)) continue;
    if (rule === undefined || (rule.tools && !ctx.tool) || (rule.dialect !== undefined && rule.dialect !== ctx.dialect)) unread(keyword, at);
    else Object.assign(node, rule(value, at, read));
  }
  if (node.ref !== undefined && ctx.dialect === "draft-07") {
    // draft-07 ignores every keyword beside $ref; a validation keyword there is ambiguous.
    const siblings = Object.keys(raw).filter((k) => k !== "$ref" && !ANNOTATIONS.includes(k));
    if (siblings.length > 0) fail(pointer, `draft-07 ignores keywords beside $ref: ${siblings.join(", ")}`);
  }
  return node as Schema;
}

function resolveRef(
  value: unknown,
  at: string,
  ctx: NormalizeContext,
  fail: (at: string, reason: string) => never,
): string {
  const prefix = `#/${ctx.definitionsKey}/`;
  if (typeof value !== "string" || !value.startsWith(prefix) || value.slice(prefix.length).includes("/"))
    return fail(at, `unsupported $ref ${JSON.stringify(value)} (only ${prefix}<Name> is supported)`);
  const name = unescapeToken(value.slice(prefix.length));
  if (!ctx.definitionNames.has(name)) return fail(at, `dangling $ref: no definition "${name}"`);
  return name;
}
