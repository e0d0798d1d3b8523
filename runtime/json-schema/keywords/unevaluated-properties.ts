import { evaluatedProperties, unevaluated } from "./evaluated.js";

/** `unevaluatedProperties` (2020-12): the properties no keyword of the node, nor a passing sub-schema applied in place, evaluated (evaluated.ts) match the schema. */
export const unevaluatedProperties = unevaluated("unevaluatedProperties", "object", evaluatedProperties, "properties");
