import { SUBJECT } from "./expr.js";
import { bound } from "./bound.js";
import { numberIn } from "./keyword.js";

/** `minimum` (inclusive). */
export const minimum = bound("minimum", "number", SUBJECT, ">=", (n) => `must be >= ${n}`, numberIn("minimum", "minimum must be a number"));
