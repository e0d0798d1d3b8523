/**
 * One file for an entry point's modules, so that a server starts without loading fifty.
 *
 * Node 20 pays about 1 ms of CPU per ES module it loads (resolve, open, read, compile, link), and
 * `@mcp-codegen/runtime`'s main entry reaches about 45 of them: that was most of a stdio server's
 * start-up beyond node's own. `bundleModules` writes the static closure of one entry into
 * `bundle.js` beside it, each module wrapped in a function that runs once, in the order ES module
 * evaluation would run them (depth first, imports in source order), and returns its exports.
 * Every bundled file is then replaced by a stub that re-exports its module from the bundle, so:
 *
 * - the file layout, the `exports` map and the .d.ts files stay as they are;
 * - modules outside the bundle (other entry points, e.g. /http importing jsonrpc/errors.js) reach
 *   the same single instance through the stubs: no class exists twice;
 * - imports leaving the scope (by default the entry's folder; packages) stay real imports at the
 *   top of the bundle;
 * - relative dynamic imports and `import.meta.url` are rewritten to resolve from the bundle as they
 *   did from the module's own file;
 * - non-ASCII characters in comments are written as `\uXXXX`, so the bundle decodes on V8's ASCII path.
 *
 * It handles exactly what tsc emits for this runtime and refuses the rest by name, so a new
 * construct fails `make pack` instead of shipping changed semantics: import cycles (a wrapper
 * would see a binding before its module ran), `export let`/`var` (live bindings), default
 * exports and imports, destructuring exports, top-level await, a dynamic import of a computed
 * specifier, `import.meta` beyond `.url`, and an imported name its module does not export (ES modules fail that at link time; a destructuring would yield undefined).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";

/** The bundle's name, beside the entry. */
export const BUNDLE_FILE = "bundle.js";

interface Edit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

interface Module {
  readonly path: string;
  readonly id: string;
  /** Its body with its import and export syntax rewritten. */
  body: string;
  /** Exported name -> expression (local name, or another module's member). */
  readonly exports: Map<string, string>;
  /** Modules whose exports it re-exports wholesale. */
  readonly stars: string[];
}

export class BundleError extends Error {}

/**
 * Bundles the static closure of `entry` (a compiled ES module) within `root`: writes
 * `<dir of entry>/bundle.js` and turns every bundled file into a stub. Returns the bundled files.
 */
export function bundleModules(root: string, entry: string, scope: string = dirname(entry)): string[] {
  const entryPath = resolve(entry);
  const scopePath = resolve(scope);
  const bundlePath = join(dirname(entryPath), BUNDLE_FILE);
  const modules = new Map<string, Module>();
  /** External specifier (as written from the bundle) -> its namespace's name. */
  const externals = new Map<string, string>();
  const order: Module[] = [];
  const visiting = new Set<string>();

  const externalName = (specifier: string) => {
    let name = externals.get(specifier);
    if (!name) externals.set(specifier, (name = `__bundle_external_${externals.size}`));
    return name;
  };

  const load = (path: string, chain: readonly string[]): Module => {
    const seen = modules.get(path);
    if (seen) return seen;
    if (visiting.has(path)) throw new BundleError(`import cycle: ${[...chain.slice(chain.indexOf(path)), path].map((p) => relative(root, p)).join(" -> ")}`);
    visiting.add(path);
    const fromBundle = (specifier: string) => {
      const relocated = relative(dirname(bundlePath), resolve(dirname(path), specifier)).split(sep).join("/");
      return relocated.startsWith(".") ? relocated : `./${relocated}`;
    };
    const module = parse(path, root, fromBundle, (specifier) => {
      if (!specifier.startsWith(".")) return { external: externalName(specifier) };
      const target = resolve(dirname(path), specifier);
      // Only the scope (by default the entry's own folder) is bundled; beyond it imports stay imports.
      if (!target.startsWith(scopePath + sep)) return { external: externalName(fromBundle(specifier)) };
      return { module: load(target, [...chain, path]) };
    });
    visiting.delete(path);
    modules.set(path, module);
    order.push(module); // after its dependencies: the order ES modules evaluate in
    return module;
  };
  load(entryPath, []);

  // Exported names, with stars resolved, and every named import checked against them.
  const exportNames = new Map<Module, Set<string>>();
  const namesOf = (module: Module): Set<string> => {
    let names = exportNames.get(module);
    if (names) return names;
    names = new Set(module.exports.keys());
    for (const star of module.stars) for (const name of namesOf(modules.get(star)!)) names.add(name);
    exportNames.set(module, names);
    return names;
  };
  for (const module of order) namesOf(module);

  const lines = [`// ${order.length} modules of ${relative(root, entryPath).split(sep).join("/")}, bundled by packages/bundle.ts: each runs once, in ES module order.`];
  for (const [specifier, name] of externals) lines.push(`import * as ${name} from ${JSON.stringify(specifier)};`);
  for (const module of order) {
    const members = [...module.stars.map((star) => `...${modules.get(star)!.id}`), ...[...module.exports].map(([name, value]) => (name === value ? name : `${name}: ${value}`))];
    lines.push(`// ${relative(root, module.path).split(sep).join("/")}`);
    lines.push(`const ${module.id} = (() => {\n${module.body.trim()}\nreturn { ${members.join(", ")} };\n})();`);
  }
  lines.push(`export const modules = { ${order.map((m) => `${JSON.stringify(relative(dirname(bundlePath), m.path).split(sep).join("/"))}: ${m.id}`).join(", ")} };`);
  const bundle = lines.join("\n") + "\n";
  for (const module of order) checkImports(module, exportNames, root);

  writeFileSync(bundlePath, bundle);
  for (const module of order) {
    const fromStub = relative(dirname(module.path), bundlePath).split(sep).join("/");
    const key = JSON.stringify(relative(dirname(bundlePath), module.path).split(sep).join("/"));
    const names = [...namesOf(module)];
    const stub = [`// Bundled into ${BUNDLE_FILE} (packages/bundle.ts); this file re-exports the one instance.`, `import { modules } from ${JSON.stringify(fromStub.startsWith(".") ? fromStub : `./${fromStub}`)};`];
    if (names.length > 0) stub.push(`export const { ${names.join(", ")} } = modules[${key}];`);
    writeFileSync(module.path, stub.join("\n") + "\n");
  }
  return order.map((m) => m.path);
}

