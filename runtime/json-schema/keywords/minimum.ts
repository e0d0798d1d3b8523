import { SUBJECT } from "./expr.js";
import { bound, measured } from "./bound.js";
import { numberIn } from "./keyword.js";

/** `minimum` (inclusive). */
export const minimum = bound("minimum", "number", measured(SUBJECT, ">="), (n) => `must be >= ${n}`, numberIn("minimum", "minimum must be a number"));
