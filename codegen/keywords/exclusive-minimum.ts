import { SUBJECT } from "./expr.js";
import { bound } from "./bound.js";

/** `exclusiveMinimum` (the number form of draft-06 and later). */
export const exclusiveMinimum = bound("exclusiveMinimum", "number", SUBJECT, ">", (n) => `must be > ${n}`);
