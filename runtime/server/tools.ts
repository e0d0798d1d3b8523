import type { RequestContext, TaskContext, TaskOptions } from "../dispatch/context.js";
import { ExtensionResult } from "../dispatch/router.js";
import { taskRequired } from "../extensions/tasks/task-manager.js";
import { isThenable } from "../util/thenable.js";
import { runtimeResult } from "../session/validate.js";
import { ErrorCode, HandlerFault, RpcError } from "../jsonrpc/errors.js";
import { precompiled, type CompiledToolValidators, type SchemaCompiler, type SchemaValidator } from "../shared/json-schema.js";
import { withDefaults } from "../shared/schema-defaults.js";
import { isStandardSchema, standardJsonSchema, validateStandard, type Checked, type InferInput, type StandardSchemaV1 } from "../shared/standard-schema.js";
import { checkParamHeaders } from "../shared/param-headers.js";
import type { FromSchema, ObjectSchema } from "./schema-types.js";
import type { CallToolResult, Tool } from "../shared/types.js";
import type { Logger } from "../util/logger.js";

/** What a tool's inputSchema and outputSchema may be: a JSON Schema object schema, or a Standard Schema (zod 4, valibot, arktype...) of objects. */
export type ToolSchema = ObjectSchema | StandardSchemaV1;

/**
 * A tool as declared: the protocol's Tool, except that inputSchema and outputSchema may be any
 * JSON Schema object schema (draft-07 or 2020-12: additionalProperties, $defs, oneOf...), which the
 * server compiles, or any Standard Schema, which its library checks (runtime/shared/standard-schema.ts).
 * tools/list sends JSON Schemas as written, and a Standard Schema as the JSON Schema its library derives.
 */
export type ToolDefinition = Omit<Tool, "inputSchema" | "outputSchema"> & {
  readonly inputSchema: ToolSchema;
  readonly outputSchema?: ToolSchema;
};

/** `Result` is what every served revision accepts (runtime/server/served.ts); 2025-11-25's by default. */
export type ToolHandler<Args = Record<string, unknown>, Result = CallToolResult, Context = RequestContext> = (
  args: Args,
  context: Context,
) => Result | Promise<Result>;

/**
 * What a tool's handler returns: with an outputSchema, structuredContent of the type it describes
 * (what a Standard Schema accepts: its library's output is what is sent), unless it is an error.
 */
export type ToolResult<Output, Base = CallToolResult> = Output extends StandardSchemaV1
  ? (ContentOptional<Base> & { structuredContent: InferInput<Output> }) | (Base & { isError: true })
  : Output extends ObjectSchema
    ? (ContentOptional<Base> & { structuredContent: FromSchema<Output> }) | (Base & { isError: true })
    : Base | (ContentOptional<Base> & { structuredContent: Record<string, unknown> });

/**
 * `Base` with `content` optional: a result with structuredContent and no content gets its text
 * copy (withText). Keys remapped rather than Omit, which keeps only the index signature of a
 * type that has one (every result type: `[x: string]: unknown`).
 */
export type ContentOptional<Base> = Base extends unknown ? { [K in keyof Base as K extends "content" ? never : K]: Base[K] } & { content?: Base extends { content: infer C } ? C : never } : never;

/** A tool as tools/list shows it: its schemas as JSON Schemas. */
type ListedTool = Omit<ToolDefinition, "inputSchema" | "outputSchema"> & { readonly inputSchema: ObjectSchema; readonly outputSchema?: ObjectSchema };

/** A value's verdict against a tool schema: what the handler (or the client) gets, or what is wrong. */
type Check = (value: unknown) => Checked | Promise<Checked>;

interface RegisteredTool {
  readonly definition: ListedTool;
  readonly handler: ToolHandler<never>;
  /** A Standard Schema's library, set at registration; a JSON Schema compiled on the tool's first call (see {@link ToolRegistry}). */
  input?: Check;
  output?: Check;
}

