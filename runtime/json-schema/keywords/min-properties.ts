import { call, member, SUBJECT } from "./expr.js";
import { bound, measured } from "./bound.js";
import { countIn, inTools } from "./keyword.js";

/** `minProperties`: own enumerable keys, as ajv counts them. */
export const minProperties = bound("minProperties", "object", measured(member(call("Object.keys", SUBJECT), "length"), ">="), (n) => `must NOT have fewer than ${n} properties`, inTools(countIn("minProperties", "minProperties")));
