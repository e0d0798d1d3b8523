import {
  Node,
  SyntaxKind,
  type Block,
  type CallExpression,
  type Expression,
  type ImportDeclaration,
  type NewExpression,
  type PropertyAccessExpression,
  type ObjectLiteralExpression,
  type SourceFile,
  type VariableStatement,
} from "ts-morph";
import {
  identifierUses,
  lister,
  logParts,
  messageParts,
  methodName,
  progressParts,
  registrationKind,
  replace,
  reshape,
  splitConfig,
  statementOf,
  zodName,
  type Fn,
  type InPlace,
} from "./syntax.js";

/** Something the codemod could not rewrite, where, and what to do instead. */
export interface ManualStep {
  /** 1-based line and column in the rewritten file, where a `TODO(mcp-codegen migrate)` comment marks it. */
  readonly line: number;
  readonly column: number;
  readonly what: string;
  readonly todo: string;
}

/** What one file became: its new text, what was rewritten, what is left to the user. */
export interface FileRewrite {
  readonly text: string;
  readonly rewrites: number;
  /** Rewritten, but behaving a little differently: said so the change is not silent. */
  readonly notes: readonly { readonly line: number; readonly message: string }[];
  readonly steps: readonly ManualStep[];
}

/** The SDK's server modules, v1 (`@modelcontextprotocol/sdk/...`) and v2 (`@modelcontextprotocol/server`, `node`, `express`, `hono`). */
export function isSdkModule(specifier: string): boolean {
  return /^@modelcontextprotocol\/(sdk\/|server$|server\/|node$|express$|hono$)/.test(specifier);
}

const RUNTIME = "@mcp-codegen/runtime";
const TODO = "TODO(mcp-codegen migrate):";

/** SDK names this runtime exports under the same name, as types. */
const SAME_TYPES = new Set([
  "CallToolResult",
  "GetPromptResult",
  "ReadResourceResult",
  "Tool",
  "Resource",
  "Prompt",
  "PromptMessage",
  "TextContent",
  "ImageContent",
  "AudioContent",
  "EmbeddedResource",
  "ResourceLink",
  "ContentBlock",
  "ToolAnnotations",
  "Implementation",
  "ServerCapabilities",
]);

/** The server transports that have no one-line equivalent: the runtime serves HTTP sessions itself. */
const HTTP_TRANSPORTS: Record<string, string> = {
  StreamableHTTPServerTransport: "httpHandler(server) from @mcp-codegen/runtime/http, mounted on one route for POST, GET and DELETE (app.all(\"/mcp\", handler)), or server.listen(http({ port }))",
  NodeStreamableHTTPServerTransport: "httpHandler(server) from @mcp-codegen/runtime/http, mounted on one route for POST, GET and DELETE (app.all(\"/mcp\", handler)), or server.listen(http({ port }))",
  WebStandardStreamableHTTPServerTransport: "fetchHandler(server) from @mcp-codegen/runtime/http: return handler(request) from your route",
  SSEServerTransport: "the deprecated HTTP+SSE transport (2024-11-05) has no equivalent: serve Streamable HTTP with httpHandler(server) from @mcp-codegen/runtime/http",
};

/**
 * Rewrites one source file of an SDK v1 or v2 server onto @mcp-codegen/runtime. Returns undefined
 * when the file does not use the SDK's server.
 */
export function rewriteFile(file: SourceFile): FileRewrite | undefined {
  const sdkImports = file.getImportDeclarations().filter((d) => isSdkModule(d.getModuleSpecifierValue()));
  if (sdkImports.length === 0) return undefined;
  const names = importedNames(sdkImports);
  const run = new Rewrite(file, names);
  run.all();
  return run.finish(sdkImports);
}

/** Local name -> the SDK's exported name, for the SDK imports of a file. */
function importedNames(imports: readonly ImportDeclaration[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const declaration of imports)
    for (const specifier of declaration.getNamedImports()) names.set(specifier.getAliasNode()?.getText() ?? specifier.getName(), specifier.getName());
  return names;
}

class Rewrite {
  rewrites = 0;
  private readonly notes: { node: Node; message: string }[] = [];
  private readonly steps: { node: Node; what: string; todo: string }[] = [];
  private readonly runtimeNames = new Set<string>();
  /** Options arguments (`{ list, complete }`) to write after a handler, laid out as the call is (finish). */
  private readonly options: { after: Node; properties: string[] }[] = [];
  /** The functions that build a server (`const getServer = () => { ... createServer(...) }`). */
  private readonly factories = new Set<string>();
  /** What the rewrite imports from @mcp-codegen/runtime/http. */
  private readonly httpNames = new Set<string>();
  private readonly zod: string | undefined;
  private readonly local: (sdkName: string) => string[];

  constructor(
    private readonly file: SourceFile,
    names: ReadonlyMap<string, string>,
  ) {
    this.local = (sdkName) => [...names].filter(([, exported]) => exported === sdkName).map(([local]) => local);
    this.zod = zodName(file);
  }

  all(): void {
    this.registrations();
    this.serverCalls();
    this.constructors();
    this.httpRoutes();
    this.transports();
    this.lowLevel();
  }