/** MCP tool names: 1 to 128 of [A-Za-z0-9_.-]. */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * The server's tools. Their JSON Schemas are compiled once, on each tool's first call (by the
 * runtime's compiler, or ajv when chosen), so that a server answers its first initialize before
 * any compiling. A schema that does not compile fails that tool's calls with -32603 naming the
 * problem (and the server logs it); registration refuses what it can tell without compiling. A
 * Standard Schema is converted to JSON Schema at registration (for tools/list), and checked by
 * its own library on every call.
 */
export class ToolRegistry {
  private readonly tools = new Map<string, RegisteredTool>();

  constructor(
    private readonly schemas: SchemaCompiler,
    private readonly logger: Logger,
    private readonly compiled: CompiledToolValidators = {},
    /** Fill JSON Schema `default`s into arguments before they are checked (ServerOptions.applyDefaults). */
    private readonly applyDefaults = false,
  ) {}

  /** Whether the server offers this kind: from the first registration on, removals notwithstanding (ServerCapabilities, server.ts). */
  offered = false;

  /**
   * Whether a tool may run as a task (`execution.taskSupport` optional or required): the server
   * then offers tasks. Read by every capabilities(), so found once per change of the tools.
   */
  get hasTaskTools(): boolean {
    return (this.taskTools ??= [...this.tools.values()].some((tool) => taskSupport(tool.definition) !== "forbidden"));
  }
  private taskTools: boolean | undefined;

  register<Args, Result>(declared: ToolDefinition, handler: ToolHandler<Args, Result>): void {
    const name = declared.name;
    if (!TOOL_NAME.test(name)) throw new Error(`invalid tool name ${JSON.stringify(name)}: use 1 to 128 of A-Z a-z 0-9 _ . -`);
    if (this.tools.has(name)) throw new Error(`tool ${name} is already registered`);
    const standard: { input?: StandardSchemaV1; output?: StandardSchemaV1 } = {};
    const listed: Record<string, unknown> = { ...declared };
    for (const which of ["inputSchema", "outputSchema"] as const) {
      const schema: unknown = declared[which];
      if (schema === undefined) continue;
      if (isStandardSchema(schema)) {
        standard[which === "inputSchema" ? "input" : "output"] = schema;
        listed[which] = this.published(name, which, schema);
      } else refuseNonJson(name, which, schema);
    }
    const definition = listed as ListedTool;
    const tool: RegisteredTool = { definition, handler: handler as unknown as ToolHandler<never> };
    if (standard.input) tool.input = (value) => validateStandard(standard.input!, value);
    if (standard.output) tool.output = (value) => validateStandard(standard.output!, value);
    // Build-time validators (generate --tools), when they were compiled from this very schema.
    const compiled = Object.hasOwn(this.compiled, name) ? this.compiled[name] : undefined;
    if (compiled && !standard.input && !standard.output) {
      const input = precompiled(compiled.input, definition.inputSchema);
      const output = definition.outputSchema === undefined ? undefined : precompiled(compiled.output, definition.outputSchema);
      if (input) tool.input = this.inputCheck(definition, input);
      if (output) tool.output = outputCheck(output);
      if (!input || (definition.outputSchema !== undefined && !output))
        this.logger("warn", `tool ${name}: its schemas differ from those its compiled validators were generated from; checking it with the ${this.schemas.kind} engine (run mcp-codegen generate --tools again)`);
    }
    this.tools.set(name, tool);
    this.offered = true;
    this.taskTools = undefined;
  }

  /** The JSON Schema tools/list shows for a Standard Schema: what its library derives, which must describe objects. */
  private published(name: string, which: "inputSchema" | "outputSchema", schema: StandardSchemaV1): ObjectSchema {
    let json: Record<string, unknown>;
    try {
      json = standardJsonSchema(schema, which === "inputSchema" ? "input" : "output");
    } catch (error) {
      throw new Error(`tool ${name}: its ${which}: ${(error as Error).message}`);
    }
    if (json.type !== "object")
      throw new Error(`tool ${name}: its ${which} must describe an object (MCP tool schemas are "type": "object"), but its JSON Schema has type ${JSON.stringify(json.type)}`);
    return json as ObjectSchema;
  }

  remove(name: string): boolean {
    this.taskTools = undefined;
    return this.tools.delete(name);
  }

  /** The wire's Tool: JSON Schema objects are open, so a schema with more keywords is still one (the result is validated before it is sent). */
  list(): Tool[] {
    return [...this.tools.values()].map((tool) => tool.definition as Tool);
  }

  /**
   * Unknown tool: -32602. Bad arguments, a throw or a rejection: a result with `isError`, so the
   * model sees what went wrong. A result whose structuredContent breaks the outputSchema is the
   * server's bug: -32603, and the data is not sent.
   */
  call(params: Record<string, unknown>, context: RequestContext): CallToolResult | Promise<CallToolResult> {
    const name = params.name as string;
    const tool = this.tools.get(name);
    if (!tool) throw new RpcError(ErrorCode.InvalidParams, `Unknown tool: ${name}`, { name });
    const args = (params.arguments as Record<string, unknown> | undefined) ?? {};
    // Stateless era over HTTP: x-mcp-header arguments must agree with their Mcp-Param-* headers.
    const headers = context.transport?.headers;
    if (context.era === "stateless" && typeof headers === "object" && headers !== null) checkParamHeaders(tool.definition.inputSchema, args, headers as Record<string, unknown>);
    // The schema engine loads on the first call of any tool with JSON Schemas not yet compiled (a promise once, then never again).
    const engine = tool.input && (tool.output || !tool.definition.outputSchema) ? undefined : this.schemas.load();
    if (engine && isThenable(engine))
      return Promise.resolve(engine).then(() => {
        // Cancelled while the engine loaded: the handler would wait on a signal that already fired.
        if (context.signal.aborted) return failure(`Tool ${name} was cancelled`);
        return this.call(params, context);
      });
    const input = (tool.input ??= this.inputCheck(tool.definition, this.compile(tool, "inputSchema")));
    const output = tool.definition.outputSchema ? (tool.output ??= outputCheck(this.compile(tool, "outputSchema"))) : undefined;
    const verdict = input(args);
    return isThenable(verdict) ? verdict.then((checked) => this.run(tool, checked, output, context)) : this.run(tool, verdict, output, context);
  }

  /** Runs the handler on arguments that passed (or says why they did not). */
  private run(tool: RegisteredTool, verdict: Checked, output: Check | undefined, context: RequestContext): CallToolResult | Promise<CallToolResult> {
    const name = tool.definition.name;
    if (verdict.problem !== undefined) return failure(`Invalid arguments for tool ${name}: ${verdict.problem}`, ErrorCode.InvalidParams);
    const support = taskSupport(tool.definition);
    if (support === "required" && !context.canCreateTask) throw taskRequired(context);

    // A handler may answer at once or later; only a later answer costs a promise.
    let outcome: CallToolResult | Promise<CallToolResult>;
    try {
      outcome = tool.handler(verdict.value as never, support === "forbidden" ? context : taskingContext(context, name, output));
    } catch (error) {
      return thrown(error);
    }
    return isThenable(outcome) ? Promise.resolve(outcome).then((result) => checked(name, output, result), thrown) : checked(name, output, outcome);
  }

  /** A JSON Schema's check of arguments: with `applyDefaults`, on the arguments with the schema's defaults filled in. */
  private inputCheck(definition: ListedTool, validate: SchemaValidator): Check {
    const schema = definition.inputSchema;
    return this.applyDefaults
      ? (args) => {
          const value = withDefaults(schema, args);
          const problem = validate(value);
          return problem === undefined ? { value } : { problem };
        }
      : (value) => {
          const problem = validate(value);
          return problem === undefined ? { value } : { problem };
        };
  }

  private compile(tool: RegisteredTool, which: "inputSchema" | "outputSchema"): SchemaValidator {
    try {
      return this.schemas.compile(tool.definition[which]!);
    } catch (error) {
      const message = `tool ${tool.definition.name}: its ${which} is not a valid JSON Schema: ${(error as Error).message}`;
      this.logger("error", message);
      throw new RpcError(ErrorCode.InternalError, message);
    }
  }
}

/** A JSON Schema's check of structuredContent: the value is sent as the handler gave it. */
function outputCheck(validate: SchemaValidator): Check {
  return (value) => {
    const problem = validate(value);
    return problem === undefined ? { value } : { problem };
  };
}

/**
 * Refuses at registration what is no JSON Schema of objects, naming the tool: a schema library's
 * object that is not a Standard Schema (zod 3 before 3.24, say) or an SDK-style shape of schemas
 * (`{ city: z.string() }`), which would otherwise be published as the library's internals.
 */
function refuseNonJson(name: string, which: "inputSchema" | "outputSchema", schema: unknown): void {
  const problem = `tool ${name}: its ${which}`;
  if (typeof schema !== "object" || schema === null || Array.isArray(schema))
    throw new Error(`${problem} must be a JSON Schema object with "type": "object", or a Standard Schema (zod 4, valibot, arktype...)`);
  const values = Object.values(schema);
  if (values.length > 0 && values.every(isStandardSchema))
    throw new Error(`${problem} is an object of schemas (an SDK-style shape): pass one object schema, e.g. z.object({ ... }) for zod`);
  const where = nonJson(schema, "");
  if (where !== undefined)
    throw new Error(
      `${problem} is not a JSON Schema: ${where} (a schema library's object? pass a Standard Schema, e.g. zod 4, valibot or arktype, or a plain JSON Schema object)`,
    );
  if ((schema as { type?: unknown }).type !== "object") throw new Error(`${problem} must be a JSON Schema object with "type": "object", or a Standard Schema (zod 4, valibot, arktype...)`);
}

/** Where a value stops being JSON data (a function, a class instance, undefined...), as a JSON Pointer; undefined if it is JSON throughout. */
function nonJson(value: unknown, at: string): string | undefined {
  if (value === null || typeof value === "string" || typeof value === "boolean") return undefined;
  if (typeof value === "number") return Number.isFinite(value) ? undefined : `${at || "(root)"} is ${value}`;
  if (typeof value !== "object") return `${at || "(root)"} is a ${typeof value}`;
  const prototype = Object.getPrototypeOf(value);
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = nonJson(item, `${at}/${index}`);
      if (found) return found;
    }
    return undefined;
  }
  if (prototype !== Object.prototype && prototype !== null) return `${at || "(root)"} is an instance of ${prototype?.constructor?.name || "a class"}, not a plain object`;
  for (const [key, item] of Object.entries(value)) {
    const found = nonJson(item, `${at}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`);
    if (found) return found;
  }
  return undefined;
}

