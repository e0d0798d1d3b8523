/**
 * The deepest a message may nest, objects and arrays counted, the message itself being level 1.
 * Checked once per inbound message, right after parsing (Peer), so that no recursive walk after
 * it (validators, canonical JSON for request binding, user code) can overflow the stack on
 * client input. JSON-RPC and MCP set no limit; real tool arguments nest a few levels, and 128
 * leaves room for any schema while a walk this deep is a few kilobytes of stack.
 */
export const MAX_NESTING_DEPTH = 128;

/**
 * The JSON Pointer (RFC 6901) of the first object or array in `value` nested deeper than
 * `maxDepth` levels, or undefined when there is none. The walk descends at most `maxDepth + 1`
 * levels whatever the input, so it cannot overflow itself; it allocates only on the failure path.
 * The HTTP transport calls it on a parsed body for the same answer as stdio's.
 */
export function nestingTooDeep(value: unknown, maxDepth: number = MAX_NESTING_DEPTH): string | undefined {
  if (!exceeds(value, maxDepth)) return undefined;
  const path: string[] = [];
  let node = value;
  for (let remaining = maxDepth; remaining > 0; remaining--) {
    const container = node as Record<string, unknown>;
    for (const key in container) {
      if (exceeds(container[key], remaining - 1)) {
        path.push(`/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`);
        node = container[key];
        break;
      }
    }
  }
  return path.join("");
}

/** Whether an object or array sits below `remaining` levels of `value`. Recursion bounded by `remaining`. */
function exceeds(value: unknown, remaining: number): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (remaining === 0) return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (exceeds(value[i], remaining - 1)) return true;
    return false;
  }
  for (const key in value) if (exceeds((value as Record<string, unknown>)[key], remaining - 1)) return true;
  return false;
}
