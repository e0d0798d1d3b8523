import { GenerationError } from "../errors.js";
import { isPlainObject, normalize } from "../load/normalize.js";
import { childPointer, escapeToken, pointerTokens } from "../load/pointer.js";
import { SchemaIndex, type Located } from "../../runtime/json-schema/index.js";
import { DEFAULT_BASE, withoutFragment } from "../../runtime/json-schema/uri.js";
import type { Schema } from "../load/schema.js";
import { DEFINITIONS_KEY, dialectNamed, dialectOf, type Dialect } from "../../runtime/shared/dialect.js";
import { pascal } from "../scaffold/manifest.js";
import { JSON_SCHEMA_KEYWORDS, unknownKeywordMessage, VALIDATION_VOCABULARY_KEYWORDS, VOCABULARIES } from "../keywords/vocabulary.js";
import { childrenOf } from "../keywords/registry.js";

/**
 * The JSON Schemas of a server's tools (`inputSchema`, `outputSchema` of each entry in
 * mcp.server.json), normalised for the validator compiler (`generate --tools`). Each schema is
 * its own document: draft-07 when its `$schema` says so, else 2020-12 (as the runtime's
 * SchemaCompiler decides, or a supplied meta-schema's); its `$defs` / `definitions` are
 * definitions of their own, and a `$ref` or `$dynamicRef` becomes a call of the definition it
 * names (in the schema, or in a remote document the user supplied). Every keyword is read or
 * refused with its pointer into the manifest: a check is never skipped silently.
 */
export interface ToolSchemaEntry {
  readonly name: string;
  readonly inputSchema: Record<string, unknown>;
  readonly outputSchema?: Record<string, unknown>;
}

export interface LoadedTool {
  readonly name: string;
  /** The definition names of the tool's argument and output schemas. */
  readonly input: string;
  readonly output?: string;
}

export interface LoadedToolSchemas {
  readonly tools: readonly LoadedTool[];
  /** Every schema root and every `$defs` entry, by the name its validator functions carry. */
  readonly definitions: ReadonlyMap<string, Schema>;
  /** Formats left as annotations (the default policy, or a format no validator here asserts), listed for the user. */
  readonly annotatedFormats: readonly { readonly pointer: string; readonly format: string }[];
  /** Keywords no JSON Schema dialect defines (a typo, often): ignored, as JSON Schema ignores them, and listed. */
  readonly warnings: readonly { readonly pointer: string; readonly message: string }[];
}


/** Format policy (docs/validators.md, "Formats"): annotations unless `assertFormats`. */
export interface ToolSchemaOptions {
  readonly assertFormats?: boolean;
  /**
   * Documents a `$ref` may name besides the schema itself, by URI (`--tools-remotes <file.json>`,
   * as the runtime's `toolSchemaRemotes`): compiled in with the schemas that refer to them. Nothing is fetched.
   */
  readonly remotes?: Readonly<Record<string, unknown>>;
}

/** `file` names the manifest in errors; `tools` are its entries, `#/tools/<i>` in pointers. */
export function loadToolSchemas(file: string, tools: readonly ToolSchemaEntry[], options: ToolSchemaOptions = {}): LoadedToolSchemas {
  const definitions = new Map<string, Schema>();
  const loaded: LoadedTool[] = [];
  const owner = new Map<string, string>();
  const refused: string[] = [];
  const warnings: { pointer: string; message: string }[] = [];
  const unread = (keyword: string, at: string) => {
    if (JSON_SCHEMA_KEYWORDS.includes(keyword))
      refused.push(`${at}: "${keyword}" is not supported by the build-time validator compiler: rewrite the schema without it, or leave --tools out (the server then checks every tool with its run-time engine)`);
    else warnings.push({ pointer: at, message: unknownKeywordMessage(keyword) });
  };
  tools.forEach((tool, index) => {
    const base = pascal(tool.name);
    const names: { input: string; output?: string } = { input: "" };
    for (const which of ["inputSchema", "outputSchema"] as const) {
      const raw = tool[which];
      if (raw === undefined) continue;
      const name = `${base}${which === "inputSchema" ? "Input" : "Output"}`;
      const previous = owner.get(name);
      if (previous !== undefined) throw new GenerationError(file, `#/tools/${index}/name`, `tools ${previous} and ${tool.name} would share the validator name ${name}`);
      owner.set(name, tool.name);
      loadDocument(file, childPointer(`#/tools/${index}`, which), raw, name, definitions, unread, options);
      names[which === "inputSchema" ? "input" : "output"] = name;
    }
    loaded.push({ name: tool.name, ...names });
  });
  if (refused.length === 1) throw new GenerationError(file, refused[0]!.slice(0, refused[0]!.indexOf(": ")), refused[0]!.slice(refused[0]!.indexOf(": ") + 2));
  if (refused.length > 1) throw new GenerationError(file, "#/tools", `${refused.length} keywords are not supported:\n    ${refused.join("\n    ")}`);
  const annotatedFormats = [...definitions.values()].flatMap((schema) => formatsOf(schema));
  return { tools: loaded, definitions, annotatedFormats, warnings };
}

