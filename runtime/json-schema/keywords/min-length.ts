import { call, SUBJECT } from "./expr.js";
import { bound } from "./bound.js";
import { countIn, inTools } from "./keyword.js";

/** `minLength`, in code points (a surrogate pair is one character), as ajv counts. */
export const minLength = bound("minLength", "string", (limit) => call("hasMinLength", SUBJECT, limit), (n) => `must NOT have fewer than ${n} characters`, inTools(countIn("minLength", "minLength")));
