import { member, SUBJECT } from "./expr.js";
import { bound, measured } from "./bound.js";
import { countIn } from "./keyword.js";

/** `maxItems`. */
export const maxItems = bound("maxItems", "array", measured(member(SUBJECT, "length"), "<="), (n) => `must have at most ${n} items`, countIn("maxItems", "maxItems"));
