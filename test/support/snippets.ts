// A file of examples/ as the README and docs/ show it: without its leading comment, importing the
// published packages instead of the checkout's runtime.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./project.js";

export function asShown(file: string): string {
  const lines = readFileSync(join(ROOT, "examples", file), "utf8").split("\n");
  const start = lines.findIndex((line) => !line.startsWith("//"));
  return lines
    .slice(start)
    .join("\n")
    .replaceAll("../../runtime/index.js", "@mcp-codegen/runtime")
    .replaceAll("../../runtime/http.js", "@mcp-codegen/runtime/http")
    .replaceAll("../../runtime/auth/index.js", "@mcp-codegen/runtime/auth");
}
