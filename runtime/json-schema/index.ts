import { dialectNamed, type Dialect } from "./dialect.js";
import { escapeToken } from "./pointer.js";
import { DEFAULT_BASE, fragmentOf, pointerTokens, resolveUri, withoutFragment } from "./uri.js";

/**
 * Where every schema of a document (and of the remotes the user supplied) lives: by absolute URI
 * (`$id`), by anchor (`$anchor`, `$dynamicAnchor`, draft-07's `$id: "#name"`) and by JSON Pointer
 * from each enclosing resource. Nothing is fetched: a reference to a document that is neither
 * the schema itself nor a supplied remote is an error naming it.
 */


export interface Located {
  readonly schema: unknown;
  /** The base URI of the resource the schema belongs to. */
  readonly base: string;
  /** Where the schema is, as a JSON Pointer fragment into its document (`#/$defs/a`), prefixed by the document's URI for a remote. */
  readonly location: string;
  readonly dialect: Dialect;
}

/** Keywords whose value is one schema, an array of schemas, or a map of names to schemas. */
const ONE = new Set(["additionalProperties", "propertyNames", "additionalItems", "contains", "not", "if", "then", "else", "unevaluatedItems", "unevaluatedProperties", "contentSchema"]);
const ONE_OR_LIST = new Set(["items"]);
const LIST = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);
const MAP = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"]);

export class SchemaIndex {
  private readonly byUri = new Map<string, Located>();
  private readonly located = new Map<object, Located>();
  private readonly byLocation = new Map<string, Located>();
  /** Resource URI -> its dynamic anchors' names. */
  private readonly dynamicAnchors = new Map<string, Set<string>>();
  /** Document URI -> its root (for pointers into places no schema keyword reaches). */
  private readonly documents = new Map<string, { root: unknown; dialect: Dialect; prefix: string }>();

  constructor(remotes: Readonly<Record<string, unknown>>, private readonly fallback: Dialect) {
    for (const [uri, schema] of Object.entries(remotes)) this.add(schema, withoutFragment(uri), `${withoutFragment(uri)}#`);
  }

  /** Adds a document; returns its root. `prefix` starts each location ("#" for the document under validation). */
  add(schema: unknown, uri: string = DEFAULT_BASE, prefix = "#"): Located {
    const dialect = dialectNamed(typeof schema === "object" && schema !== null ? (schema as { $schema?: unknown }).$schema : undefined) ?? this.fallback;
    this.documents.set(uri, { root: schema, dialect, prefix });
    this.walk(schema, uri, [{ uri, pointer: "" }], prefix, "", dialect, true);
    return this.located.get(schema as object) ?? { schema, base: uri, location: prefix, dialect };
  }

