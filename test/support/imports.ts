// The import reader the architecture tests share: every import of a module, static and dynamic,
// read with the TypeScript parser (not a regular expression, so comments and strings never count).
import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

export const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

export interface Found {
  readonly specifier: string;
  readonly dynamic: boolean;
  readonly typeOnly: boolean;
}

export function importsOf(file: string): Found[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const found: Found[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const typeOnly = ts.isImportDeclaration(node) ? (node.importClause?.isTypeOnly ?? false) : node.isTypeOnly;
      found.push({ specifier: node.moduleSpecifier.text, dynamic: false, typeOnly });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      found.push({ specifier: argument && ts.isStringLiteral(argument) ? argument.text : "<computed>", dynamic: true, typeOnly: false });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** A relative specifier's file: "./x.js" is x.ts in the sources. */
export function resolveLocal(from: string, specifier: string): string {
  const target = resolve(dirname(from), specifier);
  for (const candidate of [target.replace(/\.js$/, ".ts"), target, `${target}.ts`, join(target, "index.ts")]) if (statSync(candidate, { throwIfNoEntry: false })?.isFile()) return candidate;
  throw new Error(`${relative(root, from)}: cannot resolve ${specifier}`);
}

/** Every .ts module under `dir` (absolute paths). */
export function modulesUnder(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...modulesUnder(path));
    else if (entry.name.endsWith(".ts")) found.push(path);
  }
  return found;
}
