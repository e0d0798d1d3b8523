import type { RequestContext } from "../dispatch/context.js";
import { ErrorCode, RpcError } from "../jsonrpc/errors.js";

/**
 * Suggests values for one prompt argument or template variable, given what the user typed so
 * far (`value`) and the other arguments already chosen.
 */
export type Completer = (
  value: string,
  context: { readonly arguments: Readonly<Record<string, string>>; readonly request: RequestContext },
) => readonly string[] | Promise<readonly string[]>;

/** Completers by argument (or variable) name. */
export type Completers = Readonly<Record<string, Completer>>;

/** The protocol's cap on values in one completion result. */
export const MAX_COMPLETION_VALUES = 100;

export interface CompletionSources {
  prompt(name: string): { readonly completers?: Completers } | undefined;
  template(uriTemplate: string): { readonly completers?: Completers } | undefined;
}

/**
 * completion/complete. An unknown prompt or template is -32602; a known one without a completer
 * for the argument completes to nothing. At most 100 values; `total` and `hasMore` say how many
 * there were.
 */
export async function complete(params: Record<string, unknown>, context: RequestContext, sources: CompletionSources) {
  const ref = params.ref as { type: string; name?: string; uri?: string };
  const argument = params.argument as { name: string; value: string };
  const chosen = ((params.context as { arguments?: Record<string, string> } | undefined)?.arguments ?? {}) as Record<string, string>;
  const owner = ref.type === "ref/prompt" ? sources.prompt(ref.name!) : sources.template(ref.uri!);
  if (!owner)
    throw new RpcError(ErrorCode.InvalidParams, `Invalid params: no ${ref.type === "ref/prompt" ? `prompt ${ref.name}` : `resource template ${ref.uri}`}`);
  const completer = owner.completers && Object.prototype.hasOwnProperty.call(owner.completers, argument.name) ? owner.completers[argument.name] : undefined;
  const values = completer ? [...(await completer(argument.value, { arguments: chosen, request: context }))] : [];
  return {
    completion: {
      values: values.slice(0, MAX_COMPLETION_VALUES),
      total: values.length,
      hasMore: values.length > MAX_COMPLETION_VALUES,
    },
  };
}