  private walk(node: unknown, base: string, resources: { uri: string; pointer: string }[], prefix: string, pointer: string, dialect: Dialect, isSchema: boolean): void {
    if (typeof node !== "object" || node === null) {
      if (isSchema) for (const r of resources) this.register(`${r.uri}#${r.pointer}`, { schema: node, base, location: `${prefix}${pointer}`, dialect });
      return;
    }
    const object = node as Record<string, unknown>;
    let here = base;
    let scopes = resources;
    if (isSchema && !Array.isArray(node)) {
      // draft-07: $ref beside $id makes the $id ignored (draft-07 section 8.3).
      const ignoresId = dialect === "draft-07" && typeof object.$ref === "string";
      const id = object.$id;
      if (typeof id === "string" && !ignoresId) {
        if (id.startsWith("#")) {
          if (dialect === "draft-07") this.register(resolveUri(id, base), { schema: node, base, location: `${prefix}${pointer}`, dialect });
        } else {
          here = withoutFragment(resolveUri(id, base));
          scopes = [...resources, { uri: here, pointer: "" }];
        }
      }
      const located: Located = { schema: node, base: here, location: `${prefix}${pointer}`, dialect };
      if (!this.located.has(node)) this.located.set(node, located);
      this.byLocation.set(located.location, located);
      for (const r of scopes) this.register(`${r.uri}#${r.pointer}`, located);
      if (here !== base) this.register(here, located);
      if (dialect === "2020-12") {
        if (typeof object.$anchor === "string") this.register(`${here}#${object.$anchor}`, located);
        if (typeof object.$dynamicAnchor === "string") {
          this.register(`${here}#${object.$dynamicAnchor}`, located);
          let names = this.dynamicAnchors.get(here);
          if (!names) this.dynamicAnchors.set(here, (names = new Set()));
          names.add(object.$dynamicAnchor);
        }
      }
    }
    for (const [key, value] of Object.entries(object)) {
      const token = `/${escapeToken(key)}`;
      const child = (v: unknown, t: string, schema: boolean) =>
        this.walk(v, here, scopes.map((r) => ({ uri: r.uri, pointer: `${r.pointer}${t}` })), prefix, `${pointer}${t}`, dialect, schema);
      if (!isSchema) {
        child(value, token, false);
        continue;
      }
      if (Array.isArray(node)) child(value, token, true);
      else if (ONE.has(key)) child(value, token, true);
      else if (ONE_OR_LIST.has(key) || LIST.has(key)) {
        if (Array.isArray(value)) value.forEach((v, i) => child(v, `${token}/${i}`, true));
        else child(value, token, true);
      } else if (MAP.has(key) && typeof value === "object" && value !== null && !Array.isArray(value))
        for (const [name, v] of Object.entries(value)) child(v, `${token}/${escapeToken(name)}`, !(key === "dependencies" && Array.isArray(v)));
      else if (key !== "enum" && key !== "const" && key !== "default" && key !== "examples") child(value, token, false);
    }
  }

  private register(uri: string, located: Located): void {
    if (!this.byUri.has(uri)) this.byUri.set(uri, located);
  }

  /** The schema `ref` names, resolved against `base`; undefined when nothing there is known. */
  resolve(ref: string, base: string): Located | undefined {
    const uri = resolveUri(ref, base);
    const found = this.byUri.get(uri.endsWith("#") ? uri : uri.includes("#") ? uri : `${uri}#`) ?? this.byUri.get(uri);
    if (found) return found;
    // A pointer through places no schema keyword reaches (an unknown keyword's value, say).
    const fragment = fragmentOf(uri);
    const tokens = pointerTokens(fragment);
    const resource = this.byUri.get(`${withoutFragment(uri)}#`);
    if (!tokens || !resource) return undefined;
    let node: unknown = resource.schema;
    for (const token of tokens) {
      if (typeof node !== "object" || node === null || !Object.prototype.hasOwnProperty.call(node, token)) return undefined;
      node = (node as Record<string, unknown>)[token];
    }
    return this.located.get(node as object) ?? { schema: node, base: resource.base, location: `${resource.location}${fragment.startsWith("/") ? fragment : ""}`, dialect: resource.dialect };
  }

  /** The schema at a location (`#/properties/a`, with the document's prefix). */
  atLocation(location: string): Located | undefined {
    return this.byLocation.get(location);
  }

  where(schema: object): Located | undefined {
    return this.located.get(schema);
  }

  /** A sub-schema of `parent`, at the keyword path `tokens` below it. */
  child(parent: Located, schema: unknown, ...tokens: (string | number)[]): Located {
    const found = typeof schema === "object" && schema !== null ? this.where(schema) : undefined;
    return found ?? { schema, base: parent.base, location: `${parent.location}${tokens.map((t) => `/${escapeToken(String(t))}`).join("")}`, dialect: parent.dialect };
  }

  hasDynamicAnchor(resource: string, name: string): boolean {
    return this.dynamicAnchors.get(resource)?.has(name) ?? false;
  }

  /** The names of a resource's dynamic anchors (`$dynamicAnchor`), for a compiler that resolves `$dynamicRef` ahead of time. */
  dynamicAnchorsOf(resource: string): ReadonlySet<string> {
    return this.dynamicAnchors.get(resource) ?? NONE;
  }
}

const NONE: ReadonlySet<string> = new Set();
