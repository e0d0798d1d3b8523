import { SUBJECT } from "./expr.js";
import { bound, measured } from "./bound.js";
import { inTools, numberIn } from "./keyword.js";

/** `exclusiveMinimum` (the number form of draft-06 and later). */
export const exclusiveMinimum = bound("exclusiveMinimum", "number", measured(SUBJECT, ">"), (n) => `must be > ${n}`, inTools(numberIn("exclusiveMinimum", "exclusiveMinimum must be a number (the boolean form is draft-04)")));
