import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, runChild, type CliRun } from "./project.js";

/** The project's own TypeScript compiler. */
export const TSC = join(ROOT, "node_modules", "typescript", "bin", "tsc");

/** tsconfig.json's strictness, and exactOptionalPropertyTypes, noUnusedParameters and allowUnreachableCode: false on top: a consumer may build with them. */
export const STRICT_FLAGS: readonly string[] = [
  "--ignoreConfig",
  "--noEmit",
  "--pretty", "false",
  "--strict",
  "--target", "ES2022",
  "--module", "NodeNext",
  "--moduleResolution", "NodeNext",
  "--noUncheckedIndexedAccess",
  "--exactOptionalPropertyTypes",
  "--noImplicitOverride",
  "--noUnusedLocals",
  "--noUnusedParameters",
  "--allowUnreachableCode", "false",
  "--isolatedModules",
  "--verbatimModuleSyntax",
];

/**
 * tsc with `args`, without blocking: a file's independent compiles can then run side by side
 * (tsc is single-threaded, and each run spends seconds loading the standard library).
 */
export function tscAsync(args: readonly string[], cwd: string, timeoutMs = 110_000): Promise<CliRun> {
  return runChild(process.execPath, [TSC, ...args], { cwd, timeoutMs });
}

/** The user's tsconfig: strict, with the runtime package's name mapped onto this checkout's runtime/. */
export function writeProjectTsconfig(project: string): void {
  const tsconfig = {
    compilerOptions: {
      strict: true,
      target: "ES2022",
      module: "NodeNext",
      moduleResolution: "NodeNext",
      noEmit: true,
      skipLibCheck: true,
      types: ["node"],
      typeRoots: [join(ROOT, "node_modules", "@types")],
      paths: {
        "@mcp-codegen/runtime": [join(ROOT, "runtime", "index.ts")],
        "@mcp-codegen/runtime/contract": [join(ROOT, "runtime", "contract.ts")],
        "@mcp-codegen/runtime/support": [join(ROOT, "runtime", "support", "index.ts")],
      },
    },
    include: ["src"],
  };
  writeFileSync(join(project, "tsconfig.json"), JSON.stringify(tsconfig, null, 2));
}
