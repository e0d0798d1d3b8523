/**
 * Our runtime as users run it: the compiled JavaScript in dist/ (`make`, what `make pack` ships),
 * typed from the sources. Benchmarks import it from here so that neither side pays for a
 * TypeScript loader (tsx wraps every function expression it creates, keepNames): the SDK and ajv
 * they are compared with are compiled JavaScript too.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import type * as Http from "../../runtime/http.js";
import type * as Runtime from "../../runtime/index.js";
import type * as JsonSchema from "../../runtime/shared/json-schema.js";
import type * as Logger from "../../runtime/util/logger.js";

const root = fileURLToPath(new URL("../../", import.meta.url));

/** Each runtime/**\/*.ts has its dist/runtime/**\/*.js, no older than it: else the bench would time stale code. */
function assertBuilt(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const source = join(dir, entry.name);
    if (entry.isDirectory()) assertBuilt(source);
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) {
      const output = join(root, "dist", relative(root, source)).replace(/\.ts$/, ".js");
      if (!existsSync(output)) throw new Error(`${relative(root, output)} is missing: run \`make\` first (benches time the built runtime, dist/)`);
      if (statSync(output).mtimeMs < statSync(source).mtimeMs)
        throw new Error(`${relative(root, output)} is older than ${relative(root, source)}: run \`make\` first (benches time the built runtime, dist/)`);
    }
  }
}
assertBuilt(join(root, "runtime"));

const load = async <T>(path: string) => (await import(new URL(`../../dist/runtime/${path}`, import.meta.url).href)) as T;
export const runtime = await load<typeof Runtime>("index.js");
export const httpRuntime = await load<typeof Http>("http.js");
/** The tool schema engines (SchemaCompiler, precompiled), for the validator benches. */
export const jsonSchema = await load<typeof JsonSchema>("shared/json-schema.js");
export const { silentLogger } = await load<typeof Logger>("util/logger.js");
