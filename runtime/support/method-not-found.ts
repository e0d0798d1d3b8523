/*
 * Support for the generated handler interfaces of every revision: the error a default handler
 * throws, imported from `@mcp-codegen/runtime/support` (index.ts). One class serves every
 * revision, so `instanceof` works whichever revision's defaults threw it.
 */

/** JSON-RPC 2.0's "Method not found" error code. */
export const METHOD_NOT_FOUND = -32601;

/**
 * What a default handler throws: the peer does not implement `method`. It carries the JSON-RPC
 * `code`, so any dispatcher that turns a thrown `{ code, message }` into an error response
 * answers -32601 without knowing this class.
 */
export class MethodNotFound extends Error {
  readonly code = METHOD_NOT_FOUND;

  constructor(readonly method: string) {
    super(`Method not found: ${method}`);
    this.name = "MethodNotFound";
  }
}

/** A handler for `method` that always throws {@link MethodNotFound}; fits any handler signature. */
export function methodNotFound(method: string): (...args: unknown[]) => never {
  return () => {
    throw new MethodNotFound(method);
  };
}
