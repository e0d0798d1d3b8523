import type { Keyword } from "./keyword.js";

/** `$ref` (to a definition, as the loader resolved it): the definition's own validator. */
export const ref: Keyword = {
  reads: { $ref: (value, at, read) => ({ ref: read.ref(value, at) }) },
  lower: (s) => (s.ref !== undefined ? [{ kind: "call", definition: s.ref }] : []),
};
