import type { RequestContext } from "../dispatch/context.js";
import { ErrorCode, RpcError } from "../jsonrpc/errors.js";
import type { Completers } from "./completion.js";
import type { GetPromptResult, Prompt } from "../shared/types.js";

/** What `server.prompt` registers: the protocol's `Prompt`, as prompts/list lists it. */
export type PromptDefinition = Prompt;

/**
 * A prompt's arguments as its definition declares them: a `required` one a string, the others a
 * string or absent; nothing else. A list not written out (a variable of `PromptArgument[]`): any
 * name, each possibly absent.
 */
export type PromptArguments<D> = D extends { readonly arguments?: readonly (infer A extends { readonly name: string })[] }
  ? { [N in Extract<A, { readonly required: true }>["name"]]: string } & { [N in Exclude<A, { readonly required: true }>["name"]]?: string }
  : Record<never, never>;

/** Answers prompts/get: the prompt's arguments (strings, by name) in, its messages out. */
export type PromptHandler<Args = Record<string, string>> = (args: Args, context: RequestContext) => GetPromptResult | Promise<GetPromptResult>;

export class PromptRegistry {
  private readonly prompts = new Map<string, { definition: PromptDefinition; handler: PromptHandler<never>; completers?: Completers }>();

  /** Whether the server offers this kind: from the first registration on, removals notwithstanding (ServerCapabilities, server.ts). */
  offered = false;

  register<Args>(definition: PromptDefinition, handler: PromptHandler<Args>, completers?: Completers): void {
    if (this.prompts.has(definition.name)) throw new Error(`prompt ${definition.name} is already registered`);
    this.prompts.set(definition.name, { definition, handler: handler as PromptHandler<never>, completers });
    this.offered = true;
  }

  remove(name: string): boolean {
    return this.prompts.delete(name);
  }

  get(name: string): { readonly definition: PromptDefinition; readonly completers?: Completers } | undefined {
    return this.prompts.get(name);
  }

  get hasCompleters(): boolean {
    return [...this.prompts.values()].some((p) => p.completers !== undefined);
  }

  list(): PromptDefinition[] {
    return [...this.prompts.values()].map((p) => p.definition);
  }

  /** Unknown prompt or a missing required argument: -32602. */
  render(params: Record<string, unknown>, context: RequestContext): GetPromptResult | Promise<GetPromptResult> {
    const name = params.name as string;
    const prompt = this.prompts.get(name);
    if (!prompt) throw new RpcError(ErrorCode.InvalidParams, `Unknown prompt: ${name}`, { name });
    const args = (params.arguments as Record<string, string> | undefined) ?? {};
    const missing = (prompt.definition.arguments ?? []).filter((a) => a.required && !Object.prototype.hasOwnProperty.call(args, a.name)).map((a) => a.name);
    if (missing.length > 0)
      throw new RpcError(ErrorCode.InvalidParams, `Prompt ${name} is missing required argument${missing.length > 1 ? "s" : ""}: ${missing.join(", ")}`, { missing });
    return prompt.handler(args as never, context);
  }
}
