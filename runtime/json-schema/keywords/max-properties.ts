import { call, member, SUBJECT } from "./expr.js";
import { bound, measured } from "./bound.js";
import { countIn, inTools } from "./keyword.js";

/** `maxProperties`: own enumerable keys, as ajv counts them. */
export const maxProperties = bound("maxProperties", "object", measured(member(call("Object.keys", SUBJECT), "length"), "<="), (n) => `must NOT have more than ${n} properties`, inTools(countIn("maxProperties", "maxProperties")));
