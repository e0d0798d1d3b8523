import { SUBJECT } from "./expr.js";
import { bound, measured } from "./bound.js";
import { numberIn } from "./keyword.js";

/** `maximum` (inclusive). */
export const maximum = bound("maximum", "number", measured(SUBJECT, "<="), (n) => `must be <= ${n}`, numberIn("maximum", "maximum must be a number"));
