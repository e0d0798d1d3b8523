import type { RequestContext, TaskContext, TaskOptions } from "../dispatch/context.js";
import { ExtensionResult } from "../dispatch/router.js";
import { taskRequired } from "../extensions/tasks/task-manager.js";
import { isThenable } from "../util/thenable.js";
import { runtimeResult } from "../session/validate.js";
import { ErrorCode, RpcError } from "../jsonrpc/errors.js";
import { precompiled, type CompiledToolValidators, type SchemaCompiler, type SchemaValidator } from "../shared/json-schema.js";
import { checkParamHeaders } from "../shared/param-headers.js";
import type { FromSchema, ObjectSchema } from "./schema-types.js";
import type { CallToolResult, Tool } from "../shared/types.js";
import type { Logger } from "../util/logger.js";

/**
 * A tool as declared: the protocol's Tool, except that inputSchema and outputSchema may be any
 * JSON Schema object schema (draft-07 or 2020-12: additionalProperties, $defs, oneOf...), which the
 * server compiles. tools/list sends them as written.
 */
export type ToolDefinition = Omit<Tool, "inputSchema" | "outputSchema"> & {
  readonly inputSchema: ObjectSchema;
  readonly outputSchema?: ObjectSchema;
};

/** `Result` is what every served revision accepts (runtime/server/served.ts); 2025-11-25's by default. */
export type ToolHandler<Args = Record<string, unknown>, Result = CallToolResult> = (
  args: Args,
  context: RequestContext,
) => Result | Promise<Result>;

/** What a tool's handler returns: with an outputSchema, structuredContent of the type it describes, unless it is an error. */
export type ToolResult<Output, Base = CallToolResult> = Output extends ObjectSchema
  ? (Base & { structuredContent: FromSchema<Output> }) | (Base & { isError: true })
  : Base;

interface RegisteredTool {
  readonly definition: ToolDefinition;
  readonly handler: ToolHandler<never>;
  /** Compiled on the tool's first call; see {@link ToolRegistry}. */
  input?: SchemaValidator;
  output?: SchemaValidator;
}

