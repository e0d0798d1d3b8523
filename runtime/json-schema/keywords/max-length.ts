import { call, SUBJECT } from "./expr.js";
import { bound } from "./bound.js";
import { countIn, inTools } from "./keyword.js";

/** `maxLength`, in code points (a surrogate pair is one character), as ajv counts. */
export const maxLength = bound("maxLength", "string", (limit) => call("hasMaxLength", SUBJECT, limit), (n) => `must NOT have more than ${n} characters`, inTools(countIn("maxLength", "maxLength")));
