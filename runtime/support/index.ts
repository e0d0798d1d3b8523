/**
 * `@mcp-codegen/runtime/support`: what generated modules import at run time, as ts-proto's
 * output imports its runtime. The validators' issue shape and checks (validation.ts) and the
 * default handlers' error (method-not-found.ts), one copy for every revision, extension and
 * `generate --tools` output, so `instanceof MethodNotFound` holds whichever module threw it.
 * Zero dependencies, and loadable without the rest of the runtime.
 */
export * from "./validation.js";
export * from "./method-not-found.js";