function loadDocument(
  file: string,
  pointer: string,
  raw: unknown,
  rootName: string,
  definitions: Map<string, Schema>,
  unread: (keyword: string, at: string) => void,
  options: ToolSchemaOptions,
): void {
  if (!isPlainObject(raw)) throw new GenerationError(file, pointer, "a tool schema must be a JSON object");
  const { dialect, ignored, assertFormats } = dialectAndVocabularies(file, pointer, raw, options.remotes ?? {});

  // Local definitions: `#/$defs/<Name>` and `#/definitions/<Name>` (either key, as ajv resolves both).
  const refs = new Map<string, string>([["#", rootName]]);
  const bodies: [string, string, unknown][] = [];
  for (const key of ["$defs", "definitions"]) {
    const map = raw[key];
    if (map === undefined) continue;
    if (!isPlainObject(map)) throw new GenerationError(file, childPointer(pointer, key), `${key} must be an object`);
    for (const [name, body] of Object.entries(map)) {
      const definition = `${rootName}_${identifier(name)}`;
      if (definitions.has(definition) || bodies.some(([n]) => n === definition))
        throw new GenerationError(file, childPointer(pointer, key, name), `two definitions would share the validator name ${definition}`);
      refs.set(`#/${key}/${escapeToken(name)}`, definition);
      bodies.push([definition, childPointer(pointer, key, name), body]);
    }
  }
  // Any other reference within the document (a pointer anywhere, an $id, an $anchor) becomes a
  // definition of its own, compiled once however many references name it.
  const index = new SchemaIndex(options.remotes ?? {}, dialect);
  const rootBase = index.add(raw, DEFAULT_BASE, pointer).base;

  // $dynamicRef (2020-12 core section 8.2.3.2) is resolved ahead of time: a definition is compiled
  // once per dynamic scope that can reach it, the scope reduced to what a $dynamicRef reads of it:
  // for each dynamic anchor name, the outermost resource entered on the way that defines one.
  // A document with no $dynamicAnchor has one empty scope, and one definition per place.
  type Scope = ReadonlyMap<string, string>;
  const enter = (scope: Scope, resource: string): Scope => {
    const anchors = [...index.dynamicAnchorsOf(resource)].filter((name) => !scope.has(name));
    return anchors.length === 0 ? scope : new Map([...scope, ...anchors.map((name): [string, string] => [name, resource])]);
  };
  const keyOf = (location: string, scope: Scope) => [location, ...[...scope].map(([name, resource]) => `${name}=${resource}`).sort()].join("\n");
  const rootScope = enter(new Map(), rootBase);
  const byLocation = new Map<string, string>([[keyOf(pointer, rootScope), rootName], ...bodies.map(([name, at]): [string, string] => [keyOf(at, rootScope), name])]);
  const pending: [string, string, unknown, Dialect, Scope][] = [];
  const names = new Set(byLocation.values());
  /** The definition being read, and the dynamic scope it was reached with. */
  let current: { location: string; scope: Scope } = { location: pointer, scope: rootScope };
  /** The dynamic scope at a keyword of the definition being read: its own, then each resource entered down to the keyword's node. */
  const scopeAt = (at: string): Scope => {
    let scope = current.scope;
    const tokens = at.slice(current.location.length, at.lastIndexOf("/")).split("/").slice(1);
    let location = current.location;
    for (const token of tokens) {
      location = `${location}/${token}`;
      const here = index.atLocation(location);
      if (here) scope = enter(scope, here.base);
    }
    return scope;
  };
  const located = (ref: unknown, at: string) => {
    const parent = typeof ref === "string" ? index.atLocation(at.slice(0, at.lastIndexOf("/"))) : undefined;
    const target = parent && index.resolve(ref as string, parent.base);
    // A remote's locations start with its URI (`https://example.com/s.json#/$defs/a`), the schema's own with `#`.
    const remote = target !== undefined && !target.location.startsWith("#");
    if (!target || !(remote || target.location === pointer || target.location.startsWith(`${pointer}/`)))
      throw new GenerationError(
        file,
        at,
        `unsupported $ref ${JSON.stringify(ref)}: it names no place in this schema nor in a remote document you supplied (--tools-remotes <file.json>, a map from URI to schema; nothing is fetched)`,
      );
    return { target, remote };
  };
  /** The definition of `target` reached with `scope`, compiled once however many references name it. */
  const define = (target: Located, remote: boolean, from: Scope): string => {
    const scope = enter(from, target.base);
    const key = keyOf(target.location, scope);
    let name = byLocation.get(key);
    if (name === undefined) {
      name = `${rootName}_${identifier(remote ? target.location : pointerTokens(`#${target.location.slice(pointer.length)}`).join("_"))}`;
      while (names.has(name) || definitions.has(name)) name = `${name}_`;
      names.add(name);
      byLocation.set(key, name);
      pending.push([name, target.location, target.schema, target.dialect, scope]);
    }
    return name;
  };
  const ctx = {
    revision: file,
    dialect,
    ...(ignored ? { ignored } : {}),
    definitionsKey: DEFINITIONS_KEY[dialect],
    definitionNames: names,
    tool: {
      resolveRef(ref: unknown, at: string): string {
        // The shortcuts name places in this schema, in its own scope: a remote's `#` is its own root.
        const named = typeof ref === "string" && at.startsWith("#") && current.scope === rootScope ? refs.get(ref) : undefined;
        if (named !== undefined) return named;
        const { target, remote } = located(ref, at);
        return define(target, remote, scopeAt(at));
      },
      resolveDynamicRef(ref: unknown, at: string): string {
        const { target, remote } = located(ref, at);
        const scope = scopeAt(at);
        // Bookended: only a fragment that names a $dynamicAnchor there is looked up in the dynamic scope, outermost first.
        const fragment = (ref as string).includes("#") ? (ref as string).slice((ref as string).indexOf("#") + 1) : "";
        const outermost = isPlainObject(target.schema) && target.schema.$dynamicAnchor === fragment ? scope.get(fragment) : undefined;
        const dynamic = outermost !== undefined ? index.resolve(`#${fragment}`, outermost) : undefined;
        return dynamic ? define(dynamic, !dynamic.location.startsWith("#"), scope) : define(target, remote, scope);
      },
      unread,
      ...(options.assertFormats || assertFormats ? { assertFormats: true } : {}),
    },
  };
  const { $schema: _dialect, $defs: _defs, definitions: _definitions, ...root } = raw;
  definitions.set(rootName, normalize(root, pointer, ctx));
  for (const [name, at, body] of bodies) {
    current = { location: at, scope: enter(rootScope, index.atLocation(at)?.base ?? rootBase) };
    definitions.set(name, normalize(body, at, ctx));
  }
  // A remote document is read in its own dialect.
  for (let next = pending.shift(); next; next = pending.shift()) {
    current = { location: next[1], scope: next[4] };
    const remote = !next[1].startsWith("#");
    definitions.set(next[0], normalize(next[2], next[1], remote ? { ...ctx, ignored: undefined, dialect: next[3], definitionsKey: DEFINITIONS_KEY[next[3]] } : ctx));
  }
}

