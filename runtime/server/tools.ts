import type { ValidateFunction } from "ajv";
import type { RequestContext } from "../dispatch/context.js";
import { isThenable } from "../dispatch/router.js";
import { ErrorCode, RpcError } from "../jsonrpc/errors.js";
import { describeErrors, type SchemaCompiler } from "./json-schema.js";
import { checkParamHeaders } from "./param-headers.js";
import type { CallToolResult, Tool } from "./types.js";

/** A tool as declared: the protocol's Tool, with JSON Schemas the server compiles. */
export type ToolDefinition = Tool;

export type ToolHandler<Args = Record<string, unknown>> = (
  args: Args,
  context: RequestContext,
) => CallToolResult | Promise<CallToolResult>;

interface RegisteredTool {
  readonly definition: ToolDefinition;
  readonly handler: ToolHandler<never>;
  readonly validateInput: ValidateFunction;
  readonly validateOutput?: ValidateFunction;
}

/** MCP tool names: 1 to 128 of [A-Za-z0-9_.-]. */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

export class ToolRegistry {
  private readonly tools = new Map<string, RegisteredTool>();

  constructor(private readonly schemas: SchemaCompiler) {}

  get size(): number {
    return this.tools.size;
  }

  register<Args>(definition: ToolDefinition, handler: ToolHandler<Args>): void {
    if (!TOOL_NAME.test(definition.name))
      throw new Error(`invalid tool name ${JSON.stringify(definition.name)}: use 1 to 128 of A-Z a-z 0-9 _ . -`);
    if (this.tools.has(definition.name)) throw new Error(`tool ${definition.name} is already registered`);
    const compile = (schema: Record<string, unknown>, which: string) => {
      try {
        return this.schemas.compile(schema);
      } catch (error) {
        throw new Error(`tool ${definition.name}: its ${which} is not a valid JSON Schema: ${(error as Error).message}`);
      }
    };
    this.tools.set(definition.name, {
      definition,
      handler: handler as ToolHandler<never>,
      validateInput: compile(definition.inputSchema, "inputSchema"),
      validateOutput: definition.outputSchema ? compile(definition.outputSchema, "outputSchema") : undefined,
    });
  }

  remove(name: string): boolean {
    return this.tools.delete(name);
  }

  list(): ToolDefinition[] {
    return [...this.tools.values()].map((tool) => tool.definition);
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
    if (context.era === "stateless" && typeof headers === "object" && headers !== null) checkParamHeaders(tool.definition, args, headers as Record<string, unknown>);
    if (!tool.validateInput(args)) return failure(`Invalid arguments for tool ${name}: ${describeErrors(tool.validateInput.errors)}`);

    // A handler may answer at once or later; only a later answer costs a promise.
    let outcome: CallToolResult | Promise<CallToolResult>;
    try {
      outcome = tool.handler(args as never, context);
    } catch (error) {
      return thrown(error);
    }
    return isThenable(outcome) ? Promise.resolve(outcome).then((result) => checked(tool, result), thrown) : checked(tool, outcome);
  }
}

/** A handler's throw or rejection: an isError result, unless it chose a JSON-RPC error itself. */
function thrown(error: unknown): CallToolResult {
  if (error instanceof RpcError) throw error;
  return failure(error instanceof Error ? error.message : String(error));
}

/** Completes a result's text copy of structuredContent, and holds it to the outputSchema. */
function checked(tool: RegisteredTool, result: CallToolResult): CallToolResult {
  const { name } = tool.definition;
  if (typeof result !== "object" || result === null) return result;
  if (result.structuredContent !== undefined && result.content === undefined)
    result = { ...result, content: [{ type: "text", text: JSON.stringify(result.structuredContent) }] };
  if (tool.validateOutput && !result.isError) {
    if (result.structuredContent === undefined)
      throw new RpcError(ErrorCode.InternalError, `tool ${name} declares an outputSchema but returned no structuredContent`);
    if (!tool.validateOutput(result.structuredContent))
      throw new RpcError(
        ErrorCode.InternalError,
        `tool ${name} returned structuredContent that does not match its outputSchema: ${describeErrors(tool.validateOutput.errors)}`,
      );
  }
  return result;
}

function failure(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}
