import { SUBJECT } from "./expr.js";
import { bound } from "./bound.js";

/** `exclusiveMaximum` (the number form of draft-06 and later). */
export const exclusiveMaximum = bound("exclusiveMaximum", "number", SUBJECT, "<", (n) => `must be < ${n}`);
