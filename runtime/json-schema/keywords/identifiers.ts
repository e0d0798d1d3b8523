import { dialectNamed } from "../dialect.js";
import { ignored, inTools, type Keyword } from "./keyword.js";

/**
 * `$schema`, which a node may restate (ext-tasks declares it on every definition), never change;
 * and in tool schemas the identifiers and nested definitions (`$id`, `$anchor`, `$dynamicAnchor`,
 * `$defs`, `definitions`), which the loader's index resolves references through.
 */
export const identifiers: Keyword = {
  reads: {
    $schema(value, at, read) {
      // A tool schema's root names its dialect; so may the root of a remote it refers to (read in that dialect).
      if (read.tool ? dialectNamed(value) !== read.dialect : value !== read.declared)
        read.fail(at, `a nested $schema must be the document's (${JSON.stringify(read.declared ?? read.dialect)}), found ${JSON.stringify(value)}`);
      return {};
    },
    ...Object.fromEntries(["$id", "$anchor", "$dynamicAnchor", "$defs", "definitions"].map((keyword) => [keyword, inTools(ignored)])),
  },
};