  /**
   * The SDK's HTTP plumbing, where it has the usual shape: routes (`app.post("/mcp", ...)`, any
   * method) whose handler builds a Streamable HTTP transport per request or session, connects a
   * server from a factory (`getServer()`) and hands it the request. Here one server serves every
   * session: the routes go to `httpHandler(getServer())` (express, node:http) or
   * `fetchHandler(getServer())` (hono); the handlers that kept the SDK's sessions go, and a note says so.
   */
  private httpRoutes(): void {
    const node = [...this.local("StreamableHTTPServerTransport"), ...this.local("NodeStreamableHTTPServerTransport")];
    const web = this.local("WebStandardStreamableHTTPServerTransport");
    if (node.length + web.length === 0) return;
    const handlerOf = (call: CallExpression): { fn: Fn; declaration?: Node } | undefined => {
      const last = call.getArguments().at(-1);
      if (Node.isArrowFunction(last) || Node.isFunctionExpression(last)) return { fn: last };
      if (!Node.isIdentifier(last)) return undefined;
      const declaration = last.getSymbol()?.getDeclarations()[0];
      const initializer = Node.isVariableDeclaration(declaration) ? declaration.getInitializer() : undefined;
      return Node.isArrowFunction(initializer) || Node.isFunctionExpression(initializer) ? { fn: initializer, declaration: declaration!.getFirstAncestorByKind(SyntaxKind.VariableStatement) } : undefined;
    };
    const routes = this.file.getDescendantsOfKind(SyntaxKind.CallExpression).filter((call) => {
      const callee = call.getExpression();
      const [path] = call.getArguments();
      return (
        Node.isPropertyAccessExpression(callee) &&
        ["post", "get", "delete", "all"].includes(callee.getName()) &&
        call.getArguments().length >= 2 &&
        (Node.isStringLiteral(path) || Node.isNoSubstitutionTemplateLiteral(path)) &&
        /\.handleRequest\(/.test(handlerOf(call)?.fn.getText() ?? "")
      );
    });
    if (routes.length === 0) return;
    // The factory: the server the handlers connect, `const server = getServer(); await server.connect(transport)`.
    let factory: string | undefined;
    let isWeb = false;
    for (const route of routes)
      for (const connect of handlerOf(route)!.fn.getDescendantsOfKind(SyntaxKind.CallExpression)) {
        const callee = connect.getExpression();
        if (!Node.isPropertyAccessExpression(callee) || callee.getName() !== "connect") continue;
        const server = callee.getExpression();
        const declaration = Node.isIdentifier(server) ? server.getSymbol()?.getDeclarations()[0] : undefined;
        const initializer = Node.isVariableDeclaration(declaration) ? declaration.getInitializer() : Node.isCallExpression(server) ? server : undefined;
        if (Node.isCallExpression(initializer) && initializer.getArguments().length === 0 && this.factories.has(initializer.getExpression().getText())) factory = initializer.getText();
        const transport = connect.getArguments()[0];
        const built = Node.isIdentifier(transport) ? transport.getSymbol()?.getDeclarations()[0] : undefined;
        if (Node.isVariableDeclaration(built) && web.some((name) => built.getInitializer()?.getText().startsWith(`new ${name}(`))) isWeb = true;
      }
    if (factory === undefined) return;
    const handler = isWeb ? "fetchHandler" : "httpHandler";
    let name = "mcpHttp";
    while (this.file.getDescendantsOfKind(SyntaxKind.Identifier).some((id) => id.getText() === name)) name = `_${name}`;
    const declarations = new Set<Node>();
    const methods: string[] = [];
    for (const route of [...routes].reverse()) {
      const found = handlerOf(route)!;
      if (found.declaration) declarations.add(found.declaration);
      methods.unshift((route.getExpression() as PropertyAccessExpression).getName().toUpperCase());
      replace(route.getArguments().at(-1)!, isWeb ? `(c) => ${name}(c.req.raw)` : `(req, res) => ${name}(req, res, req.body)`);
    }
    const first = statementOf(routes[0]!);
    const container = first.getParentOrThrow();
    const removed: string[] = [];
    for (const declaration of declarations) {
      const variable = declaration.getFirstDescendantByKind(SyntaxKind.VariableDeclaration)!.getName();
      if (this.file.getDescendantsOfKind(SyntaxKind.Identifier).filter((id) => id.getText() === variable).length === 1) {
        removed.push(variable);
        (declaration as VariableStatement).remove();
      }
    }
    const statements = container as SourceFile | Block;
    statements.insertStatements(first.getChildIndex(), `const ${name} = ${handler}(${factory});`);
    this.httpNames.add(handler);
    const inserted = statements.getStatements().find((st) => st.getText().startsWith(`const ${name} = `))!;
    this.note(
      inserted,
      `the ${[...new Set(methods)].join(", ")} routes of ${routes[0]!.getArguments()[0]!.getText()} go to ${handler}(${factory}): one server for every session, whose ids, streams and resumability the runtime keeps` +
        (removed.length ? `; the SDK's per-session handlers ${removed.join(", ")} went with them` : "; the SDK's per-session handlers went with them"),
    );
    this.rewrites++;
  }

  /** What is left of `server.server` (the SDK's low-level Server) and `server.experimental`: neither exists here. */
  private lowLevel(): void {
    const servers = new Set(
      this.file
        .getDescendantsOfKind(SyntaxKind.VariableDeclaration)
        .filter((d) => /^createServer\(/.test(d.getInitializer()?.getText() ?? ""))
        .map((d) => d.getName()),
    );
    const marked = new Set(this.steps.map((s) => s.node));
    for (const access of this.file.getDescendantsOfKind(SyntaxKind.PropertyAccessExpression)) {
      const inner = access.getExpression();
      if (!Node.isIdentifier(inner) || !servers.has(inner.getText()) || !["server", "experimental"].includes(access.getName())) continue;
      const statement = statementOf(access);
      if (marked.has(statement)) continue;
      marked.add(statement);
      const outer = access.getParent();
      const what = Node.isPropertyAccessExpression(outer) ? outer.getText() : access.getText();
      this.step(
        access,
        `${what} (the SDK's ${access.getName() === "server" ? "low-level Server" : "experimental API"})`,
        "not exposed here: inside a handler, ctx.sample/ctx.elicit/ctx.listRoots/ctx.notify; server-wide, server.notify/server.log; other methods, server.handle(method, handler); tasks, ctx.task",
      );
    }
  }

  /** Steps and notes are kept by their statement, which outlives the rewrites of the expressions in it. */
  private step(node: Node, what: string, todo: string): void {
    this.steps.push({ node: statementOf(node), what: this.within ? `${this.within}: ${what}` : what, todo });
  }

  /** The registration whose handler is being rewritten ("tool 'greet'"), named in its steps. */
  private within: string | undefined;

  private note(node: Node, message: string): void {
    this.notes.push({ node: statementOf(node), message });
  }

  // -- registrations ---------------------------------------------------------------------------------

  /** `registerTool`/`tool`, `registerResource`/`resource`, `registerPrompt`/`prompt`, last first so earlier nodes stay valid. */
  private registrations(): void {
    const calls = this.file.getDescendantsOfKind(SyntaxKind.CallExpression).filter((call) => registrationKind(call) !== undefined);
    for (const call of calls.reverse()) {
      const kind = registrationKind(call)!;
      if (kind === "tool") this.tool(call);
      else if (kind === "resource") this.resource(call);
      else this.prompt(call);
    }
  }

  /** The registration's returned handle (enable, disable, update, remove) does not exist here. */
  private checkHandleUnused(call: CallExpression, what: string): void {
    const parent = call.getParent();
    if (parent && !Node.isExpressionStatement(parent) && !Node.isAwaitExpression(parent))
      this.step(call, `the handle ${what} returns (enable, disable, update, remove) is not kept`, "registration returns the server here: use server.removeTool/removeResource/removePrompt and register again to change one");
  }

  private tool(call: CallExpression): void {
    const method = methodName(call);
    const args = call.getArguments() as Expression[];
    const name = args[0]!.getText();
    let config: { input?: Expression; output?: Expression; rest: string[] };
    const handler = args.at(-1)!;
    if (method === "registerTool") {
      if (args.length !== 3) return this.step(call, `registerTool(${name}) with ${args.length} arguments`, "register it with server.tool({ name, inputSchema, ... }, handler)");
      const literal = args[1]!;
      if (!Node.isObjectLiteralExpression(literal)) return this.step(call, `registerTool(${name})'s config is not written inline`, "register it with server.tool({ name, ...config, inputSchema: z.object(shape) }, handler)");
      const split = splitConfig(literal, ["inputSchema", "outputSchema"]);
      if (!split) return this.step(call, `registerTool(${name})'s config has spreads or methods`, "register it with server.tool({ name, ...config }, handler)");
      config = { input: split.picked.inputSchema, output: split.picked.outputSchema, rest: split.rest };
    } else {
      // tool(name, description?, paramsSchema?, annotations?, handler): the SDK tells a shape from annotations by its zod values.
      const middle = args.slice(1, -1);
      config = { rest: [] };
      for (const arg of middle) {
        if (Node.isStringLiteral(arg) || Node.isNoSubstitutionTemplateLiteral(arg) || Node.isTemplateExpression(arg)) config.rest.push(`description: ${arg.getText()}`);
        else if (Node.isObjectLiteralExpression(arg) && !this.isShape(arg)) config.rest.push(`annotations: ${arg.getText()}`);
        else if (config.input === undefined) config.input = arg;
        else return this.step(call, `tool(${name}) with arguments the SDK's overloads do not take`, "register it with server.tool({ name, inputSchema, ... }, handler)");
      }
    }
    this.checkHandleUnused(call, `tool(${name})`);
    const input = config.input === undefined ? undefined : this.schema(config.input, `tool ${name}'s inputSchema`);
    const output = config.output === undefined ? undefined : this.schema(config.output, `tool ${name}'s outputSchema`);
    if (input === null || output === null) return;
    this.within = `tool ${name}`;
    const handlerText = this.handler(handler, input === undefined ? 0 : 1, 2);
    this.within = undefined;
    if (method === "registerTool") {
      const schemas: [string, string][] = [["inputSchema", input ?? '{ type: "object", properties: {} }']];
      if (output !== undefined) schemas.push(["outputSchema", output]);
      reshape(call, "tool", { literal: args[1] as ObjectLiteralExpression, first: [["name", name]], set: schemas }, handlerText);
    } else {
      const fields = [`name: ${name}`, ...config.rest, `inputSchema: ${input ?? '{ type: "object", properties: {} }'}`];
      reshape(call, "tool", `{ ${fields.join(", ")} }`, handlerText);
    }
    this.rewrites++;
  }

  /** A zod raw shape as `z.object(shape)`; a schema as it is; null when neither can be told (a step is recorded). */
  private schema(expression: Expression, what: string): string | null {
    let shape: Node | undefined = expression;
    if (Node.isIdentifier(expression)) {
      const declaration = expression.getSymbol()?.getDeclarations()[0];
      shape = Node.isVariableDeclaration(declaration) ? declaration.getInitializer() : undefined;
      if (shape === undefined) {
        this.step(expression, `${what} is ${expression.getText()}, declared elsewhere`, `pass a Standard Schema (zod: z.object(${expression.getText()}) for a raw shape)`);
        return null;
      }
    }
    if (!Node.isObjectLiteralExpression(shape)) return expression.getText();
    // An empty shape takes no arguments: a JSON Schema says so without zod.
    if (shape.getProperties().length === 0 && this.zod === undefined) return '{ type: "object", properties: {} }';
    if (this.zod === undefined) {
      this.step(expression, `${what} is a zod raw shape, but the file imports no zod namespace`, "wrap it in z.object(...) from zod 4");
      return null;
    }
    return `${this.zod}.object(${expression.getText()})`;
  }

  /** Whether an object literal is a zod raw shape (its values are zod schemas) rather than annotations. */
  private isShape(literal: ObjectLiteralExpression): boolean {
    const zod = this.zod ?? "z";
    // The SDK takes an empty object for an empty shape.
    if (literal.getProperties().length === 0) return true;
    return literal.getProperties().some((p) => Node.isPropertyAssignment(p) && (p.getInitializer()?.getText() ?? "").startsWith(`${zod}.`));
  }

  private resource(call: CallExpression): void {
    const args = call.getArguments() as Expression[];
    const name = args[0]!.getText();
    const method = methodName(call);
    if (args.length < 3 || args.length > 4 || (method === "registerResource" && args.length !== 4))
      return this.step(call, `${method}(${name}) with ${args.length} arguments`, "register it with server.resource({ uri, name, ... }, handler) or server.resourceTemplate({ uriTemplate, name, ... }, handler, { list, complete })");
    const metadata = args.length === 4 ? args[2]! : undefined;
    let rest: string[] = [];
    if (metadata) {
      if (!Node.isObjectLiteralExpression(metadata)) rest = [`...${metadata.getText()}`];
      else {
        const split = splitConfig(metadata, []);
        if (!split) return this.step(call, `${method}(${name})'s metadata has methods`, "write the metadata as plain properties");
        rest = split.rest;
      }
    }
    // The SDK lists a template's resources with its metadata under them: the list keeps doing so.
    const merged = rest.filter((r) => !r.trimStart().startsWith("//")).map((r) => r.replace(/,?\s*(\/\/[^\n]*)?$/, ""));
    const target = this.templateOf(args[1]!, merged);
    this.checkHandleUnused(call, `${method}(${name})`);
    if (target === null) return this.step(args[1]!, `${method}(${name})'s ResourceTemplate is built elsewhere`, "register it with server.resourceTemplate({ uriTemplate, name }, handler, { list, complete })");
    if (target === undefined) {
      this.within = `resource ${name}`;
      const handler = this.handler(args.at(-1)!, 1, 2, { uriParam: 0 });
      this.within = undefined;
      reshape(call, "resource", this.definition(metadata, [["uri", args[1]!.getText()], ["name", name]], rest), handler);
    } else {
      this.within = `resource ${name}`;
      const handler = this.handler(args.at(-1)!, 2, 3, { uriParam: 0 });
      this.within = undefined;
      const options = [target.list, target.complete].filter((o) => o !== undefined);
      reshape(call, "resourceTemplate", this.definition(metadata, [["uriTemplate", target.uriTemplate], ["name", name]], rest), handler);
      if (options.length) this.options.push({ after: call.getArguments().at(-1)!, properties: options as string[] });
    }
    this.rewrites++;
  }

  /** `new ResourceTemplate(uriTemplate, { list, complete })`, inline or a local const; undefined for a plain URI; null when it cannot be read. */
  private templateOf(expression: Expression, metadata: readonly string[] = []): { uriTemplate: string; list?: string; complete?: string } | undefined | null {
    let node: Node | undefined = expression;
    if (Node.isIdentifier(expression)) {
      const declaration = expression.getSymbol()?.getDeclarations()[0];
      const initializer = Node.isVariableDeclaration(declaration) ? declaration.getInitializer() : undefined;
      if (initializer && this.isNew(initializer, "ResourceTemplate")) node = initializer;
    }
    if (!this.isNew(node, "ResourceTemplate")) return undefined;
    const [uriTemplate, callbacks] = (node as NewExpression).getArguments();
    if (uriTemplate === undefined || (callbacks !== undefined && !Node.isObjectLiteralExpression(callbacks))) return null;
    const out: { uriTemplate: string; list?: string; complete?: string } = { uriTemplate: uriTemplate.getText() };
    for (const property of callbacks?.getProperties() ?? []) {
      if (!Node.isPropertyAssignment(property) && !Node.isShorthandPropertyAssignment(property) && !Node.isMethodDeclaration(property)) return null;
      const key = property.getName();
      if (key !== "list" && key !== "complete") return null;
      const value = Node.isPropertyAssignment(property) ? property.getInitializer()!.getText() : Node.isShorthandPropertyAssignment(property) ? key : undefined;
      if (value === undefined) return null;
      if (value === "undefined") continue;
      if (key === "complete") out.complete = Node.isShorthandPropertyAssignment(property) ? key : `${key}: ${value}`;
      else out.list = `list: ${lister(Node.isPropertyAssignment(property) ? property.getInitializer()! : undefined, value, metadata)}`;
    }
    if (node !== expression) {
      // The local const built only for this registration: gone with its one use.
      const declaration = node.getFirstAncestorByKind(SyntaxKind.VariableStatement);
      const uses = this.file.getDescendantsOfKind(SyntaxKind.Identifier).filter((id) => id.getText() === expression.getText()).length;
      if (declaration && uses === 2) declaration.remove();
    }
    return out;
  }

  /** A resource's definition: its metadata literal edited in place (keeping its comments), else written anew. */
  private definition(metadata: Expression | undefined, first: [string, string][], rest: string[]): string | InPlace {
    if (metadata && Node.isObjectLiteralExpression(metadata)) return { literal: metadata, first, set: [] };
    return `{ ${[...first.map(([k, v]) => `${k}: ${v}`), ...rest].join(", ")} }`;
  }

  private isNew(node: Node | undefined, sdkName: string): boolean {
    return Node.isNewExpression(node) && this.local(sdkName).includes(node.getExpression().getText());
  }

  private prompt(call: CallExpression): void {
    const args = call.getArguments() as Expression[];
    const name = args[0]!.getText();
    const method = methodName(call);
    let description: string | undefined;
    let shape: Expression | undefined;
    let rest: string[] = [];
    if (method === "registerPrompt") {
      if (args.length !== 3 || !Node.isObjectLiteralExpression(args[1]!))
        return this.step(call, `registerPrompt(${name})'s config is not written inline`, "register it with server.prompt({ name, arguments: [...] }, handler)");
      const split = splitConfig(args[1], ["argsSchema"]);
      if (!split) return this.step(call, `registerPrompt(${name})'s config has spreads or methods`, "register it with server.prompt({ name, arguments: [...] }, handler)");
      shape = split.picked.argsSchema;
      rest = split.rest;
    } else
      for (const arg of args.slice(1, -1)) {
        if (Node.isStringLiteral(arg) || Node.isNoSubstitutionTemplateLiteral(arg)) description = arg.getText();
        else shape = arg;
      }
    if (description !== undefined) rest.unshift(`description: ${description}`);
    let argumentsList: string | undefined;
    let complete: string | undefined;
    if (shape !== undefined) {
      const read = this.promptArguments(shape, name);
      if (read === null) return;
      argumentsList = read.list;
      complete = read.complete;
    }
    this.checkHandleUnused(call, `${method}(${name})`);
    this.within = `prompt ${name}`;
    const handler = this.handler(args.at(-1)!, shape === undefined ? 0 : 1, 2);
    this.within = undefined;
    if (method === "registerPrompt")
      reshape(call, "prompt", { literal: args[1] as ObjectLiteralExpression, first: [["name", name]], set: argumentsList === undefined ? [] : [["argsSchema", argumentsList, "arguments"]] }, handler);
    else {
      const fields = [`name: ${name}`, ...rest];
      if (argumentsList !== undefined) fields.push(`arguments: ${argumentsList}`);
      reshape(call, "prompt", `{ ${fields.join(", ")} }`, handler);
    }
    if (complete) this.options.push({ after: call.getArguments().at(-1)!, properties: [`complete: ${complete}`] });
    this.rewrites++;
  }

  /**
   * A prompt's zod argsSchema as the protocol's PromptArgument list: required unless `.optional()`
   * or `.default(...)`, described by `.describe("...")`; `completable(schema, complete)` becomes a completer.
   */
  private promptArguments(shape: Expression, prompt: string): { list: string; complete?: string } | null {
    let literal: Node = shape;
    if (Node.isCallExpression(literal) && /\.object$/.test(literal.getExpression().getText())) literal = literal.getArguments()[0]!;
    if (!Node.isObjectLiteralExpression(literal)) {
      this.step(shape, `prompt ${prompt}'s argsSchema is not written inline`, "list its arguments as server.prompt({ name, arguments: [{ name, description, required }] }, handler)");
      return null;
    }
    const list: string[] = [];
    const completers: string[] = [];
    for (const property of literal.getProperties()) {
      if (!Node.isPropertyAssignment(property)) {
        this.step(property, `prompt ${prompt}'s argument ${property.getText()} is not a plain property`, "list it in the prompt's arguments");
        return null;
      }
      let schema = property.getInitializer()!;
      const key = property.getName();
      if (Node.isCallExpression(schema) && this.local("completable").includes(schema.getExpression().getText())) {
        const [inner, completer] = schema.getArguments();
        if (completer) completers.push(`${property.getNameNode().getText()}: ${completer.getText()}`);
        schema = inner as Expression;
      }
      const text = schema.getText();
      const required = !/\.(optional|default|nullish)\(/.test(text);
      const described = /\.describe\(\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`$]*`)\s*\)/.exec(text)?.[1];
      if (!new RegExp(`^${(this.zod ?? "z").replace(/\$/g, "\\$")}\\.(string|enum)\\(`).test(text))
        this.note(property, `prompt ${prompt}'s argument ${key} was checked by the SDK as ${text.split("(")[0]}; prompt arguments arrive as strings and are not checked: check it in the handler`);
      list.push(`{ name: ${JSON.stringify(key)}${described ? `, description: ${described}` : ""}, required: ${required} }`);
    }
    return { list: `[${list.join(", ")}]`, complete: completers.length ? `{ ${completers.join(", ")} }` : undefined };
  }

  // -- handlers ---------------------------------------------------------------------------------------

  /**
   * A registration's callback with its context parameter (`extra` in v1, `ctx` in v2) rewritten to
   * the RequestContext at `contextAt`; `arity` is its parameter count here. A function not written
   * inline is adapted by a wrapper.
   */
  private handler(expression: Expression, contextAt: number, arity: number, options: { uriParam?: number } = {}): string {
    if (!Node.isArrowFunction(expression) && !Node.isFunctionExpression(expression)) {
      const names = options.uriParam === undefined ? ["args", "ctx"] : arity === 2 ? ["uri", "ctx"] : ["uri", "variables", "ctx"];
      const passed = names.slice(0, contextAt).map((n) => (n === "uri" ? "new URL(uri)" : n));
      this.note(expression, `${expression.getText()} is called through a wrapper: its context argument is this runtime's RequestContext (docs/migrate-from-sdk.md)`);
      return `(${names.join(", ")}) => ${expression.getText()}(${[...passed, "ctx"].join(", ")})`;
    }
    const fn: Fn = expression;
    // The SDK's result types as a handler's declared return: this runtime's inference checks the result (against the outputSchema too).
    const returns = fn.getReturnTypeNode();
    if (returns && /\b(CallToolResult|ReadResourceResult|GetPromptResult)\b/.test(returns.getText())) {
      this.note(fn, `the handler's declared return type ${returns.getText()} went: the result is checked as inferred, against the outputSchema too`);
      fn.removeReturnType();
    }
    // SDK: (extra) with no arguments; here the arguments always come first.
    const params = fn.getParameters();
    if (contextAt === 0 && arity === 2 && options.uriParam === undefined && params.length > 0) fn.insertParameter(0, { name: "_args" });
    if (options.uriParam !== undefined) this.uriParameter(fn, options.uriParam);
    const context = fn.getParameters()[contextAt === 0 && arity === 2 && options.uriParam === undefined ? 1 : contextAt];
    if (context) {
      const name = context.getNameNode();
      if (Node.isIdentifier(name)) this.contextUses(fn, name.getText());
      else this.step(context, "the handler destructures its context", "take it whole (ctx) and read ctx.signal, ctx.meta, ctx.auth... (docs/migrate-from-sdk.md)");
    }
    this.serverRequestsIn(fn, contextAt, options.uriParam !== undefined);
    return fn.getText();
  }

  /** The SDK passes a URL; here the URI is a string: `uri.href` becomes `uri`, any other use gets a URL made from it. */
  private uriParameter(fn: Fn, index: number): void {
    const param = fn.getParameters()[index];
    if (!param) return;
    const nameNode = param.getNameNode();
    if (!Node.isIdentifier(nameNode)) {
      this.step(param, "the resource handler destructures the URL", "the URI is a string here: new URL(uri) gives the URL");
      return;
    }
    const name = nameNode.getText();
    const uses = identifierUses(fn, name);
    const hrefs = uses.filter((id) => {
      const parent = id.getParent();
      return Node.isPropertyAccessExpression(parent) && parent.getExpression() === id && parent.getName() === "href";
    });
    if (param.getTypeNode()) param.removeType();
    if (hrefs.length === uses.length) {
      for (const id of hrefs.reverse()) replace(id.getParent()!, name);
      return;
    }
    // Any other use of the URL: rename the string and make the URL the body knew.
    const text = `${name}Text`;
    replace(nameNode, text);
    const body = fn.getBody();
    if (Node.isBlock(body)) body.insertStatements(0, `const ${name} = new URL(${text});`);
    else replace(body, `{\n  const ${name} = new URL(${text});\n  return ${body.getText()};\n}`);
  }

  /** Rewrites what a handler does with its context parameter `name`. */
  private contextUses(fn: Fn, name: string): void {
    const uses = identifierUses(fn, name).reverse();
    for (const id of uses) {
      if (id.wasForgotten()) continue;
      const access = id.getParent();
      if (!Node.isPropertyAccessExpression(access) || access.getExpression() !== id) {
        if (!Node.isParameterDeclaration(access)) this.step(id, `the handler passes its context ${name} on`, "its fields differ here: see the context table of docs/migrate-from-sdk.md");
        continue;
      }
      let field = access.getName();
      let node: Node = access;
      // v2: ctx.mcpReq.x and ctx.http.authInfo.
      if (field === "mcpReq" || field === "http") {
        const outer = access.getParent();
        if (!Node.isPropertyAccessExpression(outer) || outer.getExpression() !== access) {
          this.step(access, `${access.getText()} is used whole`, "read its fields from the RequestContext (docs/migrate-from-sdk.md)");
          continue;
        }
        const inner = outer.getName();
        const request: Record<string, string> = { id: "requestId", _meta: "_meta", signal: "signal", method: "method", log: "log" };
        field = field === "http" ? (inner === "authInfo" ? "authInfo" : `http.${inner}`) : Object.hasOwn(request, inner) ? request[inner]! : `mcpReq.${inner}`;
        if (field === "mcpReq.notify") field = "sendNotification";
        if (field === "mcpReq.send") field = "sendRequest";
        if (field === "mcpReq.elicitInput") field = "elicitInput";
        if (field === "mcpReq.requestSampling") field = "requestSampling";
        node = outer;
      }
      const rename: Record<string, string> = { _meta: "meta", authInfo: "auth", requestInfo: "transport", signal: "signal", requestId: "requestId", sessionId: "sessionId", method: "method", log: "log" };
      if (Object.hasOwn(rename, field)) {
        replace(node, `${name}.${rename[field]}`);
        if (field === "requestInfo") this.note(node, `${name}.requestInfo is ${name}.transport here: its headers are transport.headers`);
        continue;
      }
      const call = node.getParent();
      const called = Node.isCallExpression(call) && call.getExpression() === node ? call : undefined;
      if (field === "elicitInput" && called) {
        replace(node, `${name}.elicit`);
        continue;
      }
      if (field === "requestSampling" && called) {
        replace(node, `${name}.sample`);
        continue;
      }
      if (field === "sendNotification" && called) {
        const message = called.getArguments()[0];
        const parts = message && Node.isObjectLiteralExpression(message) ? messageParts(message) : undefined;
        if (!parts) this.step(called, `${called.getText().slice(0, 60)}: the notification is not written inline`, `send it with ${name}.notify(method, params)`);
        else if (/^["']notifications\/progress["']$/.test(parts.method) && progressParts(called.getArguments()[0] as ObjectLiteralExpression))
          replace(called, `${name}.progress(${progressParts(called.getArguments()[0] as ObjectLiteralExpression)})`);
        else replace(called, `${name}.notify(${parts.method}${parts.params ? `, ${parts.params}` : ""})`);
        continue;
      }
      if (field === "sendRequest" && called) {
        const message = called.getArguments()[0];
        const parts = message && Node.isObjectLiteralExpression(message) ? messageParts(message) : undefined;
        const asks: Record<string, string> = { '"elicitation/create"': "elicit", '"sampling/createMessage"': "sample", '"roots/list"': "listRoots" };
        const method = parts?.method.replace(/^'(.*)'$/, '"$1"');
        const ask = method !== undefined && Object.hasOwn(asks, method) ? asks[method] : undefined;
        if (!parts || !ask) this.step(called, `${name}.sendRequest(${parts?.method ?? "..."})`, `elicitation, sampling and roots are ${name}.elicit(params), ${name}.sample(params), ${name}.listRoots(); other requests to the client are not offered`);
        else replace(called, `${name}.${ask}(${ask === "listRoots" ? "" : parts.params ?? "{}"})`);
        continue;
      }
      this.step(node, `${name}.${field} has no equivalent`, `see the context table of docs/migrate-from-sdk.md`);
    }
  }

  /**
   * Inside a handler: `server.server.createMessage/elicitInput/listRoots(...)` and
   * `server.sendLoggingMessage(...)` go through the request's context, added when the handler had none.
   */
  private serverRequestsIn(fn: Fn, contextAt: number, resource: boolean): void {
    const asks: Record<string, string> = { createMessage: "sample", elicitInput: "elicit", listRoots: "listRoots" };
    const calls = fn.getDescendantsOfKind(SyntaxKind.CallExpression).filter((call) => {
      const callee = call.getExpression();
      if (!Node.isPropertyAccessExpression(callee)) return false;
      const inner = callee.getExpression();
      return (
        (Object.hasOwn(asks, callee.getName()) && Node.isPropertyAccessExpression(inner) && inner.getName() === "server") ||
        callee.getName() === "sendLoggingMessage"
      );
    });
    if (calls.length === 0) return;
    const at = contextAt === 0 && !resource ? 1 : contextAt;
    let params = fn.getParameters();
    while (params.length < at) {
      fn.addParameter({ name: params.length === 0 ? "_args" : `_unused${params.length}` });
      params = fn.getParameters();
    }
    if (params.length === at) fn.addParameter({ name: "ctx" });
    const contextName = fn.getParameters()[at]!.getNameNode().getText();
    for (const call of calls.reverse()) {
      const callee = call.getExpression() as PropertyAccessExpression;
      const args = call.getArguments();
      if (callee.getName() === "sendLoggingMessage") {
        const message = args[0];
        const parts = message && Node.isObjectLiteralExpression(message) ? logParts(message) : undefined;
        if (!parts) {
          this.step(call, "sendLoggingMessage with a message not written inline", `log with ${contextName}.log(level, data, logger?)`);
          continue;
        }
        replace(call, `${contextName}.log(${parts})`);
      } else replace(call, `${contextName}.${asks[callee.getName()]}(${args.map((a) => a.getText()).join(", ")})`);
      this.rewrites++;
    }
  }

  // -- the rest of the server API ------------------------------------------------------------------

  private serverCalls(): void {
    const renames: Record<string, string> = {
      sendToolListChanged: "notifyToolsChanged",
      sendResourceListChanged: "notifyResourcesChanged",
      sendPromptListChanged: "notifyPromptsChanged",
    };
    for (const call of this.file.getDescendantsOfKind(SyntaxKind.CallExpression).reverse()) {
      if (call.wasForgotten()) continue;
      const callee = call.getExpression();
      if (!Node.isPropertyAccessExpression(callee)) continue;
      const method = callee.getName();
      const receiver = callee.getExpression();
      const args = call.getArguments();
      if (Object.hasOwn(renames, method) && args.length === 0) {
        replace(call, `${receiver.getText()}.${renames[method]}()`);
        this.rewrites++;
      } else if (method === "sendLoggingMessage") {
        const parts = args[0] && Node.isObjectLiteralExpression(args[0]) ? logParts(args[0]) : undefined;
        if (!parts) this.step(call, "sendLoggingMessage with a message not written inline", "log with server.log(level, data, logger?)");
        else {
          if (args[1] !== undefined) this.note(call, "sendLoggingMessage to one session is server.log to every session here: inside a handler, ctx.log reaches the requesting client only");
          replace(call, `${receiver.getText()}.log(${parts})`);
          this.rewrites++;
        }
      } else if (Node.isPropertyAccessExpression(receiver) && receiver.getName() === "server") {
        const server = receiver.getExpression().getText();
        if (method === "notification") {
          const parts = args[0] && Node.isObjectLiteralExpression(args[0]) ? messageParts(args[0]) : undefined;
          if (!parts) this.step(call, `${server}.server.notification with a message not written inline`, `send it with ${server}.notify(method, params)`);
          else {
            replace(call, `${server}.notify(${parts.method}${parts.params ? `, ${parts.params}` : ""})`);
            this.rewrites++;
          }
        } else if (method === "sendResourceUpdated") {
          const uri = args[0] && Node.isObjectLiteralExpression(args[0]) ? args[0].getProperty("uri") : undefined;
          if (!Node.isPropertyAssignment(uri)) this.step(call, "sendResourceUpdated with params not written inline", `${server}.notifyResourceUpdated(uri)`);
          else {
            replace(call, `${server}.notifyResourceUpdated(${uri.getInitializer()!.getText()})`);
            this.rewrites++;
          }
        }
      } else if (method === "registerToolTask" || (Node.isPropertyAccessExpression(receiver) && receiver.getName() === "tasks" && receiver.getExpression().getText().endsWith("experimental")))
        this.step(
          call,
          `experimental.tasks.${method}(${method === "registerToolTask" ? (args[0]?.getText() ?? "") : "..."})`,
          "tasks here: a tool with execution: { taskSupport: \"optional\" } returns ctx.task(async (task) => result) from its handler; inside, task.elicit(...) asks the user",
        );
      else if (method === "setRequestHandler" && Node.isPropertyAccessExpression(receiver) && receiver.getName() === "server")
        this.step(call, "server.server.setRequestHandler", "serve the method with server.handle(method, handler)");
      else if (method === "isConnected" || method === "setToolRequestHandlers") this.step(call, `${method}()`, "there is no equivalent: sessions are the runtime's");
    }
  }

  /** `new McpServer(info, options?)` -> `createServer({ name, version, info, instructions })`. */
  private constructors(): void {
    // The SDK's low-level Server (v1 server/index.js, v2 Server) answers requests by hand: no registrations to rewrite.
    for (const expression of this.file.getDescendantsOfKind(SyntaxKind.NewExpression))
      if (this.isNew(expression, "Server"))
        this.step(expression, "new Server(...), the SDK's low-level server", "createServer(...) with server.tool/resource/prompt for what its setRequestHandler calls answer, server.handle(method, handler) for other methods");
    for (const expression of this.file.getDescendantsOfKind(SyntaxKind.NewExpression).reverse()) {
      if (!this.isNew(expression, "McpServer")) continue;
      const [info, options] = expression.getArguments();
      const fields: string[] = [];
      const identity: string[] = [];
      if (info && Node.isObjectLiteralExpression(info)) {
        const split = splitConfig(info, ["name", "version"]);
        if (!split || !split.picked.name || !split.picked.version) {
          this.step(expression, "new McpServer's info is not plain { name, version, ... }", "createServer({ name, version, info: { title, icons, websiteUrl } })");
          continue;
        }
        fields.push(`name: ${split.picked.name.getText()}`, `version: ${split.picked.version.getText()}`);
        identity.push(...split.rest);
      } else if (info) fields.push(`...${info.getText()}`);
      if (identity.length) fields.push(`info: { ${identity.join(", ")} }`);
      if (options) {
        if (!Node.isObjectLiteralExpression(options)) {
          this.step(options, "new McpServer's options are not written inline", "createServer takes instructions and the runtime's options (docs/migrate-from-sdk.md)");
          continue;
        }
        for (const property of options.getProperties()) {
          const key = Node.isPropertyAssignment(property) || Node.isShorthandPropertyAssignment(property) ? property.getName() : undefined;
          if (key === "instructions") fields.push(property.getText());
          else if (key === "capabilities") {
            const declared = Node.isPropertyAssignment(property) ? property.getInitializer() : undefined;
            const kept = ["logging", "tools", "resources", "prompts", "completions"];
            const others = Node.isObjectLiteralExpression(declared)
              ? declared.getProperties().map((p) => (Node.isPropertyAssignment(p) ? p.getName() : p.getText())).filter((k) => !kept.includes(k))
              : ["(not inline)"];
            if (others.length) this.step(property, `capabilities ${others.join(", ")} are declared by hand`, "capabilities are declared from what is registered; tasks by a tool with execution.taskSupport, extensions by server.extension(id, settings)");
            else this.note(property, "capabilities are declared from what is registered (logging always): the declaration was dropped");
          } else this.step(property, `the McpServer option ${key ?? property.getText()}`, "see createServer's options in docs/migrate-from-sdk.md (tasks: { store }, jsonSchemaValidator: toolSchemaEngine...)");
        }
      }
      // The function that builds it, if any: a factory the HTTP routes may serve (httpRoutes).
      const factory = expression.getFirstAncestor((a) => Node.isFunctionDeclaration(a) || Node.isArrowFunction(a) || Node.isFunctionExpression(a));
      const named = Node.isFunctionDeclaration(factory) ? factory.getName() : factory?.getParentIfKind(SyntaxKind.VariableDeclaration)?.getName();
      if (named) this.factories.add(named);
      replace(expression, `createServer({ ${fields.join(", ")} })`);
      this.runtimeNames.add("createServer");
      this.rewrites++;
    }
  }

  // -- transports ------------------------------------------------------------------------------------

  private transports(): void {
    for (const expression of this.file.getDescendantsOfKind(SyntaxKind.NewExpression).reverse()) {
      if (this.isNew(expression, "StdioServerTransport")) {
        if (expression.getArguments().length > 0) this.note(expression, "StdioServerTransport's streams: stdio() takes { input, output } the same way");
        replace(expression, `stdio(${expression.getArguments().map((a) => a.getText()).join(", ")})`);
        this.runtimeNames.add("stdio");
        this.rewrites++;
        continue;
      }
      for (const [transport, instead] of Object.entries(HTTP_TRANSPORTS))
        if (this.isNew(expression, transport)) this.step(expression, `new ${transport}(...)`, `serve HTTP with one server: ${instead}; the runtime keeps the sessions, their ids and resumability`);
    }
    for (const call of this.file.getDescendantsOfKind(SyntaxKind.CallExpression).reverse()) {
      if (call.wasForgotten()) continue;
      const callee = call.getExpression();
      // v2: serveStdio(factory) and createMcpHandler(factory).
      if (Node.isIdentifier(callee) && this.local("serveStdio").includes(callee.getText())) {
        const factory = call.getArguments()[0];
        const server = factory && Node.isArrowFunction(factory) && !Node.isBlock(factory.getBody()) && factory.getParameters().length === 0 ? factory.getBody().getText() : `(${factory?.getText()})()`;
        replace(call, `${server}.listen(stdio())`);
        this.runtimeNames.add("stdio");
        this.rewrites++;
        continue;
      }
      if (Node.isIdentifier(callee) && this.local("createMcpHandler").includes(callee.getText())) {
        this.step(call, "createMcpHandler(factory)", "fetchHandler(server) from @mcp-codegen/runtime/http, with one server: const handler = fetchHandler(factory()); then handler(request)");
        continue;
      }
      if (!Node.isPropertyAccessExpression(callee) || callee.getName() !== "connect") continue;
      const [transport] = call.getArguments();
      if (transport && this.isStdio(transport)) {
        replace(callee.getNameNode(), "listen");
        this.rewrites++;
      }
    }
  }

  private isStdio(expression: Node): boolean {
    if (/^stdio\(/.test(expression.getText())) return true;
    if (!Node.isIdentifier(expression)) return false;
    const declaration = expression.getSymbol()?.getDeclarations()[0];
    return Node.isVariableDeclaration(declaration) && /^stdio\(/.test(declaration.getInitializer()?.getText() ?? "");
  }

  // -- imports and the report ------------------------------------------------------------------------

  /**
   * The imports brought in line, each manual step marked above its statement, as edits of the
   * rewritten text (ts-morph would take an import's leading comments along with it).
   */
  finish(sdkImports: readonly ImportDeclaration[]): FileRewrite {
    const used = (name: string, except: Node) =>
      this.file.getDescendantsOfKind(SyntaxKind.Identifier).some((id) => id.getText() === name && !id.getFirstAncestor((a) => a === except));
    const edits: { start: number; end: number; text: string }[] = [];
    const types: string[] = [];
    const emptied: ImportDeclaration[] = [];
    for (const declaration of sdkImports) {
      const kept: string[] = [];
      for (const specifier of declaration.getNamedImports()) {
        const local = specifier.getAliasNode()?.getText() ?? specifier.getName();
        if (!used(local, declaration)) continue;
        if (local === specifier.getName() && (local === "McpServer" || SAME_TYPES.has(local))) types.push(local);
        else kept.push(specifier.getText());
      }
      if (kept.length === declaration.getNamedImports().length) continue;
      const clause = declaration.getImportClause();
      const others = declaration.getDefaultImport() || declaration.getNamespaceImport();
      if (kept.length > 0 || others) {
        const named = clause!.getNamedBindings()!;
        edits.push({ start: named.getStart(), end: named.getEnd(), text: kept.length ? `{ ${kept.join(", ")} }` : "" });
      } else emptied.push(declaration);
    }
    const named = [...[...this.runtimeNames].sort(), ...types.map((t) => (t === "McpServer" ? t : `type ${t}`))];
    const http = this.httpNames.size ? `import { ${[...this.httpNames].sort().join(", ")} } from "${RUNTIME}/http";` : "";
    const runtimeImport = [named.length ? `import { ${named.join(", ")} } from "${RUNTIME}";` : "", http].filter(Boolean).join("\n");
    // The runtime's import takes the place of the first emptied SDK import; the others go, with their line.
    emptied.forEach((declaration, i) => {
      const text = this.file.getFullText();
      const end = i === 0 || text[declaration.getEnd()] !== "\n" ? declaration.getEnd() : declaration.getEnd() + 1;
      edits.push({ start: declaration.getStart(), end, text: i === 0 ? runtimeImport : "" });
    });
    if (emptied.length === 0 && runtimeImport) edits.push({ start: sdkImports[0]!.getStart(), end: sdkImports[0]!.getStart(), text: `${runtimeImport}\n` });

    const unmarked = this.file.getFullText();
    for (const { after, properties } of this.options) {
      if (after.wasForgotten()) continue;
      // After a handler on a line of its own, the options go on their own lines too.
      const lineStart = unmarked.lastIndexOf("\n", after.getStart() - 1) + 1;
      const indent = unmarked.slice(lineStart, after.getStart());
      const text = /^[ \t]*$/.test(indent) ? `,\n${indent}{\n${indent}  ${properties.join(`,\n${indent}  `)},\n${indent}}` : `, { ${properties.join(", ")} }`;
      edits.push({ start: after.getEnd(), end: after.getEnd(), text });
    }
    const marks = new Map<Node, string[]>();
    for (const step of this.steps) if (!step.node.wasForgotten()) marks.set(step.node, [...(marks.get(step.node) ?? []), `${step.what}: ${step.todo}`]);
    for (const [statement, messages] of marks) {
      const lineStart = unmarked.lastIndexOf("\n", statement.getStart() - 1) + 1;
      const indent = /^[ \t]*/.exec(unmarked.slice(lineStart))![0];
      edits.push({ start: lineStart, end: lineStart, text: messages.map((m) => `${indent}// ${TODO} ${m}\n`).join("") });
    }
    edits.sort((x, y) => y.start - x.start || y.end - x.end);
    let text = unmarked;
    for (const { start, end, text: replacement } of edits) text = `${text.slice(0, start)}${replacement}${text.slice(end)}`;
    /** A position of the unmarked text in the edited one. */
    const moved = (pos: number) => edits.filter((e) => e.end <= pos).reduce((p, e) => p + e.text.length - (e.end - e.start), pos);
    const lineOf = (pos: number) => text.slice(0, moved(pos)).split("\n").length;

    const lines = text.split("\n");
    const found = new Map<string, number>();
    const steps: ManualStep[] = this.steps
      .filter((step) => !step.node.wasForgotten())
      .map((step) => {
        const mark = `// ${TODO} ${step.what}: ${step.todo}`;
        const index = lines.findIndex((l, i) => i > (found.get(mark) ?? -1) && l.trimStart() === mark);
        found.set(mark, index);
        return { line: index + 1, column: lines[index]!.indexOf("//") + 1, what: step.what, todo: step.todo };
      });
    const notes = this.notes.filter(({ node }) => !node.wasForgotten()).map(({ node, message }) => ({ line: lineOf(node.getStart()), message })).sort((a, b) => a.line - b.line);
    return { text, rewrites: this.rewrites, notes, steps: steps.sort((a, b) => a.line - b.line) };
  }
}

