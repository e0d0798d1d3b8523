import type { Schema } from "../model/schema.js";
import type { Lowering } from "./lower.js";
import type { Helper, Helpers } from "./names.js";
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

/**
 * The hoisted sub-schemas, each under a comment naming its place (`label`): a boolean check each,
 * and an issue check for those some printed code calls (a discriminated union's branch, a oneOf's).
 */
export function writeHelpers(w: Writer, helpers: Helpers, is: IsRenderer, check: CheckRenderer, label: (pointer: string) => string): void {
  const printed = new Set<Helper>();
  const checked = new Set<Helper>();
  // A function printed may name helpers of its own, or call the issue check of one printed before: until nothing is left.
  for (let more = true; more; ) {
    more = false;
    for (const helper of helpers.all()) {
      if (!printed.has(helper)) {
        printed.add(helper);
        more = true;
        w.blankLine();
        w.writeLine(`/** ${label(helper.pointer).replace(/\*\//g, "*\\/")} */`);
        is.function(`is${helper.base}`, "boolean", helper.body, false);
      }
      if (helpers.isChecked(helper) && !checked.has(helper)) {
        checked.add(helper);
        more = true;
        w.blankLine();
        check.function(`check${helper.base}`, helper.body, false);
      }
    }
  }
}