/**
 * The document's dialect, from its `$schema`: draft-07, 2020-12, or a meta-schema the user
 * supplied among the remotes, read in the dialect of its own `$schema`, whose `$vocabulary` may
 * leave out the validation vocabulary (its keywords are then not checked, as the runtime does),
 * name the format-assertion one (formats are then asserted), and require no vocabulary this
 * compiler does not know.
 */
function dialectAndVocabularies(
  file: string,
  pointer: string,
  raw: Record<string, unknown>,
  remotes: Readonly<Record<string, unknown>>,
): { dialect: Dialect; ignored?: ReadonlySet<string>; assertFormats?: boolean } {
  const declared = raw.$schema;
  if (declared === undefined || dialectNamed(declared) !== undefined) return { dialect: dialectOf(raw) };
  const at = childPointer(pointer, "$schema");
  const meta = typeof declared === "string" ? (remotes[withoutFragment(declared)] ?? remotes[declared]) : undefined;
  const dialect = isPlainObject(meta) ? dialectNamed(meta.$schema) : undefined;
  if (!isPlainObject(meta) || dialect === undefined)
    throw new GenerationError(file, at, `unsupported dialect ${JSON.stringify(declared)} (supported: draft-07, 2020-12, or a meta-schema of theirs you supply with --tools-remotes)`);
  const vocabulary = meta.$vocabulary;
  if (!isPlainObject(vocabulary)) return { dialect };
  const unknown = Object.entries(vocabulary).find(([uri, required]) => required === true && !VOCABULARIES.includes(uri));
  if (unknown) throw new GenerationError(file, at, `the meta-schema ${declared} requires the vocabulary ${unknown[0]}, which this compiler does not know`);
  return {
    dialect,
    ...(Object.hasOwn(vocabulary, "https://json-schema.org/draft/2020-12/vocab/validation") ? {} : { ignored: VALIDATION_VOCABULARY_KEYWORDS }),
    // Whether required or not, a vocabulary this compiler knows is applied (2020-12 core section 8.1.2).
    ...(Object.hasOwn(vocabulary, "https://json-schema.org/draft/2020-12/vocab/format-assertion") ? { assertFormats: true } : {}),
  };
}

function formatsOf(schema: Schema): { pointer: string; format: string }[] {
  const found = schema.annotatedFormat !== undefined ? [{ pointer: `${schema.pointer}/format`, format: schema.annotatedFormat }] : [];
  return [...found, ...childrenOf(schema).flatMap(formatsOf)];
}

function identifier(name: string): string {
  return name.replace(/[^A-Za-z0-9_]/g, "_").replace(/^(\d)/, "_$1") || "_";
}
