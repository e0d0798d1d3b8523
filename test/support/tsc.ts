import { join } from "node:path";
import { ROOT } from "./project.js";

/** The project's own TypeScript compiler. */
export const TSC = join(ROOT, "node_modules", "typescript", "bin", "tsc");

/** tsconfig.json's strictness, and exactOptionalPropertyTypes on top: a consumer may build with it. */
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
  "--isolatedModules",
  "--verbatimModuleSyntax",
];
