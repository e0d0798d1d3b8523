import { member, SUBJECT } from "./expr.js";
import { bound } from "./bound.js";
import { countIn } from "./keyword.js";

/** `maxItems`. */
export const maxItems = bound("maxItems", "array", member(SUBJECT, "length"), "<=", (n) => `must have at most ${n} items`, countIn("maxItems", "maxItems"));
