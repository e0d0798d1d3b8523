import { evaluatedItems, unevaluated } from "./evaluated.js";

/** `unevaluatedItems` (2020-12): the items no keyword of the node, nor a passing sub-schema applied in place, evaluated (evaluated.ts) match the schema. */
export const unevaluatedItems = unevaluated("unevaluatedItems", "array", evaluatedItems, "items");
