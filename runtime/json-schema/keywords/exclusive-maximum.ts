import { SUBJECT } from "./expr.js";
import { bound, measured } from "./bound.js";
import { inTools, numberIn } from "./keyword.js";

/** `exclusiveMaximum` (the number form of draft-06 and later). */
export const exclusiveMaximum = bound("exclusiveMaximum", "number", measured(SUBJECT, "<"), (n) => `must be < ${n}`, inTools(numberIn("exclusiveMaximum", "exclusiveMaximum must be a number (the boolean form is draft-04)")));
