import type { Schema } from "../model/schema.js";
import type { Lowering } from "./lower.js";
import type { Helpers } from "./names.js";
import type { CheckRenderer } from "./render-check.js";
import type { IsRenderer } from "./render-is.js";
import type { Writer } from "./writer.js";

/** The functions of a set of definitions, as `generate --tools` prints them and the runtime compiles them. */

/** `isX` and `checkX` for each definition, each under a comment naming its place (`label`), then the hoisted sub-schemas. */
export function writeDefinitions(w: Writer, definitions: ReadonlyMap<string, Schema>, lowering: Lowering, helpers: Helpers, is: IsRenderer, check: CheckRenderer, label: (pointer: string) => string): void {
  for (const [name, schema] of definitions) {
    const nodes = lowering.lower(schema);
    w.blankLine();
    w.writeLine(`/** ${label(schema.pointer)} */`);
    is.function(`is${name}`, "boolean", nodes, false);
    w.blankLine();
    check.function(`check${name}`, nodes, false);
  }
  writeHelpers(w, helpers, is, check, label);
}

/** The hoisted sub-schemas, each under a comment naming its place (`label`). */
export function writeHelpers(w: Writer, helpers: Helpers, is: IsRenderer, check: CheckRenderer, label: (pointer: string) => string): void {
  // Helpers can discover helpers of their own; the registry grows while we walk it.
  for (const helper of helpers.all()) {
    w.blankLine();
    w.writeLine(`/** ${label(helper.pointer).replace(/\*\//g, "*\\/")} */`);
    is.function(`is${helper.base}`, "boolean", helper.body, false);
    w.blankLine();
    check.function(`check${helper.base}`, helper.body, false);
  }
}