function taskSupport(definition: ToolDefinition): "forbidden" | "optional" | "required" {
  return (definition as { execution?: { taskSupport?: "forbidden" | "optional" | "required" } }).execution?.taskSupport ?? "forbidden";
}

/**
 * The context of a tool that may run as a task: the task's work is held to the tool's rules too
 * (a throw is an isError result, structuredContent must match the outputSchema), since its
 * result is the tools/call result the client gets from tasks/get.
 */
function taskingContext(context: RequestContext, name: string, output: Check | undefined): RequestContext {
  const task = <R>(work: (task: TaskContext) => R | Promise<R>, options?: TaskOptions): Promise<R> =>
    context.task(async (running) => {
      try {
        return (await checked(name, output, (await work(running)) as CallToolResult)) as R;
      } catch (error) {
        return thrown(error) as R;
      }
    }, options);
  return Object.create(context, { task: { value: task } }) as RequestContext;
}

/** A handler's throw or rejection: an isError result, unless it chose a JSON-RPC error itself. */
function thrown(error: unknown): CallToolResult {
  if (error instanceof RpcError) throw error;
  return failure(error instanceof Error ? error.message : String(error));
}

/**
 * Holds a result's structuredContent to the outputSchema (a Standard Schema's output is what is
 * sent), and completes its text copy.
 */
