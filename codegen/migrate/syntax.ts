// The syntax the codemod reads and writes, over ts-morph nodes: no knowledge of the rewrite's
// state, so each piece is plain input to output (codegen/migrate/rewrite.ts holds the rewrite).
import {
  Node,
  type ArrowFunction,
  type CallExpression,
  type Expression,
  type FunctionExpression,
  type ObjectLiteralExpression,
  type PropertyAccessExpression,
  type SourceFile,
  SyntaxKind,
} from "ts-morph";

export type Fn = ArrowFunction | FunctionExpression;

/**
 * `node.replaceWithText(text)`, with text cut from elsewhere in the file: ts-morph indents every
 * line after the first by the node's own indentation, so those lines lose that much first.
 */
export function replace(node: Node, text: string): void {
  const full = node.getSourceFile().getFullText();
  const lineStart = full.lastIndexOf("\n", node.getStart() - 1) + 1;
  const indent = /^[ \t]*/.exec(full.slice(lineStart))![0].length;
  const [first, ...rest] = text.split("\n");
  node.replaceWithText([first, ...rest.map((line) => line.replace(new RegExp(`^[ \\t]{0,${indent}}`), ""))].join("\n"));
}

export function statementOf(node: Node): Node {
  return Node.isStatement(node) && !Node.isBlock(node) ? node : (node.getFirstAncestor((a) => Node.isStatement(a) && !Node.isBlock(a)) ?? node);
}

export function registrationKind(call: CallExpression): "tool" | "resource" | "prompt" | undefined {
  const callee = call.getExpression();
  if (!Node.isPropertyAccessExpression(callee)) return undefined;
  const first = call.getArguments()[0];
  if (!first || Node.isObjectLiteralExpression(first) || Node.isArrowFunction(first) || Node.isFunctionExpression(first)) return undefined;
  const name = callee.getName();
  if (name === "registerTool") return "tool";
  if (name === "registerResource") return "resource";
  if (name === "registerPrompt") return "prompt";
  // v1's older API takes the name first, as a string: this runtime's tool/resource/prompt take an object.
  const stringy = Node.isStringLiteral(first) || Node.isNoSubstitutionTemplateLiteral(first) || Node.isTemplateExpression(first);
  if (!stringy || call.getArguments().length < 2) return undefined;
  if (name === "tool") return "tool";
  if (name === "resource" && call.getArguments().length >= 3) return "resource";
  if (name === "prompt") return "prompt";
  return undefined;
}

/**
 * `server.method(definition, handler[, options])` in place of the SDK's call: the handler's node is
 * kept (steps marked inside it stay where they are), the arguments before it replaced.
 */
