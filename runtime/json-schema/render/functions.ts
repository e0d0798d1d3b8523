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

/** The helpers whose functions a source already holds (a second source, printed later, adds only the rest). */
export interface PrintedHelpers {
  readonly is: Set<Helper>;
  readonly check: Set<Helper>;
}

/**
 * The hoisted sub-schemas not yet `printed`: a boolean check each, and (with `check`) an issue
 * check for those some printed code calls (a discriminated union's branch, a oneOf's); each under
 * a comment naming its place, with `label`.
 */
export function writeHelpers(
  w: Writer,
  helpers: Helpers,
  is: IsRenderer,
  check: CheckRenderer | undefined,
  label: ((pointer: string) => string) | undefined,
  printed: PrintedHelpers = { is: new Set(), check: new Set() },
): void {
  // A function printed may name helpers of its own, or call the issue check of one printed before: until nothing is left.
  for (let more = true; more; ) {
    more = false;
    for (const helper of helpers.all()) {
      if (!printed.is.has(helper)) {
        printed.is.add(helper);
        more = true;
        if (label) w.blankLine().writeLine(`/** ${label(helper.pointer).replace(/\*\//g, "*\\/")} */`);
        is.function(`is${helper.base}`, "boolean", helper.body, false);
      }
      if (check && helpers.isChecked(helper) && !printed.check.has(helper)) {
        printed.check.add(helper);
        more = true;
        if (label) w.blankLine();
        check.function(`${check.prefix}${helper.base}`, helper.body, false);
      }
    }
  }
}
