import { SUBJECT } from "./expr.js";
import { bound } from "./bound.js";
import { numberIn } from "./keyword.js";

/** `maximum` (inclusive). */
export const maximum = bound("maximum", "number", SUBJECT, "<=", (n) => `must be <= ${n}`, numberIn("maximum", "maximum must be a number"));
