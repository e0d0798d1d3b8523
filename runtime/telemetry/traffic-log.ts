import { RpcError } from "../jsonrpc/errors.js";
import type { Exchange, Hook } from "../shared/hooks.js";
import { debugEnabled, stderrLogger, stderrWriter, type Logger } from "../util/logger.js";

/**
 * One line per request and notification, at "info", once it is over:
 *
 *   mcp side=server dir=in kind=request method=tools/call id=3 target=add ms=0.42 outcome=ok
 *
 * `target` is the tool or prompt name, or the resource URI without its query, fragment and user
 * info; `outcome` is `ok`, `tool_error` (a result with isError), `error <code>` (a JSON-RPC error)
 * or `error <name>` (anything else). Nothing else of the message is written: no params, headers,
 * tokens, cookies or requestState.
 */
export function trafficLog(logger: Logger): Hook {
  return async (exchange, next) => {
    let outcome = "ok";
    try {
      const result = await next();
      if (exchange.method === "tools/call" && typeof result === "object" && result !== null && (result as { isError?: unknown }).isError === true) outcome = "tool_error";
      return result;
    } catch (error) {
      outcome = error instanceof RpcError ? `error ${error.code}` : `error ${error instanceof Error ? error.name : typeof error}`;
      throw error;
    } finally {
      logger("info", trafficLine(exchange, outcome, performance.now() - exchange.startedAt));
    }
  };
}

export function trafficLine(exchange: Exchange, outcome: string, ms: number): string {
  const fields = [`mcp side=${exchange.side}`, `dir=${exchange.direction === "incoming" ? "in" : "out"}`, `kind=${exchange.kind}`, `method=${quoted(exchange.method)}`];
  if (exchange.id !== undefined) fields.push(`id=${quoted(String(exchange.id))}`);
  const target = targetOf(exchange);
  if (target !== undefined) fields.push(`target=${quoted(target)}`);
  fields.push(`ms=${ms.toFixed(2)}`, `outcome=${quoted(outcome)}`);
  return fields.join(" ");
}

function targetOf({ method, params }: Exchange): string | undefined {
  const name = params?.name;
  if ((method === "tools/call" || method === "prompts/get") && typeof name === "string") return name;
  const uri = params?.uri;
  // A URI may carry a credential in its user info or query: only the scheme, host and path are written.
  if (typeof uri === "string") return uri.replace(/[?#].*$/s, "").replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, "$1");
  return undefined;
}

/** logfmt: a value with a space, a quote, an equals sign or a control character is written as a JSON string. */
function quoted(value: string): string {
  return /^[^\s"=\\\p{Cc}]+$/u.test(value) ? value : JSON.stringify(value);
}

/**
 * The hooks a server or client runs: the traffic log first (outermost, so its time covers the
 * other hooks) when `logTraffic` says so, by default when MCP_DEBUG is set; then `hooks`. Asked for
 * explicitly without a logger of one's own, the lines go to stderr whatever MCP_DEBUG says.
 */
export function installedHooks(hooks: readonly Hook[] | undefined, logTraffic: boolean | undefined, logger: Logger | undefined): readonly Hook[] {
  const traffic = logTraffic ?? debugEnabled();
  if (!traffic) return hooks ?? [];
  return [trafficLog(logger ?? (logTraffic ? stderrWriter : stderrLogger)), ...(hooks ?? [])];
}