export function reshape(call: CallExpression, method: string, definition: string | InPlace, handler: string): void {
  replace((call.getExpression() as PropertyAccessExpression).getNameNode(), method);
  const last = call.getArguments().at(-1)!;
  if (last.getText() !== handler) replace(last, handler);
  if (typeof definition === "string") {
    for (const arg of call.getArguments().slice(0, -1).reverse()) call.removeArgument(arg);
    call.insertArgument(0, definition);
  } else {
    const { literal, first, set } = definition;
    for (const [key, value, renamed] of set) {
      const property = literal.getProperty(key);
      if (Node.isPropertyAssignment(property) || Node.isShorthandPropertyAssignment(property)) replace(property, `${renamed ?? key}: ${value}`);
      else literal.addPropertyAssignment({ name: renamed ?? key, initializer: value });
    }
    const at = call.getArguments().indexOf(literal);
    // The new properties first, as the literal's own lines are laid out: on its first property's line, or after its brace.
    const text = literal.getText();
    const firstProperty = literal.getProperties()[0];
    const offset = firstProperty ? firstProperty.getStart() - literal.getStart() : 1;
    const multiline = text.slice(0, offset).includes("\n");
    const lineIndent = multiline ? /[ \t]*$/.exec(text.slice(0, offset))![0] : "";
    const added = first.map(([name, value]) => `${name}: ${value}`).join(multiline ? `,\n${lineIndent}` : ", ");
    const inserted = firstProperty ? `${text.slice(0, offset)}${added},${multiline ? `\n${lineIndent}` : " "}${text.slice(offset)}` : `{ ${added} }`;
    replace(literal, multiline ? inserted : inserted.replace(/^\{(?! )/, "{ "));
    const args = call.getArguments();
    for (let i = args.length - 2; i >= 0; i--) if (i !== at) call.removeArgument(args[i]!);
  }
}

/** A registration's own object literal, edited in place: `first` put before its properties, `set` ones replaced (and renamed). */
export interface InPlace {
  readonly literal: ObjectLiteralExpression;
  readonly first: readonly [string, string][];
  readonly set: readonly (readonly [string, string, string?])[];
}

export function methodName(call: CallExpression): string {
  return (call.getExpression() as PropertyAccessExpression).getName();
}

/** An object literal's named properties picked out, the rest as written; undefined when it has spreads or methods among the picked. */
export function splitConfig(literal: ObjectLiteralExpression, pick: readonly string[]): { picked: Record<string, Expression | undefined>; rest: string[] } | undefined {
  const picked: Record<string, Expression | undefined> = {};
  const rest: string[] = [];
  for (const property of literal.getProperties()) {
    if (Node.isPropertyAssignment(property) && pick.includes(property.getName())) picked[property.getName()] = property.getInitializer();
    else if (Node.isShorthandPropertyAssignment(property) && pick.includes(property.getName())) picked[property.getName()] = property.getNameNode();
    else if (Node.isMethodDeclaration(property) || Node.isGetAccessorDeclaration(property) || Node.isSetAccessorDeclaration(property)) rest.push(property.getText());
    else if (Node.isSpreadAssignment(property)) return undefined;
    else rest.push(property.getText());
  }
  return { picked, rest };
}

/**
 * A template's `list` callback: the SDK's returns `{ resources }`, this runtime's the resources.
 * `() => ({ resources: x })` becomes `() => x`; any other callback is unwrapped around its call.
 */
export function lister(callback: Node | undefined, text: string, metadata: readonly string[]): string {
  const merge = metadata.length ? `.map((resource) => ({ ${metadata.join(", ")}, ...resource }))` : "";
  if (Node.isArrowFunction(callback)) {
    let body: Node = callback.getBody();
    while (Node.isParenthesizedExpression(body)) body = body.getExpression();
    const only = Node.isObjectLiteralExpression(body) ? body.getProperties() : [];
    if (only.length === 1 && Node.isPropertyAssignment(only[0]) && only[0].getName() === "resources") {
      const head = text.slice(0, callback.getEqualsGreaterThan().getEnd() - callback.getStart());
      return `${head} ${only[0].getInitializer()!.getText()}${merge}`;
    }
  }
  return `async (ctx) => (await (${text})(ctx)).resources${merge}`;
}

/** `{ method, params }` of a notification or request written inline. */
export function messageParts(message: ObjectLiteralExpression): { method: string; params?: string } | undefined {
  const method = message.getProperty("method");
  const params = message.getProperty("params");
  if (!Node.isPropertyAssignment(method) || message.getProperties().length > (params ? 2 : 1)) return undefined;
  if (params && !Node.isPropertyAssignment(params) && !Node.isShorthandPropertyAssignment(params)) return undefined;
  return { method: method.getInitializer()!.getText(), params: params ? (Node.isPropertyAssignment(params) ? params.getInitializer()!.getText() : "params") : undefined };
}

/**
 * A progress notification's `{ progressToken, progress, total?, message? }` as the arguments of
 * ctx.progress, which sends the request's own token: only when the token sent is that one.
 */
export function progressParts(message: ObjectLiteralExpression): string | undefined {
  const params = message.getProperty("params");
  const literal = Node.isPropertyAssignment(params) ? params.getInitializer() : undefined;
  if (!Node.isObjectLiteralExpression(literal)) return undefined;
  const values: Record<string, string> = {};
  for (const property of literal.getProperties()) {
    if (Node.isPropertyAssignment(property)) values[property.getName()] = property.getInitializer()!.getText();
    else if (Node.isShorthandPropertyAssignment(property)) values[property.getName()] = property.getName();
    else return undefined;
  }
  const { progressToken, progress, total, message: text, ...others } = values;
  if (!progressToken?.endsWith("meta.progressToken") || progress === undefined || Object.keys(others).length > 0) return undefined;
  return [progress, total ?? (text === undefined ? undefined : "undefined"), text].filter((v) => v !== undefined).join(", ");
}

/** `{ level, data, logger? }` as the arguments of `log(level, data, logger?)`. */
export function logParts(message: ObjectLiteralExpression): string | undefined {
  const value = (key: string) => {
    const property = message.getProperty(key);
    if (property === undefined) return undefined;
    if (Node.isPropertyAssignment(property)) return property.getInitializer()!.getText();
    if (Node.isShorthandPropertyAssignment(property)) return key;
    return null;
  };
  const level = value("level");
  const data = value("data");
  const logger = value("logger");
  if (!level || data === null || logger === null || message.getProperties().length > (logger ? 3 : 2)) return undefined;
  return [level, data ?? "undefined", ...(logger ? [logger] : [])].join(", ");
}

/** The identifiers in `fn` that name `name` (not property names, not shadowed in a nested function's parameters). */
export function identifierUses(fn: Fn, name: string): Node[] {
  return fn.getDescendantsOfKind(SyntaxKind.Identifier).filter((id) => {
    if (id.getText() !== name) return false;
    const parent = id.getParent();
    if (Node.isPropertyAccessExpression(parent) && parent.getNameNode() === id) return false;
    if (Node.isPropertyAssignment(parent) && parent.getNameNode() === id) return false;
    if (Node.isParameterDeclaration(parent) && parent.getParentOrThrow() === fn) return false;
    return true;
  });
}

/** The zod namespace a file imports (`import { z } from "zod"`, `import * as z from "zod/v4"`). */
export function zodName(file: SourceFile): string | undefined {
  for (const declaration of file.getImportDeclarations()) {
    if (!/^zod(\/v4|\/mini)?$/.test(declaration.getModuleSpecifierValue())) continue;
    const namespace = declaration.getNamespaceImport()?.getText();
    if (namespace) return namespace;
    const z = declaration.getNamedImports().find((s) => s.getName() === "z");
    if (z) return z.getAliasNode()?.getText() ?? "z";
  }
  return undefined;
}
