/**
 * The runtime's engines for tool schemas known only at run time (runtime/shared/json-schema.ts),
 * by the names the validator benches give them, and a fresh compiler of each as a server makes
 * at start (bench/tool-validators.ts, bench/tool-schemas.ts). The engines come from the built
 * runtime users run, dist/ (./ours.ts: `make` first), as ajv comes from node_modules.
 */
import type { SchemaCompiler } from "../../runtime/shared/json-schema.js";
import { jsonSchema, silentLogger } from "./ours.js";

/** The runtime's wrapper of generated validators, from dist/ like the engines. */
export const { precompiled } = jsonSchema;

/** ajv (opt-in), our compiler in code mode (the default on Node), and in closures (what Workers use). */
export const RUNTIME = { ajv: "ajv", code: "auto", closures: "interpreter" } as const;
export type Engine = keyof typeof RUNTIME;

// Each engine's module imported once, as a server's first tool call does: every compiler made after loads at once.
for (const kind of Object.values(RUNTIME)) await new jsonSchema.SchemaCompiler(silentLogger, kind).load();

/** A new compiler, loaded and warm: ajv makes its instance of each dialect on first use, once per server. */
export function freshCompiler(kind: Engine): SchemaCompiler {
  const compiler = new jsonSchema.SchemaCompiler(silentLogger, RUNTIME[kind]);
  if (compiler.load() instanceof Promise) throw new Error(`the ${kind} engine did not load at once though its module is imported`);
  compiler.compile({ $schema: "http://json-schema.org/draft-07/schema#" });
  compiler.compile({ $schema: "https://json-schema.org/draft/2020-12/schema" });
  return compiler;
}

/** CPU time of this process so far (user + system), in ms. */
export function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Operations per second, as the tables print them. */
export const formatOps = (n: number) => (n >= 1e6 ? `${(n / 1e6).toFixed(2)}M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)}k` : n.toFixed(1));