function checked(name: string, output: Check | undefined, result: CallToolResult): CallToolResult | Promise<CallToolResult> {
  if (typeof result !== "object" || result === null || result instanceof ExtensionResult) return result;
  if (!output || result.isError) return withText(result);
  if (result.structuredContent === undefined)
    throw new HandlerFault(`tool ${name} declares an outputSchema but returned no structuredContent`);
  const verdict = output(result.structuredContent);
  const send = (checked: Checked): CallToolResult => {
    if (checked.problem !== undefined)
      throw new HandlerFault(`tool ${name} returned structuredContent that does not match its outputSchema: ${checked.problem}`);
    return withText(checked.value === result.structuredContent ? result : { ...result, structuredContent: checked.value as Record<string, unknown> });
  };
  return isThenable(verdict) ? verdict.then(send) : send(verdict);
}

/** The text copy of structuredContent a result without content carries, for clients that read only content. */
function withText(result: CallToolResult): CallToolResult {
  if (result.structuredContent === undefined || result.content !== undefined) return result;
  return { ...result, content: [{ type: "text", text: JSON.stringify(result.structuredContent) }] };
}

/** The runtime's own isError result; where a revision requires more of a result, the same text as a JSON-RPC error. */
function failure(text: string, code: number = ErrorCode.InternalError): CallToolResult {
  return runtimeResult({ content: [{ type: "text", text }], isError: true }, new RpcError(code, text));
}
