import { isPlainObject, normalize } from "./normalize.js";
import { childPointer, escapeToken, pointerTokens } from "../pointer.js";
import { SchemaIndex, type Located } from "../index.js";
import { DEFAULT_BASE, withoutFragment } from "../uri.js";
import { appliedInPlace } from "./in-place.js";
import { refuseNonJson } from "./json-tree.js";
import type { Schema } from "./schema.js";
import { DEFINITIONS_KEY, dialectNamed, dialectOf, type Dialect } from "../dialect.js";
import { VALIDATION_VOCABULARY_KEYWORDS, VOCABULARIES } from "../keywords/vocabulary.js";

/**
 * One JSON Schema document, normalised into definitions for the check IR: the document itself
 * (named `rootName`), each `$defs` / `definitions` entry, and each other place a `$ref` or
 * `$dynamicRef` names (in the document, or in a remote document the caller supplied: nothing is
 * fetched), compiled once however many references name it. Draft-07 when its `$schema` says so,
 * else 2020-12, or the dialect of a supplied meta-schema. Every keyword is read, reported as
 * unread, or refused with its pointer: a check is never skipped silently. `generate --tools` loads
 * each tool schema with it, and the runtime each schema it compiles to code.
 */

export interface DocumentOptions {
  /** Documents a `$ref` may name besides the document itself, by URI. */
  readonly remotes?: Readonly<Record<string, unknown>>;
  /** Assert formats (else each is an annotation, 2020-12's default). */
  readonly assertFormats?: boolean;
  /** The dialect of a document whose `$schema` names none (default 2020-12). */
  readonly dialect?: Dialect;
  /** At most this many definitions (a `$dynamicRef` compiles a definition per dynamic scope reaching it): refused beyond. */
  readonly maxDefinitions?: number;
  /** A `$schema` that names neither dialect nor a supplied meta-schema: refused, or read as the default dialect (the runtime, as JSON Schema lets an implementation). */
  readonly unknownDialect?: "refuse" | "default";
  /** How the user supplies remotes, for the message of a reference to none (`--tools-remotes <file.json>`). */
  readonly remotesOption: string;
  /** Refuses the document at `at` (a JSON Pointer). */
  readonly fail: (at: string, reason: string) => never;
  /** A keyword no module of this compiler reads. */
  readonly unread: (keyword: string, at: string) => void;
}

export function loadDocument(pointer: string, raw: unknown, rootName: string, definitions: Map<string, Schema>, options: DocumentOptions): void {
  const { fail, unread } = options;
  if (!isPlainObject(raw)) return fail(pointer, "a tool schema must be a JSON object");
  refuseNonJson(raw, pointer, fail);
  for (const [uri, remote] of Object.entries(options.remotes ?? {})) refuseNonJson(remote, `${uri}#`, fail);
  const { dialect, ignored, assertFormats } = dialectAndVocabularies(pointer, raw as Record<string, unknown>, options);

  // Local definitions: `#/$defs/<Name>` and `#/definitions/<Name>` (either key, as ajv resolves both).
  const refs = new Map<string, string>([["#", rootName]]);
  const bodies: [string, string, unknown][] = [];
  for (const key of ["$defs", "definitions"]) {
    const map = raw[key];
    if (map === undefined) continue;
    if (!isPlainObject(map)) return fail(childPointer(pointer, key), `${key} must be an object`);
    for (const [name, body] of Object.entries(map)) {
      const definition = `${rootName}_${identifier(name)}`;
      if (definitions.has(definition) || bodies.some(([n]) => n === definition))
        fail(childPointer(pointer, key, name), `two definitions would share the validator name ${definition}`);
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
      return fail(
        at,
        `$ref ${JSON.stringify(ref)} names no place in this schema nor in a remote document you supplied (${options.remotesOption}, a map from URI to schema; nothing is fetched)`,
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
    fail,
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
    if (definitions.size >= (options.maxDefinitions ?? Infinity)) fail(pointer, `more than ${options.maxDefinitions} definitions to compile (a definition per dynamic scope reaching it)`);
    current = { location: next[1], scope: next[4] };
    const remote = !next[1].startsWith("#");
    definitions.set(next[0], normalize(next[2], next[1], remote ? { ...ctx, ignored: undefined, dialect: next[3], definitionsKey: DEFINITIONS_KEY[next[3]] } : ctx));
  }
  refuseInPlaceCycles(definitions, names, fail);
}

/**
 * Refuses a reference that comes back to a schema in place, through `$ref`, `$dynamicRef`,
 * `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else` or `dependentSchemas`, with no property or
 * item between: checking a value against it would never end. JSON Schema 2020-12 leaves such a
 * schema undefined (core, "Guarding Against Infinite Recursion"); its printed check would overflow
 * the stack on the first value that reaches the reference.
 */
function refuseInPlaceCycles(definitions: ReadonlyMap<string, Schema>, names: Iterable<string>, fail: DocumentOptions["fail"]): void {
  const done = new Set<Schema>();
  const path = new Set<Schema>();
  const visit = (s: Schema): void => {
    if (done.has(s)) return;
    path.add(s);
    for (const { at, schema: next } of appliedInPlace(s, (name) => definitions.get(name))) {
      if (path.has(next)) fail(at, `refers back to ${next.pointer} in place, with no property or item between: checking a value against it would never end`);
      visit(next);
    }
    path.delete(s);
    done.add(s);
  };
  for (const name of names) {
    const definition = definitions.get(name);
    if (definition) visit(definition);
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
  pointer: string,
  raw: Record<string, unknown>,
  { remotes = {}, fail, remotesOption, dialect: fallback, unknownDialect }: DocumentOptions,
): { dialect: Dialect; ignored?: ReadonlySet<string>; assertFormats?: boolean } {
  const declared = raw.$schema;
  if (declared === undefined) return { dialect: fallback ?? "2020-12" };
  if (dialectNamed(declared) !== undefined) return { dialect: dialectOf(raw) };
  const at = childPointer(pointer, "$schema");
  const meta = typeof declared === "string" ? (remotes[withoutFragment(declared)] ?? remotes[declared]) : undefined;
  const dialect = isPlainObject(meta) ? dialectNamed(meta.$schema) : undefined;
  if ((!isPlainObject(meta) || dialect === undefined) && unknownDialect === "default") return { dialect: fallback ?? "2020-12" };
  if (!isPlainObject(meta) || dialect === undefined)
    return fail(at, `unsupported dialect ${JSON.stringify(declared)} (supported: draft-07, 2020-12, or a meta-schema of theirs you supply with ${remotesOption})`);
  const vocabulary = meta.$vocabulary;
  if (!isPlainObject(vocabulary)) return { dialect };
  const unknown = Object.entries(vocabulary).find(([uri, required]) => required === true && !VOCABULARIES.includes(uri));
  if (unknown) fail(at, `the meta-schema ${declared} requires the vocabulary ${unknown[0]}, which this compiler does not know`);
  return {
    dialect,
    ...(Object.hasOwn(vocabulary, "https://json-schema.org/draft/2020-12/vocab/validation") ? {} : { ignored: VALIDATION_VOCABULARY_KEYWORDS }),
    // Whether required or not, a vocabulary this compiler knows is applied (2020-12 core section 8.1.2).
    ...(Object.hasOwn(vocabulary, "https://json-schema.org/draft/2020-12/vocab/format-assertion") ? { assertFormats: true } : {}),
  };
}

function identifier(name: string): string {
  return name.replace(/[^A-Za-z0-9_]/g, "_").replace(/^(\d)/, "_$1") || "_";
}
