import { member, SUBJECT } from "./expr.js";
import { bound } from "./bound.js";

/** `minItems`. */
export const minItems = bound("minItems", "array", member(SUBJECT, "length"), ">=", (n) => `must NOT have fewer than ${n} items`);
