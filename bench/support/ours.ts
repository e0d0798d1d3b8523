/**
 * Our runtime as users run it: the compiled JavaScript in dist/ (`make build`), typed from the
 * sources. Benchmarks import it from here so that neither side pays for a TypeScript loader:
 * the SDK they are compared with is compiled JavaScript too.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type * as Http from "../../runtime/http.js";
import type * as Runtime from "../../runtime/index.js";

const compiled = new URL("../../dist/runtime/index.js", import.meta.url);
if (!existsSync(fileURLToPath(compiled))) throw new Error("dist/ is missing: run `make build` first");

export const runtime = (await import(compiled.href)) as typeof Runtime;
export const httpRuntime = (await import(new URL("../../dist/runtime/http.js", import.meta.url).href)) as typeof Http;
