/** What is wrong with a value, as the compiler's both renderers say it: the validators' issue, one shape for every validator. */
export type { ValidationIssue as SchemaIssue } from "../support/validation.js";