/** MCP tool names: 1 to 128 of [A-Za-z0-9_.-]. */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * The server's tools. Their JSON Schemas are compiled once, on each tool's first call (by the
 * runtime's compiler, or ajv when chosen), so that a server answers its first initialize before
 * any compiling. A schema that does not compile fails that tool's calls with -32603 naming the
 * problem (and the server logs it); registration refuses what it can tell without compiling.
 */
export class ToolRegistry {
  private readonly tools = new Map<string, RegisteredTool>();

  constructor(
    private readonly schemas: SchemaCompiler,
    private readonly logger: Logger,
    private readonly compiled: CompiledToolValidators = {},
  ) {}

  get size(): number {
    return this.tools.size;
  }

  /**
   * Whether a tool may run as a task (`execution.taskSupport` optional or required): the server
   * then offers tasks. Read by every capabilities(), so found once per change of the tools.
   */
  get hasTaskTools(): boolean {
    return (this.taskTools ??= [...this.tools.values()].some((tool) => taskSupport(tool.definition) !== "forbidden"));
  }
  private taskTools: boolean | undefined;

  register<Args, Result>(definition: ToolDefinition, handler: ToolHandler<Args, Result>): void {
    if (!TOOL_NAME.test(definition.name))
      throw new Error(`invalid tool name ${JSON.stringify(definition.name)}: use 1 to 128 of A-Z a-z 0-9 _ . -`);
    if (this.tools.has(definition.name)) throw new Error(`tool ${definition.name} is already registered`);
    for (const [which, schema] of [["inputSchema", definition.inputSchema], ["outputSchema", definition.outputSchema]] as const)
      if (schema !== undefined && (typeof schema !== "object" || schema === null || Array.isArray(schema) || schema.type !== "object"))
        throw new Error(`tool ${definition.name}: its ${which} must be a JSON Schema object with "type": "object"`);
    const tool: RegisteredTool = { definition, handler: handler as unknown as ToolHandler<never> };
    // Build-time validators (generate --tools), when they were compiled from this very schema.
    const compiled = Object.hasOwn(this.compiled, definition.name) ? this.compiled[definition.name] : undefined;
    if (compiled) {
      tool.input = precompiled(compiled.input, definition.inputSchema);
      tool.output = definition.outputSchema === undefined ? undefined : precompiled(compiled.output, definition.outputSchema);
      if (!tool.input || (definition.outputSchema !== undefined && !tool.output))
        this.logger("warn", `tool ${definition.name}: its schemas differ from those its compiled validators were generated from; checking it with the ${this.schemas.kind} engine (run mcp-codegen generate --tools again)`);
    }
    this.tools.set(definition.name, tool);
    this.taskTools = undefined;
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
    // The schema engine loads on the first call of any tool without compiled validators (a promise once, then never again).
    const engine = tool.input && (tool.output || !tool.definition.outputSchema) ? undefined : this.schemas.load();
    if (engine && isThenable(engine))
      return Promise.resolve(engine).then(() => {
        // Cancelled while the engine loaded: the handler would wait on a signal that already fired.
        if (context.signal.aborted) return failure(`Tool ${name} was cancelled`);
        return this.call(params, context);
      });
    const input = (tool.input ??= this.compile(tool, "inputSchema"));
    const invalid = input(args);
    if (invalid !== undefined) return failure(`Invalid arguments for tool ${name}: ${invalid}`, ErrorCode.InvalidParams);
    const output = tool.definition.outputSchema ? (tool.output ??= this.compile(tool, "outputSchema")) : undefined;
    const support = taskSupport(tool.definition);
    if (support === "required" && !context.canCreateTask) throw taskRequired(context);

    // A handler may answer at once or later; only a later answer costs a promise.
    let outcome: CallToolResult | Promise<CallToolResult>;
    try {
      outcome = tool.handler(args as never, support === "forbidden" ? context : taskingContext(context, name, output));
    } catch (error) {
      return thrown(error);
    }
    return isThenable(outcome) ? Promise.resolve(outcome).then((result) => checked(name, output, result), thrown) : checked(name, output, outcome);
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

function taskSupport(definition: ToolDefinition): "forbidden" | "optional" | "required" {
  return (definition as { execution?: { taskSupport?: "forbidden" | "optional" | "required" } }).execution?.taskSupport ?? "forbidden";
}

/**
 * The context of a tool that may run as a task: the task's work is held to the tool's rules too
 * (a throw is an isError result, structuredContent must match the outputSchema), since its
 * result is the tools/call result the client gets from tasks/get.
 */
function taskingContext(context: RequestContext, name: string, output: SchemaValidator | undefined): RequestContext {
  const task = <R>(work: (task: TaskContext) => R | Promise<R>, options?: TaskOptions): Promise<R> =>
    context.task(async (running) => {
      try {
        return checked(name, output, (await work(running)) as CallToolResult) as R;
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

/** Completes a result's text copy of structuredContent, and holds it to the outputSchema. */
function checked(name: string, output: SchemaValidator | undefined, result: CallToolResult): CallToolResult {
  if (typeof result !== "object" || result === null || result instanceof ExtensionResult) return result;
  if (result.structuredContent !== undefined && result.content === undefined)
    result = { ...result, content: [{ type: "text", text: JSON.stringify(result.structuredContent) }] };
  if (output && !result.isError) {
    if (result.structuredContent === undefined)
      throw new RpcError(ErrorCode.InternalError, `tool ${name} declares an outputSchema but returned no structuredContent`);
    const invalid = output(result.structuredContent);
    if (invalid !== undefined) throw new RpcError(ErrorCode.InternalError, `tool ${name} returned structuredContent that does not match its outputSchema: ${invalid}`);
  }
  return result;
}

/** The runtime's own isError result; where a revision requires more of a result, the same text as a JSON-RPC error. */
function failure(text: string, code: number = ErrorCode.InternalError): CallToolResult {
  return runtimeResult({ content: [{ type: "text", text }], isError: true }, new RpcError(code, text));
}
