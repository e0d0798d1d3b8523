import { member, SUBJECT } from "./expr.js";
import { bound, measured } from "./bound.js";
import { countIn, inTools } from "./keyword.js";

/** `minItems`. */
export const minItems = bound("minItems", "array", measured(member(SUBJECT, "length"), ">="), (n) => `must NOT have fewer than ${n} items`, inTools(countIn("minItems", "minItems")));