type Target = { module: Module; external?: undefined } | { external: string; module?: undefined };

/** Named imports recorded while parsing, checked once every module's exports are known. */
const pendingImports = new WeakMap<Module, { from: Module; names: string[] }[]>();

function checkImports(module: Module, exportNames: Map<Module, Set<string>>, root: string): void {
  for (const { from, names } of pendingImports.get(module) ?? [])
    for (const name of names)
      if (!exportNames.get(from)!.has(name))
        throw new BundleError(`${relative(root, module.path)} imports ${name}, which ${relative(root, from.path)} does not export`);
}

let nextId = 0;

/**
 * `fromBundle` turns a specifier relative to `path` into one relative to the bundle: the bundle
 * sits elsewhere, so a relative `import("./x.js")` and `import.meta.url` would resolve from there.
 */
function parse(path: string, root: string, fromBundle: (specifier: string) => string, target: (specifier: string) => Target): Module {
  const text = readFileSync(path, "utf8");
  const where = (node: ts.Node) => `${relative(root, path)}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const module: Module = { path, id: `__bundle_module_${nextId++}`, body: "", exports: new Map(), stars: [] };
  if (text.includes("__bundle_")) throw new BundleError(`${relative(root, path)} uses the bundle's reserved prefix __bundle_`);
  const imports: { from: Module; names: string[] }[] = [];
  pendingImports.set(module, imports);
  const edits: Edit[] = [];
  const remove = (node: ts.Node, text = "") => edits.push({ start: node.getStart(source), end: node.getEnd(), text });
  const namespaceOf = (specifier: ts.Expression) => {
    return target((specifier as ts.StringLiteral).text);
  };
  const refuse = (node: ts.Node, what: string): never => {
    throw new BundleError(`${where(node)}: ${what} cannot be bundled (packages/bundle.ts)`);
  };

  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const from = namespaceOf(statement.moduleSpecifier);
      const namespace = from.module?.id ?? from.external!;
      const clause = statement.importClause;
      if (!clause) remove(statement); // for its side effects: the order already runs it first
      else if (clause.isTypeOnly) remove(statement);
      else if (clause.name) refuse(statement, "a default import");
      else if (clause.namedBindings && ts.isNamespaceImport(clause.namedBindings)) remove(statement, `const ${clause.namedBindings.name.text} = ${namespace};`);
      else if (clause.namedBindings) {
        const elements = clause.namedBindings.elements.filter((e) => !e.isTypeOnly);
        if (from.module) imports.push({ from: from.module, names: elements.map((e) => (e.propertyName ?? e.name).getText(source)) });
        const bindings = elements.map((e) => (e.propertyName ? `${e.propertyName.getText(source)}: ${e.name.text}` : e.name.text));
        remove(statement, bindings.length > 0 ? `const { ${bindings.join(", ")} } = ${namespace};` : "");
      }
    } else if (ts.isExportDeclaration(statement)) {
      if (statement.isTypeOnly) {
        remove(statement);
        continue;
      }
      const clause = statement.exportClause;
      if (statement.moduleSpecifier) {
        const from = namespaceOf(statement.moduleSpecifier);
        const namespace = from.module?.id ?? from.external!;
        if (!clause) {
          if (!from.module) refuse(statement, "export * from a module outside the bundle");
          module.stars.push(from.module!.path);
        } else if (ts.isNamespaceExport(clause)) module.exports.set(clause.name.text, namespace);
        else {
          const elements = clause.elements.filter((e) => !e.isTypeOnly);
          if (from.module) imports.push({ from: from.module, names: elements.map((e) => (e.propertyName ?? e.name).getText(source)) });
          for (const e of elements) module.exports.set(e.name.getText(source), `${namespace}.${(e.propertyName ?? e.name).getText(source)}`);
        }
      } else if (clause && ts.isNamedExports(clause)) {
        for (const e of clause.elements) if (!e.isTypeOnly) module.exports.set(e.name.getText(source), (e.propertyName ?? e.name).getText(source));
      }
      if (module.exports.has("default")) refuse(statement, "a default export");
      remove(statement);
    } else if (ts.isExportAssignment(statement)) refuse(statement, "a default export");
    else if (ts.canHaveModifiers(statement) && ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) {
      const modifiers = ts.getModifiers(statement)!;
      if (modifiers.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword)) refuse(statement, "a default export");
      const exportKeyword = modifiers.find((m) => m.kind === ts.SyntaxKind.ExportKeyword)!;
      edits.push({ start: exportKeyword.getStart(source), end: exportKeyword.getEnd(), text: "" });
      if (ts.isVariableStatement(statement)) {
        if (!(statement.declarationList.flags & ts.NodeFlags.Const)) refuse(statement, "an exported let or var (a live binding)");
        for (const declaration of statement.declarationList.declarations) {
          if (!ts.isIdentifier(declaration.name)) refuse(declaration, "a destructuring export");
          module.exports.set((declaration.name as ts.Identifier).text, (declaration.name as ts.Identifier).text);
        }
      } else if ((ts.isClassDeclaration(statement) || ts.isFunctionDeclaration(statement)) && statement.name) module.exports.set(statement.name.text, statement.name.text);
      else refuse(statement, `an exported ${ts.SyntaxKind[statement.kind]}`);
    }
  }
  // Top-level await would make the wrapper a syntax error, or change when the module finishes.
  const findAwait = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return;
    if (ts.isAwaitExpression(node) || (ts.isForOfStatement(node) && node.awaitModifier)) refuse(node, "top-level await");
    ts.forEachChild(node, findAwait);
  };
  for (const statement of source.statements) findAwait(statement);
  // Dynamic imports and import.meta.url, anywhere in the module, resolved from where the module was.
  const relocate = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const specifier = node.arguments[0];
      if (!specifier || !ts.isStringLiteralLike(specifier)) refuse(node, "a dynamic import of a computed specifier");
      const text = (specifier as ts.StringLiteralLike).text;
      if (text.startsWith(".")) remove(specifier!, JSON.stringify(fromBundle(text)));
    } else if (ts.isMetaProperty(node) && node.keywordToken === ts.SyntaxKind.ImportKeyword) {
      const access = node.parent;
      if (!ts.isPropertyAccessExpression(access) || access.name.text !== "url") refuse(node, "import.meta other than import.meta.url");
      remove(access, `new URL(${JSON.stringify(fromBundle(`./${basename(path)}`))}, import.meta.url).href`);
    }
    ts.forEachChild(node, relocate);
  };
  relocate(source);
  // Comments in ASCII: V8 decodes an all-ASCII source on its fast path, and one "µ" in a comment
  // cost the runtime's bundle about 6 million instructions of UTF-8 decoding at start-up (issue 19).
  const comments = new Map<number, number>();
  const collect = (node: ts.Node): void => {
    for (const range of [...(ts.getLeadingCommentRanges(text, node.pos) ?? []), ...(ts.getTrailingCommentRanges(text, node.end) ?? [])]) comments.set(range.pos, range.end);
    ts.forEachChild(node, collect);
  };
  collect(source);
  for (const [start, end] of comments) {
    const comment = text.slice(start, end);
    if (!/[^\x00-\x7f]/.test(comment) || edits.some((edit) => edit.start < end && start < edit.end)) continue;
    edits.push({ start, end, text: comment.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`) });
  }

  let body = text;
  for (const edit of edits.sort((a, b) => b.start - a.start)) body = body.slice(0, edit.start) + edit.text + body.slice(edit.end);
  module.body = body;
  return module;
}
