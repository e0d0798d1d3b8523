import { isEdge } from "./platform.js";

/**
 * `require`, through process.getBuiltinModule (no node: import on the fetch path), for the
 * optional CommonJS-loadable packages a feature loads at once where it can (Node, Bun, Deno).
 * Undefined where there is none, and on Workers and Vercel Edge, where packages are bundled and
 * must be imported even when a `require` exists (nodejs_compat).
 */
export function commonJsRequire(): ((id: string) => unknown) | undefined {
  if (isEdge()) return undefined;
  const global = globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } };
  const module = global.process?.getBuiltinModule?.("node:module") as typeof import("node:module") | undefined;
  return module?.createRequire(import.meta.url);
}
